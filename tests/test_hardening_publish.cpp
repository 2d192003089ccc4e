// Hardening of publishing (issue 25, docs/reliability.md): report, version
// and diff folders are never followed through a symbolic link; names that
// differ only where file_part replaces characters get folders of their own;
// an empty -o is refused; "up to date" only when `latest` holds what its
// manifest lists.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "output/file_names.hpp"
#include "roofline/diff/diff_folder.hpp"
#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

using namespace roofline;
using namespace roofline::test;
namespace fs = std::filesystem;

namespace {

// One chip, one matmul over B in {1, 2}; `d` sets its inner size, so that
// scenarios with different `d` make different reports.
std::string scenario(int d = 64) {
    return "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
           "target chip\nsweep B = [1, 2]\nlet D = " +
           std::to_string(d) +
           "\nlet F = 128\nmatmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
}

// The folder name of a name that file_part changes: the safe name, '-', and
// 8 hex digits of the SHA-256 of the name as given.
std::string hashed(std::string const& safe, std::string const& given) {
    return safe + "-" + output::sha256_hex(given).substr(0, 8);
}

}  // namespace

// ---- 1. Symbolic links are never followed -----------------------------------------------------

TEST_CASE("publish-hardening: a report folder that is a symbolic link is refused, nothing "
          "written at its target",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    fs::create_directories(box / "elsewhere");
    fs::create_directories(box / "out");
    fs::create_symlink(box / "elsewhere", box / "out/s");
    auto r = roofline_in(box, "run s.roof --no-charts");
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, "'out/s' is a symbolic link; a report folder must be a plain folder"));
    CHECK(fs::is_empty(box / "elsewhere"));

    // A dangling one: nothing made where it points.
    box.write("t.roof", scenario());
    fs::create_symlink(box / "nowhere", box / "out/t");
    CHECK(roofline_in(box, "run t.roof --no-charts").exit_code == 3);
    CHECK_FALSE(fs::exists(box / "nowhere"));
}

TEST_CASE("publish-hardening: a version folder that is a symbolic link is not a version",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    // v1 moved elsewhere and linked back: `latest` -> v1 no longer names a
    // version here, so the run is not "up to date" through the link, and
    // publishes v2 beside it, leaving the link's target as it was.
    fs::rename(box / "out/s/v1", box / "elsewhere");
    fs::create_symlink(box / "elsewhere", box / "out/s/v1");
    auto before = names_in(box / "elsewhere");
    auto r = roofline_in(box, "run s.roof --no-charts");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "published out/s/v2"));
    CHECK(fs::read_symlink(box / "out/s/latest") == "v2");
    CHECK(names_in(box / "elsewhere") == before);
}

TEST_CASE("publish-hardening: out/diffs or a diff folder that is a symbolic link is refused, "
          "nothing written at its target",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    fs::create_directories(box / "elsewhere");

    fs::create_symlink(box / "elsewhere", box / "out/diffs");
    auto r = roofline_in(box, "diff s@v1 s@v1 --no-charts");
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, "'out/diffs' is a symbolic link"));
    CHECK(fs::is_empty(box / "elsewhere"));

    fs::remove(box / "out/diffs");
    fs::create_directories(box / "out/diffs");
    fs::create_symlink(box / "elsewhere", box / "out/diffs/s-v1--s-v1");
    auto d = roofline_in(box, "diff s@v1 s@v1 --no-charts");
    CHECK(d.exit_code == 3);
    CHECK(contains(d.err, "'out/diffs/s-v1--s-v1' is a symbolic link; a diff folder must be a "
                          "plain folder"));
    CHECK(fs::is_empty(box / "elsewhere"));
}

