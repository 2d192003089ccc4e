#include "xlsx_state.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::report {

using output::cell_name;
using output::shortest;
using output::text_width;

// ---- Cases -----------------------------------------------------------------------

output::Style const& XlsxWriter::State::cell_style(CellStyle style) {
    switch (style) {
        case CellStyle::sci: return rows->style(fmt.sci);
        case CellStyle::ratio: return rows->style(fmt.ratio);
        case CellStyle::time: return rows->style(fmt.time);
        case CellStyle::fraction: return rows->style(fmt.fraction);
        case CellStyle::center: return rows->style(fmt.center);
        case CellStyle::indent: return rows->style(fmt.indent);
        case CellStyle::energy: return rows->style(fmt.energy);
        case CellStyle::plain: break;
    }
    return rows->style(nullptr);
}

std::string const& XlsxWriter::State::hardware_ref(std::string_view field, std::size_t target,
                                                   std::size_t compute_dtype) const {
    return hw_cells.of(formula_field(field), target, slot_of[compute_dtype]);
}

// The columns of case_columns.hpp, their letters, styles and formulas.
void XlsxWriter::State::layout_cases() {
    columns = case_columns(ctx.scenario);
    auto index = [&](std::string_view name) { return column_index(columns, name); };
    auto& c = col;
    c.op = index("op"), c.layer = index("layer"), c.count = index("count");
    c.hardware = index("hardware"), c.dtype = index("compute_dtype"), c.sweep0 = c.dtype + 1;
    c.flops = index("flops"), c.bytes_read = index("bytes_read");
    c.bytes_written = index("bytes_written"), c.intensity = index("intensity");
    c.peak = index("peak"), c.ridge = index("ridge");
    c.t_math = index("t_math"), c.t_comms = index("t_comms");
    c.t_lower = index("t_lower"), c.t_upper = index("t_upper");
    c.t_step = ctx.scenario.mesh.empty() ? c.t_lower : index("t_step");
    c.t_expected = index("t_expected");
    c.bound = index("bound"), c.attained = index("attained");
    c.peak_fraction = index("peak_fraction");
    critical_spec = &case_column_spec("critical_");
    c.critical0 = columns.size();
    for (std::size_t i = columns.size(); i-- > 0;)
        if (columns[i].spec == critical_spec) c.critical0 = i;
    c.last = columns.size() - 1;
    column_texts.resize(columns.size());
    for (std::size_t i = 0; i <= c.last; ++i) letters.push_back(output::column_letters(i));

    rows.emplace(*book, columns.size(), options.direct_rows);
    // libxlsxwriter numbers cell formats in the order they are first used:
    // a fixed order keeps the workbook's bytes the same when columns move.
    for (CellStyle style : {CellStyle::plain, CellStyle::sci, CellStyle::ratio, CellStyle::time,
                            CellStyle::fraction, CellStyle::center, CellStyle::indent})
        cell_style(style);
    // critical_V right-aligned, so that "never" lines up with the numbers
    // instead of running into peak_fraction.
    lxw_format* critical_format = add_format();
    format_set_align(critical_format, LXW_ALIGN_RIGHT);
    critical_style = &rows->style(critical_format);
    fixed_format = add_format();
    format_set_italic(fixed_format);
    format_set_align(fixed_format, LXW_ALIGN_RIGHT);
    fixed_style = &rows->style(fixed_format);
    for (auto const& column : columns) {
        // A dtype sweep's names may follow a number (B): indented off it.
        bool const dtype_names = column.text && !column.spec->text();
        column_style.push_back(&cell_style(dtype_names ? CellStyle::indent : column.spec->cell));
        // "{flops}/({bytes_read}+{bytes_written})" -> pieces.
        std::vector<Piece> pieces;
        std::string_view text = column.formula;
        while (!text.empty()) {
            auto open = text.find('{');
            if (open != 0) {
                pieces.push_back({Piece::literal, std::string(text.substr(0, open)), 0});
                if (open == std::string_view::npos) break;
            }
            auto close = text.find('}', open);
            auto name = text.substr(open + 1, close - open - 1);
            if (name.starts_with("hw.")) pieces.push_back({Piece::hardware, {}, formula_field(name.substr(3))});
            else {
                std::size_t i = 0;
                while (i < columns.size() && columns[i].header != name) ++i;
                if (i == columns.size())
                    throw std::logic_error("a Cases formula names no column: " + std::string(name));
                pieces.push_back({Piece::cell, {}, i});
            }
            text.remove_prefix(close + 1);
        }
        formulas.push_back(std::move(pieces));
    }
}

