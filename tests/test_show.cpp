// `roofline show REPORT` and the tables a version keeps (summary.txt): what
// `run` printed after publishing, printed again as it was by `show` and by a
// run that finds the report up to date (issue 21, point 9).
#include "roofline/lang/diagnostics.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/report/run.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "published.hpp"
#include "sandbox.hpp"
#include "step_scenario.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace roofline;
using namespace roofline::test;  // Sandbox, run_roofline, read_file, contains

namespace {

std::string const steps_text = std::string(step::scenario).append("tokens = B\n");

// What `run` printed after its first line ("published ..." or "up to date ...").
std::string after_first_line(std::string const& out) {
    auto end = out.find('\n');
    return end == std::string::npos ? "" : out.substr(end + 1);
}

}  // namespace

TEST_CASE("run keeps its tables in summary.txt, and show prints them as they were published",
          "[run][show]") {
    Sandbox box;
    box.write("steps.roof", steps_text);
    auto published = run_roofline(box.path, "run steps.roof --no-charts");
    INFO(published.out << published.err);
    REQUIRE(published.exit_code == 0);
    auto const tables = after_first_line(published.out);
    // step_scenario.hpp by hand: on fast at B = 1 the step is 2 x 2.004e-6 +
    // 3 x 8.01e-6 = 2.8038e-5 s ("28 µs"), t_upper 2.8318e-5 s, all
    // memory-bound, 1 / 2.8038e-5 = 35,666 tokens/s ("35.7 k").
    // Uncalibrated: expected (the second time) is the step.
    CHECK(contains(tables, "     1    28 \u00b5s     28 \u00b5s  28.3 \u00b5s    100%    35.7 k\n"));
    auto const v1 = box / "out" / "steps" / "v1";
    CHECK(read_file(v1 / "summary.txt") == tables);
    check_complete(v1);  // summary.txt is listed with its SHA-256
    auto manifest = nlohmann::json::parse(read_file(v1 / "manifest.json"));
    bool listed = false;
    for (auto const& output : manifest["outputs"]) listed = listed || output["path"] == "summary.txt";
    CHECK(listed);

    // By every name diff takes: the report folder (its latest), the version, NAME@vN.
    for (auto const* spec : {"steps", "out/steps", "out/steps/v1", "steps@v1", "steps@latest"}) {
        INFO(spec);
        auto shown = run_roofline(box.path, std::string("show ") + spec);
        CHECK(shown.exit_code == 0);
        CHECK(shown.err.empty());
        CHECK(shown.out.rfind("report steps v1 (out/steps/v1), published ", 0) == 0);
        CHECK(after_first_line(shown.out) == tables);
    }

    // Up to date: the line, then the version's tables (before: the line alone).
    auto again = run_roofline(box.path, "run steps.roof --no-charts");
    CHECK(again.exit_code == 0);
    CHECK(again.out == "up to date: out/steps/v1\n" + tables);
    auto quiet = run_roofline(box.path, "run steps.roof --no-charts --quiet");
    CHECK(quiet.out == "up to date: out/steps/v1\n");

    // The scenario changed since: v1's tables are still v1's. tokens = 2 B
    // doubles tokens/s: 2 / 2.8038e-5 = 71,332 ("71.3 k") in v2 only.
    box.write("steps.roof", std::string(step::scenario).append("tokens = 2 * B\n"));
    auto v2 = run_roofline(box.path, "run steps.roof --no-charts");
    REQUIRE(v2.exit_code == 0);
    CHECK(contains(v2.out, "     1    28 \u00b5s     28 \u00b5s  28.3 \u00b5s    100%    71.3 k\n"));
    CHECK(after_first_line(run_roofline(box.path, "show steps@v1").out) == tables);
    CHECK(contains(run_roofline(box.path, "show steps").out, "71.3 k"));
}