TEST_CASE("publish-hardening: -o may be a symbolic link the user made",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    fs::create_directories(box / "reports");
    fs::create_symlink(box / "reports", box / "out");
    CHECK(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    CHECK(fs::is_directory(fs::symlink_status(box / "reports/s/v1")));
}

// ---- 2. Names that file_part makes alike get folders of their own -----------------------------

TEST_CASE("publish-hardening: file_name gives names that differ distinct file names, plain "
          "names keep theirs",
          "[reliability][hardening][publish-hardening]") {
    CHECK(output::file_name("llama3-8b") == "llama3-8b");
    CHECK(output::file_name("llama3-70b-decode-tp") == "llama3-70b-decode-tp");
    CHECK(output::file_name("a_b") == "a_b");
    CHECK(output::file_name("a b") == hashed("a_b", "a b"));
    CHECK(output::file_name("a+b") == hashed("a_b", "a+b"));
    CHECK(output::file_name("a b") != output::file_name("a+b"));
    // Chart names: hardware ids "a b" and "a_b" (from a manifest) in one diff.
    CHECK(output::file_name({"roofline", "a_b"}) == "roofline-a_b");
    CHECK(output::file_name({"roofline", "a b"}) != output::file_name({"roofline", "a_b"}));
    // A '-' inside a part would read as the joint.
    CHECK(output::file_name({"sweep", "a-b", "c"}) != output::file_name({"sweep", "a", "b-c"}));
    CHECK(output::file_name({"sweep", "a", "b"}) == "sweep-a-b");

    // Diff folders: "--" in a report name would read as the separator.
    auto diff_name = [](std::string const& a, int va, std::string const& b, int vb) {
        diff::ComparedReport x, y;
        x.name = a, x.version = va, y.name = b, y.version = vb;
        return diff::diff_name(x, y, diff::Pairing{});
    };
    CHECK(diff_name("llama3-8b", 1, "llama3-70b", 2) == "llama3-8b-v1--llama3-70b-v2");
    CHECK(diff_name("a", 1, "b-v2--c", 3) != diff_name("a-v1--b", 2, "c", 3));
    CHECK(diff_name("a-", 1, "b", 2) != diff_name("a", 1, "-b", 2));
    CHECK(diff_name("a b", 1, "a_b", 1) != diff_name("a_b", 1, "a_b", 1));
    CHECK(diff_name("a b", 1, "a_b", 1) != diff_name("a+b", 1, "a_b", 1));
}

TEST_CASE("publish-hardening: 'a b', 'a_b' and 'a+b' publish into three folders, and diff "
          "compares two of them",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("a b.roof", scenario(64));
    box.write("a_b.roof", scenario(128));
    box.write("a+b.roof", scenario(256));
    std::string const space = hashed("a_b", "a b"), plus = hashed("a_b", "a+b");
    auto r1 = roofline_in(box, "run 'a b.roof' --no-charts");
    auto r2 = roofline_in(box, "run a_b.roof --no-charts");
    auto r3 = roofline_in(box, "run 'a+b.roof' --no-charts");
    CHECK(contains(r1.out, "published out/" + space + "/v1"));
    CHECK(contains(r2.out, "published out/a_b/v1"));
    CHECK(contains(r3.out, "published out/" + plus + "/v1"));
    CHECK(names_in(box / "out") == std::set<std::string>{space, "a_b", plus});

    auto d = roofline_in(box, "diff 'a b@latest' 'a_b@latest' --no-charts");
    CHECK(d.exit_code == 0);
    CHECK(contains(d.out, "A: a b v1"));
    CHECK(contains(d.out, "B: a_b v1"));
    // Two different reports: D = 128 moves twice the bytes of D = 64 (the
    // weights dominate), so both matched cases are slower in B; a report
    // compared with itself would say "0 faster, 0 slower".
    CHECK(contains(d.out, "0 faster, 2 slower"));
    auto e = roofline_in(box, "diff 'a+b@v1' 'a_b@v1' --no-charts");
    CHECK(e.exit_code == 0);
    CHECK(contains(e.out, "A: a+b v1"));
    auto diffs = names_in(box / "out/diffs");
    diffs.erase(".lock");
    CHECK(diffs.size() == 2);  // each diff its own folder
}

// ---- 3. An empty -o ---------------------------------------------------------------------------

TEST_CASE("publish-hardening: an empty -o is a usage error, and nothing is written",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    auto r = roofline_in(box, "run s.roof --no-charts -o ''");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "roofline run: error: -o takes a folder, not an empty name"));
    CHECK(names_in(box.path) == std::set<std::string>{"s.roof"});

    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    auto d = roofline_in(box, "diff s@v1 s@v1 --no-charts -o ''");
    CHECK(d.exit_code == 2);
    CHECK(contains(d.err, "roofline diff: error: -o takes a folder, not an empty name"));
    CHECK(names_in(box.path) == std::set<std::string>{"s.roof", "out"});
    CHECK_FALSE(fs::exists(box / "out/diffs"));
}

// ---- 4. Up to date only when latest matches its manifest ---------------------------------------

TEST_CASE("publish-hardening: up to date only when latest holds what its manifest lists",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof").exit_code == 0);
    auto same = roofline_in(box, "run s.roof");
    CHECK(same.exit_code == 0);
    CHECK(contains(same.out, "up to date: out/s/v1"));
    CHECK(same.err.empty());

    // cases.csv cut short.
    fs::resize_file(box / "out/s/v1/cases.csv", 10);
    auto r = roofline_in(box, "run s.roof");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "roofline: note: latest (v1) does not match its manifest: cases.csv "
                          "changed; publishing v2\n"));
    CHECK(contains(r.out, "published out/s/v2"));

    // report.xlsx gone.
    fs::remove(box / "out/s/v2/report.xlsx");
    r = roofline_in(box, "run s.roof");
    CHECK(contains(r.err, "latest (v2) does not match its manifest: report.xlsx is missing; "
                          "publishing v3"));
    CHECK(contains(r.out, "published out/s/v3"));

    // A chart replaced by a symbolic link to an identical copy: never read.
    auto charts = box / "out/s/v3/charts";
    auto chart = fs::directory_iterator(charts)->path();
    fs::copy_file(chart, box / "copy");
    fs::remove(chart);
    fs::create_symlink(box / "copy", chart);
    r = roofline_in(box, "run s.roof");
    CHECK(contains(r.err, "latest (v3) does not match its manifest: charts/" +
                              chart.filename().string() + " is not a plain file; publishing v4"));

    // Untouched: up to date again.
    auto again = roofline_in(box, "run s.roof");
    CHECK(contains(again.out, "up to date: out/s/v4"));
}

TEST_CASE("publish-hardening: a manifest listing a path outside its version is not up to date, "
          "and the path is never read",
          "[reliability][hardening][publish-hardening]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    auto path = box / "out/s/v1/manifest.json";
    for (std::string forged : {"/dev/zero", "../../s.roof", "inputs/../cases.csv"}) {
        auto manifest = nlohmann::json::parse(read_file(path));
        manifest["outputs"].push_back({{"path", forged}, {"sha256", "0"}});
        write_file(path, manifest.dump(2));
        auto r = roofline_in(box, "run s.roof --no-charts");
        CHECK(r.exit_code == 0);
        CHECK(contains(r.err, "it lists '" + forged + "', which is not a file inside the version"));
        path = box / "out/s/latest/manifest.json";
        path = fs::canonical(path);
    }
}
