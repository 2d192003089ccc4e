// The shipped catalog (templates/hardware/) against the reference table
// (shared/reference/hardware.md): dense peaks, HBM bandwidths and capacities.
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <iterator>
#include <optional>

using namespace roofline;

namespace {

struct Expected {
    char const* id;
    double hbm_bytes_per_s;
    double hbm_capacity_bytes;
    char const* dtype;
    double peak;
};

constexpr double GiB = 1073741824.0;

// One value per chip, from the reference table (the value chosen where
// sources disagree is the one named in the catalog's comment).
constexpr Expected expected[] = {
    {"tpu_v4", 1.2e12, 32 * GiB, "bf16", 2.75e14},
    {"tpu_v5e", 8.2e11, 16 * GiB, "int8", 3.94e14},
    {"tpu_v5e", 8.2e11, 16 * GiB, "bf16", 1.97e14},
    {"tpu_v5p", 2.765e12, 95 * GiB, "bf16", 4.59e14},
    {"tpu_v6e", 1.64e12, 32 * GiB, "int8", 1.836e15},
    {"tpu7x", 7.4e12, 192 * GiB, "fp8", 4.614e15},
    {"a100_80gb", 2.039e12, 80e9, "bf16", 3.12e14},
    {"h100_sxm", 3.35e12, 80e9, "bf16", 9.89e14},
    {"h100_sxm", 3.35e12, 80e9, "fp8", 1.979e15},
    {"h100_pcie", 2.0e12, 80e9, "bf16", 7.56e14},
    {"h200", 4.8e12, 141e9, "bf16", 9.89e14},
    {"b200", 8.0e12, 180e9, "fp4", 9.0e15},
    {"mi300x", 5.3e12, 192e9, "bf16", 1.3074e15},
    {"mi325x", 6.0e12, 256e9, "fp8", 2.6149e15},
};

}  // namespace

TEST_CASE("the catalog parses and holds every required chip", "[catalog]") {
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    for (auto const& e : expected) {
        INFO(e.id << " " << e.dtype);
        int index = s.find_hardware(e.id);
        REQUIRE(index >= 0);
        auto const& hw = s.hardware[static_cast<std::size_t>(index)];
        CHECK(hw.hbm_bytes_per_s == e.hbm_bytes_per_s);
        REQUIRE(hw.hbm_capacity_bytes);
        CHECK(*hw.hbm_capacity_bytes == e.hbm_capacity_bytes);
        int dtype = -1;
        for (std::size_t i = 0; i < s.dtypes.size(); ++i)
            if (s.dtypes[i].name == e.dtype) dtype = static_cast<int>(i);
        REQUIRE(hw.peak_for(dtype));
        CHECK(*hw.peak_for(dtype) == e.peak);
    }
    for (auto const& hw : s.hardware) {
        INFO(hw.id);
        CHECK_FALSE(hw.source.empty());
        CHECK(hw.display_name != hw.id);
    }
}

