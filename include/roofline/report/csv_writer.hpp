#pragma once
// cases.csv: RFC 4180, a header row, one row per case in the column order of
// reports.md. Numbers are the shortest text that reads back to the same
// double; a missing value (an unsupported case's peak, a critical value that
// does not exist) is an empty field. Text that could be taken for a formula
// (starting with = + - @) is quoted, as is text with commas, quotes or line
// breaks.

#include "roofline/report/report.hpp"

#include <cstdio>
#include <string>

namespace roofline::report {

class CsvWriter {
public:
    // Writes to `out` (not owned); the header row immediately.
    CsvWriter(std::FILE* out, ReportContext const& context);
    void add(engine::Case const& c);
    void flush();  // throws std::runtime_error when the stream failed (disk full)

private:
    void field(std::string_view text);
    void number(double value);
    void end_row();

    std::FILE* out_;
    ReportContext const& context_;
    std::string row_;
};

// The CSV text of one field: quoted when needed (see above).
std::string csv_field(std::string_view text);

}  // namespace roofline::report
