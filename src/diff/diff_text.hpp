#pragma once
// The terminal summary of a diff: one row per matmul and hardware pair
// (t_lower on each side, the speedup A/B, the bounds, the flips, the critical
// sweep values), a headline, and the first cases found on one side only.

#include "roofline/diff/diff_summary.hpp"

#include <string>

namespace roofline::diff {

// "2.00×"; "-" for NaN.
std::string format_speedup(double speedup);

// `color`: highlight flipped rows (yellow) and slower rows (red) with ANSI
// escapes, for a terminal.
std::string summary_text(Matcher const& matcher, DiffSummary const& summary, bool color);

// The headline alone: "speedup 2.00× (geometric mean of 1024 matched cases) ...".
std::string headline(DiffSummary const& summary);

}  // namespace roofline::diff
