// Expressions, units and constants, evaluated through the checker.
#include "helpers.hpp"

#include "roofline/model/units.hpp"

#include <catch2/catch.hpp>

using namespace roofline;

namespace {

double let_value(std::string const& expr, std::string const& extra = "") {
    auto checked = test::check_text(extra + "\nlet X = " + expr + "\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    for (auto const& slot : checked->scenario.slots)
        if (slot.name == "X") return slot.constant;
    FAIL("no X");
    return 0;
}

}  // namespace

TEST_CASE("operator precedence and associativity", "[expressions]") {
    CHECK(let_value("2 + 3 * 4 ^ 2") == 50);
    CHECK(let_value("-2 ^ 2") == -4);
    CHECK(let_value("2 ^ 3 ^ 2") == 512);
    CHECK(let_value("2 ^ -1") == 0.5);
    CHECK(let_value("(1 + 2) * 3") == 9);
    CHECK(let_value("10 - 4 - 3") == 3);
    CHECK(let_value("10 / 4") == 2.5);
    CHECK(let_value("64 / 4 / 2") == 8);
    CHECK(let_value("--3") == 3);
}

TEST_CASE("numbers and functions", "[expressions]") {
    CHECK(let_value("1_000_000") == 1e6);
    CHECK(let_value("8.2e11") == 8.2e11);
    CHECK(let_value("0.5") == 0.5);
    CHECK(let_value("min(3, max(1, 2))") == 2);
    CHECK(let_value("ceil(4096 / 3)") == 1366);
    CHECK(let_value("floor(4096 / 3)") == 1365);
}

TEST_CASE("lets resolve in any order, across scopes", "[expressions]") {
    CHECK(let_value("A * 2", "let A = B + 1\nlet B = 3") == 8);
}

TEST_CASE("units: decimal and binary prefixes, families", "[units]") {
    using model::find_unit;
    using model::UnitFamily;
    CHECK(find_unit("B")->factor == 1);
    CHECK(find_unit("KB")->factor == 1e3);
    CHECK(find_unit("GB")->factor == 1e9);
    CHECK(find_unit("KiB")->factor == 1024);
    CHECK(find_unit("GiB")->factor == 1073741824.0);
    CHECK(find_unit("TiB")->factor == 1099511627776.0);
    CHECK(find_unit("TB/s")->factor == 1e12);
    CHECK(find_unit("TB/s")->family == UnitFamily::bytes_per_s);
    CHECK(find_unit("PFLOP/s")->factor == 1e15);
    CHECK(find_unit("TOP/s")->family == UnitFamily::ops_per_s);
    CHECK_FALSE(find_unit("GBps"));
    CHECK_FALSE(find_unit("gb"));
}

TEST_CASE("hardware quantities are converted to base units", "[units]") {
    auto checked = test::check_text(R"(
        hardware h {
            hbm_bandwidth = 1.5 TB/s
            hbm_capacity = 16 GiB
            peak bf16 = 2 * 100 TFLOP/s
            peak int8 = 400 TOP/s
            ici_bandwidth = 45 GB/s
        })");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& hw = checked->scenario.hardware.at(0);
    CHECK(hw.hbm_bytes_per_s == 1.5e12);
    CHECK(*hw.hbm_capacity_bytes == 16.0 * 1073741824.0);
    CHECK(hw.peaks.size() == 2);
    CHECK(hw.peaks[0].flops_per_s == 2e14);
    CHECK(hw.peaks[1].flops_per_s == 4e14);
    CHECK(*hw.ici_bytes_per_s == 4.5e10);
}

TEST_CASE("a unit of the wrong family is an error at the unit", "[units]") {
    auto checked = test::check_text("hardware h {\n  hbm_bandwidth = 1 B/s\n  peak bf16 = 16 GiB\n}\n");
    CHECK(checked->errors().find("test.roof:3:18: error: 'peak bf16' is in FLOP/s, but 'GiB' is in bytes") !=
          std::string::npos);
}

TEST_CASE("extends copies the base and overrides the fields given", "[units]") {
    auto checked = test::check_text(R"(
        hardware variant extends base { peak bf16 = 3e14  hbm_bandwidth = 2e12 }
        hardware base { name = "Base" source = "s" hbm_bandwidth = 1e12  peak bf16 = 1e14  peak int8 = 2e14 })");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto const& v = s.hardware.at(static_cast<std::size_t>(s.find_hardware("variant")));
    CHECK(v.hbm_bytes_per_s == 2e12);
    CHECK(v.display_name == "variant");
    CHECK(v.source == "s");
    REQUIRE(v.peaks.size() == 2);
    CHECK(v.peaks[0].flops_per_s == 3e14);  // bf16 overridden
    CHECK(v.peaks[1].flops_per_s == 2e14);  // int8 inherited
    // Without a target statement, every hardware is a target, in definition order.
    REQUIRE(s.targets.size() == 2);
    CHECK(s.hardware[static_cast<std::size_t>(s.targets[0])].id == "variant");
}

TEST_CASE("sweeps: ranges, steps, geometric, lists", "[sweeps]") {
    auto checked = test::check_text(R"(
        sweep A = 1 .. 5
        sweep B = 0 .. 10 step 2.5
        sweep C = 1 .. 100 times 4
        sweep D = [3, 1, 2 * 2])");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario.sweeps;
    CHECK(s[0].values == std::vector<double>{1, 2, 3, 4, 5});
    CHECK(s[1].values == std::vector<double>{0, 2.5, 5, 7.5, 10});
    CHECK(s[2].values == std::vector<double>{1, 4, 16, 64});
    CHECK(s[3].values == std::vector<double>{3, 1, 4});
    CHECK(checked->scenario.point_count() == 5 * 5 * 4 * 3);
}
