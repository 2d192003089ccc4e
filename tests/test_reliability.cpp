// What bad input, foreign files, concurrent runs and crashes can do to out/
// (docs/reliability.md): names from data stay inside their folder, input
// problems are exit 1 and never exit 3, publishing survives foreign entries,
// failures after a version is in place, other PID namespaces and power loss,
// and no input can make a run build or read without bound.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "xlsx_support.hpp"

#include "output/file_names.hpp"
#include "output/xlsx_cells.hpp"
#include "roofline/diff/diff_folder.hpp"
#include "roofline/diff/match.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/load.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace roofline;
using namespace roofline::test;
namespace fs = std::filesystem;

namespace {

// One chip and one matmul over B in {1, 2}; `chip` is the hardware id,
// `extra` goes into the hardware block (name = "...", source = "...").
std::string scenario(std::string const& chip = "chip", std::string const& extra = "") {
    return "hardware " + chip + " { " + extra +
           " hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
           "target " +
           chip +
           "\nsweep B = [1, 2]\nlet D = 64\nlet F = 128\n"
           "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
}

// An flock held on `path` (created if needed) by this test, as a run in
// another PID namespace would hold it: its pid means nothing here.
struct HeldLock {
    int fd;
    explicit HeldLock(fs::path const& path, std::string const& text = "999999999\n") {
        fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        REQUIRE(fd >= 0);
        REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
        REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    }
    ~HeldLock() { ::close(fd); }
    HeldLock(HeldLock const&) = delete;
    HeldLock& operator=(HeldLock const&) = delete;
};

bool have(std::string const& tool) {
    return run_command("command -v " + tool + " >/dev/null 2>&1").exit_code == 0;
}

}  // namespace

// ---- Names from data ------------------------------------------------------------------------

TEST_CASE("names: file_name is a safe name inside its folder, bounded with a hash",
          "[reliability][names]") {
    CHECK(output::file_name("llama3-70b_decode.v2") == "llama3-70b_decode.v2");  // unchanged
    // A name file_part changes gets 8 hex digits of the SHA-256 of the name as
    // given, so that it shares no folder with the plain name it became.
    auto changed = [](std::string_view name, std::string const& safe) {
        return safe + "-" + output::sha256_hex(name).substr(0, 8);
    };
    CHECK(output::file_name("..") == changed("..", "_.."));
    CHECK(output::file_name(".") == changed(".", "_."));
    CHECK(output::file_name("") == changed("", "_"));
    CHECK(output::file_name(".hidden") == changed(".hidden", "_.hidden"));
    CHECK(output::file_name("a/../b") == changed("a/../b", "a_.._b"));
    CHECK(output::file_name("my report") == changed("my report", "my_report"));
    CHECK(output::file_name({"sweep", "B", "h100"}) == "sweep-B-h100");
    CHECK(output::file_name({"roofline", "../x"}) == changed("8:roofline4:../x", "roofline-_.._x"));
    std::string const long_a(300, 'a'), long_b = std::string(299, 'a') + "b";
    auto a = output::file_name(long_a), b = output::file_name(long_b);
    CHECK(a.size() == output::max_name_bytes);
    CHECK(b.size() == output::max_name_bytes);
    CHECK(a != b);                                  // the hash tells them apart
    CHECK(a.substr(0, 100) == std::string(100, 'a'));  // and the start still reads
    CHECK(std::regex_match(a, std::regex("a+-[0-9a-f]{16}")));
    CHECK(output::file_name(long_a) == a);  // the same name each time
    CHECK(output::file_name({"roofline", long_a}).size() == output::max_name_bytes);
}

