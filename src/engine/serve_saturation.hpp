#pragma once
// Whether an open-loop simulation's queue keeps growing (docs/serving.md,
// section 3); defined in serve_latency.cpp with the other statistics.

#include <span>

namespace roofline::engine::serving {

// `arrivals` and `admissions`: each request's arrival and the start of the
// step that admitted it, in arrival order (both nondecreasing: admission is
// first come, first served).
bool queue_keeps_growing(std::span<double const> arrivals, std::span<double const> admissions);

}  // namespace roofline::engine::serving
