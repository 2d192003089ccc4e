#pragma once
// The columns of the serve points and of the fleet (serving.md, section 4):
// the one description that serve.csv / fleet.csv, the workbook's Serve sheet
// and Fleet table, and the serve tables of `roofline run` follow. Adding a
// column is one entry in serve_columns.cpp.
//
// A saturated point (its queue kept growing) has latencies that are lower
// bounds: its `saturated` column says "yes", the terminal writes "≥" before
// its latencies, and the sheet says so in a note.

#include "roofline/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

// How a column is formatted: the sheet's cell format and the terminal's text.
// wrap: a long text (a command line), wrapped in its column.
enum class ServeCell : std::uint8_t { plain, indent, whole, time, rate, bytes, center, wrap };
// format_count, format_seconds, format_si_count without a unit, format_si in
// bytes, format_general, the text itself.
enum class ServeTerm : std::uint8_t { count, seconds, si_count, si_bytes, general, text };

// One serve point as the columns read it.
struct ServeRow {
    ReportContext const& context;
    engine::ServeResult const& result;
};

struct ServeColumnSpec {
    std::string_view csv;    // serve.csv's header; "" for a repeated column (the sweep's or SLO's name)
    std::string_view sheet;  // the Serve sheet's header
    std::string_view term;   // the terminal's header; "" when the terminal leaves it out
    // Repeated once per sweep (its value at the point) or per `slo` (met or not).
    // pools: once, only in a report whose serve has prefill and decode pools.
    enum class Each : std::uint8_t { once, sweep, slo, pools } each;
    ServeCell cell;
    ServeTerm term_style;
    // A latency: a lower bound at a saturated point ("≥" in the terminal).
    bool lower_bound;
    double (*number)(ServeRow const& row, std::size_t index);
    std::string (*text)(ServeRow const& row, std::size_t index) = nullptr;
};

std::span<ServeColumnSpec const> serve_column_specs();

// A column of one report: a spec, and for a repeated one its sweep or SLO.
struct ServeColumn {
    ServeColumnSpec const* spec;
    std::size_t index = 0;
    std::string csv, sheet, term;
};
std::vector<ServeColumn> serve_columns(model::Scenario const& scenario);

// Whether a row's value in this column is a text (a name, a dtype sweep's value, yes/no).
bool serve_is_text(ServeColumn const& column, ServeRow const& row);

// ---- the fleet ---------------------------------------------------------------

struct FleetRowView {
    ReportContext const& context;
    engine::FleetRow const& row;
};

struct FleetColumnSpec {
    // term "": not in the terminal's Fleet table; csv "" (and not per sweep):
    // the terminal's alone.
    std::string_view csv, sheet, term;
    bool per_sweep;                     // once per sweep that is not a load sweep
    ServeCell cell;
    ServeTerm term_style;
    double (*number)(FleetRowView const& row, std::size_t sweep);
    std::string (*text)(FleetRowView const& row, std::size_t sweep) = nullptr;
    bool pools_only = false;  // only in a report whose serve has prefill and decode pools
};
std::span<FleetColumnSpec const> fleet_column_specs();

struct FleetColumn {
    FleetColumnSpec const* spec;
    std::size_t sweep = 0;
    std::string csv, sheet, term;
};
std::vector<FleetColumn> fleet_columns(model::Scenario const& scenario);
bool fleet_is_text(FleetColumn const& column, FleetRowView const& row);

// ---- what the serve outputs share ----------------------------------------------

// The load sweeps: those the arrivals (poisson's rate, closed's clients)
// depend on; bit v for sweep v. A configuration is a target and the values
// of the other sweeps (TP, dtype, ...).
std::uint64_t serve_load_sweeps(model::Scenario const& scenario);
// The first point of a point's configuration: its load sweeps at their first values.
std::size_t serve_config_point(ReportContext const& context, std::size_t point);
// "TP = 4, wdt = fp8": the values of the sweeps that are not load sweeps at
// `point`; "" when there are none.
std::string serve_config_text(ReportContext const& context, std::size_t point);
// The offered load of a serve point: requests/s, or for closed(C) the clients.
double serve_load(engine::ServeResult const& result);
// Whether the arrivals are closed(C): the load is clients, not a rate.
bool serve_closed(model::Scenario const& scenario);
// Whether a serve point meets every SLO (true without SLOs; false with a problem).
bool serve_meets_slos(engine::ServeResult const& result);
// The serve result at a point on a target (context.serve, target fastest); null if none.
engine::ServeResult const* serve_result(ReportContext const& context, std::size_t point,
                                        std::size_t target);

}  // namespace roofline::report
