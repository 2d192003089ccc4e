#include "diff_text.hpp"

#include "roofline/output/terminal_text.hpp"
#include "roofline/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace roofline::diff {

namespace {

std::string bounds_text(Bound first, Bound last, std::size_t matched) {
    if (matched == 0) return "-";
    if (first == last) return std::string(bound_name(first));
    return std::string(bound_name(first)) + ".." + std::string(bound_name(last));
}

std::string flips_text(GroupSummary const& g) {
    std::string out = g.flips_text(g.matched != 1);
    return out.empty() ? "-" : out;
}

// "319 → 332", or the one value when both sides have it: "never" is no change.
std::string critical_text(double a, double b) {
    auto one = [](double v) {
        return std::isnan(v) ? std::string("never") : output::format_general(v);
    };
    return one(a) == one(b) ? one(a) : one(a) + " → " + one(b);
}

// Whether sweep v's critical value is "never" on both sides of every row:
// a column that says nothing (a mesh size never turns an op compute-bound).
bool never_critical(DiffSummary const& s, std::size_t v) {
    for (auto const& g : s.groups)
        if (g.matched && (!std::isnan(g.critical_a[v]) || !std::isnan(g.critical_b[v])))
            return false;
    return true;
}

std::string plural(std::size_t n, char const* one, char const* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Which of the steps [begin, end) of one pair to print (offsets from begin),
// as run's step table picks them (report::step_points of a scenario):
// step_points over the values of the other sweeps, and at each of those
// every dtype of the dtype sweeps and every size of the mesh sweeps, so
// that bf16 and fp8, and 1, 2, 4 and 8 chips, stand side by side.
std::vector<std::size_t> steps_shown(Matcher const& matcher, DiffSummary const& s,
                                     std::size_t begin, std::size_t end) {
    std::size_t const k = matcher.sweep_names().size();
    auto whole = [&](std::size_t v) { return matcher.sweep_of_dtypes(v) || matcher.sweep_of_mesh(v); };
    bool any_whole = false;
    for (std::size_t v = 0; v < k; ++v) any_whole = any_whole || whole(v);
    if (!any_whole) return report::step_points(end - begin);
    // The steps grouped by their numeric sweep values, in order of first appearance.
    std::map<std::vector<double>, std::size_t> group_of;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = begin; i < end; ++i) {
        std::vector<double> key;
        for (std::size_t v = 0; v < k; ++v)
            if (!whole(v)) key.push_back(s.steps[i].sweep[v]);
        auto [it, added] = group_of.try_emplace(key, groups.size());
        if (added) groups.emplace_back();
        groups[it->second].push_back(i - begin);
    }
    std::vector<std::size_t> shown;
    for (std::size_t g : report::step_points(groups.size()))
        shown.insert(shown.end(), groups[g].begin(), groups[g].end());
    return shown;
}

// The step of each hardware pair at a few sweep points (the points a report's
// first screen shows): what a model costs per step on each side.
std::string steps_text(Matcher const& matcher, DiffSummary const& s) {
    auto const& sweeps = matcher.sweep_names();
    std::vector<std::string> header = {"hardware A → B"};
    header.insert(header.end(), sweeps.begin(), sweeps.end());
    header.insert(header.end(), {"step A", "step B", "speedup"});
    std::vector<std::vector<std::string>> rows = {header};
    std::vector<bool> right(header.size(), true);
    right[0] = false;
    bool partial = false, other_ops = false;
    for (std::size_t begin = 0; begin < s.steps.size();) {
        std::size_t end = begin;
        while (end < s.steps.size() && s.steps[end].pair == s.steps[begin].pair) ++end;
        auto const& pair = matcher.pairing().pairs[s.steps[begin].pair];
        for (std::size_t k : steps_shown(matcher, s, begin, end)) {
            auto const& step = s.steps[begin + k];
            std::vector<std::string> row = {(pair.a.empty() ? "-" : pair.a) + " → " +
                                            (pair.b.empty() ? "-" : pair.b)};
            for (std::size_t v = 0; v < step.sweep.size(); ++v) {
                double x = step.sweep[v];
                auto const& paired = matcher.paired_sweeps();
                auto it = std::find_if(paired.begin(), paired.end(),
                                       [&](auto const& p) { return p.sweep == v; });
                row.push_back(std::isnan(x)                   ? "-"
                              : it != paired.end()         ? output::format_general(it->a) + " → " +
                                                         output::format_general(it->b)
                              : matcher.sweep_of_dtypes(v) ? matcher.sweep_text(v, x)
                                                           : output::format_general(x));
            }
            // A chip paired with none: its side's step alone, nothing to compare.
            bool both = !pair.a.empty() && !pair.b.empty();
            row.insert(row.end(), {pair.a.empty() ? "-" : output::format_seconds(step.t_a),
                                   pair.b.empty() ? "-" : output::format_seconds(step.t_b),
                                   !both            ? "-"
                                   : !step.complete ? "partial"
                                   : step.same_ops  ? format_speedup(step.speedup())
                                                    : format_speedup(step.speedup()) + "*"});
            partial = partial || (both && !step.complete);
            other_ops = other_ops || (both && step.complete && !step.same_ops);
            rows.push_back(std::move(row));
        }
        begin = end;
    }
    // t_step: t_lower on one chip; on a mesh each op then its collectives.
    std::string out = "step = sum of count × t_step over the ops of a sweep point (t_lower on one chip):\n" +
                      output::render_table(rows, right);
    if (other_ops)
        out += "*: the two sides' ops differ (an op on one side only, such as a kernel in place "
               "of the ops it fuses); each step is its own side's whole sum\n";
    if (partial)
        out += "partial: some op of that point has a time (a peak) on one side only; the sums "
               "do not compare\n";
    return out;
}

}  // namespace

