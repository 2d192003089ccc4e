// The Kernels sheet (reports.md, "report.xlsx"): a row per kernel case and
// member, as kernels.csv, so that the members of a fused kernel stay visible
// beside the one case they make. Counts are values; t_math, t_comms and
// t_onchip formulas over the Hardware sheet, as in Cases, with the engine's
// values cached.
#include "xlsx_state.hpp"

#include <algorithm>
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
        switch (k.columns[i].field) {
            case KernelField::flops: k.flops = i; break;
            case KernelField::bytes_read: k.bytes_read = i; break;
            case KernelField::bytes_written: k.bytes_written = i; break;
            case KernelField::bytes_onchip: k.bytes_onchip = i; break;
            default: break;
        }
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
        switch (column.field) {
            case KernelField::kernel:
            case KernelField::member:
            case KernelField::layer:
                for (auto const& op : s.ops) {
                    if (op.kind != model::OpKind::kernel) continue;
                    if (column.field == KernelField::kernel) w = std::max(w, text_width(op.name) + 1);
                    if (column.field == KernelField::layer) w = std::max(w, text_width(op.layer) + 1);
                    if (column.field == KernelField::member)
                        for (auto const& m : op.members) w = std::max(w, text_width(m.name) + 2);
                }
                break;
            case KernelField::hardware:
                for (std::size_t t = 0; t < targets; ++t) w = std::max(w, text_width(ctx.target(t).id) + 2);
                break;
            case KernelField::kind: w = std::max(w, text_width("elementwise") + 1); break;
            default: break;
        }
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
    auto const& peak = peak_ref[cs.target * dtypes.size() + slot_of[cs.compute_dtype]];
    auto const& onchip = onchip_ref[cs.target];
    for (auto const& member : k.members->of(cs)) {
        std::size_t index = k.next_row++;
        std::size_t sheet = index / options.rows_per_cases_sheet;
        if (sheet != k.sheet) {
            out.begin_sheet(k.sheets[sheet]);
            k.sheet = sheet;
        }
        out.begin_row(index % options.rows_per_cases_sheet + 1);
        auto cell = [&](std::size_t column) { return out.letters(column) + std::string(out.row_digits()); };
        for (std::size_t i = 0; i < k.columns.size(); ++i) {
            auto const& column = k.columns[i];
            auto const& style = *k.styles[i];
            double const value = column.text ? 0 : kernel_number(column, ctx.grid, cs, member);
            switch (column.field) {
                // As in Cases: formulas over the Hardware sheet where the
                // chip has the figure (a peak, an onchip_bandwidth).
                case KernelField::t_math:
                    if (!supported) break;
                    f << cell(k.flops) << '/' << peak;
                    break;
                case KernelField::t_comms:
                    f << '(' << cell(k.bytes_read) << '+' << cell(k.bytes_written) << ")/"
                      << bw_ref[cs.target];
                    break;
                case KernelField::t_onchip:
                    if (onchip.empty()) break;
                    f << cell(k.bytes_onchip) << '/' << onchip;
                    break;
                default: break;
            }
            if (!f.view().empty()) {
                out.formula(i, f.view(), value, style);
                f.clear();
            } else if (column.text) {
                out.text(i, kernel_text(column, ctx.scenario, ctx.grid, cs, member), style);
            } else {
                out.number(i, value, style);
            }
        }
        out.end_row();
    }
}

}  // namespace roofline::report