TEST_CASE("names: a scenario named ...roof or ..roof publishes inside out/, under a safe name",
          "[reliability][names]") {
    Sandbox box;
    box.write("...roof", scenario());
    box.write("..roof", scenario());
    // "_.." and "_." with the hash of the names as given ("..", ".").
    std::string const dots = "_..-" + output::sha256_hex("..").substr(0, 8),
                      dot = "_.-" + output::sha256_hex(".").substr(0, 8);
    auto r1 = roofline_in(box, "run ...roof --no-charts");
    CHECK(r1.exit_code == 0);
    CHECK(contains(r1.out, "published out/" + dots + "/v1"));
    auto r2 = roofline_in(box, "run ..roof --no-charts");
    CHECK(r2.exit_code == 0);
    CHECK(contains(r2.out, "published out/" + dot + "/v1"));
    // Nothing beside the scenarios and out/, nothing in out/ but the two reports.
    CHECK(names_in(box.path) == std::set<std::string>{"...roof", "..roof", "out"});
    CHECK(names_in(box / "out") == std::set<std::string>{dots, dot});
    CHECK(names_in(box / "out" / dots) == std::set<std::string>{".lock", "latest", "v1"});
    // The manifest keeps the real name, and diff finds the report by it.
    CHECK(report::read_manifest((box / "out" / dots / "v1/manifest.json").string()).report == "..");
    CHECK(report::read_manifest((box / "out" / dot / "v1/manifest.json").string()).report == ".");

    box.write("my report.roof", scenario());
    CHECK(roofline_in(box, "run 'my report.roof' --no-charts").exit_code == 0);
    CHECK(fs::is_directory(box / "out" / ("my_report-" + output::sha256_hex("my report").substr(0, 8)) / "v1"));
    auto d = roofline_in(box, "diff 'my report@v1' 'my report' --no-charts");
    CHECK(d.exit_code == 0);
    CHECK(contains(d.out, "A: my report v1"));
}

// ---- Input problems are exit 1, never exit 3 ---------------------------------------------------

TEST_CASE("names: a 78-character hardware id gets its charts, whole", "[reliability][names]") {
    Sandbox box;
    std::string const id(78, 'h');
    box.write("long.roof", scenario(id));
    auto r = roofline_in(box, "run long.roof");
    REQUIRE(r.exit_code == 0);
    for (auto const& stem : {"roofline-" + id, "sweep-B-" + id, "step-B-" + id})
        for (char const* ext : {".svg", ".png"})
            CHECK(fs::file_size(box / "out/long/v1/charts" / (stem + ext)) > 0);
}

TEST_CASE("names: a 300-character hardware id gets chart names shortened with a hash",
          "[reliability][names]") {
    Sandbox box;
    std::string const id(300, 'q');
    box.write("longer.roof", scenario(id));
    auto r = roofline_in(box, "run longer.roof");
    REQUIRE(r.exit_code == 0);
    auto charts = names_in(box / "out/longer/v1/charts");
    CHECK(charts.size() == 6);
    for (auto const& name : charts) {
        CHECK(name.size() <= output::max_name_bytes + 4);
        CHECK(std::regex_match(
            name, std::regex("(roofline|sweep-B|step-B)-q+-[0-9a-f]{16}\\.(svg|png)")));
    }
    // The manifest lists what is there.
    auto manifest = report::read_manifest((box / "out/longer/v1/manifest.json").string());
    for (auto const& name : charts) CHECK_FALSE(manifest.output_sha256("charts/" + name).empty());
}

TEST_CASE("names: diff --pair of two 38-character ids draws its charts", "[reliability][names]") {
    Sandbox box;
    std::string const a(38, 'a'), b(38, 'b');
    box.write("pair.roof",
              "hardware " + a + " { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n" +
                  "hardware " + b + " { hbm_bandwidth = 2e12 B/s  peak bf16 = 1e15 FLOP/s }\n" +
                  "target " + a + ", " + b +
                  "\nsweep B = [1, 2]\nlet D = 64\nlet F = 128\n"
                  "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    REQUIRE(roofline_in(box, "run pair.roof --no-charts").exit_code == 0);
    auto r = roofline_in(box, "diff pair@v1 pair@v1 --pair " + a + "=" + b);
    REQUIRE(r.exit_code == 0);
    auto folder = box / "out/diffs" / ("pair-v1--pair-v1--" + a + "=" + b) / "charts";
    for (auto const& stem : {"speedup-B-" + a + "-" + b, "roofline-" + a + "-" + b})
        for (char const* ext : {".svg", ".png"}) CHECK(fs::file_size(folder / (stem + ext)) > 0);
}

TEST_CASE("names: a diff of two reports with long names is published under a bounded name",
          "[reliability][names]") {
    Sandbox box;
    std::string const x(150, 'x'), y(150, 'y');
    box.write(x + ".roof", scenario());
    box.write(y + ".roof", scenario());
    REQUIRE(roofline_in(box, "run " + x + ".roof --no-charts").exit_code == 0);
    REQUIRE(roofline_in(box, "run " + y + ".roof --no-charts").exit_code == 0);
    auto r = roofline_in(box, "diff " + x + "@v1 " + y + "@v1 --no-charts");
    REQUIRE(r.exit_code == 0);
    auto diffs = names_in(box / "out/diffs");
    diffs.erase(".lock");
    REQUIRE(diffs.size() == 1);
    auto const& name = *diffs.begin();
    CHECK(name.size() == output::max_name_bytes);
    CHECK(std::regex_match(name, std::regex("x{150}-v1--y+-[0-9a-f]{16}")));
    // Up to date the second time: the same name.
    auto again = roofline_in(box, "diff " + x + "@v1 " + y + "@v1 --no-charts");
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "up to date: out/diffs/" + name));
}

