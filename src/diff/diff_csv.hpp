#pragma once
// diff.csv: one row per matched case and one per case on one side only, in
// the order the matcher delivers them. RFC 4180 with CRLF line ends, numbers
// as cases.csv writes them, an empty field for a missing value. Columns:
//   status (matched, only_a, only_b), op, layer, hardware_a, hardware_b,
//   one per sweep variable, compute_dtype_a, compute_dtype_b, intensity_a,
//   intensity_b, ridge_a, ridge_b, t_lower_a, t_lower_b, speedup
//   (t_lower_a / t_lower_b), bound_a, bound_b, flip (memory->compute,
//   compute->memory or empty), attained_a, attained_b, then
//   critical_<V>_a, critical_<V>_b per sweep variable.

#include "roofline/diff/match.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace roofline::output {
class CsvRows;
}

namespace roofline::diff {

class DiffCsvWriter {
public:
    // Creates the file and writes the header. Throws std::runtime_error.
    DiffCsvWriter(std::string const& path, Matcher const& matcher);
    ~DiffCsvWriter();
    DiffCsvWriter(DiffCsvWriter const&) = delete;
    DiffCsvWriter& operator=(DiffCsvWriter const&) = delete;

    void add(DiffCase const& c);
    // Flushes and closes; throws std::runtime_error when a write failed.
    void close();

private:
    std::string path_;
    Matcher const& matcher_;
    std::FILE* file_ = nullptr;
    std::vector<char> buffer_;
    std::unique_ptr<output::CsvRows> rows_;
};

}  // namespace roofline::diff
