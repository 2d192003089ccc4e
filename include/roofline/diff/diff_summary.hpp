#pragma once
// What a diff adds up to, built in the same pass as the writers: per matmul
// and hardware pair the geometric-mean times and speedup, the bounds and
// their flips, the critical sweep values; per hardware pair and sweep point
// the step (Σ count × t_step, the serial step) of each side; overall the geometric-mean speedup,
// the flips, the cases on one side only, and the slowest case (for
// --fail-if-slower). Small: nothing is kept per case (steps: per point).

#include "roofline/diff/match.hpp"

#include <cstddef>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofline::diff {

struct GroupSummary {
    std::uint32_t op = 0, pair = 0;
    std::size_t matched = 0, comparable = 0, only_a = 0, only_b = 0;
    double log_speedup = 0, log_t_a = 0, log_t_b = 0;  // sums over the comparable cases
    double min_speedup = std::numeric_limits<double>::infinity();
    double max_speedup = -std::numeric_limits<double>::infinity();
    // Flipped cases by bound in A and bound in B ([from][to], Bound's order).
    std::size_t flip_counts[5][5] = {};
    // The bounds at the first and last matched case (the ends of the sweep).
    Bound a_first = Bound::unsupported, a_last = Bound::unsupported;
    Bound b_first = Bound::unsupported, b_last = Bound::unsupported;
    std::vector<double> critical_a, critical_b;  // at the first matched case
    double ridge_a = 0, ridge_b = 0;             // likewise (NaN: unsupported)

    double speedup() const;  // geometric mean; NaN without comparable cases
    double t_a() const;      // geometric means of t_lower
    double t_b() const;
    std::size_t flips() const {
        std::size_t n = 0;
        for (auto const& row : flip_counts)
            for (std::size_t k : row) n += k;
        return n;
    }
    // "memory→compute ×3, memory→network ×2" (without the count when
    // `counted` is false); "" without flips.
    std::string flips_text(bool counted) const;
};

// The step of one hardware pair at one sweep point: Σ count × t_step over
// the ops of the point, on each side, as the reports' step totals: each
// side's whole step, so that a model written in another form (a kernel in
// place of the ops it fuses) still compares.
struct StepDiff {
    std::uint32_t pair = 0;
    std::vector<double> sweep;  // Matcher::sweep_names() order
    double t_a = 0, t_b = 0;    // over each side's ops with a time
    // Every op of the point has a time wherever it is (a matched op on both
    // sides or on neither): each sum is its side's whole step.
    bool complete = true;
    // The same ops on both sides; else some op is on one side only.
    bool same_ops = true;
    double speedup() const;  // t_a / t_b; NaN when incomplete or without time
};

struct DiffSummary {
    std::vector<GroupSummary> groups;  // by hardware pair, then matmul in order of appearance
    std::size_t matched = 0, comparable = 0, only_a = 0, only_b = 0;
    std::size_t flips = 0, faster = 0, slower = 0;
    double log_speedup = 0;
    double speedup() const;  // geometric mean over the comparable cases

    // The slowest matched case: t_lower B / t_lower A - 1 (0 when none is slower).
    double worst_slowdown = 0;
    std::string worst_case;
    std::size_t over_threshold = 0;  // cases slower by more than --fail-if-slower

    // Per hardware pair, in sweep order (the order of A's cases, then B's).
    std::vector<StepDiff> steps;

    static constexpr std::size_t max_listed = 10;
    std::vector<std::string> unmatched;  // the first cases on one side only, described
};

// "d4096/up on tpu_v5e -> tpu_v6e at B = 64" (the side that has it, for an
// unmatched case).
std::string describe(Matcher const& matcher, DiffCase const& c);

class DiffSummaryBuilder {
public:
    // `fail_if_slower_pct`: the --fail-if-slower threshold, NaN for none.
    DiffSummaryBuilder(Matcher const& matcher, double fail_if_slower_pct);
    void add(DiffCase const& c);
    DiffSummary finish();

private:
    Matcher const& matcher_;
    double threshold_;  // t_b / t_a above which a case counts as too slow
    DiffSummary summary_;
    std::unordered_map<std::uint64_t, std::size_t> group_of_;
    std::unordered_map<std::string, std::size_t> step_of_;  // (pair, sweep values) -> steps
    std::string step_key_;
    void add_step(DiffCase const& c);
};

}  // namespace roofline::diff
