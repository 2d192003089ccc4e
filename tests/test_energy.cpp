// The `power` hardware field (board power, W) and the cases' `energy` column
// (J: every chip of the case at its board power for t_lower), in cases.csv,
// the Cases sheet (a formula over the Hardware sheet's power cell) and
// `roofline hardware`. Expected values by hand from the formulas.
#include "cases_csv.hpp"
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"
#include "xlsx_support.hpp"

#include "roofline/model/hardware_fields.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::test;

namespace {

// One matmul of B x D by D x F (D = F = 1000) in bf16 on a chip of 2 TB/s and
// 1000 TFLOP/s. At B = 1: 2e6 FLOPs, 2 x (1000 + 1e6 + 1000) = 2,004,000
// bytes, t_math = 2e-9 s, t_comms = 1.002e-6 s = t_lower; at B = 1000: 2e9
// FLOPs, 6e6 bytes, t_math = 2e-6 s, t_comms = 3e-6 s = t_lower.
std::string scenario(std::string const& targets, std::string const& mesh = "") {
    return "scenario \"energy\"\n"
           "hardware chip { hbm_bandwidth = 2 TB/s  peak bf16 = 1000 TFLOP/s  power = 500 W\n"
           "                nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }\n"
           "hardware cold { hbm_bandwidth = 2 TB/s  peak bf16 = 1000 TFLOP/s\n"
           "                nvlink_bandwidth = 450 GB/s  nvlink_domain = 8 }\n"
           "target " + targets + "\n" + mesh +
           "sweep B = [1, 1000]\n"
           "let D = 1000\nlet F = 1000\n"
           "matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
}


std::string letters(std::size_t col) {  // the sheets here have fewer than 26 columns
    REQUIRE(col < 26);
    return std::string(1, static_cast<char>('A' + col));
}

}  // namespace

TEST_CASE("energy: t_lower x power per case, empty for a chip without a power", "[energy]") {
    Sandbox box;
    box.write("e.roof", scenario("chip, cold"));
    auto r = roofline_in(box, "run e.roof --no-charts --quiet");
    REQUIRE(r.exit_code == 0);
    auto rows = read_cases(box / "out/e/v1/cases.csv");
    REQUIRE(rows.size() == 4);
    int seen = 0;
    for (auto const& row : rows) {
        INFO(row.at("hardware") << " at B = " << row.at("B"));
        if (row.at("hardware") == "cold") {
            CHECK(row.at("energy").empty());
            continue;
        }
        double const expected = row.at("B") == "1" ? 1.002e-6 * 500 : 3e-6 * 500;  // 5.01e-4 J, 1.5e-3 J
        CHECK(xlsx::close(number(row, "energy"), expected, 1e-12));
        CHECK(xlsx::close(number(row, "energy"), number(row, "t_lower") * 500, 1e-15));
        ++seen;
    }
    CHECK(seen == 2);
}

TEST_CASE("energy: no column where no target has a power", "[energy]") {
    Sandbox box;
    box.write("e.roof", scenario("cold"));
    REQUIRE(roofline_in(box, "run e.roof --no-charts --quiet").exit_code == 0);
    auto rows = read_cases(box / "out/e/v1/cases.csv");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].count("energy") == 0);
    CHECK(rows[0].count("t_lower") == 1);
}

TEST_CASE("energy: on a mesh, every chip of the case", "[energy]") {
    Sandbox box;
    // The matmul is not split: each of the 4 chips runs all of it, for the
    // same t_lower as one chip alone.
    box.write("e.roof", scenario("chip", "mesh tp = 4 over nvlink\n"));
    REQUIRE(roofline_in(box, "run e.roof --no-charts --quiet").exit_code == 0);
    auto rows = read_cases(box / "out/e/v1/cases.csv");
    REQUIRE(rows.size() == 2);
    for (auto const& row : rows) {
        INFO("B = " << row.at("B"));
        CHECK(row.at("chips") == "4");
        double const t_lower = row.at("B") == "1" ? 1.002e-6 : 3e-6;
        CHECK(xlsx::close(number(row, "t_lower"), t_lower, 1e-12));
        CHECK(xlsx::close(number(row, "energy"), 4 * 500 * t_lower, 1e-12));
    }
}

