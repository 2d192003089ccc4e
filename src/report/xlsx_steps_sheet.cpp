// The Steps sheet: the step of each target at each sweep point (reports.md,
// "Steps"). Step times are SUMPRODUCT formulas over the Cases sheet, with the
// engine's values cached, where a spreadsheet can afford them; the rest are
// values, or small formulas over the row and the Hardware sheet.
#include "xlsx_state.hpp"

#include "roofline/model/expr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace roofline::report {

using output::column_letters;
using output::text_width;

namespace {

constexpr std::size_t max_sheet_rows = 1'048'576;

// libxlsxwriter writes numbers through the API with 16 significant digits:
// a sweep value that needs 17 does not read back as the Cases sheet's value
// (written with all of them), and an equality test would miss it.
bool sixteen_digits_suffice(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.16G", v);
    return std::strtod(buf, nullptr) == v;
}

}  // namespace

void XlsxWriter::State::layout_steps() {
    auto const& grid = ctx.grid;
    auto& s = step;
    s.tokens = grid.has_tokens;
    s.bytes = grid.has_resident;
    bool any_capacity = std::any_of(capacity_ref.begin(), capacity_ref.end(),
                                    [](std::string const& ref) { return !ref.empty(); });
    s.chips = s.bytes && any_capacity;
    std::size_t n = s.sweep0 + sweeps;
    s.overlapped = !ctx.scenario.mesh.empty();
    s.pipeline = ctx.scenario.pipeline_axis >= 0;
    s.t_lower = n++;
    s.t_expected = n++;
    if (s.pipeline) s.latency = n++;
    if (s.overlapped) s.t_overlapped = n++;
    s.t_upper = n++;
    s.memory = n++;
    if (s.tokens) s.tokens_col = n++, s.rate = n++;
    if (s.tokens && s.pipeline) s.per_chip = n++;
    if (s.bytes) s.weights = n++, s.cache = n++, s.resident = n++;
    if (s.chips) s.min_chips = n++;
    s.last = n - 1;
    s.rows = std::min(points * targets, max_sheet_rows - steps_first_row);

    // The formulas read the one Cases sheet; past it they would need a sum
    // per sheet, and the sizes where that happens are far past the limit.
    double cells = static_cast<double>(s.rows) * static_cast<double>(total_cases);
    bool exact_values = std::all_of(
        ctx.scenario.sweeps.begin(), ctx.scenario.sweeps.end(), [](model::Sweep const& sw) {
            return std::all_of(sw.values.begin(), sw.values.end(), sixteen_digits_suffice);
        });
    if (total_cases == 0)
        s.values_why = "there are no cases";
    else if (total_cases > options.rows_per_cases_sheet)
        s.values_why = "the cases continue past the Cases sheet";
    else if (cells > max_formula_cells)
        s.values_why = std::to_string(s.rows) + " rows x " + std::to_string(total_cases) +
                       " cases is more than a spreadsheet sums quickly (5e7)";
    else if (!exact_values)
        s.values_why = "a sweep value needs 17 significant digits, which a formula cannot match";
    s.formulas = s.values_why.empty();
}

