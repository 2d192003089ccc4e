// The Summary sheet's Step section (reports.md, "Summary"): per target, the
// step at the sweep points step_points picks, read from the Steps sheet so
// that it follows an edited Hardware sheet. The rest of the sheet is in
// xlsx_summary_sheet.cpp.
#include "xlsx_state.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::report {

using output::column_letters;

std::vector<std::string> XlsxWriter::State::summary_step_headers() const {
    std::vector<std::string> headers = {"hardware"};
    for (auto const& sw : ctx.scenario.sweeps) headers.push_back(sw.name);
    // On a mesh the step is serial (each op, then its collectives).
    // On a pipeline, one stage's (the Steps sheet has the latency).
    headers.push_back(ctx.scenario.mesh.empty()         ? "step t_lower"
                      : ctx.scenario.pipeline_axis >= 0 ? "step (one stage)"
                                                        : "step");
    // The expected step (t_expected's sum and the overheads): the step when uncalibrated.
    for (char const* h : {"step expected", "step t_upper", "memory-bound share"}) headers.push_back(h);
    if (step.tokens) headers.push_back("tokens/s");
    // With a mesh the bytes are each chip's share, and the test is whether
    // that share fits in the chip's HBM.
    bool const mesh = !ctx.scenario.mesh.empty();
    if (step.bytes)
        for (char const* h : {"weights", "cache", "resident"})
            headers.push_back(mesh ? std::string(h).append(" per chip") : std::string(h));
    if (step.chips) {
        headers.push_back("hbm_capacity");
        headers.push_back(mesh ? "min chips for a share" : "min chips");
        headers.push_back(mesh ? "fits on each chip" : "fits on one chip");
    }
    return headers;
}

// The Step section, the first table of the sheet after the Plan: per
// target, the step at a few sweep points (step_points), read from the Steps
// sheet; the memory columns as formulas over the row and the target's Hardware cells.
std::size_t XlsxWriter::State::write_summary_steps(Summary const& sum, std::size_t r) {
    lxw_worksheet* ws = summary;
    auto const& st = step;
    bool const chips = st.chips;  // hbm_capacity, min chips, fits on one chip
    ++r;
    str(ws, r++, 0,
        ctx.scenario.mesh.empty()
            ? "Step: sum of count x time over the cases, one chip"
            : "Step: sum of count x time over the cases (each op, then its collectives), per chip of the mesh (all at once)",
        fmt.section);
    std::string note = "Every sweep point is on the Steps sheet.";
    if (st.bytes)
        note +=
            " resident = weights + cache; min chips counts HBM capacity only: "
            "ceil(resident / hbm_capacity).";
    if (!st.tokens)
        note +=
            " The scenario has no tokens statement: its ops may be unrelated problems, whose "
            "sum is no model step; read them one by one under Per target and op.";
    str(ws, r++, 0, note, fmt.note);

    // The columns of summary_step_headers.
    std::size_t const lower = 1 + sweeps;
    std::size_t const rate = lower + 4;
    std::size_t const weights = rate + (st.tokens ? 1 : 0);
    std::size_t const capacity = weights + (st.bytes ? 3 : 0);
    auto const headers = summary_step_headers();
    // Numbers but the hardware and a dtype sweep ("fits on ..." is centered
    // under a right-aligned header as wide as its column).
    std::vector<bool> over_numbers(headers.size(), true);
    over_numbers[0] = false;
    for (std::size_t v = 0; v < sweeps; ++v) over_numbers[1 + v] = !ctx.scenario.sweeps[v].of_dtypes;
    header_cells(ws, r, headers, over_numbers);
    ++r;

    auto steps_cell = [&](std::size_t row, std::size_t column) {
        return "Steps!$" + column_letters(column) + "$" + std::to_string(row + 1);
    };
    auto const selected = step_points(ctx.scenario, ctx.grid);
    for (std::size_t t = 0; t < targets; ++t) {
        for (std::size_t p : selected) {
            StepTotals const totals = step_totals(ctx, sum, p, t);
            auto steps_at = steps_row(p, t);
            std::string const n = std::to_string(r + 1);
            auto here = [&](std::size_t column) { return column_letters(column) + n; };
            str(ws, r, 0, ctx.target(t).id, fmt.indent);
            for (std::size_t v = 0; v < sweeps; ++v) sweep_cell(ws, r, 1 + v, p, v);
            // The step times from the Steps row, so that they follow an
            // edited Hardware sheet as the Steps formulas do.
            auto from_steps = [&](std::size_t column, std::size_t steps_column, double value,
                                  lxw_format* format) {
                if (steps_at)
                    // std::string("=").append(...), not "=" + ...: GCC 12 at -O3 gives a
                    // false -Wrestrict for a string literal + a temporary std::string.
                    formula(ws, r, column,
                            std::string("=").append(steps_cell(*steps_at, steps_column)), value,
                            format);
                else
                    num(ws, r, column, value, format);
            };
            if (totals.unsupported) {
                for (std::size_t c = lower; c < lower + 4; ++c) str(ws, r, c, "unsupported", fmt.indent);
            } else {
                from_steps(lower, st.t_lower, totals.t_lower, fmt.time);
                from_steps(lower + 1, st.t_expected, totals.t_expected, fmt.time);
                from_steps(lower + 2, st.t_upper, totals.t_upper, fmt.time);
                from_steps(lower + 3, st.memory, totals.memory_share, fmt.fraction);
            }
            if (st.tokens && std::isfinite(totals.tokens_per_s)) {
                if (steps_at)
                    formula(ws, r, rate,
                            std::string("=").append(steps_cell(*steps_at, st.tokens_col)) + "/" +
                                here(lower + 1),
                            totals.tokens_per_s, fmt.rate);
                else
                    num(ws, r, rate, totals.tokens_per_s, fmt.rate);
            }
            if (st.bytes) {
                num(ws, r, weights, totals.weight_bytes, fmt.bytes);
                num(ws, r, weights + 1, totals.cache_bytes, fmt.bytes);
                formula(ws, r, weights + 2,
                        std::string("=").append(here(weights)) + "+" + here(weights + 1),
                        totals.resident_bytes, fmt.bytes);
            }
            if (chips && !capacity_ref[t].empty()) {
                std::string const& cap = capacity_ref[t];
                formula(ws, r, capacity, "=" + cap, totals.capacity, fmt.bytes);
                if (std::isfinite(totals.min_chips))
                    formula(ws, r, capacity + 1,
                            "=CEILING(" + here(weights + 2) + "/" + cap + ",1)", totals.min_chips,
                            fmt.whole);
                formula_text(ws, r, capacity + 2,
                             "=IF(" + here(weights + 2) + "<=" + cap + ",\"yes\",\"no\")",
                             totals.resident_bytes <= totals.capacity ? "yes" : "no", fmt.center);
            }
            ++r;
        }
    }
    return r;
}

}  // namespace roofline::report
