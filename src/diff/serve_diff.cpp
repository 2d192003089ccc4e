// Matching the serve points (and fleet configurations) of two reports.
#include "diff/serve_diff.hpp"

#include "roofline/report/serve_columns.hpp"

#include <cmath>
#include <limits>
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace roofline::diff {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// A serve figure, with lower_bound taken from the column's own spec, so that
// what serve.csv calls a lower bound is what the diff treats as one.
ServeFigure serve_figure(char const* column, char const* label, bool higher_better,
                         bool seconds) {
    for (auto const& spec : report::serve_column_specs())
        if (spec.csv == column) return {column, label, spec.lower_bound, higher_better, seconds};
    throw std::logic_error(std::string("serve.csv has no column ") + column);
}

ServeFigure fleet_figure(char const* column, char const* label, bool higher_better) {
    for (auto const& spec : report::fleet_column_specs())
        if (spec.csv == column) return {column, label, false, higher_better, false};
    throw std::logic_error(std::string("fleet.csv has no column ") + column);
}

// The key of a row: its hardware pair and its values of the union sweeps
// ("\x1f" where its side has no such sweep, which matches no value).
std::string key_of(std::uint32_t pair, std::vector<std::string> const& sweep) {
    std::string key = std::to_string(pair);
    for (auto const& v : sweep) key.append("\x1e").append(v);
    return key;
}

constexpr char const* no_sweep = "\x1f";

}  // namespace

std::vector<ServeFigure> const& serve_figures(ServeTableKind kind) {
    static std::vector<ServeFigure> const serve = {
        serve_figure("served_rate", "served req/s", true, false),
        serve_figure("output_tokens_per_s_per_chip", "output tok/s per chip", true, false),
        serve_figure("ttft_p50", "TTFT p50", false, true),
        serve_figure("ttft_p99", "TTFT p99", false, true),
        serve_figure("tpot_p50", "TPOT p50", false, true),
        serve_figure("tpot_p99", "TPOT p99", false, true),
        serve_figure("e2e_p99", "e2e p99", false, true),
    };
    static std::vector<ServeFigure> const fleet = {
        fleet_figure("max_rate_per_replica", "rate per replica", true),
        fleet_figure("replicas", "replicas", false),
        fleet_figure("chips", "chips", false),
        fleet_figure("dollars_per_million_tokens", "$/Mtok", false),
    };
    return kind == ServeTableKind::serve ? serve : fleet;
}

char const* ratio_kind_name(RatioKind kind) {
    switch (kind) {
        case RatioKind::exact:
            return "exact";
        case RatioKind::at_least:
            return "at_least";
        case RatioKind::at_most:
            return "at_most";
        case RatioKind::lower_bounds:
            break;
    }
    return "lower_bounds";
}

double ServeDiffRow::ratio(std::size_t figure) const {
    double x = figure < a.size() ? a[figure] : nan, y = figure < b.size() ? b[figure] : nan;
    if (!std::isfinite(x) || !std::isfinite(y) || x == 0) return nan;
    return y / x;
}

RatioKind ServeDiffRow::ratio_kind(ServeFigure const& figure) const {
    if (!figure.lower_bound) return RatioKind::exact;
    // true B >= b and true A >= a: B alone bounds the ratio from below, A alone from above.
    if (saturated_a && saturated_b) return RatioKind::lower_bounds;
    if (saturated_b) return RatioKind::at_least;
    if (saturated_a) return RatioKind::at_most;
    return RatioKind::exact;
}

namespace {

ServeTableDiff match_tables(Matcher const& matcher, ServeTable const& ta, ServeTable const& tb) {
    ServeTableDiff diff;
    diff.kind = ta.kind;
    auto const& names = matcher.sweep_names();
    std::unordered_map<std::string, std::size_t> union_of;
    for (std::size_t u = 0; u < names.size(); ++u) union_of.emplace(names[u], u);
    // The union sweeps either table keys by; a mesh sweep of one value on each side pairs them.
    std::vector<bool> keyed(names.size()), paired(names.size());
    auto note_sweeps = [&](ComparedReport const& r, ServeTable const& t) {
        for (std::size_t v = 0; v < r.sweeps.size(); ++v)
            if (t.has_sweep[v]) keyed[union_of.at(r.sweeps[v].name)] = true;
    };
    note_sweeps(matcher.a(), ta);
    note_sweeps(matcher.b(), tb);
    for (auto const& p : matcher.paired_sweeps()) paired[p.sweep] = true;
    std::vector<std::size_t> shown;  // union sweep of each key column
    for (std::size_t u = 0; u < names.size(); ++u)
        if (keyed[u]) {
            shown.push_back(u);
            diff.sweep_names.push_back(names[u]);
        }

    std::unordered_map<std::string, std::uint32_t> pair_a, pair_b;
    auto const& pairs = matcher.pairing().pairs;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        if (!pairs[p].a.empty()) pair_a.emplace(pairs[p].a, static_cast<std::uint32_t>(p));
        if (!pairs[p].b.empty()) pair_b.emplace(pairs[p].b, static_cast<std::uint32_t>(p));
    }
    // A row's values of the shown sweeps, and its key.
    auto values = [&](ComparedReport const& r, ServeTable const& t, ServeRecord const& row,
                      bool for_key) {
        std::vector<std::string> out(shown.size(), for_key ? no_sweep : "");
        for (std::size_t v = 0; v < r.sweeps.size(); ++v) {
            if (!t.has_sweep[v]) continue;
            std::size_t u = union_of.at(r.sweeps[v].name);
            auto at = std::find(shown.begin(), shown.end(), u) - shown.begin();
            out[static_cast<std::size_t>(at)] = for_key && paired[u] ? "paired" : row.sweep[v];
        }
        return out;
    };
    std::vector<double> none(serve_figures(diff.kind).size(), nan);

