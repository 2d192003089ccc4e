// The Summary sheet puts the Plan, with its edge notes, before the Step
// section (issue 21, point 9: in the workbook's PDF the Plan sat at row 158,
// under a 144-row step table). Rows found by their text, never by number.
#include "xlsx_support.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace roofline;
using namespace roofline::test::xlsx;

namespace {

// The first row at or after `from` whose first cell is `first`; rows.size() when none.
std::size_t row_of(json const& rows, std::string const& first, std::size_t from = 0) {
    for (std::size_t i = from; i < rows.size(); ++i)
        if (!rows[i].empty() && rows[i][0].is_object() && rows[i][0].at("v") == first) return i;
    return rows.size();
}

}  // namespace

TEST_CASE("the Summary sheet: the Plan and its edge notes come before the Step section",
          "[xlsx][plan]") {
    // One column-parallel matmul (no collective): weights 32768 x 32768 bf16
    // = 2,147,483,648 B, in 2 GB on no one chip. TP = 4 at B = 64: bytes
    // 2 (64 x 32768 + 32768 x 8192 + 64 x 8192) = 542,113,792 B, 0.542 ms
    // within the slo: the best row, at the last value of B and of TP, so
    // two edge notes follow the Plan.
    Report r(R"(
        hardware g { hbm_bandwidth = 1e12 B/s  hbm_capacity = 2 GB  peak bf16 = 1e15 FLOP/s  nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }
        target g
        sweep TP = [1, 2, 4]
        sweep B = [1, 64]
        mesh tp = TP over nvlink
        let D = 32768
        let F = 32768
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        tokens = B
        slo step <= 1.075 ms)");
    Sandbox dir;
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    auto const& summary = dump.at("cells").at("Summary");
    std::size_t const plan =
        row_of(summary, "Plan: at each mesh size, the point with the most tokens/s per chip");
    std::size_t const step = row_of(
        summary,
        "Step: sum of count x time over the cases (each op, then its collectives), per chip of the "
        "mesh (all at once)");
    REQUIRE(plan < summary.size());
    REQUIRE(step < summary.size());
    CHECK(plan < step);
    // The Plan's rows (TP = 1, 2, 4) and both edge notes lie between them.
    std::size_t const b_edge =
        row_of(summary, "g *: TP = 4: B = 64 is the last value of sweep B: the best may lie beyond it", plan);
    std::size_t const tp_edge =
        row_of(summary, "g *: TP = 4 is the last value of sweep TP: the best may lie beyond it", plan);
    CHECK(b_edge < step);
    CHECK(tp_edge < step);
    CHECK(row_of(summary, "hardware", plan) < b_edge);  // the Plan's header
    CHECK(step < row_of(summary, "Per target and op"));
}