TEST_CASE("names: cell text past Excel's 32,767 characters is cut with a visible marker",
          "[reliability][xlsx]") {
    CHECK(output::cell_text("plain") == "plain");
    std::string const exact(output::max_cell_chars, 't');
    CHECK(output::cell_text(exact) == exact);
    auto cut = output::cell_text(std::string(40'000, 't'));
    std::string const marker = "\u2026 (40000 characters)";
    CHECK(cut == std::string(output::max_cell_chars - 20, 't') + marker);
    // Characters, not bytes, and never half a character or half an escape.
    std::string greek;
    for (int i = 0; i < 40'000; ++i) greek += "\u03b1";
    auto g = output::cell_text(greek);
    CHECK(g.size() == (output::max_cell_chars - 20) * 2 + marker.size());
    std::string controls(40'000, '\x01');
    auto c = output::cell_text(controls);
    CHECK(c.size() == (output::max_cell_chars - 20) / 7 * 7 + marker.size());
    CHECK(c.substr(c.size() - marker.size() - 7, 7) == "_x0001_");
}

TEST_CASE("names: a title, hardware name or source at its length limit makes a working report",
          "[reliability][xlsx]") {
    // Past the limits (model::max_text_bytes, max_name_bytes) is an input
    // error (tests/test_hardening_text.cpp); a cell is cut only past 32,767
    // characters, so each is shown whole.
    Sandbox box;
    std::string const text(model::max_text_bytes, 't'), name(model::max_name_bytes, 'n');
    box.write("title.roof", "scenario \"" + text + "\"\n" + scenario());
    box.write("name.roof", scenario("chip", "name = \"" + name + "\""));
    box.write("source.roof", scenario("chip", "source = \"" + text + "\""));
    // The column by its header where the sheet has one (the Hardware sheet's).
    for (auto const& [file, sheet, row, header, expected] :
         {std::tuple{"title", "Summary", 0, "", text}, std::tuple{"name", "Hardware", 1, "name", name},
          std::tuple{"source", "Hardware", 1, "source", text}}) {
        auto r = roofline_in(box, std::string("run ") + file + ".roof --no-charts");
        REQUIRE(r.exit_code == 0);
        auto folder = box / "out" / file / "v1";
        auto dump = xlsx::run_tool("dump " + quoted(folder / "report.xlsx"));
        std::size_t const col = *header ? xlsx::header_column(dump, sheet, header) : 0;
        auto const& value = xlsx::cell(dump, sheet, static_cast<std::size_t>(row), col);
        INFO(file);
        CHECK(value.at("v").get<std::string>() == expected);
    }
    // The manifest keeps the whole title.
    CHECK(report::read_manifest((box / "out/title/v1/manifest.json").string()).title == text);
}

TEST_CASE("inputs: a scenario that is a device, a pipe, a folder or too large is exit 1",
          "[reliability][inputs]") {
    Sandbox box;
    REQUIRE(::mkfifo((box / "fifo.roof").c_str(), 0644) == 0);
    fs::create_directory(box / "folder.roof");
    {
        std::ofstream big(box / "big.roof");  // sparse: no disk used
    }
    fs::resize_file(box / "big.roof", (std::uintmax_t{64} << 20) + 1);
    for (auto const& [file, message] :
         {std::pair{"/dev/zero", "not a regular file"},
          std::pair{"fifo.roof", "not a regular file"}, std::pair{"folder.roof", "is a directory"},
          std::pair{"big.roof", "larger than the limit of 64 MiB"}}) {
        for (char const* command : {"run", "check"}) {
            // (timeout: before, a pipe blocked and /dev/zero was read until
            // memory ran out)
            auto r = run_command("cd " + quoted(box.path) + " && timeout 20 " +
                                 quoted(ROOFLINE_BINARY) + " " + command + " " + file +
                                 " 2>&1 >/dev/null || echo \"exit $?\"");
            INFO(command << " " << file << ": " << r.out);
            CHECK(contains(r.out, "exit 1"));
            CHECK(contains(r.out, std::string("cannot read '") + file + "': " + message));
        }
    }
    // An include is read the same way: an error at the include (one that
    // is not a regular file is not found: includes name files).
    box.write("inc.roof", "include \"big.roof\"\n" + scenario());
    auto r = run_command("cd " + quoted(box.path) + " && timeout 20 " + quoted(ROOFLINE_BINARY) +
                         " check inc.roof 2>&1 || echo \"exit $?\"");
    INFO(r.out);
    CHECK(contains(r.out, "inc.roof:1:9: error: cannot read 'big.roof': larger than the limit"));
    CHECK(contains(r.out, "exit 1"));
}

TEST_CASE("inputs: a sweep product past the case limit is an error at that sweep, before its "
          "values are made",
          "[reliability][inputs]") {
    std::string text = "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
                       "target chip\n";
    for (int i = 1; i <= 63; ++i) text += "sweep S" + std::to_string(i) + " = 1 .. 100000\n";
    text += "let D = 64\nmatmul proj = bf16[S1, D] * bf16[D, D2] -> bf16[S1, D2]\nlet D2 = 128\n";
    auto checked = check_text(text);
    auto errors = checked->errors();
    INFO(errors);
    CHECK(contains(errors, "test.roof:4:7: error: sweep 'S2' takes the sweep points past the "
                           "limit of 200000000 cases"));
    CHECK(checked->diagnostics.error_count() == 1);  // not one per later sweep
    // Only the first sweep's values were made: the second stopped at the
    // limit, the later ones never started.
    auto const& sweeps = checked->scenario.sweeps;
    REQUIRE(sweeps.size() == 63);
    CHECK(sweeps[0].values.size() == 100000);
    std::size_t made = 0;
    for (std::size_t i = 1; i < sweeps.size(); ++i) made += sweeps[i].values.size();
    CHECK(made == 0);

    // A list sweep likewise, and a product just at the limit is fine.
    model::CheckOptions options;
    options.max_points = 6;
    auto list = check_text(scenario() + "sweep C = [1, 2, 3]\nsweep E = [1, 2]\n", {}, options);
    INFO(list->errors());
    CHECK(contains(list->errors(), "error: sweep 'E' takes the sweep points past the limit of 6 "
                                   "cases: 6 points before it times its 2 values"));
    auto fits = check_text(scenario() + "sweep C = [1, 2, 3]\n", {}, options);
    CHECK_FALSE(fits->diagnostics.has_errors());
}

// ---- Diff inputs -----------------------------------------------------------------------------

namespace {

// A published report "s" (v1) and helpers to forge copies of its version folder.
struct DiffBox : Sandbox {
    DiffBox() {
        write("s.roof", scenario());
        auto r = run_roofline(path, "run s.roof --no-charts");
        REQUIRE(r.exit_code == 0);
    }
    fs::path copy(std::string const& name) const {
        auto to = path / "out/s" / name;
        fs::copy(path / "out/s/v1", to, fs::copy_options::recursive);
        return to;
    }
    nlohmann::json manifest(fs::path const& folder) const {
        return nlohmann::json::parse(read_file(folder / "manifest.json"));
    }
    void write_manifest(fs::path const& folder, nlohmann::json const& j) const {
        write_file(folder / "manifest.json", j.dump());
    }
    // `roofline diff out/s/v1 FOLDER` with a time limit; its output and exit code.
    CommandResult diff(fs::path const& folder, int seconds = 30) const {
        auto r = run_command("cd " + quoted(path) + " && timeout " + std::to_string(seconds) + " " +
                             quoted(ROOFLINE_BINARY) + " diff out/s/v1 " + quoted(folder) +
                             " --no-charts");
        UNSCOPED_INFO("stdout: " << r.out << "\nstderr: " << r.err);
        return r;
    }
};

}  // namespace

TEST_CASE("inputs: a manifest or cases.csv that is a device, a pipe or too large is exit 1",
          "[reliability][inputs]") {
    DiffBox box;
    auto zero = box.copy("zero");
    fs::remove(zero / "manifest.json");
    fs::create_symlink("/dev/zero", zero / "manifest.json");
    auto fifo = box.copy("fifo");
    fs::remove(fifo / "manifest.json");
    REQUIRE(::mkfifo((fifo / "manifest.json").c_str(), 0644) == 0);
    auto big = box.copy("big");
    {
        auto j = box.manifest(big);
        j["padding"] = std::string((std::size_t{16} << 20) + 1, ' ');
        box.write_manifest(big, j);
    }
    auto cases = box.copy("cases");
    fs::remove(cases / "cases.csv");
    fs::create_symlink("/dev/zero", cases / "cases.csv");
    for (auto const& [folder, message] :
         {std::pair{zero, "manifest.json: cannot be read: not a regular file"},
          std::pair{fifo, "manifest.json: cannot be read: not a regular file"},
          std::pair{big, "manifest.json: cannot be read: larger than the limit of 16 MiB"},
          std::pair{cases, "cases.csv: not a regular file"}}) {
        auto r = box.diff(folder);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, message));
    }
}

TEST_CASE("inputs: a manifest's version is bounded, 2^40 does not wrap to 0",
          "[reliability][inputs]") {
    DiffBox box;
    for (long long version : {1LL << 40, 0LL, 1'000'000'000LL}) {
        auto folder = box.copy("version" + std::to_string(version));
        auto j = box.manifest(folder);
        j["version"] = version;
        box.write_manifest(folder, j);
        auto r = box.diff(folder);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "field 'version' is " + std::to_string(version) +
                                  ", not a version number (1 to 999999999)"));
    }
}

TEST_CASE("inputs: a forged manifest with 10^6 sweeps is refused at once",
          "[reliability][inputs]") {
    DiffBox box;
    for (std::size_t sweeps : {1'000'000u, 300'000u}) {  // over the size limit, and under it
        auto folder = box.copy("forged" + std::to_string(sweeps));
        auto j = box.manifest(folder);
        auto& list = j["sweeps"] = nlohmann::json::array();
        for (std::size_t i = 0; i < sweeps; ++i)
            list.push_back({{"name", std::string("s").append(std::to_string(i))}, {"points", 1}});
        box.write_manifest(folder, j);
        auto started = std::chrono::steady_clock::now();
        auto r = box.diff(folder, 60);  // before: over 120 s (a search per sweep)
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        CHECK(r.exit_code == 1);
        CHECK(seconds < 30);
        CHECK((contains(r.err, "larger than the limit of 16 MiB") ||
               contains(r.err, "it lists 300000 sweeps; a scenario has at most 63")));
    }
}

TEST_CASE("inputs: matching and reading headers take time linear in the sweeps and targets",
          "[reliability][inputs]") {
    // Reports as a forged manifest could describe them, past what read_manifest
    // lets through: what the matcher does with them must not be quadratic.
    diff::ComparedReport a;
    a.name = "a";
    a.version = 1;
    constexpr std::size_t n = 200'000;
    for (std::size_t i = 0; i < n; ++i) {
        a.sweeps.push_back({std::string("s").append(std::to_string(i)), 1, {}});
        a.targets.push_back({std::string("t").append(std::to_string(i)), ""});
    }
    auto started = std::chrono::steady_clock::now();
    auto pairing = diff::make_pairing(a, a, {});
    diff::Matcher matcher(a, a, pairing);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CHECK(matcher.sweep_names().size() == n);
    CHECK(pairing.pairs.size() == n);
    CHECK(seconds < 30);  // before: minutes (a search per sweep and per target); now about 1 s
}

// ---- Publishing --------------------------------------------------------------------------------

TEST_CASE("publish: when replacing latest fails, the version is published with a warning and "
          "nothing is left over",
          "[reliability][publish]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    // `latest` cannot be replaced by a link: something made it a folder.
    fs::remove(box / "out/s/latest");
    fs::create_directories(box / "out/s/latest/foreign");
    auto r = roofline_in(box, "run s.roof --no-charts --force");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "published out/s/v2"));
    CHECK(contains(r.err, "roofline: warning: out/s/v2 is published, but 'latest' still points "
                          "to no version: cannot replace 'out/s/latest'"));
    CHECK(fs::is_regular_file(box / "out/s/v2/manifest.json"));
    CHECK(names_in(box / "out/s") == std::set<std::string>{".lock", "latest", "v1", "v2"});
}

