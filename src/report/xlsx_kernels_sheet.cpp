// The Kernels sheet (reports.md, "report.xlsx"): a row per kernel case and
// member, as kernels.csv, so that the members of a fused kernel stay visible
// beside the one case they make. Counts are values; t_math, t_comms and
// t_onchip formulas over the Hardware sheet, as in Cases, with the engine's
// values cached.
#include "xlsx_state.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace roofline::report {

using output::text_width;

void XlsxWriter::State::open_kernels() {
    auto& k = kernels_sheet;
    if (!has_kernels(ctx.scenario)) return;
    k.columns = kernel_columns(ctx.scenario);
    k.total_rows = kernel_row_count(ctx.scenario, ctx.grid);
    std::size_t per_sheet = options.rows_per_cases_sheet;
    std::size_t sheets = std::max<std::size_t>(1, (k.total_rows + per_sheet - 1) / per_sheet);
    for (std::size_t s = 0; s < sheets; ++s) {
        k.names.push_back(s == 0 ? std::string("Kernels") : "Kernels (" + std::to_string(s + 1) + ")");
        k.sheets.push_back(add_sheet(k.names.back()));
    }
    k.members.emplace(ctx.scenario, ctx.grid);
    k.rows.emplace(*book, k.columns.size(), options.direct_rows);
    for (std::size_t i = 0; i < k.columns.size(); ++i) {
        lxw_format* format = nullptr;
        switch (k.columns[i].cell) {
            case CellStyle::sci: format = fmt.sci; break;
            case CellStyle::time: format = fmt.time; break;
            case CellStyle::fraction: format = fmt.fraction; break;
            case CellStyle::indent: format = fmt.indent; break;
            default: break;
        }
        k.styles.push_back(&k.rows->style(format));
        k.formulas.push_back(split_formula(k.columns[i].spec->formula, [&](std::string_view name) -> std::optional<std::size_t> {
            for (std::size_t c = 0; c < k.columns.size(); ++c)
                if (k.columns[c].header == name) return c;
            return std::nullopt;
        }, "Kernels"));
    }
}

void XlsxWriter::State::write_kernels_headers() {
    auto& k = kernels_sheet;
    if (k.sheets.empty()) return;
    auto const& s = ctx.scenario;
    std::vector<double> widths;
    for (auto const& column : k.columns) {
        double w = text_width(column.header) + 3;
        switch (column.cell) {
            case CellStyle::sci:
            case CellStyle::time: w = std::max(w, 13.0); break;
            default: break;
        }
        if (column.spec->widest) w = std::max(w, column.spec->widest(s));
        widths.push_back(std::min(w, 60.0));
    }
    std::size_t per_sheet = options.rows_per_cases_sheet;
    for (std::size_t n = 0; n < k.sheets.size(); ++n) {
        lxw_worksheet* ws = k.sheets[n];
        for (std::size_t i = 0; i < k.columns.size(); ++i) {
            str(ws, 0, i, k.columns[i].header, fmt.header);
            width(ws, i, widths[i]);
        }
        worksheet_freeze_panes(ws, 1, 0);
        worksheet_set_landscape(ws);
        worksheet_fit_to_pages(ws, 1, 0);
        check(worksheet_repeat_rows(ws, 0, 0), "repeating the header row of " + k.names[n]);
        std::size_t rows_here =
            std::min(per_sheet, k.total_rows - std::min(k.total_rows, n * per_sheet));
        check(worksheet_autofilter(ws, 0, 0, static_cast<lxw_row_t>(rows_here),
                                   static_cast<lxw_col_t>(k.columns.size() - 1)),
              "setting the autofilter of " + k.names[n]);
    }
}

void XlsxWriter::State::add_kernel_rows(engine::Case const& cs) {
    auto& k = kernels_sheet;
    auto& out = *k.rows;
    bool const supported = cs.metrics.bound != engine::Bound::unsupported;
    engine::Case member_case = cs;
    for (auto const& member : k.members->of(cs)) {
        std::size_t index = k.next_row++;
        std::size_t sheet = index / options.rows_per_cases_sheet;
        if (sheet != k.sheet) {
            out.begin_sheet(k.sheets[sheet]);
            k.sheet = sheet;
        }
        out.begin_row(index % options.rows_per_cases_sheet + 1);
        member_case.metrics = member.metrics;
        KernelRow const row{ctx.scenario, ctx.grid, member_case, member};
        for (std::size_t i = 0; i < k.columns.size(); ++i) {
            auto const& column = k.columns[i];
            auto const& style = *k.styles[i];
            double const value = column.text ? 0 : kernel_number(column, row);
            // As in Cases: a formula over the Hardware sheet where the chip
            // has the figure (a peak, an onchip_bandwidth), else the value.
            bool formula = !k.formulas[i].empty() && (supported || !column.spec->needs_peak);
            for (auto const& piece : k.formulas[i]) {
                if (!formula) break;
                switch (piece.kind) {
                    case FormulaPiece::literal: f << piece.text; break;
                    case FormulaPiece::cell: f << out.letters(piece.column) << out.row_digits(); break;
                    case FormulaPiece::hardware: {
                        auto const& ref = hardware_ref(piece.text, cs.target, cs.compute_dtype);
                        formula = !ref.empty();
                        f << ref;
                        break;
                    }
                }
            }
            if (formula) out.formula(i, f.view(), value, style);
            else if (column.text) out.text(i, kernel_text(column, row), style);
            else out.number(i, value, style);
            f.clear();
        }
        out.end_row();
    }
}

}  // namespace roofline::report
