#include "roofline/diff/diff_summary.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace roofline::diff {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

double GroupSummary::speedup() const {
    return comparable ? std::exp(log_speedup / static_cast<double>(comparable)) : nan;
}
double GroupSummary::t_a() const {
    return comparable ? std::exp(log_t_a / static_cast<double>(comparable)) : nan;
}
double GroupSummary::t_b() const {
    return comparable ? std::exp(log_t_b / static_cast<double>(comparable)) : nan;
}
double StepDiff::speedup() const {
    return complete && t_a > 0 && t_b > 0 ? t_a / t_b : nan;
}

double DiffSummary::speedup() const {
    return comparable ? std::exp(log_speedup / static_cast<double>(comparable)) : nan;
}

std::string describe(Matcher const& matcher, DiffCase const& c) {
    auto const& pair = matcher.pairing().pairs[c.pair];
    std::string hardware = c.status == Status::only_a   ? pair.a
                           : c.status == Status::only_b ? pair.b
                                                        : pair.a + " -> " + pair.b;
    std::string text = matcher.ops()[c.op].label() + " on " + hardware;
    bool first = true;
    for (std::size_t v = 0; v < c.sweep.size(); ++v) {
        if (std::isnan(c.sweep[v])) continue;
        text +=
            (first ? " at " : ", ") + matcher.sweep_names()[v] + " = " + matcher.sweep_text(v, c.sweep[v]);
        first = false;
    }
    return text;
}

DiffSummaryBuilder::DiffSummaryBuilder(Matcher const& matcher, double fail_if_slower_pct)
    : matcher_(matcher),
      threshold_(std::isnan(fail_if_slower_pct) ? INFINITY : 1 + fail_if_slower_pct / 100) {}

void DiffSummaryBuilder::add_step(DiffCase const& c) {
    step_key_.assign(reinterpret_cast<char const*>(&c.pair), sizeof c.pair);
    step_key_.append(reinterpret_cast<char const*>(c.sweep.data()), c.sweep.size_bytes());
    auto [it, added] = step_of_.try_emplace(step_key_, summary_.steps.size());
    if (added) {
        summary_.steps.emplace_back();
        summary_.steps.back().pair = c.pair;
        summary_.steps.back().sweep.assign(c.sweep.begin(), c.sweep.end());
    }
    StepDiff& step = summary_.steps[it->second];
    bool timed_a = c.a.t_lower > 0, timed_b = c.b.t_lower > 0;
    if (c.status != Status::matched) {
        // In its own side's step; without a time there, that step is short of it.
        step.same_ops = false;
        bool a = c.status == Status::only_a;
        if (!(a ? timed_a : timed_b)) step.complete = false;
        else if (a) step.t_a += c.a.count * c.a.t_step;
        else step.t_b += c.b.count * c.b.t_step;
        return;
    }
    if (timed_a != timed_b) {
        step.complete = false;
        return;
    }
    if (!timed_a) return;  // unsupported on both sides: in neither sum
    step.t_a += c.a.count * c.a.t_step;
    step.t_b += c.b.count * c.b.t_step;
}

void DiffSummaryBuilder::add(DiffCase const& c) {
    add_step(c);
    auto& s = summary_;
    auto key = std::uint64_t{c.pair} << 32 | c.op;
    auto [it, added] = group_of_.try_emplace(key, s.groups.size());
    if (added) {
        s.groups.emplace_back();
        s.groups.back().op = c.op;
        s.groups.back().pair = c.pair;
    }
    GroupSummary& g = s.groups[it->second];

    if (c.status != Status::matched) {
        ++(c.status == Status::only_a ? g.only_a : g.only_b);
        ++(c.status == Status::only_a ? s.only_a : s.only_b);
        if (s.unmatched.size() < DiffSummary::max_listed)
            s.unmatched.push_back(
                std::string(c.status == Status::only_a ? "only in A: " : "only in B: ") +
                describe(matcher_, c));
        return;
    }
    if (g.matched++ == 0) {
        g.a_first = c.a.bound, g.b_first = c.b.bound;
        g.critical_a.assign(c.critical_a.begin(), c.critical_a.end());
        g.critical_b.assign(c.critical_b.begin(), c.critical_b.end());
        g.ridge_a = c.a.ridge, g.ridge_b = c.b.ridge;
    }
    g.a_last = c.a.bound, g.b_last = c.b.bound;
    ++s.matched;
    if (c.flipped()) {
        ++g.flip_counts[static_cast<std::size_t>(c.a.bound)][static_cast<std::size_t>(c.b.bound)];
        ++s.flips;
    }
    double speedup = c.speedup();
    if (std::isnan(speedup)) return;  // unsupported on a side: no time to compare
    ++g.comparable, ++s.comparable;
    g.log_speedup += std::log(speedup);
    g.log_t_a += std::log(c.a.t_lower);
    g.log_t_b += std::log(c.b.t_lower);
    g.min_speedup = std::min(g.min_speedup, speedup);
    g.max_speedup = std::max(g.max_speedup, speedup);
    s.log_speedup += std::log(speedup);
    double ratio = c.b.t_lower / c.a.t_lower;  // above 1: B is slower
    if (ratio > 1 + 1e-12)
        ++s.slower;
    else if (ratio < 1 - 1e-12)
        ++s.faster;
    if (ratio > threshold_) ++s.over_threshold;
    if (ratio - 1 > s.worst_slowdown) {
        s.worst_slowdown = ratio - 1;
        s.worst_case = describe(matcher_, c);
    }
}

DiffSummary DiffSummaryBuilder::finish() {
    std::stable_sort(summary_.groups.begin(), summary_.groups.end(),
                     [](GroupSummary const& x, GroupSummary const& y) {
                         return std::tie(x.pair, x.op) < std::tie(y.pair, y.op);
                     });
    group_of_.clear();
    step_of_.clear();
    std::stable_sort(summary_.steps.begin(), summary_.steps.end(),
                     [](StepDiff const& x, StepDiff const& y) { return x.pair < y.pair; });
    return std::move(summary_);
}

std::string GroupSummary::flips_text(bool counted) const {
    // Towards compute first, then memory, on chip, the network.
    static constexpr Bound order[] = {Bound::compute, Bound::memory, Bound::onchip, Bound::network};
    std::string out;
    for (Bound to : order) {
        for (Bound from : order) {
            std::size_t n = flip_counts[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)];
            if (n == 0) continue;
            out.append(out.empty() ? "" : ", ")
                .append(bound_name(from))
                .append("→")
                .append(bound_name(to));
            if (counted) out.append(" ×").append(std::to_string(n));
        }
    }
    return out;
}

}  // namespace roofline::diff