TEST_CASE("publish: leftovers of any kind are removed by the next run", "[reliability][publish]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    auto dir = box / "out/s";
    write_file(dir / "latest.tmp-4242", "");                 // a failed latest replacement
    fs::create_symlink("v1", dir / "latest.tmp-77");
    write_file(dir / ".reserve-v8", "12345\n");              // a reservation nobody holds
    fs::create_directories(dir / ".tmp-12345-v8/charts");  // and its temporary folder
    fs::create_directories(dir / ".tmp-1-v9");               // a temporary folder alone
    fs::create_symlink("/nonexistent", dir / ".reserve-v10");
    SECTION("a run that publishes") {
        auto r = roofline_in(box, "run s.roof --no-charts --force");
        CHECK(r.exit_code == 0);
        CHECK(contains(r.out, "published out/s/v2"));  // v8 was no one's
        CHECK(names_in(dir) == std::set<std::string>{".lock", "latest", "v1", "v2"});
    }
    SECTION("a run that is up to date") {
        auto r = roofline_in(box, "run s.roof --no-charts");
        CHECK(contains(r.out, "up to date: out/s/v1"));
        CHECK(names_in(dir) == std::set<std::string>{".lock", "latest", "v1"});
    }
}

TEST_CASE("publish: foreign entries named like versions never block publishing",
          "[reliability][publish]") {
    Sandbox box;
    box.write("s.roof", scenario());
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    auto dir = box / "out/s";
    fs::create_directories(dir / "v999999999/x");  // the highest number there is
    fs::create_directories(dir / "v99999999999");  // past any int
    fs::create_directories(dir / "v01");
    write_file(dir / "v3", "a file, not a version");
    fs::create_directories(dir / "v4");             // an empty folder: rename would replace it
    for (auto const& expected : {"v2", "v5", "v6"}) {
        auto r = roofline_in(box, "run s.roof --no-charts --force");
        CHECK(r.exit_code == 0);
        CHECK(contains(r.out, std::string("published out/s/") + expected + ":"));
        CHECK(fs::read_symlink(dir / "latest") == fs::path(expected));
    }
    CHECK(read_file(dir / "v3") == "a file, not a version");
    CHECK(fs::is_empty(dir / "v4"));
    CHECK(fs::exists(dir / "v999999999/x"));
}

