// The shipped catalog (templates/hardware/) against the reference table
// (shared/reference/hardware.md): dense peaks, HBM bandwidths and capacities.
#include "helpers.hpp"

#include "roofline/model/hardware_fields.hpp"

#include <catch2/catch.hpp>

#include <iterator>
#include <map>
#include <optional>
#include <string>

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
constexpr double MiB = 1048576.0;

// One value per chip, from the reference table (the value chosen where
// sources disagree is the one named in the catalog's comment). NVIDIA's
// capacities are what the driver reports (PyTorch's "total capacity of N
// GiB"), in whole MiB: 79.11 GiB x 1024 = 81,008.64 -> 81008 MiB.
constexpr Expected expected[] = {
    {"tpu_v4", 1.2e12, 32 * GiB, "bf16", 2.75e14},
    {"tpu_v5e", 8.2e11, 16 * GiB, "int8", 3.94e14},
    {"tpu_v5e", 8.2e11, 16 * GiB, "bf16", 1.97e14},
    {"tpu_v5p", 2.765e12, 95 * GiB, "bf16", 4.59e14},
    {"tpu_v6e", 1.64e12, 32 * GiB, "int8", 1.836e15},
    {"tpu7x", 7.4e12, 192 * GiB, "fp8", 4.614e15},
    {"a100_80gb", 2.039e12, 81049 * MiB, "bf16", 3.12e14},  // 79.15 GiB
    {"h100_sxm", 3.35e12, 81008 * MiB, "bf16", 9.89e14},  // 79.11 GiB
    {"h100_sxm", 3.35e12, 81008 * MiB, "fp8", 1.979e15},
    {"h100_pcie", 2.0e12, 81008 * MiB, "bf16", 7.56e14},
    {"h200", 4.8e12, 143155 * MiB, "bf16", 9.89e14},  // 139.80 GiB x 1024 = 143,155.2
    {"b200", 8.0e12, 182630 * MiB, "fp4", 9.0e15},  // 178.35 GiB x 1024 = 182,630.4
    {"mi300x", 5.3e12, 192e9, "bf16", 1.3074e15},
    {"mi325x", 6.0e12, 256e9, "fp8", 2.6149e15},
    // Not in the reference table: the vendors' figures per GPU, as the entries name them.
    // HGX B300: fp4 108 PFLOPS dense / 8 = 1.35e16 (1.5 x B200's 9e15); int8 cut to 0.15 POPS.
    {"b300", 8.0e12, 274114 * MiB, "fp4", 1.35e16},  // 267.69 GiB x 1024 = 274,114.56
    {"b300", 8.0e12, 274114 * MiB, "int8", 1.5e14},
    {"b300", 8.0e12, 274114 * MiB, "bf16", 2.25e15},  // 36 PFLOPS sparse / 8 / 2
    // GB200 NVL72 / 72: 576 TB/s -> 8 TB/s, fp4 1,440 PFLOPS sparse -> 1e16 dense; 184.31 GiB
    // reported (x 1024 = 188,733.44 MiB).
    {"gb200", 8.0e12, 188733 * MiB, "fp4", 1.0e16},
    {"gb200", 8.0e12, 188733 * MiB, "bf16", 2.5e15},  // 360 PFLOPS sparse / 72 / 2
    // GB300 NVL72 / 72: fp4 1,080 PFLOPS dense -> 1.5e16; int8 24 POPS sparse / 72 / 2.
    {"gb300", 8.0e12, 279e9, "fp4", 1.5e16},
    {"gb300", 8.0e12, 279e9, "int8", 1.667e14},  // 24e15 / 72 / 2 = 1.6667e14, to 4 digits
    // MI355X: 256 CUs x 2.4 GHz x 4096 (bf16) or 16384 (fp4) FLOP/clk/CU, to 5 digits.
    {"mi355x", 8.0e12, 288e9, "bf16", 2.5166e15},
    {"mi355x", 8.0e12, 288e9, "fp4", 1.0066e16},
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
    // NVLink5 1.8 TB/s bidirectional / 2; 8 per HGX board, 72 per NVL72 rack;
    // ConnectX-8 800 Gb/s per GPU on Blackwell Ultra, ConnectX-7 400 Gb/s on GB200.
    {"b300", 0, 0, 1800e9 / 2, 8, 800e9 / 8},
    {"gb200", 0, 0, 1800e9 / 2, 72, 400e9 / 8},
    {"gb300", 0, 0, 1800e9 / 2, 72, 800e9 / 8},
    // Infinity Fabric: 7 links x 153.6 GB/s bidirectional / 2; a 400 Gb/s NIC per GPU.
    {"mi355x", 0, 0, 7 * 153.6e9 / 2, 8, 400e9 / 8},
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
    // ridge 9.6) and the largest (8 TB/s on Blackwell and MI355X; GB300 fp4
    // 15 PFLOP/s, ridge 1.5e16 / 8e12 = 1,875) with room.
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    CHECK(checked->errors() == "");
    CHECK(checked->diagnostics.all().empty());
}