TEST_CASE("show: what is not a report, or has no tables, is an error (exit 1)", "[show]") {
    Sandbox box;
    fs::create_directory(box / "notes");
    box.write("notes/readme.txt", "not a report\n");
    auto folder = run_roofline(box.path, "show notes");
    CHECK(folder.exit_code == 1);
    CHECK(folder.out.empty());
    CHECK(folder.err ==
          "roofline: error: 'notes' is not a report: it has no manifest.json (a version folder) "
          "and no 'latest' (a report folder)\n");
    auto missing = run_roofline(box.path, "show nothing");
    CHECK(missing.exit_code == 1);
    CHECK(missing.err == "roofline: error: no report at 'nothing'\n");
    auto usage = run_roofline(box.path, "show");
    CHECK(usage.exit_code == 2);
    CHECK(contains(usage.err, "missing REPORT"));

    // A summary.txt edited after publishing is not shown.
    box.write("steps.roof", steps_text);
    REQUIRE(run_roofline(box.path, "run steps.roof --no-charts -q").exit_code == 0);
    box.write("out/steps/v1/summary.txt", "forged\n");
    auto forged = run_roofline(box.path, "show steps");
    CHECK(forged.exit_code == 1);
    CHECK(forged.err ==
          "roofline: error: out/steps/v1/summary.txt changed since it was published (its "
          "SHA-256 is not the manifest's)\n");
}

TEST_CASE("show: a summary.txt rewritten with its manifest still reaches the terminal as text",
          "[show]") {
    // run writes only terminal-safe text, but a version can be rewritten
    // along with its manifest's SHA-256: show still prints an escape as
    // text, never as a command to the terminal.
    Sandbox box;
    box.write("steps.roof", steps_text);
    REQUIRE(run_roofline(box.path, "run steps.roof --no-charts -q").exit_code == 0);
    std::string const old_text = read_file(box / "out/steps/v1/summary.txt");
    std::string const forged = "\x1b]0;pwned\x07red\n";
    box.write("out/steps/v1/summary.txt", forged);
    std::string manifest = read_file(box / "out/steps/v1/manifest.json");
    auto const at = manifest.find(roofline::output::sha256_hex(old_text));
    REQUIRE(at != std::string::npos);
    manifest.replace(at, 64, roofline::output::sha256_hex(forged));
    box.write("out/steps/v1/manifest.json", manifest);
    auto shown = run_roofline(box.path, "show steps");
    CHECK(shown.exit_code == 0);
    CHECK(contains(shown.out, "\\x1b]0;pwned\\x07red\n"));
    CHECK_FALSE(contains(shown.out, "\x1b"));
    // run on the up-to-date scenario prints the same tables, as text too.
    auto again = run_roofline(box.path, "run steps.roof --no-charts");
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "\\x1b]0;pwned\\x07red\n"));
    CHECK_FALSE(contains(again.out, "\x1b"));
}

TEST_CASE("a version without summary.txt: show says how to get one, run up to date notes it",
          "[show][run]") {
    Sandbox box;
    box.write("steps.roof", steps_text);
    // The library without tables: a version as roofline published them before summary.txt.
    report::RunRequest request;
    request.scenario = (box / "steps.roof").string();
    request.out_root = (box / "out").string();
    request.charts = false;
    request.command_line = {"test"};
    Diagnostics diagnostics;
    REQUIRE(report::run(request, diagnostics).status == report::RunOutcome::Status::published);
    CHECK_FALSE(fs::exists(box / "out/steps/v1/summary.txt"));

    auto shown = run_roofline(box.path, "show steps");
    CHECK(shown.exit_code == 1);
    CHECK(contains(shown.err, "error: out/steps/v1 holds no summary.txt (published by a roofline that "
                              "did not keep the tables); 'roofline run --force' on its scenario "
                              "publishes a version that does\n"));
    auto again = run_roofline(box.path, "run steps.roof --no-charts");
    CHECK(again.exit_code == 0);
    CHECK(again.out == "up to date: out/steps/v1\n");
    CHECK(contains(again.err, "roofline: note: out/steps/v1 holds no summary.txt"));
}