// A text column's cell for a case: each of its texts made a cell once.
output::Text const& XlsxWriter::State::case_text_cell(std::size_t i, CaseRow const& row) {
    std::size_t const key = case_text_key(columns[i], row);
    auto& texts = column_texts[i];
    if (key >= texts.size()) texts.resize(key + 1);
    if (!texts[key]) texts[key].emplace(case_text(columns[i], row));
    return *texts[key];
}

std::optional<std::size_t> XlsxWriter::State::critical_column(std::size_t v) const {
    for (std::size_t i = col.critical0; i < columns.size(); ++i)
        if (columns[i].spec == critical_spec && columns[i].sweep == v) return i;
    return std::nullopt;
}

std::string XlsxWriter::State::sweep_test(std::string const& range, std::size_t point,
                                          std::size_t v) const {
    double value = ctx.grid.sweep_value(point, v);
    // A dtype's name is an identifier: nothing in it needs escaping.
    if (auto const* dtype = ctx.scenario.sweep_dtype_name(v, value))
        return "EXACT(" + range + ",\"" + *dtype + "\")";
    return "(" + range + "=" + formula_number(value) + ")";
}

void XlsxWriter::State::write_cases_headers() {
    auto const& s = ctx.scenario;
    auto const& c = col;
    std::vector<std::string> headers;
    for (auto const& column : columns) headers.push_back(column.header);

    // Widths: the header plus room for the filter button, or the widest value.
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) widths[i] = text_width(headers[i]) + 3;
    auto widen = [&](std::size_t i, double w) { widths[i] = std::max(widths[i], w); };
    for (auto const& m : s.ops) {
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
            if (s.sweeps[v].of_dtypes)
                for (double x : values) w = std::max(w, text_width(*s.sweep_dtype_name(v, x)) + 1);
        }
        widen(c.sweep0 + v, std::min(w, 13.0));
    }
    for (std::size_t i = 0; i < columns.size(); ++i) widen(i, columns[i].spec->min_width);

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

        std::size_t data_rows = std::min(per_sheet, total_cases - std::min(total_cases, k * per_sheet));
        auto last_row = static_cast<lxw_row_t>(data_rows);
        auto last_col = static_cast<lxw_col_t>(c.last);
        check(worksheet_autofilter(ws, 0, 0, last_row, last_col),
              "setting the autofilter of " + cases_names[k]);
        if (data_rows == 0) continue;

        // The bound column strongly coloured, the rest of the row tinted. Two
        // rules that do not overlap, so that every viewer shows the same.
        std::string bound_range = cell_name(1, c.bound) + ":" + cell_name(data_rows, c.bound);
        std::string row_ranges = "A2:" + cell_name(data_rows, c.bound - 1);
        // Appended, not " " + cell_name(...): GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        if (c.bound < c.last)
            row_ranges.append(" ").append(cell_name(1, c.bound + 1)).append(":").append(
                cell_name(data_rows, c.last));
        std::string first_bound = "$" + letters[c.bound] + "2";
        struct Rule {
            char const* text;
            lxw_format* row;
            lxw_format* cell;
        };
        // The levels a report has: onchip with on-chip operands, network with a mesh.
        std::vector<Rule> rules = {Rule{"compute", fmt.cf_compute_row, fmt.cf_compute_cell},
                                   Rule{"memory", fmt.cf_memory_row, fmt.cf_memory_cell}};
        if (s.has_onchip()) rules.push_back({"onchip", fmt.cf_onchip_row, fmt.cf_onchip_cell});
        if (!s.mesh.empty()) rules.push_back({"network", fmt.cf_network_row, fmt.cf_network_cell});
        rules.push_back({"unsupported", fmt.cf_unsupported_row, fmt.cf_unsupported_cell});
        for (Rule rule : rules) {
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
    if (sheet != row_sheet) {
        rows->begin_sheet(cases[sheet]);
        row_sheet = sheet;
    }
    rows->begin_row(index % per_sheet + 1);

    // Inputs as values, names always as text; derived columns as formulas
    // over this row and the target's Hardware cells, with the engine's
    // values as cached results.
    bool const supported = cs.metrics.bound != engine::Bound::unsupported;
    CaseRow const row{ctx.scenario, ctx.grid, cs};
    for (std::size_t i = 0; i < columns.size(); ++i) {
        auto const& column = columns[i];
        auto const& style = *column_style[i];
        // A formula over a Hardware field the chip lacks (t_onchip without
        // an onchip_bandwidth): the engine's value.
        bool const formula = !formulas[i].empty() && (supported || !column.spec->needs_peak) &&
                             has_hardware_cells(formulas[i], cs) &&
                             (!column.spec->formula_applies || column.spec->formula_applies(row));
        if (column.spec == critical_spec && supported) {
            critical_formula(cs, column.sweep, i);
            continue;
        }
        if (!formula) {
            if (column.text) rows->text(i, case_text_cell(i, row), style);
            else rows->number(i, case_number(column, row), style);
            continue;
        }
        for (auto const& piece : formulas[i]) {
            switch (piece.kind) {
                case Piece::literal: f << piece.text; break;
                case Piece::cell: f << letters[piece.column] << rows->row_digits(); break;
                case Piece::hardware: f << hardware_cell(piece, cs); break;
            }
        }
        if (column.text) rows->formula_text(i, f.view(), case_text_cell(i, row), style);
        else rows->formula(i, f.view(), case_number(column, row), style);
        f.clear();
    }
    rows->end_row();
    sample(cs);
    if (kernels_sheet.members) add_kernel_rows(cs);
}