namespace {

// The block-scaled peaks, by the rules of the catalog's headers (0: none).
// nvfp4 and mxfp4 run at the fp4 rate where the tensor cores take the format
// directly (Blackwell: both; CDNA 4: MX only); fp8_block at the fp8 rate
// wherever fp8 runs. The fp4 and fp8 figures are the datasheets' above.
struct BlockPeaks {
    char const* id;
    double nvfp4, mxfp4, fp8_block;
};

constexpr BlockPeaks block_peaks[] = {
    {"a100_80gb", 0, 0, 0},  // no fp8, no fp4
    {"h100_sxm", 0, 0, 1.979e15},
    {"h100_pcie", 0, 0, 1.513e15},
    {"h200", 0, 0, 1.979e15},
    {"b200", 9.0e15, 9.0e15, 4.5e15},
    {"b300", 1.35e16, 1.35e16, 4.5e15},
    {"gb200", 1.0e16, 1.0e16, 5.0e15},
    {"gb300", 1.5e16, 1.5e16, 5.0e15},
    {"mi300x", 0, 0, 2.6149e15},
    {"mi325x", 0, 0, 2.6149e15},
    {"mi355x", 0, 1.0066e16, 5.0332e15},
    {"tpu_v5e", 0, 0, 0},  // no fp8 peak
    {"tpu_v5p", 0, 0, 4.59e14},
    {"tpu_v6e", 0, 0, 9.18e14},
    {"tpu7x", 0, 0, 4.614e15},
};

double peak_of(model::Scenario const& s, model::Hardware const& hw, std::string const& dtype) {
    for (std::size_t i = 0; i < s.dtypes.size(); ++i)
        if (s.dtypes[i].name == dtype) return or_zero(hw.peak_for(static_cast<int>(i)));
    FAIL("no dtype " << dtype);
    return 0;
}

// Each case's t_math, by (chip, op); 0: unsupported.
using Times = std::map<std::pair<std::string, std::string>, double>;
void check_times(model::Scenario const& s, engine::Evaluation const& e, Times const& expected) {
    REQUIRE(e.cases.size() == expected.size());
    for (auto const& k : e.cases) {
        auto const& hw = s.hardware[static_cast<std::size_t>(s.targets[k.target])].id;
        auto const& op = s.ops[k.op].name;
        INFO(hw << " " << op);
        double t = expected.at({hw, op});
        if (t == 0) {
            CHECK(k.metrics.bound == engine::Bound::unsupported);
        } else {
            CHECK(k.metrics.bound != engine::Bound::unsupported);
            CHECK(k.metrics.t_math == Approx(t).epsilon(1e-12));
        }
    }
}

}  // namespace

TEST_CASE("the catalog's block-scaled peaks: the fp4 or fp8 rate where the tensor cores take the format",
          "[catalog][dtypes]") {
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    for (auto const& e : block_peaks) {
        INFO(e.id);
        int index = s.find_hardware(e.id);
        REQUIRE(index >= 0);
        auto const& hw = s.hardware[static_cast<std::size_t>(index)];
        CHECK(peak_of(s, hw, "nvfp4") == e.nvfp4);
        CHECK(peak_of(s, hw, "mxfp4") == e.mxfp4);
        CHECK(peak_of(s, hw, "fp8_block") == e.fp8_block);
        // int4_wo computes in bf16: no chip lists a peak for it.
        CHECK(peak_of(s, hw, "int4_wo") == 0);
    }
}

