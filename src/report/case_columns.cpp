#include "roofline/report/case_columns.hpp"

#include <stdexcept>

namespace roofline::report {

namespace {

using F = CaseField;
using C = CellStyle;
using T = TermStyle;

// clang-format off
constexpr CaseColumnSpec specs[] = {
//   field             name             unit      text   sweep  cell        term        layers width formula                                              peak
    {F::op,            "op",            "",       true,  false, C::plain,   T::text,    false, 0,  "",                                                   false},
    {F::layer,         "layer",         "",       true,  false, C::plain,   T::text,    true,  0,  "",                                                   false},
    {F::count,         "count",         "",       false, false, C::plain,   T::count,   true,  0,  "",                                                   false},
    {F::hardware,      "hardware",      "",       true,  false, C::indent,  T::text,    false, 0,  "",                                                   false},
    {F::compute_dtype, "compute_dtype", "",       true,  false, C::plain,   T::text,    false, 0,  "",                                                   false},
    {F::sweep,         "",              "",       false, true,  C::plain,   T::count,   false, 0,  "",                                                   false},
    {F::chips,         "chips",         "",       false, false, C::plain,   T::count,   false, 0,  "",                                                   false, true},
    {F::flops,         "flops",         "FLOP",   false, false, C::sci,     T::si,      false, 13, "",                                                   false},
    {F::bytes_read,    "bytes_read",    "B",      false, false, C::sci,     T::si,      false, 13, "",                                                   false},
    {F::bytes_written, "bytes_written", "B",      false, false, C::sci,     T::si,      false, 13, "",                                                   false},
    {F::bytes_onchip,  "bytes_onchip",  "B",      false, false, C::sci,     T::si,      false, 13, "",                                                   false, false, true},
    {F::net_bytes,     "net_bytes",     "B",      false, false, C::sci,     T::si,      false, 13, "",                                                   false, true},
    {F::collective,    "collective",    "",       true,  false, C::plain,   T::text,    false, 0,  "",                                                   false, true},
    {F::intensity,     "intensity",     "FLOP/B", false, false, C::ratio,   T::general, false, 11, "{flops}/({bytes_read}+{bytes_written})",             false},
    {F::peak,          "peak",          "FLOP/s", false, false, C::sci,     T::si,      false, 10, "{hw.peak}",                                          true},
    {F::ridge,         "ridge",         "FLOP/B", false, false, C::ratio,   T::general, false, 11, "{peak}/{hw.hbm_bandwidth}",                          true},
    {F::t_math,        "t_math",        "s",      false, false, C::time,    T::seconds, false, 12, "{flops}/{peak}",                                     true},
    {F::t_comms,       "t_comms",       "s",      false, false, C::time,    T::seconds, false, 12, "({bytes_read}+{bytes_written})/{hw.hbm_bandwidth}",  false},
    {F::t_onchip,      "t_onchip",      "s",      false, false, C::time,    T::seconds, false, 12, "{bytes_onchip}/{hw.onchip_bandwidth}",               false, false, true},
    {F::t_net,         "t_net",         "s",      false, false, C::time,    T::seconds, false, 12, "",                                                   false, true},
    // t_lower, t_upper and bound: built by level_formula from the levels of the report.
    {F::t_lower,       "t_lower",       "s",      false, false, C::time,    T::seconds, false, 12, "MAX",                                                true},
    {F::t_upper,       "t_upper",       "s",      false, false, C::time,    T::seconds, false, 12, "SUM",                                                true},
    {F::bound,         "bound",         "",       true,  false, C::center,  T::text,    false, 13, "IF",                                                 true},
    {F::attained,      "attained",      "FLOP/s", false, false, C::sci,     T::si,      false, 10, "{flops}/{t_lower}",                                  true},
    {F::peak_fraction, "peak_fraction", "",       false, false, C::fraction, T::general, false, 0, "{attained}/{peak}",                                  true},
    {F::critical,      "critical_",     "",       false, true,  C::plain,   T::count,   false, 11, "",                                                   false},
};
// clang-format on

}  // namespace

std::span<CaseColumnSpec const> case_column_specs() { return specs; }

CaseColumnSpec const& case_column_spec(CaseField field) {
    for (auto const& spec : specs)
        if (spec.field == field) return spec;
    throw std::logic_error("no case column spec for a field");
}

namespace {

// The formulas over the levels a report has: t_comms always, then t_onchip
// and t_net when it has them. Ties go to compute, then memory, on chip, the
// network, as in engine::roofline_metrics.
std::string level_formula(CaseField field, bool mesh, bool onchip) {
    std::vector<std::string> levels = {"{t_comms}"};
    if (onchip) levels.push_back("{t_onchip}");
    if (mesh) levels.push_back("{t_net}");
    auto joined = [](auto first, auto last, char const* sep) {
        std::string text;
        for (auto it = first; it != last; ++it) text.append(it == first ? "" : sep).append(*it);
        return text;
    };
    // Built with append, not "literal" + std::string: GCC 12 at -O3 gives a
    // false -Wrestrict for a string literal + a temporary std::string.
    auto max_of = [&](std::size_t from) {
        if (levels.size() - from == 1) return levels[from];
        return std::string("MAX(")
            .append(joined(levels.begin() + static_cast<long>(from), levels.end(), ","))
            .append(")");
    };
    switch (field) {
        case F::t_lower:
            return std::string("MAX({t_math},").append(joined(levels.begin(), levels.end(), ",")).append(")");
        case F::t_upper: return std::string("{t_math}+").append(joined(levels.begin(), levels.end(), "+"));
        case F::bound: {
            static constexpr std::string_view names[] = {"memory", "onchip", "network"};
            std::vector<std::string_view> named = {names[0]};
            if (onchip) named.push_back(names[1]);
            if (mesh) named.push_back(names[2]);
            // IF(a>=MAX(rest),"a",IF(b>=MAX(rest),"b","c")), from the last level back.
            std::string text = std::string("\"").append(named.back()).append("\"");
            for (std::size_t k = levels.size() - 1; k-- > 0;)
                text = std::string("IF(")
                           .append(levels[k])
                           .append(">=")
                           .append(max_of(k + 1))
                           .append(",\"")
                           .append(named[k])
                           .append("\",")
                           .append(text)
                           .append(")");
            return std::string("IF({t_math}>=").append(max_of(0)).append(",\"compute\",").append(text).append(")");
        }
        default: break;
    }
    throw std::logic_error("level_formula of another column");
}

}  // namespace

std::vector<CaseColumn> case_columns(std::vector<model::Sweep> const& sweeps, bool mesh, bool onchip) {
    std::vector<CaseColumn> columns;
    for (auto const& spec : specs) {
        if (spec.mesh_only && !mesh) continue;
        if (spec.onchip_only && !onchip) continue;
        std::string formula = spec.field == F::t_lower || spec.field == F::t_upper || spec.field == F::bound
                                  ? level_formula(spec.field, mesh, onchip)
                                  : std::string(spec.formula);
        if (!spec.per_sweep) {
            columns.push_back({&spec, 0, std::string(spec.name), spec.text, formula});
            continue;
        }
        for (std::size_t v = 0; v < sweeps.size(); ++v) {
            // A dtype sweep's value is a name; it has no critical value.
            bool of_dtypes = sweeps[v].of_dtypes;
            if (of_dtypes && spec.field == F::critical) continue;
            columns.push_back({&spec, v, std::string(spec.name) + sweeps[v].name,
                               spec.text || of_dtypes, formula});
        }
    }
    return columns;
}

double case_number(CaseColumn const& column, model::Scenario const& scenario,
                   engine::CaseGrid const& grid, engine::Case const& c) {
    auto const& m = c.metrics;
    switch (column.spec->field) {
        case F::count: return scenario.ops[c.op].count;
        case F::chips: return grid.chips_at(c.point);
        case F::net_bytes: return m.net_bytes;
        case F::t_net: return m.t_net;
        case F::sweep: return grid.sweep_value(c, column.sweep);
        case F::flops: return m.counts.flops;
        case F::bytes_read: return m.counts.bytes_read;
        case F::bytes_written: return m.counts.bytes_written;
        case F::bytes_onchip: return m.counts.bytes_onchip;
        case F::t_onchip: return m.t_onchip;
        case F::intensity: return m.intensity;
        case F::peak: return m.peak;
        case F::ridge: return m.ridge;
        case F::t_math: return m.t_math;
        case F::t_comms: return m.t_comms;
        case F::t_lower: return m.t_lower;
        case F::t_upper: return m.t_upper;
        case F::attained: return m.attained;
        case F::peak_fraction: return m.peak_fraction;
        case F::critical: return grid.critical_value(c, column.sweep);
        case F::op:
        case F::layer:
        case F::hardware:
        case F::compute_dtype:
        case F::bound:
        case F::collective:
            break;
    }
    throw std::logic_error("case_number of a text column");
}

std::string_view case_text(CaseColumn const& column, model::Scenario const& scenario,
                           engine::CaseGrid const& grid, engine::Case const& c) {
    auto const& op = scenario.ops[c.op];
    switch (column.spec->field) {
        case F::sweep:  // of dtypes
            return scenario.dtypes[static_cast<std::size_t>(grid.sweep_value(c, column.sweep))].name;
        case F::op: return op.name;
        case F::layer: return op.layer;
        case F::hardware:
            return scenario.hardware[static_cast<std::size_t>(scenario.targets[c.target])].id;
        case F::compute_dtype: return scenario.dtypes[c.compute_dtype].name;
        case F::bound: return engine::bound_name(c.metrics.bound);
        case F::collective: return op.network;
        default:
            break;
    }
    throw std::logic_error("case_text of a numeric column");
}

}  // namespace roofline::report
