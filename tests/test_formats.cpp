// `run --formats csv,xlsx,charts`: what a version holds, what its manifest
// says, the up-to-date check over the formats, and `diff` on a version
// without a workbook (issue 21, point 9).
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
using namespace roofline::test;

namespace {

nlohmann::json manifest_of(fs::path const& version) {
    return nlohmann::json::parse(read_file(version / "manifest.json"));
}

}  // namespace

TEST_CASE("run --formats chooses the files of a version, and the manifest says which",
          "[run][formats]") {
    Sandbox box;
    box.write("steps.roof", std::string(step::scenario).append("tokens = B\n"));
    auto csv = run_roofline(box.path, "run steps.roof --formats csv");
    INFO(csv.out << csv.err);
    REQUIRE(csv.exit_code == 0);
    // 2 targets x 3 points x 2 ops (proj, up) = 12 cases.
    CHECK(csv.out.rfind("published out/steps/v1: 12 cases in ", 0) == 0);
    auto const v1 = box / "out/steps/v1";
    CHECK(fs::exists(v1 / "cases.csv"));
    CHECK(fs::exists(v1 / "summary.txt"));
    CHECK_FALSE(fs::exists(v1 / "report.xlsx"));
    CHECK_FALSE(fs::exists(v1 / "charts"));
    check_complete(v1);
    CHECK(manifest_of(v1)["formats"] == nlohmann::json({"csv"}));
    CHECK(manifest_of(v1)["charts"] == false);

    // The same formats: up to date. Other formats: a new version, each way.
    CHECK(run_roofline(box.path, "run steps.roof --formats csv -q").out ==
          "up to date: out/steps/v1\n");
    auto both = run_roofline(box.path, "run steps.roof --no-charts -q");
    CHECK(both.out.rfind("published out/steps/v2: ", 0) == 0);
    CHECK(fs::exists(box / "out/steps/v2/report.xlsx"));
    CHECK(manifest_of(box / "out/steps/v2")["formats"] == nlohmann::json({"csv", "xlsx"}));
    CHECK(run_roofline(box.path, "run steps.roof --formats xlsx,csv -q").out ==
          "up to date: out/steps/v2\n");  // the order does not matter
    auto xlsx = run_roofline(box.path, "run steps.roof --formats xlsx -q");
    CHECK(xlsx.out.rfind("published out/steps/v3: ", 0) == 0);
    CHECK_FALSE(fs::exists(box / "out/steps/v3/cases.csv"));
    CHECK(fs::exists(box / "out/steps/v3/report.xlsx"));
    CHECK(run_roofline(box.path, "run steps.roof --formats csv -q").out.rfind(
              "published out/steps/v4: ", 0) == 0);  // v3 lacks the CSV

    // diff reads cases.csv alone: a version without a workbook compares; one
    // without cases.csv is refused, saying why.
    auto diff = run_roofline(box.path, "diff steps@v1 steps@v2 --no-charts");
    INFO(diff.out << diff.err);
    CHECK(diff.exit_code == 0);
    CHECK(contains(diff.out, "speedup 1.00\u00d7 (geometric mean of 12 matched cases"));
    auto refused = run_roofline(box.path, "diff steps@v1 steps@v3 --no-charts");
    CHECK(refused.exit_code == 1);
    CHECK(refused.err ==
          "roofline: error: out/steps/v3: published without cases.csv (run --formats xlsx), "
          "which diff reads; run its scenario again with csv in --formats\n");
}

TEST_CASE("run --formats takes csv, xlsx and charts only, and not against --no-charts",
          "[run][formats]") {
    Sandbox box;
    box.write("steps.roof", std::string(step::scenario).append("tokens = B\n"));
    auto bad = run_roofline(box.path, "run steps.roof --formats csv,pdf");
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "error: --formats takes a list of csv, xlsx and charts "
                            "(--formats csv,charts), not 'csv,pdf'"));
    auto empty = run_roofline(box.path, "run steps.roof --formats ''");
    CHECK(empty.exit_code == 2);
    auto both = run_roofline(box.path, "run steps.roof --formats csv,charts --no-charts");
    CHECK(both.exit_code == 2);
    CHECK(contains(both.err, "error: --no-charts contradicts --formats with charts"));
    CHECK_FALSE(fs::exists(box / "out"));
}
