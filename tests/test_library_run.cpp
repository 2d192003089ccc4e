// report::run and diff::run called as a library, without the binary: the
// statuses, what is published, the manifest read back, and a diff's numbers
// by hand.
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/diff/run.hpp"
#include "roofline/report/chart_writer.hpp"
#include "roofline/report/manifest.hpp"
#include "roofline/report/run.hpp"
#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>
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
    CHECK(manifest.output_sha256("cases.csv") == output::sha256_file(first.folder + "/cases.csv"));
    CHECK(manifest.output_sha256("report.xlsx") ==
          output::sha256_file(first.folder + "/report.xlsx"));

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

namespace {

// Every call, in the order the observer saw them (from either thread).
struct Recorder : report::ProgressObserver {
    struct Event {
        char kind;  // 'b'egin, 'a'dvance, 'e'nd
        report::Phase phase;
        std::size_t n;  // begin: the total; advance: done
    };
    std::mutex mutex;
    std::vector<Event> events;
    void begin(report::Phase p, std::size_t total) override { add({'b', p, total}); }
    void advance(report::Phase p, std::size_t done) override { add({'a', p, done}); }
    void end(report::Phase p) override { add({'e', p, 0}); }
    void add(Event e) {
        std::lock_guard lock(mutex);
        events.push_back(e);
    }
    // Indexes of the events of `kind` for `phase`.
    std::vector<std::size_t> at(char kind, report::Phase phase) const {
        std::vector<std::size_t> found;
        for (std::size_t i = 0; i < events.size(); ++i)
            if (events[i].kind == kind && events[i].phase == phase) found.push_back(i);
        return found;
    }
    std::vector<std::size_t> advances(report::Phase phase) const {
        std::vector<std::size_t> done;
        for (auto i : at('a', phase)) done.push_back(events[i].n);
        return done;
    }
};

}  // namespace

TEST_CASE("report::run reports its phases in order with their counts", "[library][progress]") {
    using report::Phase;
    Box box;
    // 5000 cases: the pass reports every 1024 cases, the CSV every 4096.
    box.write("many.roof",
              "include \"chips.roof\"\ntarget slow\nsweep B = 1..5000\nlet D = 1000\n"
              "let F = 1000\nmatmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    Recorder recorder;
    auto request = box.request("many");
    request.charts = report::gnuplot_available();
    request.progress = &recorder;
    Diagnostics diagnostics;
    auto outcome = report::run(request, diagnostics);
    INFO(format(diagnostics));
    REQUIRE(outcome.status == Status::published);

    std::vector<Phase> phases = {Phase::evaluating, Phase::workbook, Phase::csv,
                                 Phase::publishing};
    if (request.charts) phases.push_back(Phase::charts);
    for (Phase p : phases) {  // each once
        INFO(report::phase_name(p));
        REQUIRE(recorder.at('b', p).size() == 1);
        REQUIRE(recorder.at('e', p).size() == 1);
        CHECK(recorder.at('b', p)[0] < recorder.at('e', p)[0]);
    }
    auto begin = [&](Phase p) { return recorder.at('b', p)[0]; };
    auto end = [&](Phase p) { return recorder.at('e', p)[0]; };
    auto const& events = recorder.events;

    // Evaluating first, alone: 5000 cases, advanced at each 1024th and at the end.
    CHECK(begin(Phase::evaluating) == 0);
    CHECK(events[0].n == 5000);
    CHECK(recorder.advances(Phase::evaluating) ==
          std::vector<std::size_t>{1024, 2048, 3072, 4096, 5000});
    // Then the writers, which may overlap one another but not the pass.
    for (Phase p : {Phase::workbook, Phase::csv}) CHECK(begin(p) > end(Phase::evaluating));
    // The workbook in percent: rising, ending at 100.
    CHECK(events[begin(Phase::workbook)].n == 100);
    auto workbook = recorder.advances(Phase::workbook);
    REQUIRE_FALSE(workbook.empty());
    CHECK(std::is_sorted(workbook.begin(), workbook.end()));
    CHECK(workbook.back() == 100);
    CHECK(std::count(workbook.begin(), workbook.end(), 100) == 1);  // 100 only once done
    // The CSV: 5000 rows, at the 4096th and the end.
    CHECK(events[begin(Phase::csv)].n == 5000);
    CHECK(recorder.advances(Phase::csv) == std::vector<std::size_t>{4096, 5000});
    if (request.charts) {
        // roofline-slow, sweep-B-slow, step-B-slow; on the CSV's thread, before it.
        CHECK(events[begin(Phase::charts)].n == 3);
        CHECK(recorder.advances(Phase::charts).back() == 3);
        CHECK(begin(Phase::charts) > end(Phase::evaluating));
        CHECK(end(Phase::charts) < begin(Phase::csv));
    }
    // Publishing last, once everything is written, with no count.
    for (Phase p : phases)
        if (p != Phase::publishing) CHECK(end(p) < begin(Phase::publishing));
    CHECK(events[begin(Phase::publishing)].n == 0);
    CHECK(end(Phase::publishing) == events.size() - 1);

    // Up to date: nothing to report.
    Recorder again;
    request.progress = &again;
    CHECK(report::run(request, diagnostics).status == Status::up_to_date);
    CHECK(again.events.empty());
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
    // A manifest written before the field existed (and "formats", which came
    // later): made with charts.
    auto old = text;
    old.erase(old.find("  \"charts\": false,\n"), std::string("  \"charts\": false,\n").size());
    auto formats = old.find("  \"formats\": [");
    REQUIRE(formats != std::string::npos);
    old.erase(formats, old.find("],\n", formats) + 3 - formats);
    REQUIRE(old.find("charts") == std::string::npos);
    box.write("old.json", old);
    CHECK(report::read_manifest((box / "old.json").string()).charts);
}

TEST_CASE("manifest: --no-charts changes the inputs' digest, with charts it is as before",
          "[manifest][uptodate]") {
    report::RunInputs with{{{"s.roof", "s.roof", "00"}}, {"B=1"}, {"h"}, true};
    auto without = with;
    without.charts = false;
    CHECK(report::inputs_digest(with, "0.1.0") != report::inputs_digest(without, "0.1.0"));
    // The digest of a run with charts is the one made before 'charts' was
    // part of it: the same fields, so a report made then is still up to date.
    output::Sha256 sha;
    for (std::string field : {"roofline 0.1.0", "file", "s.roof", "00", "set", "B=1", "target", "h"}) {
        sha.update(std::to_string(field.size()) + ":");
        sha.update(field);
    }
    CHECK(report::inputs_digest(with, "0.1.0") == sha.hex());
}