TEST_CASE("a matmul in a block-scaled dtype: its chip's peak, or unsupported", "[catalog][dtypes]") {
    // 2 x 1024^3 = 2,147,483,648 FLOPs each, computing in the inputs' dtype.
    auto checked = test::check_with_catalog(R"(include "hardware/catalog.roof"
target h100_sxm, b300_sxm, mi355x
let M = 1024
let K = 1024
let N = 1024
matmul nv  = nvfp4[M, K] * nvfp4[K, N] -> bf16[M, N]
matmul mx  = mxfp4[M, K] * mxfp4[K, N] -> bf16[M, N]
matmul blk = fp8_block[M, K] * fp8_block[K, N] -> bf16[M, N]
)");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto e = engine::evaluate(s, checked->diagnostics);
    REQUIRE(e);
    double const flops = 2.0 * 1024 * 1024 * 1024;
    // t_math by hand, 0 for unsupported: H100 has no fp4; MI355X no nvfp4.
    Times const expected = {
        {{"h100_sxm", "nv"}, 0},
        {{"h100_sxm", "mx"}, 0},
        {{"h100_sxm", "blk"}, flops / 1.979e15},
        {{"b300", "nv"}, flops / 1.35e16},
        {{"b300", "mx"}, flops / 1.35e16},
        {{"b300", "blk"}, flops / 4.5e15},
        {{"mi355x", "nv"}, 0},
        {{"mi355x", "mx"}, flops / 1.0066e16},
        {{"mi355x", "blk"}, flops / 5.0332e15},
    };
    check_times(s, *e, expected);
    for (auto const& k : e->cases) CHECK(k.metrics.counts.flops == flops);
}

TEST_CASE("extends adds a peak for any dtype: a block-scaled one, or one of the scenario's own",
          "[catalog][dtypes]") {
    // H100 with an nvfp4 peak (as if it had fp4 tensor cores), and MI355X
    // with MXFP6 (6-bit values, an 8-bit scale per 32: 6.25 bits), which its
    // datasheet gives the fp4 rate.
    auto checked = test::check_with_catalog(R"(include "hardware/catalog.roof"
dtype mxfp6 = 6.25 bits
hardware h100_fp4 extends h100_sxm { peak nvfp4 = 4e15 FLOP/s }
hardware mi355x_fp6 extends mi355x { peak mxfp6 = 1.0066e16 FLOP/s }
target h100_sxm, h100_fp4, mi355x, mi355x_fp6
let M = 1024
let K = 1024
let N = 1024
matmul nv = nvfp4[M, K] * nvfp4[K, N] -> bf16[M, N]
matmul six = mxfp6[M, K] * mxfp6[K, N] -> bf16[M, N]
)");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    auto e = engine::evaluate(s, checked->diagnostics);
    REQUIRE(e);
    double const flops = 2.0 * 1024 * 1024 * 1024;
    // The variants gain the peak; the entries they extend keep none.
    Times const expected = {
        {{"h100_sxm", "nv"}, 0},      {{"h100_fp4", "nv"}, flops / 4e15},
        {{"mi355x", "nv"}, 0},        {{"mi355x_fp6", "nv"}, 0},
        {{"h100_sxm", "six"}, 0},     {{"h100_fp4", "six"}, 0},
        {{"mi355x", "six"}, 0},       {{"mi355x_fp6", "six"}, flops / 1.0066e16},
    };
    check_times(s, *e, expected);
    // Bytes: 6.25 bits per value, (1024^2 x 2) x 6.25 / 8 = 1,638,400 read.
    for (auto const& k : e->cases)
        if (s.ops[k.op].name == "six") CHECK(k.metrics.counts.bytes_read == 1638400);
}

TEST_CASE("the newer GPUs' on-chip memory: shared memory or LDS per SM or CU, times their count",
          "[catalog][onchip]") {
    // fusion-catalog.md: 228 KiB of shared memory per SM (148 SMs on GB200 as
    // on B200, 160 on Blackwell Ultra), 160 KiB of LDS per CU on MI355X's 256.
    // Bandwidth 128 B/clk/SM at the clock of the fp32 peak (256 FLOP/clk/SM):
    // fp32 / 2, 75e12 / 2 on HGX B300, 80e12 / 2 on GB200 and GB300; MI355X
    // 256 B/clk/CU x 256 CUs x 2.4 GHz. Board power: HGX B300 1,100 W per
    // GPU, GB200 1,200 W, GB300 and MI355X 1,400 W.
    struct OnChip {
        char const* id;
        double capacity, bandwidth, power;
    };
    constexpr OnChip chips[] = {
        {"b300", 228.0 * 160 * 1024, 75e12 / 2, 1100},
        {"gb200", 228.0 * 148 * 1024, 80e12 / 2, 1200},
        {"gb300", 228.0 * 160 * 1024, 80e12 / 2, 1400},
        {"mi355x", 160.0 * 256 * 1024, 256.0 * 256 * 2.4e9, 1400},
    };
    auto checked = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    for (auto const& e : chips) {
        INFO(e.id);
        auto const& hw = s.hardware[static_cast<std::size_t>(s.find_hardware(e.id))];
        CHECK(or_zero(hw.onchip_capacity_bytes) == e.capacity);
        CHECK(or_zero(hw.onchip_bytes_per_s) == e.bandwidth);
        CHECK(or_zero(model::field_number(hw, model::hardware_field("power"))) == e.power);
    }
}
