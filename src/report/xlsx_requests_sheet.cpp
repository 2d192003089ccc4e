// The Requests sheet (reports.md, "Requests"): one row per request, sweep
// point and target, as requests.csv has them. The engine's figures are
// values; e2e, tokens/s, resident and fits are formulas over the row (and
// the Hardware sheet's hbm_capacity), so that each says what it is.
#include "roofline/report/requests_csv.hpp"

#include "xlsx_state.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace roofline::report {

using output::column_letters;
using output::text_width;

void XlsxWriter::State::write_requests() {
    if (!requests || !ctx.requests) return;
    lxw_worksheet* ws = requests;
    auto const& sc = ctx.scenario;
    // Three short notes, not one long one: a line wider than the table
    // would shrink the printed page to fit it.
    str(ws, 0, 0, "One row per request, sweep point and target; every figure per chip.", fmt.note);
    str(ws, 1, 0,
        "TTFT: the prefill's step (sum of count x t_lower). TPOT: the decode step at context "
        "prompt + i; first i = 1, last i = output, mean = decode total / output.",
        fmt.note);
    str(ws, 2, 0,
        "e2e = TTFT + decode total (the sum of every TPOT); tokens/s = batch x output / e2e; "
        "weights and cache at the last step.",
        fmt.note);

    std::vector<std::string> headers = {"request", "hardware"};
    for (auto const& sweep : sc.sweeps) headers.push_back(sweep.name);
    std::size_t const c0 = headers.size();  // prompt
    for (char const* h : {"prompt", "output", "batch", "TTFT", "TPOT first", "TPOT mean",
                          "TPOT last", "decode total", "e2e", "tokens/s", "weights", "cache",
                          "resident", "HBM capacity", "fits"})
        headers.push_back(h);
    enum : std::size_t { prompt, output_tokens, batch, ttft, first, mean, last, decode, e2e, rate,
                         weights, cache, resident, capacity, fits };
    std::size_t const header_row = 3, first_row = 4;
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        str(ws, header_row, i, headers[i], fmt.header);
        widths[i] = text_width(headers[i]) + 3;
    }
    for (std::size_t i = c0 + ttft; i <= c0 + capacity; ++i) widths[i] = std::max(widths[i], 12.0);
    auto cell = [&](std::size_t column, std::string const& n) { return column_letters(c0 + column) + n; };

    std::size_t row = first_row;
    for (auto const& r : *ctx.requests) {
        std::string const n = std::to_string(row + 1);
        auto const& name = sc.requests[r.request].name;
        auto const& hw = ctx.target(r.target);
        widths[0] = std::max(widths[0], text_width(name) + 2);
        widths[1] = std::max(widths[1], text_width(hw.id) + 2);
        str(ws, row, 0, name);
        str(ws, row, 1, hw.id, fmt.indent);
        for (std::size_t v = 0; v < sweeps; ++v) sweep_cell(ws, row, 2 + v, r.point, v);
        num(ws, row, c0 + prompt, r.prompt, fmt.whole);
        num(ws, row, c0 + output_tokens, r.output, fmt.whole);
        num(ws, row, c0 + batch, r.batch, fmt.whole);
        num(ws, row, c0 + ttft, r.ttft, fmt.time);
        num(ws, row, c0 + first, r.tpot_first, fmt.time);
        num(ws, row, c0 + mean, r.tpot_mean, fmt.time);
        num(ws, row, c0 + last, r.tpot_last, fmt.time);
        num(ws, row, c0 + decode, r.decode_total, fmt.time);
        if (std::isfinite(r.e2e)) {
            // std::string("=").append(...), not "=" + ...: GCC 12 at -O3 gives a
            // false -Wrestrict for a string literal + a temporary std::string.
            formula(ws, row, c0 + e2e, std::string("=").append(cell(ttft, n)).append("+").append(cell(decode, n)),
                    r.e2e, fmt.time);
            formula(ws, row, c0 + rate,
                    std::string("=").append(cell(batch, n)).append("*").append(cell(output_tokens, n))
                        .append("/").append(cell(e2e, n)),
                    r.tokens_per_s, fmt.rate);
        }
        num(ws, row, c0 + weights, r.weight_bytes, fmt.bytes);
        num(ws, row, c0 + cache, r.cache_bytes, fmt.bytes);
        formula(ws, row, c0 + resident,
                std::string("=").append(cell(weights, n)).append("+").append(cell(cache, n)),
                r.weight_bytes + r.cache_bytes, fmt.bytes);
        if (!capacity_ref[r.target].empty()) {
            formula(ws, row, c0 + capacity, "=" + capacity_ref[r.target],
                    *hw.hbm_capacity_bytes, fmt.bytes);
            formula_text(ws, row, c0 + fits,
                         std::string("=IF(").append(cell(resident, n)).append("<=").append(cell(capacity, n))
                             .append(",\"yes\",\"no\")"),
                         std::string(request_fits(ctx, r)), fmt.center);
        }
        ++row;
    }

    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 60.0));
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(first_row), 2);
    check(worksheet_autofilter(ws, static_cast<lxw_row_t>(header_row), 0,
                               static_cast<lxw_row_t>(std::max(row - 1, first_row)),
                               static_cast<lxw_col_t>(headers.size() - 1)),
          "setting the autofilter of Requests");
    check(worksheet_repeat_rows(ws, static_cast<lxw_row_t>(header_row),
                                static_cast<lxw_row_t>(header_row)),
          "repeating the header row of Requests");
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

}  // namespace roofline::report
