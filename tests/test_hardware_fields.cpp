// The hardware fields table (model/hardware_fields.hpp) and what reads it:
// the checker, the Hardware sheet's columns and the `{hw.<field>}` cells.
#include "helpers.hpp"

#include "report/hardware_columns.hpp"
#include "roofline/model/hardware_fields.hpp"
#include "roofline/model/units.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using namespace roofline;

namespace {

std::vector<std::string> settable_names() {
    std::vector<std::string> names;
    for (auto const& field : model::hardware_fields())
        if (field.settable) names.emplace_back(field.name);
    return names;
}

// Whether `expected` appear in `names` in this order (other names may come
// between them: a new field moves none of these).
bool in_order(std::vector<std::string> const& names, std::vector<std::string> const& expected) {
    std::size_t k = 0;
    for (auto const& name : names)
        if (k < expected.size() && name == expected[k]) ++k;
    return k == expected.size();
}

}  // namespace

TEST_CASE("the checker accepts the table's settable fields, each with its unit", "[hardware_fields]") {
    CHECK(in_order(settable_names(),
          std::vector<std::string>{"name", "hbm_bandwidth", "hbm_capacity", "ici_bandwidth",
                                   "ici_wraparound", "ici_latency", "nvlink_bandwidth",
                                   "nvlink_domain", "nvlink_latency", "dcn_bandwidth",
                                   "dcn_latency", "peak", "onchip_capacity", "onchip_bandwidth",
                                   "source"}));
    CHECK(settable_names().back() == "source");
    CHECK_FALSE(model::hardware_field("id").settable);
    CHECK_FALSE(model::hardware_field("extends").settable);
    // Every field at once, each stored where the table says.
    auto checked = test::check_text(R"(
hardware chip { name = "Chip" source = "by hand" hbm_bandwidth = 2 TB/s hbm_capacity = 80 GB
                ici_bandwidth = 50 GB/s ici_wraparound = 4 ici_latency = 2 us
                nvlink_bandwidth = 450 GB/s nvlink_domain = 8 nvlink_latency = 3 us
                dcn_bandwidth = 25 GB/s dcn_latency = 20 us peak bf16 = 1000 TFLOP/s
                onchip_capacity = 64 MiB onchip_bandwidth = 20 TB/s }
)");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& hw = checked->scenario.hardware.at(0);
    CHECK(hw.display_name == "Chip");
    CHECK(hw.source == "by hand");
    CHECK(hw.hbm_bytes_per_s == 2e12);
    CHECK(hw.hbm_capacity_bytes == 80e9);
    CHECK(hw.ici_bytes_per_s == 50e9);
    CHECK(hw.ici_wraparound == 4);
    CHECK(hw.ici_latency_s == 2e-6);
    CHECK(hw.nvlink_bytes_per_s == 450e9);
    CHECK(hw.nvlink_domain == 8);
    CHECK(hw.nvlink_latency_s == 3e-6);
    CHECK(hw.dcn_bytes_per_s == 25e9);
    CHECK(hw.dcn_latency_s == 2e-5);
    REQUIRE(hw.peaks.size() == 1);
    CHECK(hw.peaks[0].flops_per_s == 1e15);
    CHECK(hw.onchip_capacity_bytes == 64.0 * 1024 * 1024);
    CHECK(hw.onchip_bytes_per_s == 20e12);
    // The table's id is the block's name, not a field of it.
    auto bad = test::check_text("hardware c { hbm_bandwidth = 1 TB/s id = \"x\" }\n");
    CHECK(test::contains(bad->errors(), "unknown hardware field 'id'"));
}

TEST_CASE("every quantity field's unit family is one of units.cpp's", "[hardware_fields]") {
    for (auto const& field : model::hardware_fields()) {
        INFO(field.name);
        bool const quantity =
            field.kind == model::FieldKind::quantity || field.kind == model::FieldKind::per_dtype;
        CHECK(model::is_unit_family(field.family) == quantity);
    }
    CHECK(model::family_name(model::UnitFamily::bytes_per_s) == "bytes/s");
    CHECK(model::family_name(model::UnitFamily{"FLOP/s"}) == "FLOP/s");
    CHECK(model::find_unit("POP/s")->family == model::UnitFamily::ops_per_s);
    CHECK(*model::range_problem(model::UnitFamily::seconds, 1e7) == "from 1e-15 s to 1e+06 s, not 1e+07 s");
    CHECK_THROWS_AS(model::family_name(model::UnitFamily{"W/m"}), std::logic_error);
}