TEST_CASE("publish: a live run in another PID namespace keeps its reservation and temporary "
          "folder",
          "[reliability][publish]") {
    Sandbox out;
    {
        report::Publisher first(out.path.string(), "demo");
        first.reserve();
        first.commit();
    }
    // What another namespace's run looks like from here: a pid that does
    // not exist here, but a lock that is held.
    auto dir = out / "demo";
    HeldLock live(dir / ".reserve-v2");
    fs::create_directories(dir / ".tmp-999999999-v2");
    write_file(dir / ".tmp-999999999-v2/cases.csv", "being written");
    report::Publisher next(out.path.string(), "demo");
    CHECK(next.reserve() == 3);
    CHECK(read_file(dir / ".tmp-999999999-v2/cases.csv") == "being written");
    CHECK(fs::exists(dir / ".reserve-v2"));
    next.commit();
    CHECK(fs::read_symlink(dir / "latest") == fs::path("v3"));
    CHECK(fs::exists(dir / ".tmp-999999999-v2/cases.csv"));

    // The diff folder likewise.
    fs::create_directories(out / "diffs/.tmp-999999999-x-v1--y-v1");
    HeldLock diff_live(out / "diffs/.tmp-999999999-x-v1--y-v1.lock");
    fs::create_directories(out / "diffs/.tmp-999999998-x-v1--y-v1");  // dead: no lock
    diff::DiffFolder folder(out.path.string(), "x-v1--y-v1");
    auto temp = folder.begin();
    CHECK(fs::exists(out / "diffs/.tmp-999999999-x-v1--y-v1"));
    CHECK_FALSE(fs::exists(out / "diffs/.tmp-999999998-x-v1--y-v1"));
    CHECK(folder.commit());
    CHECK(fs::is_directory(out / "diffs/x-v1--y-v1"));
}

