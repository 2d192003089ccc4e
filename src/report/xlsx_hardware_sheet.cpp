#include "xlsx_state.hpp"

#include "roofline/model/hardware_fields.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace roofline::report {

using output::cell_name;
using output::text_width;

// ---- Hardware ------------------------------------------------------------------

void XlsxWriter::State::write_hardware() {
    lxw_worksheet* ws = hardware;
    auto const fields = model::hardware_fields();
    auto const& headers = hw_columns.headers;
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        str(ws, 0, i, headers[i], fmt.header);
        widths[i] = text_width(headers[i]) + 2;
    }
    auto style = [&](model::SheetStyle s) -> lxw_format* {
        switch (s) {
            case model::SheetStyle::indent: return fmt.indent;
            case model::SheetStyle::sci: return fmt.sci;
            case model::SheetStyle::whole: return fmt.whole;
            case model::SheetStyle::plain:
            case model::SheetStyle::none: break;
        }
        return nullptr;
    };
    std::size_t const bandwidth = hw_columns.column("hbm_bandwidth");
    for (std::size_t t = 0; t < targets; ++t) {
        auto const& hw = ctx.target(t);
        std::size_t r = t + 1;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            auto const& field = fields[f];
            std::size_t const c = hw_columns.first[f];
            if (c == no_column) continue;
            if (field.kind == model::FieldKind::text) {
                auto const& text = model::field_text(hw, field);
                if (text.empty()) continue;
                str(ws, r, c, text, style(field.sheet));
                widths[c] = std::max(widths[c], text_width(text) + 2);
            } else if (field.kind != model::FieldKind::per_dtype) {
                if (auto value = model::field_number(hw, field)) num(ws, r, c, *value, style(field.sheet));
            } else {
                // The peaks, then each one's ridge: a formula over its peak and the bandwidth.
                for (std::size_t k = 0; k < dtypes.size(); ++k) {
                    auto peak = hw.peak_for(dtypes[k]);
                    if (!peak) continue;
                    num(ws, r, hw_columns.peak0 + k, *peak, style(field.sheet));
                    std::string ridge = std::string("=")
                                            .append(cell_name(r, hw_columns.peak0 + k))
                                            .append("/")
                                            .append(cell_name(r, bandwidth));
                    formula(ws, r, hw_columns.ridge0 + k, ridge.c_str(), *peak / hw.hbm_bytes_per_s,
                            fmt.ratio);
                }
            }
        }
    }
    str(ws, targets + 2, 0,
        "These cells are the inputs of the formulas in the Cases sheets: edit a bandwidth or a "
        "peak and every case of that target recalculates. A chip without an onchip_bandwidth "
        "counts on-chip traffic as free.",
        fmt.note);
    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 80.0));
    worksheet_freeze_panes(ws, 1, 1);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

}  // namespace roofline::report
