#pragma once
// A small scenario whose step (the sum of count x t_lower over the cases at
// a sweep point) is worked out by hand below, for the tests of the
// step totals, the Steps sheet, the Summary's Step section, the step charts
// and the terminal summary of `run`.
//
// fast: 1e12 B/s, bf16 1e14 FLOP/s (ridge 100 FLOP/B), hbm_capacity 1e9 B.
// half: the same chip at half the bandwidth, 5e11 B/s, and no capacity given.
//
// attn x 2: proj = bf16[B,1000] x bf16[1000,1000] -> bf16[B,1000]
//   flops 2 B 1000 1000 = 2e6 B; bytes 2 (1000 B + 1e6 + 1000 B) = 2e6 + 4000 B
// mlp x 3: up = bf16[B,1000] x bf16[1000,4000] -> bf16[B,4000]
//   flops 2 B 1000 4000 = 8e6 B; bytes 2 (1000 B + 4e6 + 4000 B) = 8e6 + 1e4 B
// unsupported_op (below), which the op summary's tests add: q is int8, which
//   neither chip has a peak for; it would make every step unsupported (issue
//   21, point 1; tests/test_serial_step.cpp).
//
// t_math = flops / 1e14; t_comms = bytes / bandwidth; t_lower = max, t_upper = sum.
// On fast:
//   B = 1     proj  t_math 2e-8    t_comms 2.004e-6  memory   t_upper 2.024e-6
//             up    t_math 8e-8    t_comms 8.01e-6   memory   t_upper 8.09e-6
//             step  2 x 2.004e-6 + 3 x 8.01e-6 = 2.8038e-5
//             upper 2 x 2.024e-6 + 3 x 8.09e-6 = 2.8318e-5, all memory-bound
//   B = 120   proj  t_math 2.4e-6  t_comms 2.48e-6   memory   t_upper 4.88e-6
//             up    t_math 9.6e-6  t_comms 9.2e-6    compute  t_upper 1.88e-5
//             step  2 x 2.48e-6 + 3 x 9.6e-6 = 4.96e-6 + 2.88e-5 = 3.376e-5
//             upper 2 x 4.88e-6 + 3 x 1.88e-5 = 9.76e-6 + 5.64e-5 = 6.616e-5
//             memory-bound share 4.96e-6 / 3.376e-5 (= 0.1469...)
//   B = 1000  proj  t_math 2e-5    t_comms 6e-6      compute  t_upper 2.6e-5
//             up    t_math 8e-5    t_comms 1.8e-5    compute  t_upper 9.8e-5
//             step  2 x 2e-5 + 3 x 8e-5 = 2.8e-4; upper 5.2e-5 + 2.94e-4 = 3.46e-4; share 0
// On half (t_comms twice fast's):
//   B = 1     proj  t_comms 4.008e-6 memory, t_upper 4.028e-6
//             up    t_comms 1.602e-5 memory, t_upper 1.61e-5
//             step  8.016e-6 + 4.806e-5 = 5.6076e-5; upper 8.056e-6 + 4.83e-5 = 5.6356e-5; share 1
//   B = 120   proj  t_comms 4.96e-6 memory, t_upper 7.36e-6
//             up    t_comms 1.84e-5 memory, t_upper 2.8e-5
//             step  9.92e-6 + 5.52e-5 = 6.512e-5; upper 1.472e-5 + 8.4e-5 = 9.872e-5; share 1
//   B = 1000  proj  t_comms 1.2e-5 compute, t_upper 3.2e-5
//             up    t_comms 3.6e-5 compute, t_upper 1.16e-4
//             step  2.8e-4; upper 6.4e-5 + 3.48e-4 = 4.12e-4; share 0
//
// The language of this branch cannot declare resident operands or tokens yet;
// the tests that need them set CaseGrid::point_facts by hand (set_facts):
// weights 1.5e9 B at every point, cache 0, 2e8 and 6e8 B, tokens = B. On fast
// (1e9 B) that is resident 1.5e9, 1.7e9, 2.1e9 B: min chips 2, 2, 3, never on
// one chip; tokens/s = B / step.

#include "roofline/engine/evaluate.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace roofline::test::step {

constexpr char const* scenario = R"roof(
scenario "Step by hand"
hardware fast {
    name = "Fast chip"
    hbm_bandwidth = 1e12 B/s
    peak bf16 = 1e14 FLOP/s
    hbm_capacity = 1e9 B
}
hardware half { hbm_bandwidth = 5e11 B/s  peak bf16 = 1e14 FLOP/s }
target fast, half
sweep B = [1, 120, 1000]
let D = 1000
let E = 1000
let F = 4000
layer attn x 2 {
    matmul proj = bf16[B, D] * bf16[D, E] -> bf16[B, E]
}
layer mlp x 3 {
    matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]
}
)roof";
constexpr char const* unsupported_op = "matmul q = int8[B, D] * int8[D, E] -> int8[B, E]\n";

struct Step {
    double B, lower, upper, memory_share;
};
// [target][point], from the derivation above.
constexpr std::array<std::array<Step, 3>, 2> steps = {{
    {{{1, 2.8038e-5, 2.8318e-5, 1},
      {120, 3.376e-5, 6.616e-5, 4.96e-6 / 3.376e-5},
      {1000, 2.8e-4, 3.46e-4, 0}}},
    {{{1, 5.6076e-5, 5.6356e-5, 1}, {120, 6.512e-5, 9.872e-5, 1}, {1000, 2.8e-4, 4.12e-4, 0}}},
}};

constexpr double capacity = 1e9;  // fast's
constexpr double weights = 1.5e9;
constexpr std::array<double, 3> cache = {0, 2e8, 6e8};
constexpr std::array<double, 3> min_chips = {2, 2, 3};  // ceil((1.5e9 + cache) / 1e9)

// The facts above, as the engine would give them once the language has them.
inline void set_facts(engine::CaseGrid& grid) {
    grid.has_resident = true;
    grid.has_tokens = true;
    for (std::size_t p = 0; p < 3; ++p) {
        grid.point_facts[p].weight_bytes = weights;
        grid.point_facts[p].cache_bytes = cache[p];
        grid.point_facts[p].tokens = steps[0][p].B;
    }
}

// The scenario with mlp's weight in a dtype sweep, `sweep wdt = [bf16,
// int8]`, written before the sweep of B or after it (up then computes in
// bf16 at both dtypes: the wider input).
inline std::string with_dtype_sweep(bool before_b) {
    std::string text = scenario;
    auto replace = [&](std::string const& from, std::string const& to) {
        auto at = text.find(from);
        if (at == std::string::npos) throw std::logic_error("step scenario: no '" + from + "'");
        text.replace(at, from.size(), to);
    };
    std::string const b = "sweep B = [1, 120, 1000]", wdt = "sweep wdt = [bf16, int8]";
    replace(b, before_b ? wdt + "\n" + b : b + "\n" + wdt);
    replace("bf16[B, D] * bf16[D, F]", "bf16[B, D] * wdt[D, F]");
    return text;
}

}  // namespace roofline::test::step