    struct Entry {
        std::size_t row;
        std::uint32_t pair;
        bool matched = false;
    };
    std::unordered_map<std::string, std::size_t> index;  // key -> entries
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < ta.rows.size(); ++i) {
        auto it = pair_a.find(ta.rows[i].hardware);
        if (it == pair_a.end()) {
            ++diff.left_out;
            continue;
        }
        auto [at, added] = index.try_emplace(key_of(it->second, values(matcher.a(), ta, ta.rows[i], true)),
                                             entries.size());
        if (!added)
            throw ReportError(ta.path + ":" + std::to_string(ta.rows[i].line) +
                              ": the same point as line " +
                              std::to_string(ta.rows[entries[at->second].row].line));
        entries.push_back({i, it->second});
    }
    std::unordered_map<std::string, std::size_t> seen_b;  // key -> line, for rows listed twice
    for (auto const& row : tb.rows) {
        auto it = pair_b.find(row.hardware);
        if (it == pair_b.end()) {
            ++diff.left_out;
            continue;
        }
        auto key = key_of(it->second, values(matcher.b(), tb, row, true));
        if (auto [at, added] = seen_b.try_emplace(key, row.line); !added)
            throw ReportError(tb.path + ":" + std::to_string(row.line) +
                              ": the same point as line " + std::to_string(at->second));
        ServeDiffRow d;
        d.pair = it->second;
        d.b = row.figures;
        d.saturated_b = row.saturated;
        d.note_b = row.note;
        d.line_b = row.line;
        auto found = index.find(key);
        if (found == index.end()) {
            d.status = Status::only_b;
            d.sweep = values(matcher.b(), tb, row, false);
            d.a = none;
            ++diff.only_b;
        } else {
            auto& entry = entries[found->second];
            entry.matched = true;
            auto const& ra = ta.rows[entry.row];
            d.status = Status::matched;
            d.sweep = values(matcher.a(), ta, ra, false);
            d.a = ra.figures;
            d.saturated_a = ra.saturated;
            d.note_a = ra.note;
            d.line_a = ra.line;
            ++diff.matched;
        }
        diff.rows.push_back(std::move(d));
    }
    for (auto const& entry : entries) {
        if (entry.matched) continue;
        auto const& ra = ta.rows[entry.row];
        ServeDiffRow d;
        d.status = Status::only_a;
        d.pair = entry.pair;
        d.sweep = values(matcher.a(), ta, ra, false);
        d.a = ra.figures;
        d.b = none;
        d.saturated_a = ra.saturated;
        d.note_a = ra.note;
        d.line_a = ra.line;
        ++diff.only_a;
        diff.rows.push_back(std::move(d));
    }
    return diff;
}

}  // namespace

ServeDiff diff_serve(Matcher const& matcher) {
    ServeDiff diff;
    for (auto kind : {ServeTableKind::serve, ServeTableKind::fleet}) {
        auto ta = read_serve_table(matcher.a(), kind);
        auto tb = read_serve_table(matcher.b(), kind);
        if (ta && tb) {
            (kind == ServeTableKind::serve ? diff.serve : diff.fleet) = match_tables(matcher, *ta, *tb);
        } else if (ta || tb) {
            auto const& has = ta ? matcher.a() : matcher.b();
            auto const& lacks = ta ? matcher.b() : matcher.a();
            diff.notes.push_back(std::string(table_file(kind)) + " only in " + has.label() + " (" +
                                 lacks.label() + " has none): its " +
                                 (kind == ServeTableKind::serve ? "serve points" : "fleet") +
                                 " are not compared");
        }
    }
    return diff;
}

std::string describe(Matcher const& matcher, ServeTableDiff const& diff, ServeDiffRow const& row) {
    auto const& pair = matcher.pairing().pairs[row.pair];
    std::string text = pair.a.empty() ? "-" : pair.a;
    text.append(" → ").append(pair.b.empty() ? "-" : pair.b);
    bool first = true;
    for (std::size_t k = 0; k < diff.sweep_names.size(); ++k) {
        if (row.sweep[k].empty()) continue;
        text.append(first ? " at " : ", ").append(diff.sweep_names[k]).append(" = ").append(row.sweep[k]);
        first = false;
    }
    return text;
}

}  // namespace roofline::diff
