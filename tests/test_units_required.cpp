// Every quantity of a hardware block names its unit (issue 21, point 4): a
// bare number used to be read in base units, `hbm_capacity = 80` as 80 bytes.
// And capacities have plausible ranges, as bandwidths and peaks do.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "roofline/model/hardware_fields.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace roofline;

namespace {

// The field on line 3 of a chip that has its bandwidth.
std::unique_ptr<test::Checked> chip_with(std::string const& field) {
    return test::check_text("hardware h {\n    hbm_bandwidth = 1 TB/s\n    " + field + "\n}\n");
}

}  // namespace

TEST_CASE("a bare number in a quantity field is an error naming its unit family", "[units][hardware]") {
    // "    hbm_capacity = " is 19 characters: the value starts at column 20.
    auto checked = chip_with("hbm_capacity = 80");
    CHECK(checked->errors() ==
          "test.roof:3:20: error: 'hbm_capacity' needs a unit of bytes (B, KB, MB, GB, TB, KiB, MiB, "
          "GiB or TiB), not a bare 80\n"
          "    hbm_capacity = 80\n"
          "                   ^~\n");
    // The caret spans the whole expression the unit would apply to.
    checked = chip_with("peak bf16 = 2 * 495");
    CHECK(test::contains(checked->errors(),
                         "test.roof:3:17: error: 'peak bf16' needs a unit of FLOP/s (FLOP/s, GFLOP/s, "
                         "TFLOP/s, PFLOP/s, OP/s, GOP/s, TOP/s or POP/s), not a bare 990\n"
                         "    peak bf16 = 2 * 495\n"
                         "                ^~~~~~~\n"));
    // The bandwidth itself: a chip of one field, `hardware h { hbm_bandwidth = 3350 }`.
    checked = test::check_text("hardware h { hbm_bandwidth = 3350 }\n");
    CHECK(checked->errors() ==
          "test.roof:1:30: error: 'hbm_bandwidth' needs a unit of bytes/s (B/s, KB/s, MB/s, GB/s or "
          "TB/s), not a bare 3350\n"
          "hardware h { hbm_bandwidth = 3350 }\n"
          "                             ^~~~\n");
}

TEST_CASE("every quantity field of the hardware table needs its unit; counts take none",
          "[units][hardware]") {
    // By hand from language.md's field table: each quantity's unit family.
    std::map<std::string, std::string> const family = {
        {"hbm_bandwidth", "bytes/s"},   {"hbm_capacity", "bytes"},       {"ici_bandwidth", "bytes/s"},
        {"ici_latency", "seconds"},     {"nvlink_bandwidth", "bytes/s"}, {"nvlink_latency", "seconds"},
        {"dcn_bandwidth", "bytes/s"},   {"dcn_latency", "seconds"},      {"peak", "FLOP/s"},
        {"onchip_capacity", "bytes"},   {"onchip_bandwidth", "bytes/s"}, {"power", "watts"},
        {"price", "US dollars per hour"},
    };
    std::size_t quantities = 0;
    for (auto const& field : model::hardware_fields()) {
        if (!field.settable) continue;
        std::string name(field.name);
        if (field.kind == model::FieldKind::count) {
            // A number of chips: a bare number, accepted.
            auto checked = chip_with(name + " = 8");
            INFO(name << ": " << checked->errors());
            CHECK_FALSE(checked->diagnostics.has_errors());
            continue;
        }
        if (field.kind == model::FieldKind::text) continue;
        ++quantities;
        INFO(name);
        REQUIRE(family.count(name) == 1);  // a new quantity field: add its family above
        std::string key = name == "peak" ? "peak bf16" : name;
        auto checked = name == "hbm_bandwidth"
                           ? test::check_text("hardware h {\n\n    hbm_bandwidth = 5\n}\n")
                           : chip_with(key + " = 5");
        // The value at column 5 + the length of "KEY = ".
        CHECK(test::contains(checked->errors(), "test.roof:3:" + std::to_string(5 + key.size() + 3) +
                                                    ": error: '" + key + "' needs a unit of " +
                                                    family.at(name) + " ("));
        CHECK(test::contains(checked->errors(), "), not a bare 5\n"));
    }
    CHECK(quantities == family.size());
}

TEST_CASE("roofline check: a bare hardware number exits 1 with the error at the value",
          "[units][hardware][cli]") {
    test::Sandbox box;
    box.write("chip.roof", "hardware h {\n    hbm_bandwidth = 3.35 TB/s\n    hbm_capacity = 80\n}\n");
    auto r = test::roofline_in(box, "check chip.roof");
    CHECK(r.exit_code == 1);
    CHECK(test::contains(r.err, "chip.roof:3:20: error: 'hbm_capacity' needs a unit of bytes ("));
    box.write("chip.roof", "hardware h {\n    hbm_bandwidth = 3.35 TB/s\n    hbm_capacity = 80 GB\n}\n");
    CHECK(test::roofline_in(box, "check chip.roof").exit_code == 0);
}

TEST_CASE("capacities outside their plausible ranges are warnings at the value", "[units][plausible]") {
    // 80 MB: below 1 GB. The slip that lands in 1 GB .. 10 TB nearest its
    // middle (10^11 in log scale): 80 MB x 1000 = 8e10 B (10^10.9; x 10^6 =
    // 8e13 is past 10 TB).
    auto checked = chip_with("hbm_capacity = 80 MB");
    CHECK_FALSE(checked->diagnostics.has_errors());
    CHECK(checked->errors() ==
          "test.roof:3:20: warning: hbm_capacity = 8e+07 B (80 MB) is outside the plausible 1 GB .. "
          "10 TB; did you mean 8e+10 B = 80 GB?\n"
          "    hbm_capacity = 80 MB\n"
          "                   ^~\n");
    // 80 TB: past 10 TB; 80 TB / 1000 = 8e10 B again.
    checked = chip_with("hbm_capacity = 80 TB");
    CHECK(test::contains(checked->errors(), "warning: hbm_capacity = 8e+13 B (80 TB) is outside the "
                                            "plausible 1 GB .. 10 TB; did you mean 8e+10 B = 80 GB?"));
    // On chip: 50 KB is below 100 KB; of 5e7 (10^7.7) and 5e10 (10^10.7) the
    // nearer the middle of 10^5 .. 10^11 (10^8) is 5e7 B = 50 MB.
    checked = chip_with("onchip_capacity = 50 KB");
    CHECK(test::contains(checked->errors(),
                         "test.roof:3:23: warning: onchip_capacity = 5e+04 B (50 kB) is outside the "
                         "plausible 100 kB .. 100 GB; did you mean 5e+07 B = 50 MB?"));
    // Inside the ranges (and at their ends, inclusive): silent.
    for (auto const* field : {"hbm_capacity = 1 GB", "hbm_capacity = 10 TB", "hbm_capacity = 192 GB",
                              "onchip_capacity = 100 KB", "onchip_capacity = 100 GB",
                              "onchip_capacity = 228 * 132 KiB"}) {
        INFO(field);
        CHECK(chip_with(field)->errors().empty());
    }
    // A chip that extends another warns about its own numbers only.
    checked = test::check_text("hardware a { hbm_bandwidth = 1 TB/s  hbm_capacity = 80 MB }\n"
                               "hardware b extends a { hbm_bandwidth = 2 TB/s }\n");
    auto text = checked->errors();
    CHECK(text.find("warning: hbm_capacity") != std::string::npos);
    CHECK(text.find("warning: hbm_capacity") == text.rfind("warning: hbm_capacity"));
}