TEST_CASE("publish: a run in another PID namespace leaves a live run alone",
          "[reliability][publish][namespaces]") {
    if (run_command("unshare --pid --fork --mount-proc true").exit_code != 0) {
        WARN("no PID namespaces here (unshare needs privileges): skipped");
        return;
    }
    Sandbox box;
    box.write("s.roof", scenario());
    // A run in this namespace holds v1 while one in a new PID namespace runs.
    auto dir = box / "out/s";
    fs::create_directories(dir);
    HeldLock live(dir / ".reserve-v1", std::to_string(::getpid()) + "\n");
    fs::create_directories(dir / (".tmp-" + std::to_string(::getpid()) + "-v1"));
    auto r = run_command("cd " + quoted(box.path) + " && unshare --pid --fork --mount-proc " +
                         quoted(ROOFLINE_BINARY) + " run s.roof --no-charts");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "published out/s/v2"));
    CHECK(fs::exists(dir / (".tmp-" + std::to_string(::getpid()) + "-v1")));
}

TEST_CASE("publish: a .lock that is a symbolic link is refused, and nothing is made at its "
          "target",
          "[reliability][publish]") {
    Sandbox box;
    box.write("s.roof", scenario());
    fs::create_directories(box / "out/s");
    fs::create_symlink(box / "target", box / "out/s/.lock");
    auto r = roofline_in(box, "run s.roof --no-charts");
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, "'out/s/.lock' is a symbolic link; a lock file must be a plain file"));
    CHECK_FALSE(fs::exists(box / "target"));
    CHECK(names_in(box / "out/s") == std::set<std::string>{".lock"});

    fs::create_directories(box / "out/diffs");
    fs::create_symlink(box / "target", box / "out/diffs/.lock");
    fs::remove(box / "out/s/.lock");
    REQUIRE(roofline_in(box, "run s.roof --no-charts").exit_code == 0);
    auto d = roofline_in(box, "diff s@v1 s@v1 --no-charts");
    CHECK(d.exit_code == 3);
    CHECK(contains(d.err, "'out/diffs/.lock' is a symbolic link"));
    CHECK_FALSE(fs::exists(box / "target"));
}