TEST_CASE("energy: the Cases sheet's formula over the Hardware sheet's power, recalculated and edited",
          "[energy][xlsx][libreoffice]") {
    Sandbox box;
    box.write("e.roof", scenario("chip, cold"));
    REQUIRE(roofline_in(box, "run e.roof --no-charts --quiet").exit_code == 0);
    auto const book = box / "out/e/v1/report.xlsx";
    auto dump = xlsx::run_tool("dump " + quoted(book));
    std::size_t const energy = xlsx::header_column(dump, "Cases", "energy");
    std::size_t const t_lower = xlsx::header_column(dump, "Cases", "t_lower");
    std::size_t const power = xlsx::header_column(dump, "Hardware", "power (W)");
    std::size_t const sweep = xlsx::header_column(dump, "Cases", "B");
    // chip is the Hardware sheet's row 2, cold's row 3 (no power: no value).
    CHECK(xlsx::cell(dump, "Hardware", 1, power).at("v") == 500);
    CHECK_FALSE(xlsx::cell(dump, "Hardware", 2, power).is_object());
    for (std::size_t row = 1; row <= 4; ++row) {
        auto const& c = xlsx::cell(dump, "Cases", row, energy);
        auto const& hw = xlsx::cell(dump, "Cases", row, xlsx::header_column(dump, "Cases", "hardware"));
        INFO("row " << row << ": " << hw.dump());
        if (hw.at("v") == "cold") {
            CHECK_FALSE(c.is_object());  // an empty cell, not a formula over an empty one
            continue;
        }
        // append, not "literal" + a temporary: GCC 12 -O3's false -Wrestrict.
        std::string const formula = std::string("=")
                                        .append(letters(t_lower))
                                        .append(std::to_string(row + 1))
                                        .append("*Hardware!$")
                                        .append(letters(power))
                                        .append("$2");
        CHECK(c.at("f").get<std::string>() == formula);
    }

    // Recalculated from poisoned caches, then with chip's power halved.
    auto poisoned = box / "poisoned.xlsx";
    xlsx::run_tool("poison " + quoted(book) + " " + quoted(poisoned));
    auto before = xlsx::run_tool("recalc " + quoted(poisoned) + " " + quoted(box / "work"));
    auto edited = box / "edited.xlsx";
    xlsx::run_tool("set " + quoted(book) + " Hardware " + letters(power) + "2 250 " + quoted(edited));
    auto after = xlsx::run_tool("recalc " + quoted(edited) + " " + quoted(box / "work2"));
    auto const& rows = before.at("sheets").at("Cases");
    auto const& rows2 = after.at("sheets").at("Cases");
    REQUIRE(rows.size() == 5);
    REQUIRE(rows2.size() == 5);
    int seen = 0;
    for (std::size_t row = 1; row <= 4; ++row) {
        if (rows[row][energy].get<std::string>().empty()) continue;  // cold's
        std::string const B = rows[row][sweep].get<std::string>();
        double const expected = B == "1" ? 5.01e-4 : 1.5e-3;
        INFO("B = " << B);
        CHECK(xlsx::close(std::stod(rows[row][energy].get<std::string>()), expected, 1e-12));
        CHECK(xlsx::close(std::stod(rows2[row][energy].get<std::string>()), expected / 2, 1e-12));
        ++seen;
    }
    CHECK(seen == 2);
}

TEST_CASE("power: in watts, shown by roofline hardware", "[energy]") {
    // The catalog's H100 SXM: 700 W (NVIDIA H100 datasheet, SXM max TDP).
    auto r = run_roofline(".", "hardware h100_sxm");
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "power             700 W\n"));
    auto checked = check_text("hardware c { hbm_bandwidth = 1 TB/s  power = 1.2 kW }\n");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    CHECK(model::field_number(checked->scenario.hardware.at(0), model::hardware_field("power")) == 1200);
    auto bad = check_text("hardware c { hbm_bandwidth = 1 TB/s  power = 5 GB/s }\n");
    CHECK(contains(bad->errors(), "'power' is in watts, but 'GB/s' is in bytes/s"));
}
