#include "xlsx_state.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace roofline::report {

using output::column_letters;
using output::shortest;
using output::text_width;

// ---- Summary ---------------------------------------------------------------------

namespace {

// Text longer than this may be cut or escaped in its cell (output::cell_text),
// and EXACT against it would miss: such a layer's times are values.
constexpr std::size_t max_exact_text = 4000;

std::string point_label(ReportContext const& ctx, std::size_t point) {
    std::string s;
    for (std::size_t v = 0; v < ctx.grid.sweep_count; ++v) {
        if (v) s += ", ";
        double value = ctx.grid.sweep_value(point, v);
        auto const* dtype = ctx.scenario.sweep_dtype_name(v, value);
        s += ctx.scenario.sweeps[v].name + " = " + (dtype ? *dtype : shortest(value));
    }
    return s;
}

}  // namespace

void XlsxWriter::State::write_summary_head() {
    lxw_worksheet* ws = summary;
    auto const& s = ctx.scenario;
    std::size_t r = 0;
    str(ws, r++, 0, s.title.empty() ? ctx.info.name : s.title, fmt.title);
    auto pair = [&](char const* key, std::string const& value) {
        str(ws, r, 0, key, fmt.label);
        str(ws, r++, 1, value);
    };
    pair("report", ctx.info.name + " v" + std::to_string(ctx.info.version));
    pair("tool", "roofline " + ctx.info.tool_version);
    pair("inputs SHA-256", ctx.info.inputs_sha256);
    std::string ids;
    for (std::size_t t = 0; t < targets; ++t) ids += (t ? ", " : "") + ctx.target(t).id;
    pair("targets", ids);
    // Which calibration each target's expected times have (t_expected).
    std::string calibrations;
    for (std::size_t t = 0; t < targets; ++t)
        calibrations.append(t ? "; " : "").append(ctx.target(t).id).append(": ").append(calibration_label(s, t));
    pair("calibration", calibrations);
    for (std::size_t v = 0; v < s.sweeps.size(); ++v) {
        auto const& sw = s.sweeps[v];
        std::string values;
        if (sw.of_dtypes) {
            for (double x : sw.values) values.append(values.empty() ? "" : ", ").append(*s.sweep_dtype_name(v, x));
        } else if (!sw.values.empty()) {
            values = shortest(sw.values.front()) + " .. " + shortest(sw.values.back()) + " (" +
                     std::to_string(sw.values.size()) + " values)";
        }
        pair(("sweep " + sw.name).c_str(), values);
    }
    std::size_t elementwise = 0, collectives = 0, kernels = 0;
    for (auto const& op : s.ops) {
        elementwise += op.kind == model::OpKind::elementwise;
        collectives += op.kind == model::OpKind::collective;
        kernels += op.kind == model::OpKind::kernel;
    }
    std::string ops = elementwise + collectives + kernels == 0
                          ? std::to_string(matmuls) + " matmuls"
                          : std::to_string(matmuls) + " ops (" +
                                std::to_string(matmuls - elementwise - collectives - kernels) + " matmuls, " +
                                std::to_string(elementwise) + " elementwise" +
                                (collectives ? std::string(", ").append(std::to_string(collectives)).append(" collectives")
                                             : std::string()) +
                                (kernels ? std::string(", ").append(std::to_string(kernels)).append(" kernels")
                                         : std::string()) +
                                ")";
    pair("cases", ops + " x " + std::to_string(targets) +
                      " targets x " + std::to_string(points) + " sweep points = " +
                      std::to_string(total_cases));
    summary_row = r;

    // Widths for the tables written by finish(): names are known now.
    double a = 16, b = 10, hw = 10;
    for (auto const& m : s.ops) {
        a = std::max(a, text_width(m.name) + 2);
        a = std::max(a, text_width(m.layer) + 2);
        b = std::max(b, text_width(m.layer) + 2);
    }
    for (std::size_t t = 0; t < targets; ++t) {
        hw = std::max(hw, text_width(ctx.target(t).id) + 2);
        a = std::max(a, hw);
        b = std::max(b, hw);
    }
    double label = 12;
    if (points > 0) label = std::max(label, text_width("t_lower at " + point_label(ctx, 0)) + 2);
    // The Step section's headers widen the columns (times need 12
    // characters, "28.04E-6 s"; a bold header a character more than its
    // text, so that a right-aligned one and the next left-aligned one keep
    // apart); the Plan above it shares them.
    auto const step_headers = summary_step_headers();
    std::vector<double> widths(std::max<std::size_t>(6 + 2 * sweeps, step_headers.size()), label);
    widths[0] = a;
    widths[1] = std::max(b, label);  // also the first "t_lower at ..." of Whole scenario
    widths[2] = std::max(hw, label);
    for (std::size_t i = 0; i < step_headers.size(); ++i)
        widths[i] = std::max({widths[i], text_width(step_headers[i]) + 3, i > sweeps ? 12.0 : 0.0});
    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 60.0));
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

