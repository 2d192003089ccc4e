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
    CHECK(find_unit("GB")->to_base(3) == 3e9);
    CHECK(find_unit("s")->to_base(2) == 2);
    CHECK(find_unit("ms")->to_base(1) == 1e-3);
    CHECK(find_unit("us")->to_base(1) == 1e-6);
    CHECK(find_unit("ns")->to_base(500) == 5e-7);  // as written, which 500 * 1e-9 is not
    CHECK(find_unit("us")->family == UnitFamily::seconds);
    CHECK_FALSE(find_unit("µs"));
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
        hardware variant extends base { peak bf16 = 3e14 FLOP/s  hbm_bandwidth = 2e12 B/s }
        hardware base { name = "Base" source = "s" hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s
                        peak int8 = 2e14 OP/s })");
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

TEST_CASE("hardware interconnect fields: units, counts and defaults", "[units][interconnect]") {
    auto checked = test::check_text(R"(
        hardware tpu {
            hbm_bandwidth = 1 TB/s
            ici_bandwidth = 45 GB/s
            ici_wraparound = 2 * 8
            ici_latency = 2 us
            dcn_bandwidth = 3.125e9 B/s
            dcn_latency = 0.5 ms
        }
        hardware gpu {
            hbm_bandwidth = 3.35 TB/s
            nvlink_bandwidth = 0.45 TB/s
            nvlink_domain = 8
            nvlink_latency = 500 ns
            dcn_bandwidth = 50 GB/s
        }
        hardware plain { hbm_bandwidth = 1e12 B/s })");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto const& tpu = s.hardware.at(0);
    CHECK(*tpu.ici_bytes_per_s == 4.5e10);
    CHECK(*tpu.ici_wraparound == 16);
    CHECK(tpu.ici_latency_s == 2e-6);
    CHECK(*tpu.dcn_bytes_per_s == 3.125e9);  // a bare number is in B/s
    CHECK(tpu.dcn_latency_s == 5e-4);
    CHECK_FALSE(tpu.nvlink_bytes_per_s);
    CHECK_FALSE(tpu.nvlink_domain);
    CHECK(tpu.nvlink_latency_s == 1e-6);  // the default
    auto const& gpu = s.hardware.at(1);
    CHECK_FALSE(gpu.ici_bytes_per_s);
    CHECK_FALSE(gpu.ici_wraparound);
    CHECK(*gpu.nvlink_bytes_per_s == 4.5e11);
    CHECK(*gpu.nvlink_domain == 8);
    CHECK(gpu.nvlink_latency_s == 5e-7);
    CHECK(*gpu.dcn_bytes_per_s == 5e10);
    // Defaults: 1 us per ICI hop and NVLink step, 10 us per network step.
    auto const& plain = s.hardware.at(2);
    CHECK_FALSE(plain.ici_bytes_per_s);
    CHECK_FALSE(plain.ici_wraparound);
    CHECK_FALSE(plain.nvlink_bytes_per_s);
    CHECK_FALSE(plain.nvlink_domain);
    CHECK_FALSE(plain.dcn_bytes_per_s);
    CHECK(plain.ici_latency_s == 1e-6);
    CHECK(plain.nvlink_latency_s == 1e-6);
    CHECK(plain.dcn_latency_s == 1e-5);
    CHECK(checked->diagnostics.all().empty());  // no plausibility warning either
}

