#include "xlsx_state.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::report {

using xlsx_detail::cell_name;
using xlsx_detail::Formula;
using xlsx_detail::shortest;
using xlsx_detail::text_width;

// ---- Cases -----------------------------------------------------------------------

void XlsxWriter::State::write_cases_headers() {
    auto const& s = ctx.scenario;
    auto const& c = col;
    std::vector<std::string> headers = {"op", "layer", "count", "hardware", "compute_dtype"};
    for (auto const& sw : s.sweeps) headers.push_back(sw.name);
    for (char const* h : {"flops", "bytes_read", "bytes_written", "intensity", "peak", "ridge",
                          "t_math", "t_comms", "t_lower", "t_upper", "bound", "attained",
                          "peak_fraction"})
        headers.push_back(h);
    for (auto const& sw : s.sweeps) headers.push_back("critical_" + sw.name);

    // Widths: the header plus room for the filter button, or the widest value.
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) widths[i] = text_width(headers[i]) + 3;
    auto widen = [&](std::size_t i, double w) { widths[i] = std::max(widths[i], w); };
    for (auto const& m : s.matmuls) {
        widen(c.op, text_width(m.name) + 1);
        widen(c.layer, text_width(m.layer) + 1);
    }
    for (std::size_t t = 0; t < targets; ++t) widen(c.hardware, text_width(ctx.target(t).id) + 1);
    for (auto const& d : dtype_names) widen(c.dtype, text_width(d) + 1);
    for (std::size_t v = 0; v < sweeps; ++v) {
        // The widest value is among the extremes (a sweep may have 1e8 values).
        auto const& values = s.sweeps[v].values;
        double w = 4;
        if (!values.empty()) {
            auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            for (double x : {values.front(), values.back(), *lo, *hi})
                w = std::max(w, text_width(shortest(x)) + 1);
        }
        widen(c.sweep0 + v, std::min(w, 13.0));
        widen(c.critical0 + v, 11);
    }
    for (std::size_t i : {c.flops, c.bytes_read, c.bytes_written, c.peak, c.attained}) widen(i, 10);
    for (std::size_t i : {c.intensity, c.ridge}) widen(i, 11);
    for (std::size_t i : {c.t_math, c.t_comms, c.t_lower, c.t_upper}) widen(i, 12);
    widen(c.bound, 13);

    std::size_t per_sheet = options.rows_per_cases_sheet;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        lxw_worksheet* ws = cases[k];
        for (std::size_t i = 0; i < headers.size(); ++i) {
            str(ws, 0, i, headers[i], fmt.header);
            width(ws, i, std::min(widths[i], 60.0));
        }
        worksheet_freeze_panes(ws, 1, 0);
        worksheet_set_landscape(ws);
        worksheet_fit_to_pages(ws, 1, 0);
        check(worksheet_repeat_rows(ws, 0, 0), "repeating the header row of " + cases_names[k]);

        std::size_t rows = std::min(per_sheet, total_cases - std::min(total_cases, k * per_sheet));
        auto last_row = static_cast<lxw_row_t>(rows);
        auto last_col = static_cast<lxw_col_t>(c.last);
        check(worksheet_autofilter(ws, 0, 0, last_row, last_col),
              "setting the autofilter of " + cases_names[k]);
        if (rows == 0) continue;

        // The bound column strongly coloured, the rest of the row tinted. Two
        // rules that do not overlap, so that every viewer shows the same.
        std::string bound_range = cell_name(1, c.bound) + ":" + cell_name(rows, c.bound);
        std::string row_ranges = "A2:" + cell_name(rows, c.bound - 1);
        // Appended, not " " + cell_name(...): GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        if (c.bound < c.last)
            row_ranges.append(" ").append(cell_name(1, c.bound + 1)).append(":").append(
                cell_name(rows, c.last));
        std::string first_bound = "$" + letters[c.bound] + "2";
        struct Rule {
            char const* text;
            lxw_format* row;
            lxw_format* cell;
        };
        for (Rule rule : {Rule{"compute", fmt.cf_compute_row, fmt.cf_compute_cell},
                          Rule{"memory", fmt.cf_memory_row, fmt.cf_memory_cell},
                          Rule{"unsupported", fmt.cf_unsupported_row, fmt.cf_unsupported_cell}}) {
            std::string quoted = std::string("\"") + rule.text + "\"";
            lxw_conditional_format cell{};
            cell.type = LXW_CONDITIONAL_TYPE_CELL;
            cell.criteria = LXW_CONDITIONAL_CRITERIA_EQUAL_TO;
            cell.value_string = quoted.data();
            cell.format = rule.cell;
            check(worksheet_conditional_format_range(ws, 1, static_cast<lxw_col_t>(c.bound),
                                                     last_row, static_cast<lxw_col_t>(c.bound),
                                                     &cell),
                  "setting the conditional format of " + cases_names[k] + "!" + bound_range);
            std::string test = first_bound + "=" + quoted;
            lxw_conditional_format row{};
            row.type = LXW_CONDITIONAL_TYPE_FORMULA;
            row.value_string = test.data();
            row.multi_range = row_ranges.data();
            row.format = rule.row;
            check(worksheet_conditional_format_range(ws, 1, 0, last_row,
                                                     static_cast<lxw_col_t>(c.bound - 1), &row),
                  "setting the conditional format of " + cases_names[k] + "!" + row_ranges);
        }
    }
}