std::string XlsxWriter::State::no_cases_note() const {
    return ctx.scenario.requests.empty()
               ? "The scenario has no ops: no cases, no step."
               : "The scenario has no ops of its own: its requests are evaluated on their own, on "
                 "the Requests sheet (and requests.csv, and the request charts).";
}

void XlsxWriter::State::write_summary_tables(Summary const& sum) {
    lxw_worksheet* ws = summary;
    auto const& s = ctx.scenario;
    std::size_t r = summary_row;
    if (sum.unsupported_count) {
        str(ws, r, 0, "unsupported cases", fmt.label);
        num(ws, r, 1, static_cast<double>(sum.unsupported_count));
        str(ws, r++, 2, "no peak for the compute dtype: no times, shown as \"unsupported\"",
            fmt.note);
    }
    if (matmuls == 0) {  // a scenario of requests alone: nothing per op, no step
        str(ws, r + 1, 0, no_cases_note(), fmt.note);
        return;
    }
    // The Plan first (a mesh and tokens only): what to buy, before the step
    // table it was chosen from, which may run to a hundred rows and more.
    r = write_summary_plan(sum, r);
    r = write_summary_steps(sum, r);

    std::vector<std::size_t> at_points;
    if (points > 0) at_points.push_back(0);
    if (points > 1) at_points.push_back(points - 1);
    auto at = [&](char const* what, std::size_t p) {
        return points > 1 ? std::string(what) + " at " + point_label(ctx, p) : std::string(what);
    };
    auto bound_format = [&](engine::Bound b) {
        switch (b) {
            case engine::Bound::compute: return fmt.compute;
            case engine::Bound::memory: return fmt.memory;
            case engine::Bound::onchip: return fmt.onchip;
            case engine::Bound::network: return fmt.network;
            case engine::Bound::unsupported: break;
        }
        return fmt.unsupported;
    };
    auto bound_cell = [&](std::size_t row, std::size_t column, engine::Bound b) {
        str(ws, row, column, std::string(engine::bound_name(b)), bound_format(b));
    };

    // Where a case's cell is on the Cases sheets: case (point, op, target)
    // is row index + 2 of sheet index / rows_per_cases_sheet (the order of
    // engine::stream_cases: point, then op, then target).
    auto cases_cell = [&](std::size_t point, std::size_t m, std::size_t t, std::size_t column) {
        std::size_t index = (point * matmuls + m) * targets + t;
        std::size_t per_sheet = options.rows_per_cases_sheet;
        std::size_t sheet = index / per_sheet;
        std::string name = sheet == 0 ? cases_names[0] : "'" + cases_names[sheet] + "'";
        return name + "!$" + letters[column] + "$" + std::to_string(index % per_sheet + 2);
    };

    // Per target and op: references to the cases' cells, so that they follow
    // the Cases formulas (and an edited Hardware sheet) as they are.
    bool any_fixed = false;
    for (std::size_t v = 0; v < sweeps && v < ctx.grid.v_counts.size(); ++v)
        for (std::size_t m = 0; m < matmuls && !s.sweeps[v].of_dtypes; ++m)
            any_fixed = any_fixed ||
                        ctx.grid.v_counts_of(0, m, v).kind == engine::CaseGrid::VCounts::other;
    ++r;
    str(ws, r++, 0, "Per target and op", fmt.section);
    std::string note =
        "critical_V: the smallest V at which the op is compute-bound, the other sweep variables at "
        "their first value. Every cell refers to the op's case on the Cases sheet.";
    if (any_fixed)
        note +=
            " Values in italics are evaluated at the scenario's values and do not follow an "
            "edited Hardware sheet: V reaches the op's axes through lets, so there is no "
            "formula for them.";
    str(ws, r++, 0, note, fmt.note);
    std::vector<std::string> headers = {"op", "layer", "hardware", "compute_dtype"};
    std::vector<std::size_t> critical_sweeps;  // the sweeps of numbers
    for (std::size_t v = 0; v < sweeps; ++v) {
        if (s.sweeps[v].of_dtypes) continue;
        critical_sweeps.push_back(v);
        headers.push_back("critical_" + s.sweeps[v].name);
    }
    std::size_t const criticals = critical_sweeps.size();
    for (std::size_t p : at_points) headers.push_back(at("bound", p));
    // Right-aligned over the critical sizes, and over the centered bounds
    // (as wide as their column), so that the two keep apart.
    std::vector<bool> over_numbers(headers.size(), true);
    over_numbers[0] = over_numbers[1] = over_numbers[2] = over_numbers[3] = false;
    header_cells(ws, r, headers, over_numbers);
    ++r;
    for (std::size_t t = 0; t < targets; ++t) {
        for (std::size_t m = 0; m < matmuls; ++m, ++r) {
            auto const& mm = s.ops[m];
            auto const& op = sum.op_targets[m * targets + t];
            str(ws, r, 0, mm.name);
            if (!mm.layer.empty()) str(ws, r, 1, mm.layer);
            str(ws, r, 2, ctx.target(t).id);
            str(ws, r, 3, op_dtypes[m]);
            bool const supported = op.bound_first != engine::Bound::unsupported;
            for (std::size_t k = 0; k < criticals; ++k) {
                std::size_t const v = critical_sweeps[k];
                std::size_t const c = 4 + k;
                double crit = v < op.critical.size() ? op.critical[v] : engine::not_available;
                if (!supported) {
                    str(ws, r, c, "unsupported", fmt.never);
                    continue;
                }
                bool fixed = v < ctx.grid.v_counts.size() &&
                             ctx.grid.v_counts_of(0, m, v).kind ==
                                 engine::CaseGrid::VCounts::other;
                std::string ref = std::string("=").append(cases_cell(0, m, t, *critical_column(v)));
                if (std::isfinite(crit))
                    formula(ws, r, c, ref, crit, fixed ? fixed_format : nullptr);
                else
                    formula_text(ws, r, c, ref, "never", fmt.never);
            }
            for (std::size_t i = 0; i < at_points.size(); ++i) {
                engine::Bound b = i == 0 ? op.bound_first : op.bound_last;
                // The Cases cell has the formula; an unsupported case's is a value.
                if (b == engine::Bound::unsupported)
                    bound_cell(r, 4 + criticals + i, b);
                else
                    formula_text(ws, r, 4 + criticals + i,
                                 std::string("=").append(cases_cell(at_points[i], m, t, col.bound)),
                                 std::string(engine::bound_name(b)), bound_format(b));
            }
        }
    }

    // Per layer and Whole scenario: live where the Steps sheet is (the same
    // conditions: one Cases sheet, few enough cells read, sweep values that
    // match), else values labelled as such.
    std::size_t const layer_rows = sum.layers.size() * targets * at_points.size();
    bool const layer_formulas =
        step.formulas &&
        static_cast<double>(layer_rows) * static_cast<double>(total_cases) <= max_formula_cells &&
        std::all_of(sum.layers.begin(), sum.layers.end(),
                    [](std::string const& l) { return l.size() <= max_exact_text; });
    auto fixed_note = [&](std::string const& why) {
        return "Values evaluated at the scenario's values (they do not follow an edited "
               "Hardware sheet): " +
               why + ".";
    };

    // Per layer.
    ++r;
    str(ws, r++, 0, "Per layer: sum of count x t_lower", fmt.section);
    note = "count is the product of the enclosing layer repeat counts; unsupported cases add nothing";
    if (layer_formulas)
        note += "; SUMPRODUCT formulas over the Cases sheet (the top level: an empty layer)";
    else
        note.append(". ").append(fixed_note(
            step.formulas ? "more layers than a spreadsheet sums quickly" : step.values_why));
    str(ws, r++, 0, note, fmt.note);
    headers = {"layer", "hardware"};
    for (std::size_t p : at_points) headers.push_back(at("t_lower", p));
    over_numbers.assign(headers.size(), true);
    over_numbers[0] = over_numbers[1] = false;
    header_cells(ws, r, headers, over_numbers);
    ++r;
    std::string const last = std::to_string(total_cases + 1);
    auto range = [&](std::size_t column) {
        return "Cases!$" + letters[column] + "$2:$" + letters[column] + "$" + last;
    };
    // Named, not "literal" + range(...): GCC 12 at -O3 gives a false
    // -Wrestrict for a string literal + a temporary std::string.
    std::string const hardware_range = range(col.hardware), layer_range = range(col.layer),
                      count_range = range(col.count), lower_range = range(col.t_step);
    for (std::size_t l = 0; l < sum.layers.size(); ++l) {
        for (std::size_t t = 0; t < targets; ++t, ++r) {
            bool const top = sum.layers[l].empty();
            str(ws, r, 0, top ? std::string("(top level)") : sum.layers[l],
                top ? fmt.note : nullptr);
            str(ws, r, 1, ctx.target(t).id);
            std::string const n = std::to_string(r + 1);
            for (std::size_t i = 0; i < at_points.size(); ++i) {
                double value = sum.layer_time(at_points[i], l, t, targets);
                if (!layer_formulas) {
                    num(ws, r, 2 + i, value, fmt.time);
                    continue;
                }
                // The layer and the hardware from this row's cells (names are
                // data, never formula text); the sweep values as numbers.
                std::string match = "EXACT(" + hardware_range + ",$B" + n + ")*EXACT(" +
                                    layer_range + (top ? std::string(",\"\")") : ",$A" + n + ")");
                for (std::size_t v = 0; v < sweeps; ++v)
                    match.append("*").append(sweep_test(range(col.sweep0 + v), at_points[i], v));
                formula(ws, r, 2 + i,
                        "=SUMPRODUCT(" + match + "*" + count_range + "," + lower_range + ")",
                        value, fmt.time);
            }
        }
    }

    // Whole scenario: the Steps sheet's cells of the target at the point.
    ++r;
    str(ws, r++, 0, "Whole scenario: sum of count x time over supported cases", fmt.section);
    bool whole_formulas = step.formulas;
    for (std::size_t t = 0; t < targets; ++t)
        for (std::size_t p : at_points) whole_formulas = whole_formulas && steps_row(p, t);
    str(ws, r++, 0,
        whole_formulas ? std::string("The Steps sheet's rows of each target at these points.")
                       : fixed_note(step.formulas ? "the Steps sheet does not reach these points"
                                                  : step.values_why),
        fmt.note);
    headers = {"hardware"};
    for (std::size_t p : at_points) headers.push_back(at("t_lower", p));
    for (std::size_t p : at_points) headers.push_back(at("t_upper", p));
    over_numbers.assign(headers.size(), true);
    over_numbers[0] = false;
    header_cells(ws, r, headers, over_numbers);
    ++r;
    auto steps_ref = [&](std::size_t row, std::size_t column) {
        return std::string("=Steps!$").append(column_letters(column)).append("$").append(
            std::to_string(row + 1));
    };
    for (std::size_t t = 0; t < targets; ++t, ++r) {
        str(ws, r, 0, ctx.target(t).id);
        for (std::size_t i = 0; i < at_points.size(); ++i) {
            std::size_t p = at_points[i];
            double lower = sum.t_step_total[p * targets + t];
            double upper = sum.t_upper_total[p * targets + t];
            std::size_t c1 = 1 + i, c2 = 1 + at_points.size() + i;
            if (whole_formulas) {
                std::size_t row = *steps_row(p, t);
                formula(ws, r, c1, steps_ref(row, step.t_lower), lower, fmt.time);
                formula(ws, r, c2, steps_ref(row, step.t_upper), upper, fmt.time);
            } else {
                num(ws, r, c1, lower, fmt.time);
                num(ws, r, c2, upper, fmt.time);
            }
        }
    }
    summary_row = r;
}

}  // namespace roofline::report
