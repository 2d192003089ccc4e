#include "xlsx_state.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace roofline::report {

using output::cell_name;
using output::text_width;

// ---- Hardware ------------------------------------------------------------------

void XlsxWriter::State::write_hardware() {
    lxw_worksheet* ws = hardware;
    // The interconnect fields in E:I (the latencies, defaults on every shipped
    // chip, are left out), then a peak and a ridge per compute dtype from J.
    std::vector<std::string> headers = {
        "id", "name", "hbm_bandwidth (B/s)", "hbm_capacity (B)", "ici_bandwidth (B/s)", "ici_wraparound",
        "nvlink_bandwidth (B/s)", "nvlink_domain", "dcn_bandwidth (B/s)"};
    for (auto const& d : dtype_names) headers.push_back("peak " + d + " (FLOP/s)");
    for (auto const& d : dtype_names) headers.push_back("ridge " + d + " (FLOP/B)");
    headers.push_back("onchip_capacity (B)");
    headers.push_back("onchip_bandwidth (B/s)");
    headers.push_back("extends");
    headers.push_back("source");
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        str(ws, 0, i, headers[i], fmt.header);
        widths[i] = text_width(headers[i]) + 2;
    }
    for (std::size_t t = 0; t < targets; ++t) {
        auto const& hw = ctx.target(t);
        std::size_t r = t + 1;
        str(ws, r, 0, hw.id);
        str(ws, r, 1, hw.display_name);
        num(ws, r, 2, hw.hbm_bytes_per_s, fmt.sci);
        if (hw.hbm_capacity_bytes) num(ws, r, 3, *hw.hbm_capacity_bytes, fmt.sci);
        if (hw.ici_bytes_per_s) num(ws, r, 4, *hw.ici_bytes_per_s, fmt.sci);
        if (hw.ici_wraparound) num(ws, r, 5, *hw.ici_wraparound, fmt.whole);
        if (hw.nvlink_bytes_per_s) num(ws, r, 6, *hw.nvlink_bytes_per_s, fmt.sci);
        if (hw.nvlink_domain) num(ws, r, 7, *hw.nvlink_domain, fmt.whole);
        if (hw.dcn_bytes_per_s) num(ws, r, 8, *hw.dcn_bytes_per_s, fmt.sci);
        // std::string("C").append(...), not "C" + ...: GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        std::string bw = std::string("C").append(std::to_string(r + 1));
        for (std::size_t k = 0; k < dtypes.size(); ++k) {
            auto peak = hw.peak_for(dtypes[k]);
            if (!peak) continue;
            num(ws, r, hw_peak0 + k, *peak, fmt.sci);
            std::string ridge = std::string("=").append(cell_name(r, hw_peak0 + k)) + "/" + bw;
            formula(ws, r, hw_ridge0 + k, ridge.c_str(), *peak / hw.hbm_bytes_per_s, fmt.ratio);
        }
        if (hw.onchip_capacity_bytes) num(ws, r, hw_onchip0, *hw.onchip_capacity_bytes, fmt.sci);
        if (hw.onchip_bytes_per_s) num(ws, r, hw_onchip0 + 1, *hw.onchip_bytes_per_s, fmt.sci);
        if (!hw.base.empty()) str(ws, r, hw_extends, hw.base, fmt.indent);
        if (!hw.source.empty()) str(ws, r, hw_source, hw.source, fmt.indent);
        widths[0] = std::max(widths[0], text_width(hw.id) + 2);
        widths[1] = std::max(widths[1], text_width(hw.display_name) + 2);
        widths[hw_extends] = std::max(widths[hw_extends], text_width(hw.base) + 2);
        widths[hw_source] = std::max(widths[hw_source], text_width(hw.source) + 2);
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
