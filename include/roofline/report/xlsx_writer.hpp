#pragma once
// report.xlsx (reports.md, "report.xlsx"): sheets Summary, Hardware, Cases
// (continued on "Cases (2)", ... past the row limit) and Charts, written with
// libxlsxwriter in constant-memory mode: each row goes to a temporary file
// beside the output as soon as the next one starts, so memory stays flat in
// the number of cases. The derived columns of Cases are formulas over the
// Hardware sheet that carry the engine's values as cached results.
//
// Same context, same cases -> byte-identical file (fixed document time,
// chart ids from a counter). Names from the scenario are always written as
// text, never as formulas.

#include "roofline/engine/evaluate.hpp"
#include "roofline/output/errors.hpp"
#include "roofline/report/report.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace roofline::report {

// A libxlsxwriter call failed, or the file could not be written.
using output::WriteError;

struct XlsxOptions {
    // Data rows per Cases sheet (the header row comes on top). Excel's limit
    // is 1,048,576 rows; tests use small values to exercise continuation.
    std::size_t rows_per_cases_sheet = 1'048'575;
    // The Charts sheet plots at most this many sweep points per matmul and
    // target, evenly spaced over the sweep (first and last included).
    std::size_t chart_points_per_series = 256;
    // Write the Cases rows as XML straight into libxlsxwriter's constant-memory
    // temporary file (about 4x faster than one API call per cell, which costs
    // as much as deflating). false: through the cell API (the reference path
    // the tests compare against; also used with untested libxlsxwriter versions).
    bool direct_rows = true;
};

// Writes report.xlsx row by row. Every lxw_error is checked; a failure throws
// WriteError. Temporary files go to the output's folder, not /tmp.
class XlsxWriter {
public:
    // Opens the workbook; writes Hardware, the Cases headers and the Summary
    // header up front. `context` must outlive the writer.
    XlsxWriter(std::string const& path, ReportContext const& context,
               XlsxOptions const& options = {});
    // Closes the workbook (without throwing) if finish() was not called.
    ~XlsxWriter();
    XlsxWriter(XlsxWriter const&) = delete;
    XlsxWriter& operator=(XlsxWriter const&) = delete;

    // One row of the Cases sheets; cases arrive in CaseGrid order, at most
    // grid.case_count() of them (more throws std::logic_error).
    void add(engine::Case const& c);
    // Writes what needs the whole pass (the Summary tables, the Charts) and
    // closes the file. Call once; add() may not follow. `progress`: see
    // output::Workbook::close (the estimated fraction of the file written).
    void finish(Summary const& summary, std::function<void(double fraction)> const& progress = {});

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace roofline::report