TEST_CASE("hardware interconnect fields are inherited through extends", "[units][interconnect]") {
    auto checked = test::check_text(R"(
        hardware node extends gpu { nvlink_domain = 72  dcn_latency = 20 us }
        hardware gpu { hbm_bandwidth = 8 TB/s  nvlink_bandwidth = 900 GB/s  nvlink_domain = 8
                       nvlink_latency = 2 us  dcn_bandwidth = 50 GB/s }
        hardware slice extends tpu { ici_wraparound = 4 }
        hardware tpu { hbm_bandwidth = 1.2 TB/s  ici_bandwidth = 45 GB/s  ici_wraparound = 16
                       ici_latency = 3 us })");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto const& node = s.hardware.at(static_cast<std::size_t>(s.find_hardware("node")));
    CHECK(*node.nvlink_bytes_per_s == 9e11);  // inherited
    CHECK(*node.nvlink_domain == 72);         // overridden
    CHECK(node.nvlink_latency_s == 2e-6);     // inherited, not the default
    CHECK(*node.dcn_bytes_per_s == 5e10);
    CHECK(node.dcn_latency_s == 2e-5);
    CHECK_FALSE(node.ici_bytes_per_s);
    auto const& gpu = s.hardware.at(static_cast<std::size_t>(s.find_hardware("gpu")));
    CHECK(*gpu.nvlink_domain == 8);  // the base keeps its own
    CHECK(gpu.dcn_latency_s == 1e-5);
    auto const& slice = s.hardware.at(static_cast<std::size_t>(s.find_hardware("slice")));
    CHECK(*slice.ici_bytes_per_s == 4.5e10);
    CHECK(*slice.ici_wraparound == 4);
    CHECK(slice.ici_latency_s == 3e-6);
}

TEST_CASE("hardware interconnect fields: errors at the value or the unit", "[units][interconnect]") {
    // The field is on line 3, from column 3; each error's first line.
    auto first_error = [](std::string const& field) {
        auto checked = test::check_text("hardware h {\n  hbm_bandwidth = 1 TB/s\n  " + field + "\n}\n");
        CHECK(checked->diagnostics.has_errors());
        auto text = checked->errors();
        return text.substr(0, text.find('\n'));
    };
    // Counts: a positive integer, without a unit.
    CHECK(first_error("nvlink_domain = 8 GB") ==
          "test.roof:3:21: error: 'nvlink_domain' is a number of chips and takes no unit, not 'GB'");
    CHECK(first_error("nvlink_domain = 8 GPUs") ==
          "test.roof:3:21: error: 'nvlink_domain' is a number of chips and takes no unit, not 'GPUs'");
    CHECK(first_error("nvlink_domain = 8.5") ==
          "test.roof:3:19: error: 'nvlink_domain' must be a positive integer, not 8.5");
    CHECK(first_error("nvlink_domain = 0") ==
          "test.roof:3:19: error: 'nvlink_domain' must be a positive integer, not 0");
    CHECK(first_error("ici_wraparound = -4") ==
          "test.roof:3:20: error: 'ici_wraparound' must be a positive integer, not -4");
    CHECK(first_error("ici_wraparound = 2^60") ==
          "test.roof:3:20: error: 'ici_wraparound' must be below 2^53 (9007199254740992), not "
          "1152921504606846976");
    CHECK(first_error("nvlink_domain = \"8\"") ==
          "test.roof:3:3: error: field 'nvlink_domain' takes a number, not a string");
    // Bandwidths and times: a unit of their family, a positive value.
    CHECK(first_error("nvlink_bandwidth = 450 GB") ==
          "test.roof:3:26: error: 'nvlink_bandwidth' is in bytes/s, but 'GB' is in bytes");
    CHECK(first_error("dcn_bandwidth = 1 us") ==
          "test.roof:3:21: error: 'dcn_bandwidth' is in bytes/s, but 'us' is in seconds");
    CHECK(first_error("dcn_latency = 10 GB/s") ==
          "test.roof:3:20: error: 'dcn_latency' is in seconds, but 'GB/s' is in bytes/s");
    CHECK(first_error("nvlink_latency = 0 us") ==
          "test.roof:3:20: error: 'nvlink_latency' must be positive and finite, not 0");
    CHECK(first_error("ici_latency = 1 uS") ==
          "test.roof:3:19: error: unknown unit 'uS'; did you mean 'us'?");
    CHECK(first_error("nvlink_domian = 8") ==
          "test.roof:3:3: error: unknown hardware field 'nvlink_domian'; did you mean 'nvlink_domain'?");
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
