// The workbook's Charts sheet on a mesh: the roofline chart has the network
// roof the PNG roofline has (chart_detail::network_roofs), as a series.
#include "xlsx_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using namespace roofline;
using namespace roofline::test::xlsx;

TEST_CASE("xlsx: on a mesh the roofline chart has the network roof", "[xlsx][multichip]") {
    Sandbox dir;
    // down over tp = 2 on a slow switch: its AllReduce of V = 2 B D bytes
    // receives 2 (N-1)/N V = 2 B D bytes per chip in that / 1e10 s (above
    // the latency floor), 1e10 B/s; the ridge at 1e14 / 1e10 = 1e4 FLOP/B.
    // Per chip: 2 B 1000 2000 FLOPs over 2 (2000 B + 2e6 + 1000 B) bytes,
    // intensity 4e8 / 4.6e6 = 87 at B = 100 and 4e9 / 1e7 = 400 at B = 1000.
    // x: from the decade below min(87, HBM ridge 100 / 4) = 25: 10, to the
    // one above 4 x the network ridge, 4e4: 1e5. The roof from (10, 1e10 x
    // 10) to the ridge (1e4, 1e14); y from the decade below 1e11.
    Report r(R"(
hardware slow {
    hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s
    nvlink_bandwidth = 1e10 B/s  nvlink_domain = 8
}
target slow
sweep B = [100, 1000]
mesh tp = 2 over nvlink
let D = 1000
let F = 4000
matmul down = bf16[B, F@tp] * weight bf16[F@tp, D] -> bf16[B, D]
)");
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    REQUIRE(dump.at("charts").size() == 1);
    auto const& chart = dump.at("charts")[0];
    auto const& series = chart.at("series");
    REQUIRE(series.size() == 3);  // roof bf16, the network roof, down
    CHECK(range_text(dump, series[0].at("refs")[0]) == "roof bf16");
    CHECK(range_text(dump, series[1].at("refs")[0]) == "network roof (NVLink, 10 GB/s received per chip)");
    CHECK(range_text(dump, series[2].at("refs")[0]) == "down");
    auto const x = range_values(dump, series[1].at("refs")[1]);
    auto const y = range_values(dump, series[1].at("refs")[2]);
    REQUIRE(x.size() == 2);
    REQUIRE(y.size() == 2);
    CHECK(close(x[0], 10, 1e-12));
    CHECK(close(y[0], 1e11, 1e-12));
    CHECK(close(x[1], 1e4, 1e-12));
    CHECK(close(y[1], 1e14, 1e-12));
    CHECK(close(chart.at("axis_max")[0].get<double>(), 1e5, 1e-12));
    CHECK(close(chart.at("axis_min")[1].get<double>(), 1e11, 1e-12));

    // Without a mesh, no network roof.
    Report one(R"(
hardware slow { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
target slow
sweep B = [100, 1000]
let D = 1000
let F = 4000
matmul down = bf16[B, F] * weight bf16[F, D] -> bf16[B, D]
)");
    auto one_path = dir / "one.xlsx";
    one.write(one_path);
    auto one_dump = run_tool("dump " + quoted(one_path));
    CHECK(one_dump.at("charts")[0].at("series").size() == 2);
}
