// The requests of a serve point (docs/serving.md, section 1): their lengths
// and Poisson arrivals from one seeded stream, the same on every compiler.
#include "roofline/engine/serve.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace roofline::engine::serving {

namespace {

// A uniform in [0, 1) from the 53 high bits of one draw: std::mt19937_64's
// output is fixed by the standard, std::*_distribution's is not.
double uniform(std::mt19937_64& stream) {
    return static_cast<double>(stream() >> 11) * 0x1.0p-53;
}

// One length from `source`, `u` the request's draw (consumed whatever the
// source, so that the draws stay aligned across fixed, uniform and trace).
std::uint32_t length(LengthSource const& source, std::size_t index, double u) {
    if (!source.trace.empty()) return source.trace[index % source.trace.size()];
    if (source.high <= source.low) return source.low;
    double span = static_cast<double>(source.high) - static_cast<double>(source.low) + 1;
    // u * span can round up to span itself when span is not a power of 2.
    auto offset = static_cast<std::uint64_t>(std::floor(u * span));
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(source.low + offset, source.high));
}

}  // namespace

// Per request, three draws in this order: the prompt's length, the output's,
// the gap before its arrival. All three are drawn at every rate and for every
// kind of length, so that one seed gives the same lengths at every rate (and
// in a closed loop), and the same gaps scaled by 1 / rate: a sweep of the rate
// compares the same requests, only their spacing changed.
std::vector<RequestSpec> make_requests(std::size_t count, double rate, std::uint64_t seed,
                                       LengthSource const& prompt, LengthSource const& output) {
    std::vector<RequestSpec> requests(count);
    std::mt19937_64 stream(seed);
    double time = 0;  // a Poisson process from 0: the first arrival one gap after it
    for (std::size_t i = 0; i < count; ++i) {
        double u_prompt = uniform(stream);
        double u_output = uniform(stream);
        double u_gap = uniform(stream);
        requests[i].prompt = length(prompt, i, u_prompt);
        requests[i].output = length(output, i, u_output);
        if (rate > 0) time += -std::log(1 - u_gap) / rate;  // 1 - u in (0, 1]: finite
        requests[i].arrival = time;
    }
    return requests;
}

}  // namespace roofline::engine::serving