void XlsxWriter::State::write_steps(Summary const& summary) {
    lxw_worksheet* ws = steps;
    auto const& s = step;
    auto const& sc = ctx.scenario;
    if (matmuls == 0) {  // a scenario of requests alone: no step of its own
        str(ws, 0, 0, no_cases_note(), fmt.note);
        return;
    }

    std::string note =
        s.overlapped
            ? "One row per target and sweep point, per chip of the mesh. step: the sum of count x "
              "t_step (each op, then its collectives); step overlapped (t_upper): the sum of count x "
              "t_lower (t_upper), every collective hidden under its op (none hidden); 'unsupported' "
              "where a case has no peak or the chip cannot build the mesh; memory-bound share: a value"
            : "One row per target and sweep point. step t_lower (t_upper): the sum of count x "
              "t_lower (t_upper) over the cases, one chip running the whole step; 'unsupported' "
              "where a case has no peak";
    note += "; step expected: the sum of count x t_expected + the step's overheads (step_overhead + "
            "layer_overhead x layers + sequence_overhead x sequences) of the target's calibration, the "
            "step itself when uncalibrated; tokens/s and the latency are over it";
    if (s.pipeline)
        note += sc.microbatches_slot < 0
                    ? "; a pipeline: step is one stage's, token latency = stages x step (between a "
                      "sequence's tokens), tokens/s = tokens / step (every stage busy with its own "
                      "micro-batch), cache = the KV of the stages' micro-batches"
                    : "; a pipeline: step is one stage's on one micro-batch, batch latency = "
                      "(microbatches + stages - 1) x step, tokens/s = microbatches x tokens / batch "
                      "latency, cache = the KV of every micro-batch";
    if (s.formulas)
        note +=
            "; SUMPRODUCT formulas over the Cases sheet: edit the Hardware sheet and they "
            "recalculate.";
    else
        note += ". The step times are values, not formulas: " + s.values_why + ".";
    if (s.rows < points * targets)
        note += " Only the first " + std::to_string(s.rows) + " of " +
                std::to_string(points * targets) + " rows fit on the sheet.";
    str(ws, 0, 0, note, fmt.note);

    std::vector<std::string> headers(s.last + 1);
    headers[s.hardware] = "hardware";
    for (std::size_t v = 0; v < sweeps; ++v) headers[s.sweep0 + v] = sc.sweeps[v].name;
    headers[s.t_lower] = s.pipeline ? "step (one stage)" : s.overlapped ? "step" : "step t_lower";
    headers[s.t_expected] = "step expected";
    if (s.pipeline) headers[s.latency] = sc.microbatches_slot < 0 ? "token latency" : "batch latency";
    if (s.pipeline && s.tokens) headers[s.per_chip] = "tokens/s per chip";
    if (s.overlapped) headers[s.t_overlapped] = "step overlapped";
    headers[s.t_upper] = "step t_upper";
    headers[s.memory] = "memory-bound share";
    if (s.tokens) headers[s.tokens_col] = "tokens", headers[s.rate] = "tokens/s";
    if (s.bytes)
        headers[s.weights] = "weights", headers[s.cache] = "cache",
        headers[s.resident] = "resident";
    if (s.chips) headers[s.min_chips] = "min chips";
    std::size_t const header_row = steps_first_row - 1;
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        str(ws, header_row, i, headers[i], fmt.header);
        widths[i] = text_width(headers[i]) + 3;
    }
    for (std::size_t t = 0; t < targets; ++t)
        widths[s.hardware] = std::max(widths[s.hardware], text_width(ctx.target(t).id) + 2);
    for (std::size_t i : {s.t_lower, s.t_expected, s.t_upper}) widths[i] = std::max(widths[i], 13.0);
    if (s.overlapped) widths[s.t_overlapped] = std::max(widths[s.t_overlapped], 13.0);
    if (s.bytes)
        for (std::size_t i : {s.weights, s.cache, s.resident})
            widths[i] = std::max(widths[i], 12.0);

    // The Cases columns the formulas read, over every case.
    std::string const last = std::to_string(total_cases + 1);
    auto range = [&](std::size_t column) {
        std::string l = column_letters(column);
        return "Cases!$" + l + "$2:$" + l + "$" + last;
    };
    std::string const count_range = range(col.count), lower_range = range(col.t_step),
                      overlapped_range = range(col.t_lower),
                      upper_range = range(col.t_upper), bound_range = range(col.bound),
                      hardware_range = range(col.hardware), expected_range = range(col.t_expected);

    for (std::size_t t = 0; t < targets; ++t) {
        for (std::size_t p = 0; p < points; ++p) {
            auto row = steps_row(p, t);
            if (!row) break;
            std::size_t r = *row;
            std::string n = std::to_string(r + 1);
            StepTotals const totals = step_totals(ctx, summary, p, t);
            str(ws, r, s.hardware, ctx.target(t).id, fmt.indent);
            for (std::size_t v = 0; v < sweeps; ++v) sweep_cell(ws, r, s.sweep0 + v, p, v);
            std::string const lower_cell = column_letters(s.t_lower) + n;
            std::string const expected_cell = column_letters(s.t_expected) + n;
            if (totals.unsupported) {
                // Never a number: a step without one of its ops is no step.
                for (std::size_t c : {s.t_lower, s.t_expected, s.t_upper, s.memory})
                    str(ws, r, c, "unsupported", fmt.indent);
                if (s.overlapped) str(ws, r, s.t_overlapped, "unsupported", fmt.indent);
                if (s.pipeline) str(ws, r, s.latency, "unsupported", fmt.indent);
            } else if (s.formulas) {
                // The cases of this target (its hardware cell, never its id
                // spliced in: names are data) at this point, weighted by count.
                std::string match =
                    "EXACT(" + hardware_range + ",$" + column_letters(s.hardware) + n + ")";
                for (std::size_t v = 0; v < sweeps; ++v) {
                    std::string const a = range(col.sweep0 + v), b = column_letters(s.sweep0 + v) + n;
                    // A dtype's name matched as case-sensitively as the language reads it.
                    match += ctx.scenario.sweeps[v].of_dtypes ? "*EXACT(" + a + "," + b + ")"
                                                               : "*(" + a + "=" + b + ")";
                }
                formula(ws, r, s.t_lower,
                        "=SUMPRODUCT(" + match + "*" + count_range + "," + lower_range + ")",
                        totals.t_lower, fmt.time);
                // The step's overheads are a number of the calibration (none: 0).
                std::string overhead;
                if (totals.overhead != 0) overhead = "+" + model::format_number(totals.overhead);
                formula(ws, r, s.t_expected,
                        "=SUMPRODUCT(" + match + "*" + count_range + "," + expected_range + ")" + overhead,
                        totals.t_expected, fmt.time);
                if (s.overlapped)
                    formula(ws, r, s.t_overlapped,
                            "=SUMPRODUCT(" + match + "*" + count_range + "," + overlapped_range + ")",
                            totals.t_overlapped, fmt.time);
                formula(ws, r, s.t_upper,
                        "=SUMPRODUCT(" + match + "*" + count_range + "," + upper_range + ")",
                        totals.t_upper, fmt.time);
                // On a mesh the roof of each op's part before its collectives
                // decides the share (summary.cpp): a value.
                if (s.overlapped) num(ws, r, s.memory, totals.memory_share, fmt.fraction);
                else formula(ws, r, s.memory,
                        "=IF(" + lower_cell + ">0,SUMPRODUCT(" + match + "*(" + bound_range +
                            "=\"memory\")*" + count_range + "," + lower_range + ")/" + lower_cell +
                            ",0)",
                        totals.memory_share, fmt.fraction);
            } else {
                num(ws, r, s.t_lower, totals.t_lower, fmt.time);
                num(ws, r, s.t_expected, totals.t_expected, fmt.time);
                if (s.overlapped) num(ws, r, s.t_overlapped, totals.t_overlapped, fmt.time);
                num(ws, r, s.t_upper, totals.t_upper, fmt.time);
                num(ws, r, s.memory, totals.memory_share, fmt.fraction);
            }
            std::string const latency_cell = column_letters(s.latency) + n;
            if (s.pipeline && !totals.unsupported)
                formula(ws, r, s.latency,
                        std::string("=").append(model::format_number(totals.latency_factor)) + "*" + expected_cell,
                        totals.latency, fmt.time);
            if (s.tokens) {
                num(ws, r, s.tokens_col, totals.tokens, fmt.whole);
                std::string const tokens_cell = column_letters(s.tokens_col) + n;
                // A batch of micro-batches gives M x tokens in its latency.
                bool const batch = s.pipeline && !std::isnan(totals.microbatches);
                if (std::isfinite(totals.tokens_per_s))
                    formula(ws, r, s.rate,
                            batch ? std::string("=").append(model::format_number(totals.microbatches)) + "*" +
                                        tokens_cell + "/" + latency_cell
                                  : "=" + tokens_cell + "/" + expected_cell,
                            totals.tokens_per_s, fmt.rate);
                if (s.pipeline && std::isfinite(totals.tokens_per_s))
                    formula(ws, r, s.per_chip,
                            std::string("=").append(column_letters(s.rate)) + n + "/" + model::format_number(totals.chips),
                            totals.tokens_per_s / totals.chips, fmt.rate);
            }
            if (s.bytes) {
                num(ws, r, s.weights, totals.weight_bytes, fmt.bytes);
                num(ws, r, s.cache, totals.cache_bytes, fmt.bytes);
                formula(ws, r, s.resident,
                        // std::string("=").append(...), not "=" + ...: GCC 12 at -O3 gives
                        // a false -Wrestrict for a string literal + a temporary std::string.
                        std::string("=").append(column_letters(s.weights)) + n + "+" +
                            column_letters(s.cache) + n,
                        totals.resident_bytes, fmt.bytes);
            }
            if (s.chips && std::isfinite(totals.min_chips))
                formula(
                    ws, r, s.min_chips,
                    "=CEILING(" + column_letters(s.resident) + n + "/" + capacity_ref[t] + ",1)",
                    totals.min_chips, fmt.whole);
        }
    }

    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 60.0));
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(steps_first_row), 0);
    check(
        worksheet_autofilter(ws, static_cast<lxw_row_t>(header_row), 0,
                             static_cast<lxw_row_t>(header_row + std::max<std::size_t>(s.rows, 1)),
                             static_cast<lxw_col_t>(s.last)),
        "setting the autofilter of Steps");
    check(worksheet_repeat_rows(ws, static_cast<lxw_row_t>(header_row),
                                static_cast<lxw_row_t>(header_row)),
          "repeating the header row of Steps");
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

}  // namespace roofline::report
