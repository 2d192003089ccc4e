// The serve part of the diff's terminal summary: the counts, the largest
// changes of TPOT p99 and of output tok/s per chip, and the fleet's
// configurations, each figure before → after and the ratio B / A. A lower
// bound (a saturated point's latency) says "≥", and so does a ratio it bounds.
#include "diff/serve_diff.hpp"

#include "diff_text.hpp"

#include "roofline/output/terminal_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace roofline::diff {

namespace {

constexpr std::size_t max_ranked = 5;        // rows per "largest changes" list
constexpr std::size_t max_configurations = 10;
constexpr std::size_t max_unmatched = 5;     // rows on one side only, listed

// "  only in A: chip_a at R = 2", the first few; the CSV has every one.
void unmatched_lines(std::ostringstream& out, Matcher const& matcher, ServeTableDiff const& diff) {
    std::size_t listed = 0;
    for (auto const& row : diff.rows) {
        if (row.status == Status::matched) continue;
        if (listed++ == max_unmatched) break;
        auto const& pair = matcher.pairing().pairs[row.pair];
        bool const in_a = row.status == Status::only_a;
        std::string text = in_a ? pair.a : pair.b;
        std::string const place = describe(matcher, diff, row);
        if (auto at = place.find(" at "); at != std::string::npos) text += place.substr(at);
        out << "  only in " << (in_a ? "A: " : "B: ") << output::terminal_safe(text) << "\n";
    }
    if (diff.only_a + diff.only_b > max_unmatched)
        out << "  ... and " << diff.only_a + diff.only_b - max_unmatched << " more\n";
}

std::size_t figure_index(ServeTableKind kind, std::string const& column) {
    auto const& figures = serve_figures(kind);
    for (std::size_t f = 0; f < figures.size(); ++f)
        if (column == figures[f].column) return f;
    return figures.size();
}

std::string value_text(ServeFigure const& figure, double value, bool lower_bound) {
    std::string text = lower_bound && figure.lower_bound && std::isfinite(value) ? "≥ " : "";
    return text + (figure.seconds ? output::format_seconds(value) : output::format_general(value));
}

// "0.50×", "≥ 1.60×" (B's figure a lower bound), "≤ 0.80×" (A's), "1.33× of two lower bounds".
std::string ratio_text(ServeDiffRow const& row, ServeFigure const& figure, std::size_t f) {
    std::string ratio = format_speedup(row.ratio(f));
    if (ratio == "-") return ratio;
    switch (row.ratio_kind(figure)) {
        case RatioKind::exact:
            return ratio;
        case RatioKind::at_least:
            return "≥ " + ratio;
        case RatioKind::at_most:
            return "≤ " + ratio;
        case RatioKind::lower_bounds:
            break;
    }
    return ratio + " of two lower bounds";
}

std::string change_text(ServeDiffRow const& row, ServeFigure const& figure, std::size_t f) {
    return value_text(figure, row.a[f], row.saturated_a) + " → " +
           value_text(figure, row.b[f], row.saturated_b) + ": " + ratio_text(row, figure, f);
}

// The matched rows with a ratio of figure f, largest |log ratio| first (the
// first in the table's order on a tie). A ratio of two lower bounds bounds
// nothing, so it is not ranked; `unranked` counts those.
std::vector<ServeDiffRow const*> ranked(ServeTableDiff const& diff, std::size_t f,
                                        std::size_t& unranked) {
    auto const& figure = serve_figures(diff.kind)[f];
    std::vector<ServeDiffRow const*> rows;
    unranked = 0;
    for (auto const& row : diff.rows) {
        if (row.status != Status::matched || std::isnan(row.ratio(f))) continue;
        if (row.ratio_kind(figure) == RatioKind::lower_bounds) {
            ++unranked;
            continue;
        }
        rows.push_back(&row);
    }
    std::stable_sort(rows.begin(), rows.end(), [f](auto const* x, auto const* y) {
        return std::abs(std::log(x->ratio(f))) > std::abs(std::log(y->ratio(f)));
    });
    return rows;
}

std::string counts_text(ServeTableDiff const& diff, char const* one, char const* many) {
    return std::to_string(diff.matched) + " " + (diff.matched == 1 ? one : many) + " matched, " + std::to_string(diff.only_a) +
           " only in A, " + std::to_string(diff.only_b) + " only in B";
}

void serve_lines(std::ostringstream& out, Matcher const& matcher, ServeTableDiff const& diff) {
    std::size_t saturated_a = 0, saturated_b = 0;
    for (auto const& row : diff.rows) {
        saturated_a += row.status != Status::only_b && row.saturated_a;
        saturated_b += row.status != Status::only_a && row.saturated_b;
    }
    out << "serve: " << counts_text(diff, "point", "points") << " (serve_diff.csv has every one); saturated: "
        << saturated_a << " in A, " << saturated_b
        << " in B (a saturated point's latencies are lower bounds, ≥)\n";
    unmatched_lines(out, matcher, diff);
    for (char const* column : {"tpot_p99", "output_tokens_per_s_per_chip"}) {
        std::size_t const f = figure_index(diff.kind, column);
        auto const& figure = serve_figures(diff.kind)[f];
        std::size_t unranked = 0;
        auto rows = ranked(diff, f, unranked);
        if (rows.empty() && unranked == 0) continue;
        out << "  the largest changes of " << figure.label << " (B / A):\n";
        for (std::size_t i = 0; i < rows.size() && i < max_ranked; ++i)
            out << "    "
                << output::terminal_safe(describe(matcher, diff, *rows[i]) + ": " +
                                         change_text(*rows[i], figure, f))
                << "\n";
        if (unranked)
            out << "    (" << unranked
                << (unranked == 1 ? " point saturated" : " points saturated")
                << " in both A and B not ranked: a ratio of two lower bounds)\n";
    }
}

void fleet_lines(std::ostringstream& out, Matcher const& matcher, ServeTableDiff const& diff) {
    auto const& figures = serve_figures(diff.kind);
    out << "fleet: " << counts_text(diff, "configuration", "configurations") << " (fleet_diff.csv has every one)\n";
    unmatched_lines(out, matcher, diff);
    // The configurations with the largest change of any figure first.
    std::vector<std::pair<double, ServeDiffRow const*>> rows;
    for (auto const& row : diff.rows) {
        if (row.status != Status::matched) continue;
        double change = 0;
        for (std::size_t f = 0; f < figures.size(); ++f)
            if (std::isfinite(row.ratio(f))) change = std::max(change, std::abs(std::log(row.ratio(f))));
        rows.emplace_back(change, &row);
    }
    std::stable_sort(rows.begin(), rows.end(), [](auto const& x, auto const& y) { return x.first > y.first; });
    for (std::size_t i = 0; i < rows.size() && i < max_configurations; ++i) {
        auto const& row = *rows[i].second;
        std::string line = describe(matcher, diff, row) + ":";
        for (char const* column : {"chips", "dollars_per_million_tokens", "max_rate_per_replica"}) {
            std::size_t const f = figure_index(diff.kind, column);
            line.append(f == figure_index(diff.kind, "chips") ? " " : ", ")
                .append(figures[f].label)
                .append(" ")
                .append(change_text(row, figures[f], f));
        }
        for (auto [side, why] : {std::pair{"A", &row.note_a}, std::pair{"B", &row.note_b}})
            if (!why->empty()) line.append("; none in ").append(side).append(": ").append(*why);
        out << "    " << output::terminal_safe(line) << "\n";
    }
    if (rows.size() > max_configurations)
        out << "    ... and " << rows.size() - max_configurations << " more\n";
}

}  // namespace

std::string serve_summary_text(Matcher const& matcher, ServeDiff const& diff) {
    std::ostringstream out;
    for (auto const& note : diff.notes) out << output::terminal_safe(note) << "\n";
    if (diff.serve) serve_lines(out, matcher, *diff.serve);
    if (diff.fleet) fleet_lines(out, matcher, *diff.fleet);
    return out.str();
}

}  // namespace roofline::diff