void put_formula_number(output::Formula& f, double value) {
    char buf[32];
    auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    for (char* p = buf; p != end; ++p)
        if (*p == 'e') *p = 'E';
    f << std::string_view(buf, static_cast<std::size_t>(end - buf));
}

std::string formula_number(double value) {
    output::Formula f;
    put_formula_number(f, value);
    return std::string(f.view());
}

// critical_V (reports.md, "Cases"): the smallest integer V >= 1 at which the
// case is compute-bound, solved again in the sheet from the Hardware cells
// wherever V enters the counts linearly, so that it follows an edited
// bandwidth or peak; the engine's value is the cached result.
void XlsxWriter::State::critical_formula(engine::Case const& cs, std::size_t sweep,
                                         std::size_t i) {
    using VCounts = engine::CaseGrid::VCounts;
    double const value = ctx.grid.critical_value(cs, sweep);
    VCounts const none;
    VCounts const& counts =
        sweep < ctx.grid.v_counts.size() ? ctx.grid.v_counts_of(cs.point, cs.op, sweep) : none;
    if (counts.kind == VCounts::other) {
        if (std::isfinite(value))
            rows->number(i, value, *fixed_style);
        else
            rows->text(i, never_text, *fixed_style);
        return;
    }
    if (counts.kind == VCounts::constant) {
        // V is no axis of the op: compute-bound at every V or at none.
        f << "IF(" << letters[col.bound] << rows->row_digits() << "=\"compute\",1,\"never\")";
    } else {
        // flops = F V, bytes = A + C V; compute-bound when F V/P >= (A + C V)/W
        // (the test of the bound column). The root is ceil(A/W / (F/P - C/W)),
        // confirmed with that test at root - 1 and root, so that rounding can
        // move it by one either way as the engine's nudges do: the answer is
        // root - 1 + the number of the two that are not compute-bound. The
        // SUMPRODUCT is over a constant of two values, not over cells.
        std::string_view const w = bw_ref[cs.target];
        std::string_view const p = peak_ref[cs.target * dtypes.size() + slot_of[cs.compute_dtype]];
        auto num = [&](double v) { put_formula_number(f, v); };
        auto slope = [&] {
            f << '(';
            num(counts.flops_per_v);
            f << '/' << p << '-';
            num(counts.bytes_per_v);
            f << '/' << w << ')';
        };
        auto root = [&] {
            f << "CEILING(";
            num(counts.bytes_fixed);
            f << '/' << w << '/';
            slope();
            f << ",1)";
        };
        f << "IF(";
        slope();
        f << ">0,MAX(1,";
        root();
        // (A+C*x)/W>F*x/P: not compute-bound at x (written with '>', the one
        // comparison FastRows escapes).
        f << "-1+SUMPRODUCT(--((";
        num(counts.bytes_fixed);
        f << '+';
        num(counts.bytes_per_v);
        f << "*(";
        root();
        f << "+{-1,0}))/" << w << '>';
        num(counts.flops_per_v);
        f << "*(";
        root();
        f << "+{-1,0})/" << p << "))),IF(";
        num(counts.flops_per_v);
        f << '/' << p << ">=(";
        num(counts.bytes_fixed);
        f << '+';
        num(counts.bytes_per_v);
        f << ")/" << w << ",1,\"never\"))";
    }
    auto const& style = *critical_style;
    if (std::isfinite(value))
        rows->formula(i, f.view(), value, style);
    else
        rows->formula_text(i, f.view(), never_text, style);
    f.clear();
}

}  // namespace roofline::report
