#pragma once
// Plausibility warnings for a hardware's numbers (language.md, "Plausible
// hardware numbers"): a unit slip such as `hbm_bandwidth = 3.35e12 GB/s` or
// `peak bf16 = 989 FLOP/s` is valid input that gives a result off by 1e9, so
// it is a warning at the field, with the value in familiar units.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/model/scenario.hpp"

#include <string>
#include <vector>

namespace roofline::model {

// The plausible ranges, inclusive. The shipped catalog spans 0.82 TB/s (TPU
// v5e) to 8 TB/s (B200), 19.5 TFLOP/s (A100 fp32) to 9 PFLOP/s (B200 fp4),
// ridge points 9.6 to 1,125 FLOP/byte, with room on both sides;
// tests/test_catalog.cpp checks that none of it warns.
inline constexpr double min_plausible_bandwidth = 1e9;   // 1 GB/s
inline constexpr double max_plausible_bandwidth = 1e14;  // 100 TB/s
inline constexpr double min_plausible_peak = 1e12;       // 1 TFLOP/s
inline constexpr double max_plausible_peak = 1e17;       // 100 PFLOP/s
inline constexpr double min_plausible_ridge = 1;         // FLOP/byte
inline constexpr double max_plausible_ridge = 1e4;
// Capacities per chip. HBM: the catalog spans 16 GiB (TPU v5e) to 256 GB
// (MI325X); 1 GB is below any accelerator's memory since 2016 (a P100 had
// 16 GB), 10 TB forty times the largest. On chip (all cores' SRAM, VMEM or
// shared memory together): the catalog spans 7.5 MiB (V100) to 128 MiB (TPU v5e); 100 KB
// is less than two GPU SMs' shared memory, 100 GB twice a wafer-scale chip's
// 44 GB. A slip of a prefix (80 MB meant 80 GB) lands outside either by 1000.
inline constexpr double min_plausible_hbm_capacity = 1e9;      // 1 GB
inline constexpr double max_plausible_hbm_capacity = 1e13;     // 10 TB
inline constexpr double min_plausible_onchip_capacity = 1e5;   // 100 KB
inline constexpr double max_plausible_onchip_capacity = 1e11;  // 100 GB

// Where the fields of one hardware statement were written: only these are
// checked, so that a chip that extends another warns about its own numbers.
struct WrittenFields {
    std::optional<Span> hbm_bandwidth;  // the value's span
    std::optional<Span> hbm_capacity, onchip_capacity;
    struct Peak {
        int dtype;
        Span value;
    };
    std::vector<Peak> peaks;
};

void warn_implausible(Hardware const& hw, WrittenFields const& written,
                      std::vector<Dtype> const& dtypes, Diagnostics& diagnostics);

// A quantity in the unit a person reads it in: "3.35 TB/s", "989 TFLOP/s";
// past the largest prefix (P), with thousands separators: "3,350,000 PB/s".
std::string familiar_units(double value, std::string const& unit);

}  // namespace roofline::model
