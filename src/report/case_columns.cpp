#include "roofline/report/case_columns.hpp"

#include "roofline/model/hardware_fields.hpp"
#include "roofline/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline::report {

namespace {

using C = CellStyle;
using T = TermStyle;
using O = CaseColumnSpec::Only;
using M = engine::Metrics;
using R = CaseRow;
using S = model::Scenario;
using G = engine::CaseGrid;

// The values most columns are: a figure of the case's metrics or counts.
template <double M::*field>
double metric(R const& r, std::size_t) { return r.c.metrics.*field; }
template <double engine::Counts::*field>
double counted(R const& r, std::size_t) { return r.c.metrics.counts.*field; }

// The keys of the text columns (case_columns.hpp, text_key) and their texts.
std::size_t by_op(R const& r, std::size_t) { return r.c.op; }
std::size_t by_target(R const& r, std::size_t) { return r.c.target; }
std::size_t by_compute_dtype(R const& r, std::size_t) { return r.c.compute_dtype; }
std::size_t by_bound(R const& r, std::size_t) { return static_cast<std::size_t>(r.c.metrics.bound); }
std::string_view dtype_name(S const& s, G const&, std::size_t dtype) { return s.dtypes[dtype].name; }

// The formulas over the levels a report has: t_comms always, then t_onchip
// and t_net when it has them. Ties go to compute, then memory, on chip, the
// network, as in engine::roofline_metrics.
std::vector<std::string> levels(bool mesh, bool onchip) {
    std::vector<std::string> names = {"{t_comms}"};
    if (onchip) names.push_back("{t_onchip}");
    if (mesh) names.push_back("{t_net}");
    return names;
}

std::string joined(auto first, auto last, char const* sep) {
    std::string text;
    for (auto it = first; it != last; ++it) text.append(it == first ? "" : sep).append(*it);
    return text;
}

// Built with append, not "literal" + std::string: GCC 12 at -O3 gives a
// false -Wrestrict for a string literal + a temporary std::string.
std::string t_lower_formula(bool mesh, bool onchip) {
    auto const l = levels(mesh, onchip);
    return std::string("MAX({t_math},").append(joined(l.begin(), l.end(), ",")).append(")");
}

std::string t_upper_formula(bool mesh, bool onchip) {
    auto const l = levels(mesh, onchip);
    return std::string("{t_math}+").append(joined(l.begin(), l.end(), "+"));
}

std::string t_step_formula(bool, bool onchip) {
    auto l = levels(false, onchip);
    return std::string("MAX({t_math},").append(joined(l.begin(), l.end(), ",")).append(")+{t_net}");
}

std::string bound_formula(bool mesh, bool onchip) {
    auto const l = levels(mesh, onchip);
    auto max_of = [&](std::size_t from) {
        if (l.size() - from == 1) return l[from];
        return std::string("MAX(")
            .append(joined(l.begin() + static_cast<long>(from), l.end(), ","))
            .append(")");
    };
    static constexpr std::string_view names[] = {"memory", "onchip", "network"};
    std::vector<std::string_view> named = {names[0]};
    if (onchip) named.push_back(names[1]);
    if (mesh) named.push_back(names[2]);
    // IF(a>=MAX(rest),"a",IF(b>=MAX(rest),"b","c")), from the last level back.
    std::string text = std::string("\"").append(named.back()).append("\"");
    for (std::size_t k = l.size() - 1; k-- > 0;)
        text = std::string("IF(")
                   .append(l[k])
                   .append(">=")
                   .append(max_of(k + 1))
                   .append(",\"")
                   .append(named[k])
                   .append("\",")
                   .append(text)
                   .append(")");
    return std::string("IF({t_math}>=").append(max_of(0)).append(",\"compute\",").append(text).append(")");
}

// clang-format off
constexpr CaseColumnSpec specs[] = {
//   name             unit      sweep  cell         term        layers width formula                                           peak   only
//   value: number, or text key and text (case_columns.hpp)
    {"op",            "",       false, C::plain,    T::text,    false, 0,  "",                                               false, O::always,
     nullptr, by_op, [](S const& s, G const&, std::size_t op) -> std::string_view { return s.ops[op].name; }},
    {"layer",         "",       false, C::plain,    T::text,    true,  0,  "",                                               false, O::always,
     nullptr, by_op, [](S const& s, G const&, std::size_t op) -> std::string_view { return s.ops[op].layer; }},
    {"count",         "",       false, C::plain,    T::count,   true,  0,  "",                                               false, O::always,
     [](R const& r, std::size_t) { return r.scenario.ops[r.c.op].count; }},
    {"hardware",      "",       false, C::indent,   T::text,    false, 0,  "",                                               false, O::always,
     nullptr, by_target, [](S const& s, G const&, std::size_t t) -> std::string_view {
         return s.hardware[static_cast<std::size_t>(s.targets[t])].id; }},
    {"compute_dtype", "",       false, C::plain,    T::text,    false, 0,  "",                                               false, O::always,
     nullptr, by_compute_dtype, dtype_name},
    // A sweep's value: a number, or for a dtype sweep the dtype's name.
    {"",              "",       true,  C::plain,    T::count,   false, 0,  "",                                               false, O::always,
     [](R const& r, std::size_t v) { return r.grid.sweep_value(r.c, v); },
     [](R const& r, std::size_t v) { return static_cast<std::size_t>(r.grid.sweep_value(r.c, v)); }, dtype_name},
    {"chips",         "",       false, C::plain,    T::count,   false, 0,  "",                                               false, O::mesh,
     [](R const& r, std::size_t) { return r.grid.chips_at(r.c.point); }},
    {"flops",         "FLOP",   false, C::sci,      T::si,      false, 13, "",                                               false, O::always, counted<&engine::Counts::flops>},
    {"bytes_read",    "B",      false, C::sci,      T::si,      false, 13, "",                                               false, O::always, counted<&engine::Counts::bytes_read>},
    {"bytes_written", "B",      false, C::sci,      T::si,      false, 13, "",                                               false, O::always, counted<&engine::Counts::bytes_written>},
    {"bytes_onchip",  "B",      false, C::sci,      T::si,      false, 13, "",                                               false, O::onchip, counted<&engine::Counts::bytes_onchip>},
    {"net_bytes",     "B",      false, C::sci,      T::si,      false, 13, "",                                               false, O::mesh,   metric<&M::net_bytes>},
    {"collective",    "",       false, C::plain,    T::text,    false, 0,  "",                                               false, O::mesh,
     nullptr, by_op, [](S const&, G const& g, std::size_t op) -> std::string_view { return g.collective_texts[op]; }},
    {"intensity",     "FLOP/B", false, C::ratio,    T::general, false, 11, "{flops}/({bytes_read}+{bytes_written})",         false, O::always, metric<&M::intensity>},
    {"peak",          "FLOP/s", false, C::sci,      T::si,      false, 10, "{hw.peak}",                                      true,  O::always, metric<&M::peak>},
    {"ridge",         "FLOP/B", false, C::ratio,    T::general, false, 11, "{peak}/{hw.hbm_bandwidth}",                          true,  O::always, metric<&M::ridge>},
    {"t_math",        "s",      false, C::time,     T::seconds, false, 12, "{flops}/{peak}",                                 true,  O::always, metric<&M::t_math>},
    {"t_comms",       "s",      false, C::time,     T::seconds, false, 12, "({bytes_read}+{bytes_written})/{hw.hbm_bandwidth}",  false, O::always, metric<&M::t_comms>},
    {"t_onchip",      "s",      false, C::time,     T::seconds, false, 12, "{bytes_onchip}/{hw.onchip_bandwidth}",           false, O::onchip, metric<&M::t_onchip>},
    {"t_net",         "s",      false, C::time,     T::seconds, false, 12, "",                                               false, O::mesh,   metric<&M::t_net>},
    {"t_lower",       "s",      false, C::time,     T::seconds, false, 12, "",                                               true,  O::always, metric<&M::t_lower>,
     nullptr, nullptr, t_lower_formula},
    {"t_upper",       "s",      false, C::time,     T::seconds, false, 12, "",                                               true,  O::always, metric<&M::t_upper>,
     nullptr, nullptr, t_upper_formula},
    // The op in the serial step: its collectives after it (metrics.hpp).
    // An overlapped collective's row (an explicit collective is one) holds
    // the value: the formula adds the whole t_net.
    {"t_step",        "s",      false, C::time,     T::seconds, false, 12, "",                                               true,  O::mesh,   metric<&M::t_step>,
     nullptr, nullptr, t_step_formula, {},
     [](R const& r) { return r.c.metrics.t_net_serial == r.c.metrics.t_net; }},
    // The expected time (docs/calibration.md): a value on a calibrated
    // target; the serial roofline, t_step (t_lower on one chip), on an
    // uncalibrated one, where the formula says so.
    {"t_expected",    "s",      false, C::time,     T::seconds, false, 12, "",                                               true,  O::always, metric<&M::t_expected>,
     nullptr, nullptr, [](bool mesh, bool) { return std::string(mesh ? "{t_step}" : "{t_lower}"); }, {},
     [](R const& r) { return r.scenario.calibration_of_target(r.c.target) == nullptr; }},
    // The target's calibration's name, or "uncalibrated" (the terminal says it once per target).
    {"calibration",   "",       false, C::indent,   T::text,    false, 0,  "",                                               false, O::always,
     nullptr, by_target, [](S const& s, G const&, std::size_t t) { return calibration_label(s, t); },
     nullptr, {}, nullptr, false},
    {"bound",         "",       false, C::center,   T::text,    false, 13, "",                                               true,  O::always,
     nullptr, by_bound, [](S const&, G const&, std::size_t b) { return engine::bound_name(static_cast<engine::Bound>(b)); },
     bound_formula},
    {"attained",      "FLOP/s", false, C::sci,      T::si,      false, 10, "{flops}/{t_lower}",                              true,  O::always, metric<&M::attained>},
    {"peak_fraction", "",       false, C::fraction, T::general, false, 0,  "{attained}/{peak}",                              true,  O::always, metric<&M::peak_fraction>},
    // Joules: every chip of the case at its board power for t_lower (empty
    // for a chip without a `power`).
    {"energy",        "J",      false, C::energy,   T::si,      false, 12, "",                                               true,  O::always,
     [](R const& r, std::size_t) {
         static auto const& power = model::hardware_field("power");
         auto const watts = model::field_number(r.hardware(), power);
         return watts ? r.c.metrics.t_lower * *watts * r.grid.chips_at(r.c.point) : std::nan("");
     },
     nullptr, nullptr, [](bool mesh, bool) { return std::string(mesh ? "{t_lower}*{hw.power}*{chips}" : "{t_lower}*{hw.power}"); },
     "power"},
    // The smallest V at which the case is compute-bound (the workbook's
    // formula: XlsxWriter::State::critical_formula).
    {"critical_",     "",       true,  C::plain,    T::count,   false, 11, "",                                               false, O::always,
     [](R const& r, std::size_t v) { return r.grid.critical_value(r.c, v); }},
};
// clang-format on

}  // namespace

