#pragma once
// kernels.csv: one row per kernel case and member, in the columns of
// kernel_columns.hpp, formatted as cases.csv is (RFC 4180, CRLF, the
// shortest text that reads back, an empty field for a missing value).
// Written only for a scenario with a kernel.

#include "roofline/engine/members.hpp"
#include "roofline/report/kernel_columns.hpp"
#include "roofline/report/report.hpp"

#include <cstdio>
#include <memory>
#include <vector>

namespace roofline::output {
class CsvRows;
}

namespace roofline::report {

class KernelsCsvWriter {
public:
    // Writes to `out` (not owned); the header row immediately.
    KernelsCsvWriter(std::FILE* out, ReportContext const& context);
    ~KernelsCsvWriter();
    // A row per member when `c` is a kernel case; nothing otherwise.
    void add(engine::Case const& c);
    void flush();  // throws std::runtime_error when the stream failed (disk full)

private:
    std::FILE* out_;
    ReportContext const& context_;
    std::vector<KernelColumn> columns_;
    engine::KernelMembers members_;
    std::unique_ptr<output::CsvRows> rows_;
};

}  // namespace roofline::report
