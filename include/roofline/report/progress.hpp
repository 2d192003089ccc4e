#pragma once
// What a run is doing, for a progress display (reports.md, "Progress"). The
// library reports; the command line decides whether and how to show it.

#include <cstddef>

namespace roofline::report {

// In the order they start (but serving and fleet, which come first, before
// evaluating: listed last so that the others keep their numbers). workbook,
// charts and csv overlap: the workbook is closed on one core while the other
// draws the charts, then writes the CSV.
enum class Phase {
    evaluating,  // the pass over the cases that writes the Cases rows; units: cases
    workbook,    // finishing and compressing report.xlsx; units: percent (estimated)
    charts,      // gnuplot; units: charts
    csv,         // cases.csv; units: rows
    publishing,  // inputs, hashes, manifest, the version folder; no units
    serving,     // the serve simulations (engine::evaluate_serve); units: serve points
    fleet,       // the fleet search (engine::plan_fleet); units: configurations
};
char const* phase_name(Phase phase);  // "evaluating", "workbook", ...

// Told about each phase: begin, any number of advances, end (not called when
// the phase fails with an exception). Calls come from two threads at once
// (the workbook on one, charts and CSV on the other): an implementation must
// be thread-safe and quick, since the writers wait for it.
class ProgressObserver {
public:
    virtual ~ProgressObserver() = default;
    virtual void begin(Phase phase, std::size_t total) = 0;  // total units; 0: unknown
    virtual void advance(Phase phase, std::size_t done) = 0;  // units done so far
    virtual void end(Phase phase) = 0;
};

}  // namespace roofline::report
