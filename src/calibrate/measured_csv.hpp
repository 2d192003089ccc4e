#pragma once
// The silicon-sample CSV (../shared/measured/README.md) read as it is
// published: a header row naming the columns, one measured serving
// benchmark per row, fields quoted where they hold a comma. Every column
// the prediction needs must be there; the others are ignored.

#include "roofline/calibrate/validation.hpp"

#include <map>
#include <string>
#include <vector>

namespace roofline::calibrate {

struct MeasuredRow {
    RowKey key;
    std::map<std::string, std::string, std::less<>> fields;  // every column, by name
    double ttft_s = 0, tpot_s = 0;                           // silicon_ttft_ms, silicon_tpot_ms
    std::string config;                                      // the `config` column ("" when absent)
    // Parallel sizes of an aggregated row's worker (1 where empty).
    std::uint32_t tp = 1, pp = 1, dp = 1, moe_tp = 1, moe_ep = 1;
};

struct MeasuredFile {
    std::string path, text;  // as read
    std::vector<MeasuredRow> rows;
};

// Throws MeasuredError (predict.hpp) with "FILE:LINE:COL: error: ...", the
// line and a caret: a missing column (at the header), a line with another
// number of fields or an unterminated quote, a number that is not one, a
// latency that is not positive, a length or batch that is not a positive
// integer, a duplicate id.
MeasuredFile read_measured(std::string const& path);
// The same on text already read (tests).
MeasuredFile parse_measured(std::string const& path, std::string text);

}  // namespace roofline::calibrate
