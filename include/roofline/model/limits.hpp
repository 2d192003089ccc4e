#pragma once
// Where the numbers of a scenario stop being exact (language.md, "Limits").
// Beyond these bounds a value is an input error at the token that gives it,
// so that no report publishes a rounded, infinite or NaN count.

#include <cmath>
#include <optional>
#include <string>

namespace roofline::model {

// Axis sizes and layer repeat counts are integers below 2^53: a double holds
// every integer below it exactly, and no integer above it reliably.
inline constexpr double axis_size_limit = 9007199254740992.0;  // 2^53, excluded
inline constexpr char const* axis_size_limit_text = "2^53 (9007199254740992)";

// Counts (FLOPs, bytes) are products formed in 64-bit-mantissa arithmetic,
// exact up to 2^64 (engine/metrics.hpp); a larger count is an error.
inline constexpr double count_limit = 18446744073709551616.0;  // 2^64, included
inline constexpr char const* count_limit_text = "2^64 (about 1.8e19)";

// Bytes per element of a dtype: from 1/1024 bit to 65536 bytes. The bounds
// keep every count and ratio of the roofline finite (intensity divides FLOPs
// by bytes).
inline constexpr double min_dtype_bytes = 1.0 / 8192;  // 2^-10 bits
inline constexpr double max_dtype_bytes = 65536;       // 2^16 bytes

// FLOPs per output element of an elementwise op: at most 2^20.
inline constexpr double max_flops_per_element = 1048576;

// Hardware quantities (and the slo), in base units: rates (B/s, FLOP/s)
// and capacities (B) from 1e-3 to 1e30, times (latencies, the slo) from
// 1e-15 s to 1e6 s; beyond them an input error at the value. Every real
// chip is many decades inside (plausible.hpp warns far closer in). Why
// every published figure is then finite, normal, and nonzero where it must
// be (docs/reliability.md, "Numbers"): a case's FLOPs are 0 or whole, at
// most 2^64; its bytes at least 2^-13 (one element of the smallest dtype)
// and at most 2^65. So ridge = peak / bandwidth lies in [1e-33, 1e33];
// t_math = FLOPs / peak in {0} u [1e-30, 2e22] s; t_comms and t_onchip =
// bytes / bandwidth in [1e-34, 4e22] s; a collective's stage is at most
// 2^65 B / 1e-3 B/s or 2^53 hops x 1e6 s (below 1e23 s), at least 1e-15 s;
// intensity = FLOPs / bytes is at most 2^77; attained = FLOPs / t_lower is
// at most the peak, and at least 1 / t_lower when the FLOPs are not 0;
// resident / capacity is at most 2^66 / 1e-3. Sums over a kernel's
// members, 2^53 layer repeats and 10^6 decode steps multiply these by less
// than 1e40: every figure is 0 or within [1e-90, 1e90], far inside the
// doubles' normal range [2.2e-308, 1.8e308].
inline constexpr double min_rate = 1e-3;  // also the least capacity, in bytes
inline constexpr double max_rate = 1e30;  // also the largest capacity
inline constexpr double min_seconds = 1e-15;
inline constexpr double max_seconds = 1e6;

// What is wrong with `value` as an axis size or a repeat count, to follow
// "must be": "a positive integer" or "below 2^53 (...)"; nothing when it is
// fine.
inline std::optional<std::string> whole_number_problem(double value) {
    if (!(value >= 1) || value != std::floor(value)) return "a positive integer";
    if (value >= axis_size_limit) return std::string("below ") + axis_size_limit_text;
    return std::nullopt;
}

// The tokens of one step (`tokens = EXPR`), which the reports divide by the
// step time: from 1e-3 to 2^64. With a step time (a sum of t_lower) in
// [1e-34, 1e90] s, as above, tokens/s stays within [1e-93, 2e53], finite and
// normal (a value of 1e301 published inf).
inline constexpr double min_tokens = 1e-3;
inline constexpr char const* tokens_range_text = "from 0.001 to 2^64 (about 1.8e19)";
inline bool tokens_in_range(double tokens) { return tokens >= min_tokens && tokens <= count_limit; }

}  // namespace roofline::model

namespace roofline::model {
// The most output tokens (decode steps) a request evaluates one by one.
inline constexpr double max_request_steps = 1'000'000;
// A serve's bounds (docs/serving.md), checked on constant settings by the
// checker and on swept ones by the engine: a length (prompt, output, a trace
// row's) and max_step_tokens at most 1e9 tokens (a context fits a uint32);
// requests per point (and trace rows) at most 1e7; max_seqs and closed(C)'s
// clients at most 1e6; a rate at most 1e9 requests/s; a seed below 2^53.
inline constexpr double max_serve_tokens = 1e9;
inline constexpr double max_serve_requests = 1e7;
inline constexpr double max_serve_seqs = 1e6;
inline constexpr double max_arrival_rate = 1e9;
inline constexpr double max_serve_seed = 9007199254740991.0;  // 2^53 - 1
// serving.md's default of `requests` (warmup: 10 % of them).
inline constexpr double default_serve_requests = 1000;
}  // namespace roofline::model
