// The Requests sheet (reports.md, "Requests"): one row per request, sweep
// point and target, as requests.csv has them. The engine's figures are
// values; e2e, tokens/s, resident and fits are formulas over the row (and
// the Hardware sheet's hbm_capacity), so that each says what it is.
#include "roofline/report/request_columns.hpp"

#include "formula_pieces.hpp"
#include "xlsx_state.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::report {

using output::column_letters;
using output::text_width;

lxw_format* XlsxWriter::State::request_format(RequestCell cell) const {
    switch (cell) {
        case RequestCell::indent: return fmt.indent;
        case RequestCell::whole: return fmt.whole;
        case RequestCell::time: return fmt.time;
        case RequestCell::rate: return fmt.rate;
        case RequestCell::bytes: return fmt.bytes;
        case RequestCell::center: return fmt.center;
        case RequestCell::plain: break;
    }
    return nullptr;
}

void XlsxWriter::State::write_requests() {
    if (!requests || !ctx.requests) return;
    lxw_worksheet* ws = requests;
    auto const& sc = ctx.scenario;
    // Three short notes, not one long one: a line wider than the table
    // would shrink the printed page to fit it.
    str(ws, 0, 0,
        sc.mesh.empty() ? "One row per request, sweep point and target; every figure per chip."
                        : "One row per request, sweep point and target; times and tokens/s of the "
                          "whole mesh, bytes per chip.",
        fmt.note);
    str(ws, 1, 0,
        "TTFT: the prefill's step (sum of count x t_lower). TPOT: the decode step at context "
        "prompt + i; first i = 1, last i = output, mean = decode total / output.",
        fmt.note);
    str(ws, 2, 0,
        "e2e = TTFT + decode total (the sum of every TPOT); tokens/s = batch x output / e2e; "
        "weights and cache at the last step.",
        fmt.note);

    auto const columns = request_columns(sc);
    std::size_t const header_row = 3, first_row = 4;
    std::vector<double> widths(columns.size());
    std::vector<lxw_format*> formats;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        str(ws, header_row, i, columns[i].sheet, fmt.header);
        widths[i] = std::max(text_width(columns[i].sheet) + 3, columns[i].spec->min_width);
        formats.push_back(request_format(columns[i].spec->cell));
    }
    // The formulas, split once: cells of this row by their csv names.
    std::vector<std::vector<FormulaPiece>> pieces;
    for (auto const& column : columns)
        pieces.push_back(split_formula(column.spec->formula, [&](std::string_view name) -> std::optional<std::size_t> {
            for (std::size_t i = 0; i < columns.size(); ++i)
                if (columns[i].csv == name) return i;
            return std::nullopt;
        }, "Requests"));

    std::size_t row = first_row;
    std::string cell_formula;
    for (auto const& r : *ctx.requests) {
        RequestRow const values{ctx, r};
        std::string const n = std::to_string(row + 1);
        for (std::size_t i = 0; i < columns.size(); ++i) {
            auto const& column = columns[i];
            auto const& spec = *column.spec;
            if (spec.needs == RequestColumnSpec::Needs::finite_e2e && !std::isfinite(r.e2e)) continue;
            if (spec.needs == RequestColumnSpec::Needs::capacity && capacity_ref[r.target].empty()) continue;
            if (spec.per_sweep) {
                sweep_cell(ws, row, i, r.point, column.sweep);
                continue;
            }
            if (!pieces[i].empty()) {
                // clear and push_back, not = "=": GCC 12 at -O3 gives a false -Wrestrict.
                cell_formula.clear();
                cell_formula.push_back('=');
                for (auto const& piece : pieces[i]) {
                    if (piece.kind == FormulaPiece::literal) cell_formula += piece.text;
                    else if (piece.kind == FormulaPiece::cell)
                        cell_formula.append(column_letters(piece.column)).append(n);
                    else cell_formula += hardware_ref(piece.text, r.target);
                }
                if (spec.text) formula_text(ws, row, i, cell_formula, std::string(spec.text(values, 0)), formats[i]);
                else formula(ws, row, i, cell_formula, spec.number(values, 0), formats[i]);
                continue;
            }
            if (spec.text) {
                auto const text = spec.text(values, 0);
                // Names fit their column; "+ 2": the text's margin.
                widths[i] = std::max(widths[i], text_width(text) + 2);
                str(ws, row, i, std::string(text), formats[i]);
            } else {
                num(ws, row, i, spec.number(values, 0), formats[i]);
            }
        }
        ++row;
    }

    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 60.0));
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(first_row), 2);
    check(worksheet_autofilter(ws, static_cast<lxw_row_t>(header_row), 0,
                               static_cast<lxw_row_t>(std::max(row - 1, first_row)),
                               static_cast<lxw_col_t>(columns.size() - 1)),
          "setting the autofilter of Requests");
    check(worksheet_repeat_rows(ws, static_cast<lxw_row_t>(header_row),
                                static_cast<lxw_row_t>(header_row)),
          "repeating the header row of Requests");
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

}  // namespace roofline::report
