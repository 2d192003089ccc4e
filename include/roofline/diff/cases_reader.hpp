#pragma once
// Streams a report's cases.csv (RFC 4180, reports.md "cases.csv") one row at
// a time, keeping only the columns `roofline diff` needs. One pass, a fixed
// buffer: memory does not grow with the file. The bytes are hashed as they
// are read and checked against the manifest at the end, with the row count.

#include "roofline/diff/report_reader.hpp"
#include "roofline/engine/metrics.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::diff {

using engine::Bound;  // the engine's, with its names
using engine::bound_name;

// A number as cases.csv writes it: the shortest text that reads back the
// same; "" for NaN (a missing value).
std::string number_text(double value);

// One case; the text views stay valid until the next call of next().
struct CaseRow {
    std::string_view op, layer, hardware, compute_dtype;
    Bound bound = Bound::unsupported;
    double count = 1;  // the layer repeat count
    double intensity = 0, peak = 0, ridge = 0, t_lower = 0, attained = 0;  // NaN: missing
    // The op's time in the serial step (the t_step column of a mesh report;
    // t_lower where the report has none: one chip, or an older version).
    double t_step = 0;
    // In the order of ComparedReport::sweeps; a dtype sweep's value is the
    // dtype's index in the manifest's list of that sweep.
    std::vector<double> sweep;
    std::vector<double> critical;  // likewise; NaN: never compute-bound
};

class CasesReader {
public:
    // Opens cases.csv and checks its header. Throws ReportError, or
    // std::runtime_error when the file cannot be read.
    explicit CasesReader(ComparedReport const& report);
    ~CasesReader();
    CasesReader(CasesReader const&) = delete;
    CasesReader& operator=(CasesReader const&) = delete;

    // The next case; false at the end of the file. Throws ReportError on a
    // malformed row.
    bool next(CaseRow& row);
    // After next() returned false: the row count and the SHA-256 against the
    // manifest. Throws ReportError.
    void finish();
    // "out/x/v3/cases.csv:12", for messages about the current row.
    std::string where() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace roofline::diff