TEST_CASE("the Hardware sheet's headers are the table's, in the table's order", "[hardware_fields]") {
    auto columns = report::hardware_columns({"bf16", "int8"});
    CHECK(in_order(columns.headers,
          std::vector<std::string>{"id", "name", "hbm_bandwidth (B/s)", "hbm_capacity (B)",
                                   "ici_bandwidth (B/s)", "ici_wraparound", "nvlink_bandwidth (B/s)",
                                   "nvlink_domain", "dcn_bandwidth (B/s)", "peak bf16 (FLOP/s)",
                                   "peak int8 (FLOP/s)", "ridge bf16 (FLOP/B)", "ridge int8 (FLOP/B)",
                                   "onchip_capacity (B)", "onchip_bandwidth (B/s)", "extends", "source"}));
    // Sheet columns in the table's order: the fields the sheet shows, the
    // peak spread over its dtypes.
    std::vector<std::string> from_table;
    for (auto const& field : model::hardware_fields()) {
        if (field.sheet == model::SheetStyle::none) continue;
        if (field.kind == model::FieldKind::per_dtype) {
            for (char const* d : {"bf16", "int8"})
                from_table.push_back(std::string(field.header) + " " + d + " (FLOP/s)");
            for (char const* d : {"bf16", "int8"}) from_table.push_back(std::string("ridge ") + d + " (FLOP/B)");
        } else {
            from_table.emplace_back(field.header);
        }
    }
    CHECK(columns.headers == from_table);
    CHECK(columns.column("hbm_bandwidth") == 2);
    CHECK(columns.peak0 == 9);
    CHECK(columns.ridge0 == 11);
    CHECK(columns.column("onchip_bandwidth") == 14);
    CHECK(columns.column("source") == columns.headers.size() - 1);  // the sheet's last
    CHECK_THROWS_AS(columns.column("ici_latency"), std::logic_error);  // not in the sheet
}

TEST_CASE("{hw.<field>} is a Hardware cell found by name, an unknown field is a logic error",
          "[hardware_fields]") {
    CHECK(report::formula_field("hbm_bandwidth") == model::hardware_field_index("hbm_bandwidth"));
    CHECK_THROWS_AS(report::formula_field("bandwidth"), std::logic_error);
    CHECK_THROWS_AS(report::formula_field("power_typo"), std::logic_error);
    CHECK_THROWS_AS(report::formula_field("dcn_latency"), std::logic_error);  // not in the sheet

    model::Hardware with, without;
    with.hbm_bytes_per_s = without.hbm_bytes_per_s = 1e12;
    with.onchip_bytes_per_s = 2e13;
    with.peaks = {{0, 1e15}};
    auto columns = report::hardware_columns({"bf16", "int8"});
    auto cells = report::hardware_cells(columns, {&with, &without}, {0, 1});
    auto const bandwidth = model::hardware_field_index("hbm_bandwidth");
    auto const onchip = model::hardware_field_index("onchip_bandwidth");
    auto const peak = model::hardware_field_index("peak");
    CHECK(cells.of(bandwidth, 0, 0) == "Hardware!$C$2");
    CHECK(cells.of(bandwidth, 1, 0) == "Hardware!$C$3");
    CHECK(cells.of(onchip, 0, 0) == "Hardware!$O$2");
    CHECK(cells.of(onchip, 1, 0).empty());  // the engine's value instead of a formula
    CHECK(cells.of(peak, 0, 0) == "Hardware!$J$2");
    CHECK(cells.of(peak, 0, 1).empty());  // no int8 peak
    CHECK(cells.of(peak, 1, 0).empty());
}