namespace {

// The interconnect of every chip, one-way, by hand from the sources the
// catalog names (0: the field is absent):
// - TPU ICI per link and DCN per chip: How to Scale Your Model, tpus.md
//   (ICI 4.5e10 / 9e10 / 1e11 per link; DCN "6.25e9 bytes / second per TPU
//   (12.5e9 for TPU v6e and TPU7x, and 3.125e9 for TPU v5e)"); wraparound 16
//   on the 16x16 tori of v5e/v6e, 4 (whole cubes) on v4/v5p.
// - NVLink per GPU: the datasheets' bidirectional totals halved (V100 300,
//   A100 600, H100/H200 900, B200 1800 GB/s); 8 GPUs per HGX/DGX board.
// - GPU DCN: one NIC per GPU in the DGX reference systems (A100 200 Gb/s,
//   Hopper/Blackwell 400 Gb/s), bits / 8.
// - Infinity Fabric: 7 links x 128 GB/s bidirectional / 2 = 448 GB/s, a full
//   mesh of 8.
struct Interconnect {
    char const* id;
    double ici, wraparound, nvlink, domain, dcn;
};

constexpr Interconnect interconnects[] = {
    {"tpu_v3", 1e11, 0, 0, 0, 0},
    {"tpu_v4", 4.5e10, 4, 0, 0, 6.25e9},
    {"tpu_v5e", 4.5e10, 16, 0, 0, 3.125e9},
    {"tpu_v5p", 9e10, 4, 0, 0, 6.25e9},
    {"tpu_v6e", 9e10, 16, 0, 0, 12.5e9},
    {"tpu7x", 9e10, 0, 0, 0, 12.5e9},
    {"v100_sxm2", 0, 0, 300e9 / 2, 8, 0},
    {"a100_80gb", 0, 0, 600e9 / 2, 8, 200e9 / 8},
    {"h100_sxm", 0, 0, 900e9 / 2, 8, 400e9 / 8},
    {"h100_pcie", 0, 0, 0, 0, 0},
    {"h200", 0, 0, 900e9 / 2, 8, 400e9 / 8},
    {"b200", 0, 0, 1800e9 / 2, 8, 400e9 / 8},
    {"mi300x", 0, 0, 7 * 128e9 / 2, 8, 0},
    {"mi325x", 0, 0, 7 * 128e9 / 2, 8, 0},
};

double or_zero(std::optional<double> const& value) { return value ? *value : 0; }

}  // namespace

TEST_CASE("the catalog's interconnects: ICI on TPUs, NVLink on GPUs, DCN where documented",
          "[catalog][interconnect]") {
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    CHECK(s.hardware.size() == std::size(interconnects));
    for (auto const& e : interconnects) {
        INFO(e.id);
        int index = s.find_hardware(e.id);
        REQUIRE(index >= 0);
        auto const& hw = s.hardware[static_cast<std::size_t>(index)];
        CHECK(or_zero(hw.ici_bytes_per_s) == e.ici);
        CHECK(or_zero(hw.ici_wraparound) == e.wraparound);
        CHECK(or_zero(hw.nvlink_bytes_per_s) == e.nvlink);
        CHECK(or_zero(hw.nvlink_domain) == e.domain);
        CHECK(or_zero(hw.dcn_bytes_per_s) == e.dcn);
        // No GPU has ICI, no TPU NVLink; the latencies are the defaults.
        CHECK_FALSE((hw.ici_bytes_per_s && hw.nvlink_bytes_per_s));
        CHECK(hw.ici_latency_s == 1e-6);
        CHECK(hw.nvlink_latency_s == 1e-6);
        CHECK(hw.dcn_latency_s == 1e-5);
    }
}

TEST_CASE("the catalog's ridge points match the chapter", "[catalog]") {
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto const& v5e = s.hardware[static_cast<std::size_t>(s.find_hardware("tpu_v5e"))];
    int bf16 = 3;
    REQUIRE(s.dtypes[static_cast<std::size_t>(bf16)].name == "bf16");
    // 1.97e14 / 8.2e11 = 240.2 FLOP/byte (the book's "240").
    CHECK(*v5e.peak_for(bf16) / v5e.hbm_bytes_per_s == Approx(240.24).epsilon(1e-4));
    auto const& h100 = s.hardware[static_cast<std::size_t>(s.find_hardware("h100_sxm"))];
    // 9.89e14 / 3.35e12 = 295.2 (the book's question 5).
    CHECK(*h100.peak_for(bf16) / h100.hbm_bytes_per_s == Approx(295.22).epsilon(1e-4));
}

TEST_CASE("the catalog raises no plausibility warning", "[catalog][plausible]") {
    // Every shipped chip is real, so every number and every ridge point is in
    // the plausible ranges (language.md, section 3.4, "Plausible numbers"),
    // which hold the smallest (TPU v5e 0.82 TB/s, A100 fp32 19.5 TFLOP/s,
    // ridge 9.6) and the largest (B200: 8 TB/s, fp4 9 PFLOP/s, ridge 1,125)
    // with room.
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    CHECK(checked->errors() == "");
    CHECK(checked->diagnostics.all().empty());
}
