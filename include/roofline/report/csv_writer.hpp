#pragma once
// cases.csv: RFC 4180, a header row, one row per case, in the columns of
// case_columns.hpp (reports.md). Numbers are the shortest text that reads
// back to the same double; a missing value (an unsupported case's peak, a
// critical value that does not exist) is an empty field. Text that could be
// taken for a formula (starting with = + - @) is quoted, as is text with
// commas, quotes or line breaks.

#include "roofline/report/case_columns.hpp"
#include "roofline/report/report.hpp"

#include <cstdio>
#include <memory>
#include <vector>

namespace roofline::output {
class CsvRows;
}

namespace roofline::report {

class CsvWriter {
public:
    // Writes to `out` (not owned); the header row immediately.
    CsvWriter(std::FILE* out, ReportContext const& context);
    ~CsvWriter();
    void add(engine::Case const& c);
    void flush();  // throws std::runtime_error when the stream failed (disk full)

private:
    std::FILE* out_;
    ReportContext const& context_;
    std::vector<CaseColumn> columns_;
    std::unique_ptr<output::CsvRows> rows_;
};

}  // namespace roofline::report