std::span<CaseColumnSpec const> case_column_specs() { return specs; }

CaseColumnSpec const& case_column_spec(std::string_view name) {
    for (auto const& spec : specs)
        if (spec.name == name) return spec;
    throw std::logic_error(std::string("no case column spec named ").append(name));
}

std::vector<CaseColumn> case_columns(std::vector<model::Sweep> const& sweeps, bool mesh, bool onchip,
                                     std::function<bool(std::string_view field)> const& some_target_has) {
    std::vector<CaseColumn> columns;
    auto const& critical = case_column_spec("critical_");
    for (auto const& spec : specs) {
        if (spec.only == O::mesh && !mesh) continue;
        if (spec.only == O::onchip && !onchip) continue;
        if (!spec.hardware_field.empty() && !(some_target_has && some_target_has(spec.hardware_field)))
            continue;
        std::string formula = spec.levels_formula ? spec.levels_formula(mesh, onchip) : std::string(spec.formula);
        if (!spec.per_sweep) {
            columns.push_back({&spec, 0, std::string(spec.name), spec.text(), formula});
            continue;
        }
        for (std::size_t v = 0; v < sweeps.size(); ++v) {
            // A dtype sweep's value is a name; it has no critical value.
            bool of_dtypes = sweeps[v].of_dtypes;
            if (of_dtypes && &spec == &critical) continue;
            columns.push_back({&spec, v, std::string(spec.name) + sweeps[v].name,
                               spec.text() || of_dtypes, formula});
        }
    }
    return columns;
}

std::vector<CaseColumn> case_columns(model::Scenario const& scenario) {
    auto some_target_has = [&](std::string_view name) {
        auto const& field = model::hardware_field(name);
        return std::any_of(scenario.targets.begin(), scenario.targets.end(), [&](int t) {
            return model::has_field(scenario.hardware[static_cast<std::size_t>(t)], field);
        });
    };
    return case_columns(scenario.sweeps, !scenario.mesh.empty(), scenario.has_onchip(), some_target_has);
}

std::size_t column_index(std::vector<CaseColumn> const& columns, std::string_view header) {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].header == header) return i;
    throw std::logic_error(std::string("no case column named ").append(header));
}

}  // namespace roofline::report
