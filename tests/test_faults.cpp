// The project tests its own faults: `roofline run` killed with SIGKILL at
// random moments, run on a disk that fills up or fails (an LD_PRELOAD shim,
// tests/faults/io_fail.c), and run eight times at once in one out/ folder.
// Whatever happens, every v<N> that exists is complete (its manifest's hashes
// match), `latest` names a complete version, earlier versions never change,
// and the next normal run succeeds and leaves nothing behind.
#include "roofline/output/sha256.hpp"

#include "command.hpp"
#include "published.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using roofline::output::sha256_file;
using namespace roofline::test;

namespace {


// Every file under `folder`, by relative path, with its hash.
std::map<std::string, std::string> hash_tree(fs::path const& folder) {
    std::map<std::string, std::string> hashes;
    for (auto const& entry : fs::recursive_directory_iterator(folder))
        if (entry.is_regular_file())
            hashes[fs::relative(entry.path(), folder).string()] = sha256_file(entry.path().string());
    return hashes;
}

bool is_version(std::string const& name) {
    return name.size() > 1 && name[0] == 'v' &&
           std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The invariants of a report folder out/<name> at rest: each v<N> complete
// and as it was when first seen (`seen`, updated with new ones), `latest`
// naming a complete version. Returns the versions there.
std::set<std::string> check_folder(fs::path const& dir,
                                   std::map<std::string, std::map<std::string, std::string>>& seen) {
    std::set<std::string> versions;
    if (!fs::exists(dir)) return versions;
    for (auto const& name : names_in(dir)) {
        if (!is_version(name)) continue;
        versions.insert(name);
        check_complete(dir / name);
        auto hashes = hash_tree(dir / name);
        auto [it, fresh] = seen.emplace(name, hashes);
        INFO(name << " changed after it was published");
        if (!fresh) CHECK(it->second == hashes);
    }
    if (fs::is_symlink(dir / "latest")) {
        auto target = fs::read_symlink(dir / "latest").string();
        INFO("latest -> " << target);
        CHECK(versions.count(target) == 1);
    } else {
        CHECK(versions.empty());
    }
    return versions;
}

// After a normal run: only the lock, `latest` and versions; no temporary
// folder, reservation or link of a run that died.
void check_no_leftovers(fs::path const& dir) {
    for (auto const& name : names_in(dir)) {
        INFO(name);
        CHECK((name == ".lock" || name == "latest" || is_version(name)));
    }
}

// A scenario with `sweep` points and 8 matmuls on every catalog target.
std::string big_scenario(int sweep) {
    std::string text = "include \"hardware/catalog.roof\"\nsweep B = 1 .. " +
                       std::to_string(sweep) + "\nlet D = 4096\nlet F = 4096\n";
    for (int i = 0; i < 8; ++i)
        text += "matmul m" + std::to_string(i) + " = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    return text;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("faults: runs killed with SIGKILL at random moments leave only complete versions",
          "[faults][run]") {
    Sandbox box;
    box.write("big.roof", big_scenario(200));
    auto dir = box / "out/big";
    std::map<std::string, std::map<std::string, std::string>> seen;
    // A first complete version, timed: the kills fall within a run's length.
    auto start = std::chrono::steady_clock::now();
    auto first = run_roofline(box.path, "run big.roof --no-charts");
    double length = seconds_since(start);
    INFO(first.err);
    REQUIRE(first.exit_code == 0);
    check_folder(dir, seen);

    std::mt19937 random(14);  // fixed: the same kill moments every time
    std::uniform_real_distribution<double> moment(0.02, 1.1);
    for (int kill = 0; kill < 6; ++kill) {
        double after = moment(random) * length;
        INFO("kill " << kill << " after " << after << " s");
        // Every other run with charts: gnuplot's children are part of it.
        std::string charts = kill % 2 && fs::exists("/usr/bin/gnuplot") ? "" : " --no-charts";
        std::string command = "cd " + quoted(box.path) + " && (" + quoted(ROOFLINE_BINARY) +
                              " run big.roof --force" + charts +
                              " >/dev/null 2>&1 & pid=$!; sleep " + std::to_string(after) +
                              "; kill -9 $pid 2>/dev/null; wait $pid; true)";
        REQUIRE(run_command(command).exit_code == 0);
        check_folder(dir, seen);
    }

    auto again = run_roofline(box.path, "run big.roof --no-charts --force");
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    auto versions = check_folder(dir, seen);
    check_no_leftovers(dir);
    // The new version is the highest, and `latest` names it.
    int highest = 0;
    for (auto const& name : versions) highest = std::max(highest, std::stoi(name.substr(1)));
    CHECK(fs::read_symlink(dir / "latest").string() == "v" + std::to_string(highest));
}

TEST_CASE("faults: a full or failing disk fails the run (exit 3) and publishes nothing",
          "[faults][run]") {
    Sandbox box;
    box.write("big.roof", big_scenario(100));
    auto dir = box / "out/big";
    std::map<std::string, std::map<std::string, std::string>> seen;
    REQUIRE(run_roofline(box.path, "run big.roof --no-charts").exit_code == 0);
    check_folder(dir, seen);

    // Where the disk fails: after so many bytes (every write after fails),
    // or on the Nth call of one function, with ENOSPC or EIO.
    std::vector<std::string> const faults = {
        "ROOFLINE_FAULT_AFTER_BYTES=0",
        "ROOFLINE_FAULT_AFTER_BYTES=5000",
        "ROOFLINE_FAULT_AFTER_BYTES=200000 ROOFLINE_FAULT_ERRNO=EIO",
        "ROOFLINE_FAULT_AFTER_BYTES=2000000",
        "ROOFLINE_FAULT_CALL=fwrite:1",
        "ROOFLINE_FAULT_CALL=fwrite:40 ROOFLINE_FAULT_ERRNO=EIO",
        "ROOFLINE_FAULT_CALL=writev:1",
        // write:1 is the pid note in the version's reservation, which is for
        // people only: a run does not fail on it (publish.cpp).
        "ROOFLINE_FAULT_CALL=write:2 ROOFLINE_FAULT_ERRNO=EIO",
        // No rename(): the version's own rename is renameat2(RENAME_NOREPLACE),
        // and the first rename() replaces `latest` once the version is
        // published, a warning with exit 0 (tests/test_reliability.cpp).
    };
    for (auto const& fault : faults) {
        INFO(fault);
        // The shim is not instrumented: under ASan, it comes before ASan's runtime.
        auto r = run_roofline(box.path, "run big.roof --no-charts --force",
                              "env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=" +
                                  quoted(ROOFLINE_IO_FAIL) + " " + fault);
        INFO(r.err);
        CHECK(r.exit_code == 3);
        // The message names the file and the reason.
        bool file = false;
        for (auto const* name : {"out/big/", "cases.csv", "report.xlsx", "manifest.json"})
            file = file || r.err.find(name) != std::string::npos;
        CHECK(file);
        bool reason = r.err.find(std::strerror(ENOSPC)) != std::string::npos ||
                      r.err.find(std::strerror(EIO)) != std::string::npos;
        // Files written through std::ofstream (inputs/, manifest.json) are
        // reported without the reason (run_report.cpp's write_file).
        bool ofstream_file = r.err.find("/inputs/") != std::string::npos ||
                             r.err.find("manifest.json") != std::string::npos;
        if (fault.find("writev") == std::string::npos && !ofstream_file) CHECK(reason);
        auto versions = check_folder(dir, seen);
        CHECK(versions == std::set<std::string>{"v1"});
        CHECK(fs::read_symlink(dir / "latest").string() == "v1");
    }

    // A failing fclose() of the file that probes whether report.xlsx can be
    // created is not an error (nothing was written through it); any other
    // close must fail the run. Either way nothing incomplete is published.
    std::set<std::string> expected{"v1"};
    for (auto const* fault : {"ROOFLINE_FAULT_CALL=fclose:1", "ROOFLINE_FAULT_CALL=fclose:2",
                              "ROOFLINE_FAULT_CALL=close:1 ROOFLINE_FAULT_ERRNO=EIO"}) {
        INFO(fault);
        auto r = run_roofline(box.path, "run big.roof --no-charts --force",
                              "env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=" +
                                  quoted(ROOFLINE_IO_FAIL) + " " + fault);
        INFO(r.err);
        CHECK((r.exit_code == 0 || r.exit_code == 3));
        if (r.exit_code == 0) expected.insert("v" + std::to_string(expected.size() + 1));
        CHECK(check_folder(dir, seen) == expected);
    }

    auto again = run_roofline(box.path, "run big.roof --no-charts --force");
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    expected.insert("v" + std::to_string(expected.size() + 1));
    CHECK(check_folder(dir, seen) == expected);
    CHECK(fs::read_symlink(dir / "latest").string() == *expected.rbegin());
    check_no_leftovers(dir);
}

TEST_CASE("faults: eight runs at once in one out/ folder publish v1..v8", "[faults][run]") {
    Sandbox box;
    box.write("big.roof", big_scenario(50));
    std::string command = "cd " + quoted(box.path) + " && for i in 1 2 3 4 5 6 7 8; do (" +
                          quoted(ROOFLINE_BINARY) +
                          " run big.roof --force --no-charts >log$i 2>&1; echo $? >rc$i) & "
                          "done; wait";
    REQUIRE(run_command(command).exit_code == 0);
    for (int i = 1; i <= 8; ++i) {
        INFO("run " << i << ": " << read_file(box / ("log" + std::to_string(i))));
        CHECK(read_file(box / ("rc" + std::to_string(i))) == "0\n");
    }
    auto dir = box / "out/big";
    std::map<std::string, std::map<std::string, std::string>> seen;
    CHECK(check_folder(dir, seen) ==
          std::set<std::string>{"v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"});
    CHECK(fs::read_symlink(dir / "latest").string() == "v8");
    check_no_leftovers(dir);
}
