#pragma once
// diff.xlsx (libxlsxwriter, constant-memory mode: rows go to a temporary file
// beside the output as they come, so memory stays flat in the number of cases).
//   Summary  the two reports, the headline, and one row per matmul and
//            hardware pair: geometric-mean t_lower on each side, the speedup
//            as a formula of those two cells, its range, bounds, flips and
//            critical sweep values.
//   Serve, Fleet  with a serve part: every serve point (fleet configuration)
//            of either report, the ratios B / A as formulas (serve_diff_xlsx.cpp).
//   Cases    one row per case (continued on "Cases (2)", ... past Excel's row
//            limit): both t_lower values and the speedup as a formula of them
//            (with the value as cached result), the bounds and the flip.
// Conditional formatting: speedup below 1 (B slower) red, above 1 green;
// flipped bounds amber. Every lxw_error is checked (report::WriteError).

#include "roofline/diff/diff_summary.hpp"

#include "diff/serve_diff.hpp"

#include <xlsxwriter.h>

#include <cstddef>
#include <memory>
#include <string>

namespace roofline::diff {

class DiffXlsxWriter {
public:
    // Opens the workbook and writes the Cases header. `rows_per_sheet`: data
    // rows per Cases sheet (tests use small values).
    DiffXlsxWriter(std::string const& path, Matcher const& matcher,
                   std::size_t rows_per_sheet = 1'048'575);
    ~DiffXlsxWriter();  // closes an unfinished workbook without throwing
    DiffXlsxWriter(DiffXlsxWriter const&) = delete;
    DiffXlsxWriter& operator=(DiffXlsxWriter const&) = delete;

    void add(DiffCase const& c);
    // The serve part, written as the Serve and Fleet sheets by finish();
    // `serve` must outlive finish().
    void add_serve(ServeDiff const& serve);
    // Writes the Summary sheet and the conditional formats, and closes the file.
    void finish(DiffSummary const& summary);

private:
    struct State;
    std::unique_ptr<State> state_;
};

class XlsxBook;
// The Summary sheet (diff_xlsx_summary.cpp), written by finish().
void write_summary_sheet(XlsxBook& book, lxw_worksheet* ws, Matcher const& matcher,
                         DiffSummary const& summary);

}  // namespace roofline::diff