TEST_CASE("publish: every file and folder of a version is synced before it appears, and the "
          "folders after each rename",
          "[reliability][publish][durability]") {
    if (!have("strace")) {
        WARN("strace is not installed: skipped");
        return;
    }
    Sandbox box;
    box.write("s.roof", scenario());
    // LeakSanitizer cannot run under ptrace and would fail the exit status of
    // a sanitized build (no effect on others).
    auto r = run_command("cd " + quoted(box.path) +
                         " && ASAN_OPTIONS=detect_leaks=0 strace -f -y -qq -e "
                         "trace=fsync,rename,renameat2 -o trace " +
                         quoted(ROOFLINE_BINARY) + " run s.roof");
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> lines;
    {
        std::istringstream in(read_file(box / "trace"));
        for (std::string line; std::getline(in, line);)
            if (contains(line, "fsync(") || contains(line, "rename")) lines.push_back(line);
    }
    INFO(read_file(box / "trace"));
    auto index = [&](std::string const& part, std::size_t from = 0) {
        for (std::size_t i = from; i < lines.size(); ++i)
            if (contains(lines[i], part)) return i;
        return lines.size();
    };
    auto const version_rename = index("-v1\", AT_FDCWD");
    REQUIRE(version_rename < lines.size());
    std::size_t files = 0;
    for (auto const& entry : fs::recursive_directory_iterator(box / "out/s/v1")) {
        auto rel = fs::relative(entry.path(), box / "out/s/v1").string();
        CHECK(index("-v1/" + rel + ">) = 0") < version_rename);  // synced before the rename
        ++files;
    }
    CHECK(files > 8);  // the workbook, cases.csv, the manifest, the input, charts/...
    CHECK(index("-v1>) = 0") < version_rename);               // the version folder itself
    auto const after = index("/out/s>) = 0", version_rename);  // the report folder, after
    CHECK(after < lines.size());
    auto const latest = index("/latest\")", version_rename);
    REQUIRE(latest < lines.size());
    CHECK(index("/out/s>) = 0", latest) < lines.size());  // and after `latest`
}
