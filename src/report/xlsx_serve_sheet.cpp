// The Serve sheet (serving.md, section 4): one row per serve point (sweep
// point x target), as serve.csv has them; and with `fleet rate`, the Fleet
// sheet: one row per configuration, with the engines' launch settings.
// Values, not formulas: the figures come from a simulation, not from cells.
#include "roofline/report/serve_columns.hpp"

#include "output/gnuplot_text.hpp"
#include "xlsx_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <string>
#include <vector>

namespace roofline::report {

using output::text_width;

namespace {

// Written in the table's header row and below it; notes above.
constexpr std::size_t header_row = 4, first_row = 5;
// A wrapped column's width, and the characters a landscape page prints
// legibly: a wider table is printed over pages side by side.
constexpr double wrap_width = 60, page_chars = 170;

bool is_sweep(ServeColumn const& column) { return column.spec->each == ServeColumnSpec::Each::sweep; }
bool is_sweep(FleetColumn const& column) { return column.spec->per_sweep; }

}  // namespace

lxw_format* XlsxWriter::State::serve_format(ServeCell cell) const {
    switch (cell) {
        case ServeCell::indent: return fmt.indent;
        case ServeCell::whole: return fmt.whole;
        case ServeCell::time: return fmt.time;
        case ServeCell::rate: return fmt.rate;
        case ServeCell::bytes: return fmt.bytes;
        case ServeCell::center: return fmt.center;
        case ServeCell::wrap: return serve_wrap;
        case ServeCell::plain: break;
    }
    return nullptr;
}

// A table of the sheet: headers, rows of texts or numbers, widths to fit,
// frozen headers, a filter, printed landscape on pages one wide.
template <class Columns, class Rows, class Value>
void XlsxWriter::State::serve_table(lxw_worksheet* ws, char const* what, Columns const& columns,
                                    Rows const& rows, Value const& value) {
    std::vector<double> widths(columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
        str(ws, header_row, i, columns[i].sheet, fmt.header);
        widths[i] = std::max(text_width(columns[i].sheet) + 3, 10.0);
    }
    std::size_t row = first_row;
    for (auto const& r : rows) {
        for (std::size_t i = 0; i < columns.size(); ++i) {
            auto const [is_text, text, number] = value(columns[i], r);
            lxw_format* format = serve_format(columns[i].spec->cell);
            if (is_text) {
                if (text.empty()) continue;
                if (columns[i].spec->cell != ServeCell::wrap) widths[i] = std::max(widths[i], text_width(text) + 2);
                str(ws, row, i, text, format);
            } else {
                num(ws, row, i, number, format);
            }
        }
        ++row;
    }
    double total = 0;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        if (columns[i].spec->cell == ServeCell::wrap) widths[i] = wrap_width;
        widths[i] = std::min(widths[i], wrap_width);
        width(ws, i, widths[i]);
        total += widths[i];
    }
    // The first columns (the hardware, the sweeps) name each row on every page.
    std::size_t keys = 1;
    while (keys < columns.size() && is_sweep(columns[keys])) ++keys;
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(first_row), static_cast<lxw_col_t>(keys));
    check(worksheet_repeat_columns(ws, 0, static_cast<lxw_col_t>(keys - 1)),
          std::string("repeating the first columns of ") + what);
    check(worksheet_autofilter(ws, static_cast<lxw_row_t>(header_row), 0,
                               static_cast<lxw_row_t>(std::max(row - 1, first_row)),
                               static_cast<lxw_col_t>(columns.size() - 1)),
          std::string("setting the autofilter of ") + what);
    check(worksheet_repeat_rows(ws, static_cast<lxw_row_t>(header_row), static_cast<lxw_row_t>(header_row)),
          std::string("repeating the header row of ") + what);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, static_cast<std::uint16_t>(std::max(1.0, std::ceil(total / page_chars))), 0);
}

void XlsxWriter::State::write_serve() {
    auto const& sc = ctx.scenario;
    if (serve && ctx.serve) {
        // Short notes, not one long one: a line wider than the table would
        // shrink the printed page to fit it.
        str(serve, 0, 0,
            "Serve " + (sc.serve ? sc.serve->name : std::string()) +
                ": one row per sweep point and target; one replica (the mesh), tokens/s also per chip.",
            fmt.note);
        str(serve, 1, 0,
            "TTFT = first token - arrival; TPOT = (finish - first token) / (output - 1); "
            "e2e = finish - arrival; seconds, after the warm-up requests.",
            fmt.note);
        str(serve, 2, 0,
            "Saturated = yes: the queue kept growing (arrivals faster than service); that row's "
            "latencies are LOWER BOUNDS, not what it would settle at.",
            fmt.note);
        str(serve, 3, 0,
            "KV in tokens of the whole replica; weights, reserve and KV bytes per token per chip "
            "(past a sliding window, the full layers' per token and each sequence's windows per sequence).",
            fmt.note);
        auto const columns = serve_columns(sc);
        serve_table(serve, "Serve", columns, *ctx.serve,
                    [&](ServeColumn const& column, engine::ServeResult const& r) {
                        ServeRow const row{ctx, r};
                        bool const text = serve_is_text(column, row);
                        return std::tuple<bool, std::string, double>{
                            text, text ? column.spec->text(row, column.index) : std::string(),
                            text ? 0.0 : column.spec->number(row, column.index)};
                    });
    }
    if (fleet && ctx.fleet) {
        serve_wrap = add_format();
        format_set_text_wrap(serve_wrap);
        format_set_align(serve_wrap, LXW_ALIGN_VERTICAL_TOP);
        str(fleet, 0, 0,
            "Fleet for " + output::value_text(sc.fleet_rate ? *sc.fleet_rate : 0) +
                " requests/s: per configuration (target and the sweeps but the load), the highest "
                "rate one replica serves within every SLO (bisected), and the replicas it takes.",
            fmt.note);
        str(fleet, 1, 0,
            "replicas = ceil(fleet rate / max rate per replica); chips = replicas x chips per "
            "replica; $/h and kW from the catalog's price and power per chip.",
            fmt.note);
        str(fleet, 2, 0,
            "Launch settings: the replica as vLLM, TensorRT-LLM and SGLang take it (MODEL: your "
            "model); mesh axes mapped by name (docs/serving.md).",
            fmt.note);
        std::vector<FleetColumn> columns;
        for (auto& column : fleet_columns(sc))
            if (column.spec->per_sweep || !column.csv.empty()) columns.push_back(std::move(column));
        serve_table(fleet, "Fleet", columns, *ctx.fleet,
                    [&](FleetColumn const& column, engine::FleetRow const& f) {
                        FleetRowView const row{ctx, f};
                        bool const text = fleet_is_text(column, row);
                        return std::tuple<bool, std::string, double>{
                            text, text ? column.spec->text(row, column.sweep) : std::string(),
                            text ? 0.0 : column.spec->number(row, column.sweep)};
                    });
    }
}

}  // namespace roofline::report