std::string format_speedup(double speedup) {
    if (std::isnan(speedup)) return "-";
    char buf[32];
    if (speedup >= 0.01 && speedup < 1000)
        std::snprintf(buf, sizeof buf, "%.2f×", speedup);
    else
        std::snprintf(buf, sizeof buf, "%.3g×", speedup);
    return buf;
}

std::string headline(DiffSummary const& s) {
    std::string out = "speedup " + format_speedup(s.speedup()) + " (geometric mean of " +
                      plural(s.comparable, "matched case", "matched cases") + "; " +
                      std::to_string(s.faster) + " faster, " + std::to_string(s.slower) +
                      " slower)";
    if (s.comparable < s.matched)
        out += ", " + std::to_string(s.matched - s.comparable) + " not comparable (unsupported)";
    out += "; " + plural(s.flips, "bound flip", "bound flips");
    out +=
        "; " + std::to_string(s.only_a) + " only in A, " + std::to_string(s.only_b) + " only in B";
    return out;
}

std::string summary_text(Matcher const& matcher, DiffSummary const& s, bool color) {
    auto const& sweeps = matcher.sweep_names();
    bool ranges = false, unmatched = s.only_a + s.only_b > 0;
    for (auto const& g : s.groups) ranges = ranges || g.comparable > 1;
    std::vector<std::string> header = {"op", "hardware A → B", "cases"};
    if (unmatched) header.insert(header.end(), {"only A", "only B"});
    header.insert(header.end(), {"t_lower A", "t_lower B", "speedup"});
    if (ranges) header.push_back("range");
    header.insert(header.end(), {"bound A", "bound B", "flips"});
    std::vector<bool> critical(sweeps.size());
    for (std::size_t v = 0; v < sweeps.size(); ++v) {
        critical[v] = !matcher.sweep_of_dtypes(v) && !never_critical(s, v);
        if (critical[v]) header.push_back("critical " + sweeps[v]);
    }
    std::vector<std::vector<std::string>> rows = {header};
    std::vector<bool> right = {false, false, true};
    if (unmatched) right.insert(right.end(), {true, true});
    right.insert(right.end(), {true, true, true});
    if (ranges) right.push_back(true);

    std::vector<char const*> highlight = {""};
    for (auto const& g : s.groups) {
        auto const& pair = matcher.pairing().pairs[g.pair];
        std::vector<std::string> row = {
            matcher.ops()[g.op].label(),
            (pair.a.empty() ? "-" : pair.a) + " → " + (pair.b.empty() ? "-" : pair.b),
            std::to_string(g.matched)};
        if (unmatched) row.insert(row.end(), {std::to_string(g.only_a), std::to_string(g.only_b)});
        row.insert(row.end(), {output::format_seconds(g.t_a()), output::format_seconds(g.t_b()),
                               format_speedup(g.speedup())});
        if (ranges) {
            std::string lo = format_speedup(g.min_speedup), hi = format_speedup(g.max_speedup);
            std::string range;
            if (g.comparable > 1 && lo != hi) range.append(lo).append("–").append(hi);
            row.push_back(std::move(range));
        }
        row.insert(row.end(), {bounds_text(g.a_first, g.a_last, g.matched),
                               bounds_text(g.b_first, g.b_last, g.matched), flips_text(g)});
        for (std::size_t v = 0; v < sweeps.size(); ++v)
            if (critical[v])
                row.push_back(g.matched ? critical_text(g.critical_a[v], g.critical_b[v]) : "-");
        rows.push_back(std::move(row));
        highlight.push_back(g.speedup() < 1 ? "\x1b[31m" : g.flips() ? "\x1b[1;33m" : "");
    }

    std::ostringstream out;
    // Names from the reports' manifests, which anyone can write.
    using output::terminal_safe;
    out << "A: " << terminal_safe(matcher.a().label() + " (" + matcher.a().folder + ")") << "\n";
    out << "B: " << terminal_safe(matcher.b().label() + " (" + matcher.b().folder + ")") << "\n";
    // A mesh size on each side: the two meshes' cases are compared, per chip.
    for (auto const& paired : matcher.paired_sweeps())
        out << "mesh: " << terminal_safe(sweeps[paired.sweep]) << " = " << output::format_general(paired.a)
            << " in A against " << output::format_general(paired.b)
            << " in B; times are per chip of each mesh\n";
    out << "\n";
    std::istringstream table(output::render_table(rows, right));
    std::size_t i = 0;
    for (std::string line; std::getline(table, line); ++i) {
        bool lit = color && i < highlight.size() && *highlight[i];
        out << (lit ? highlight[i] : "") << line << (lit ? "\x1b[0m" : "") << "\n";
    }
    out << "t_lower, speedup: geometric means over each row's cases (speedup = t_lower A / "
           "t_lower B: above 1× B is faster);\n"
           "bound: at the first..last sweep point; flips: cases whose bound differs between A "
           "and B; critical: A → B, one value when the same (no column for a sweep whose ops\n"
           "never turn compute-bound on either side)\n\n";
    if (matcher.ops().size() > 1 && !s.steps.empty()) out << steps_text(matcher, s) << "\n";
    out << headline(s) << "\n";
    for (auto const& line : s.unmatched) out << "  " << terminal_safe(line) << "\n";
    if (s.only_a + s.only_b > s.unmatched.size())
        out << "  ... and " << s.only_a + s.only_b - s.unmatched.size()
            << " more (diff.csv lists every case)\n";
    return out.str();
}

}  // namespace roofline::diff