void XlsxWriter::State::add(engine::Case const& cs) {
    if (finished) throw std::logic_error("XlsxWriter::add after finish");
    if (next_case >= total_cases)
        throw std::logic_error("XlsxWriter::add: more cases than the grid announced");
    std::size_t index = next_case++;
    std::size_t per_sheet = options.rows_per_cases_sheet;
    std::size_t sheet = index / per_sheet;
    if (sheet != row_sheet) begin_sheet(sheet);
    row_index = index % per_sheet + 1;
    auto end = std::to_chars(row_digits, row_digits + sizeof row_digits, row_index + 1).ptr;
    digits = std::string_view(row_digits, static_cast<std::size_t>(end - row_digits));
    if (direct) put("<row r=\"") << digits << row_spans;
    next_column = 0;

    auto const& x = cs.metrics;
    auto const& c = col;
    auto at = [&](std::size_t column) -> Formula& { return f << letters[column] << digits; };

    // Inputs: plain values; names always as text.
    text_cell(c.op, op_text[cs.matmul], style.none);
    if (!layer_text[cs.matmul].api.empty()) text_cell(c.layer, layer_text[cs.matmul], style.none);
    number_cell(c.count, ctx.scenario.matmuls[cs.matmul].count, style.none);
    text_cell(c.hardware, hw_text[cs.target], style.indent);
    text_cell(c.dtype, dtype_text[slot_of[cs.matmul]], style.none);
    for (std::size_t v = 0; v < sweeps; ++v)
        number_cell(c.sweep0 + v, ctx.grid.sweep_value(cs, v), style.none);
    number_cell(c.flops, x.counts.flops, style.sci);
    number_cell(c.bytes_read, x.counts.bytes_read, style.sci);
    number_cell(c.bytes_written, x.counts.bytes_written, style.sci);

    // Derived: formulas over this row and the target's Hardware cells, with
    // the engine's values as cached results.
    std::string const& bw = bw_ref[cs.target];
    at(c.flops) << "/(";
    at(c.bytes_read) << '+';
    at(c.bytes_written) << ')';
    formula_cell(c.intensity, x.intensity, style.ratio);
    bool supported = x.bound != engine::Bound::unsupported;
    if (supported) {
        f << peak_ref[cs.target * dtypes.size() + slot_of[cs.matmul]];
        formula_cell(c.peak, x.peak, style.sci);
        at(c.peak) << '/' << bw;
        formula_cell(c.ridge, x.ridge, style.ratio);
        at(c.flops) << '/';
        at(c.peak);
        formula_cell(c.t_math, x.t_math, style.time);
    }
    f << '(';
    at(c.bytes_read) << '+';
    at(c.bytes_written) << ")/" << bw;
    formula_cell(c.t_comms, x.t_comms, style.time);
    if (supported) {
        f << "MAX(";
        at(c.t_math) << ',';
        at(c.t_comms) << ')';
        formula_cell(c.t_lower, x.t_lower, style.time);
        at(c.t_math) << '+';
        at(c.t_comms);
        formula_cell(c.t_upper, x.t_upper, style.time);
        f << "IF(";
        at(c.t_math) << ">=";
        at(c.t_comms) << ",\"compute\",\"memory\")";
        formula_text_cell(c.bound, x.bound == engine::Bound::compute ? compute_text : memory_text,
                          style.center);
        at(c.flops) << '/';
        at(c.t_lower);
        formula_cell(c.attained, x.attained, style.sci);
        at(c.attained) << '/';
        at(c.peak);
        formula_cell(c.peak_fraction, x.peak_fraction, style.fraction);
    } else {
        text_cell(c.bound, unsupported_text, style.center);
    }
    for (std::size_t v = 0; v < sweeps; ++v)
        number_cell(c.critical0 + v, ctx.grid.critical_value(cs, v), style.none);

    if (direct) put("</row>");
    sample(cs);
}

}  // namespace roofline::report
