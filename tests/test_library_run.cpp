// report::run and diff::run called as a library, without the binary: the
// statuses, what is published, the manifest read back, and a diff's numbers
// by hand.
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/diff/run.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/run.hpp"
#include "roofline/report/sha256.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;
using namespace roofline;
using Status = report::RunOutcome::Status;

namespace {

// Two chips that differ only in bandwidth, and a scenario on one of them:
// one matmul bf16[B, D] x bf16[D, F], D = F = 1000, B in {1, 2, 4}.
struct Box : test::Sandbox {
    Box() {
        write("chips.roof",
              "hardware slow { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
              "hardware fast { hbm_bandwidth = 2e12 B/s  peak bf16 = 1e15 FLOP/s }\n");
        for (char const* chip : {"slow", "fast"})
            write(std::string(chip) + ".roof",
                  "include \"chips.roof\"\ntarget " + std::string(chip) +
                      "\nsweep B = [1, 2, 4]\nlet D = 1000\nlet F = 1000\n"
                      "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    }
    report::RunRequest request(std::string const& name) const {
        report::RunRequest r;
        r.scenario = (path / (name + ".roof")).string();
        r.out_root = (path / "out").string();
        r.charts = false;
        r.command_line = {"test"};
        return r;
    }
};

}  // namespace

TEST_CASE("report::run publishes, finds a report up to date, and refuses bad input",
          "[library]") {
    Box box;
    Diagnostics diagnostics;
    auto first = report::run(box.request("slow"), diagnostics);
    INFO(format(diagnostics));
    REQUIRE(first.status == Status::published);
    CHECK(fs::path(first.folder) == box.path / "out/slow/v1");
    CHECK(first.cases == 3);  // 3 sweep points x 1 op x 1 target

    // The manifest, read back through the one reader.
    auto manifest = report::read_manifest(first.folder + "/manifest.json");
    CHECK(manifest.report == "slow");
    CHECK(manifest.version == 1);
    CHECK(manifest.cases == 3);
    CHECK(manifest.ops == 1);
    REQUIRE(manifest.sweeps.size() == 1);
    CHECK(manifest.sweeps[0].name == "B");
    CHECK(manifest.sweeps[0].points == 3);
    REQUIRE(manifest.targets.size() == 1);
    CHECK(manifest.targets[0].id == "slow");
    CHECK(manifest.output_sha256("cases.csv") == report::sha256_file(first.folder + "/cases.csv"));
    CHECK(manifest.output_sha256("report.xlsx") ==
          report::sha256_file(first.folder + "/report.xlsx"));

    // The same inputs again: nothing new.
    auto again = report::run(box.request("slow"), diagnostics);
    CHECK(again.status == Status::up_to_date);
    CHECK(again.folder == first.folder);
    // Forced: a second version.
    auto forced_request = box.request("slow");
    forced_request.force = true;
    auto forced = report::run(forced_request, diagnostics);
    CHECK(forced.status == Status::published);
    CHECK(fs::path(forced.folder) == box.path / "out/slow/v2");

    // An error in the scenario: nothing published, the error in the diagnostics.
    box.write("bad.roof", "include \"chips.roof\"\ntarget slow\nmatmul m = bf16[B] * bf16[B] -> bf16[B]\n");
    Diagnostics bad;
    auto refused = report::run(box.request("bad"), bad);
    CHECK(refused.status == Status::invalid_input);
    CHECK(bad.has_errors());
    CHECK_FALSE(fs::exists(box.path / "out/bad/v1"));
    Diagnostics missing;
    CHECK(report::run(box.request("missing"), missing).status == Status::unreadable);
}

TEST_CASE("diff::run compares two reports: memory-bound at twice the bandwidth is 2x", "[library]") {
    Box box;
    Diagnostics diagnostics;
    REQUIRE(report::run(box.request("slow"), diagnostics).status == Status::published);
    REQUIRE(report::run(box.request("fast"), diagnostics).status == Status::published);

    diff::DiffRequest request;
    request.a = (box.path / "out/slow/v1").string();
    request.b = (box.path / "out/fast/v1").string();
    request.out_root = (box.path / "out").string();
    request.charts = false;
    auto outcome = diff::run(request);
    CHECK(outcome.published);
    CHECK(fs::path(outcome.folder) == box.path / "out/diffs/slow-v1--fast-v1");
    // At B <= 4 the matmul reads 2,000,000 B of weights and moves 4,000 B per
    // row of B: 2e6 B FLOPs over 2e6 + 4000 B bytes, an intensity below 4
    // FLOP/B, far below the ridge (1000 FLOP/B on slow, 500 on fast), so
    // memory-bound on both: the time halves with twice the bandwidth, at
    // every B.
    CHECK(outcome.summary.matched == 3);
    CHECK(outcome.summary.only_a == 0);
    CHECK(outcome.summary.only_b == 0);
    CHECK(outcome.summary.flips == 0);
    CHECK(outcome.summary.speedup() == Approx(2.0).epsilon(1e-12));
    CHECK(test::contains(outcome.summary_text, "2.00"));

    // The same two reports again: the folder exists, nothing is written.
    auto again = diff::run(request);
    CHECK_FALSE(again.published);
    CHECK(again.folder == outcome.folder);
}

TEST_CASE("manifest: 'charts' is written, and read as true when absent (older reports)",
          "[manifest][uptodate]") {
    test::Sandbox box;
    report::Manifest m;
    m.report = "r";
    m.version = 1;
    m.tool_version = "0.1.0";
    m.charts = false;
    auto text = report::manifest_text(m);
    CHECK(text.find("\"charts\": false") != std::string::npos);
    box.write("new.json", text);
    CHECK_FALSE(report::read_manifest((box / "new.json").string()).charts);
    // A manifest written before the field existed: made with charts.
    auto old = text;
    old.erase(old.find("  \"charts\": false,\n"), std::string("  \"charts\": false,\n").size());
    REQUIRE(old.find("charts") == std::string::npos);
    box.write("old.json", old);
    CHECK(report::read_manifest((box / "old.json").string()).charts);
}

TEST_CASE("manifest: --no-charts changes the inputs' digest; with charts it is as before",
          "[manifest][uptodate]") {
    report::RunInputs with{{{"s.roof", "s.roof", "00"}}, {"B=1"}, {"h"}, true};
    auto without = with;
    without.charts = false;
    CHECK(report::inputs_digest(with, "0.1.0") != report::inputs_digest(without, "0.1.0"));
    // The digest of a run with charts is the one made before 'charts' was
    // part of it: the same fields, so a report made then is still up to date.
    report::Sha256 sha;
    for (std::string field : {"roofline 0.1.0", "file", "s.roof", "00", "set", "B=1", "target", "h"}) {
        sha.update(std::to_string(field.size()) + ":");
        sha.update(field);
    }
    CHECK(report::inputs_digest(with, "0.1.0") == sha.hex());
}
