#pragma once
// The rows of a CSV file (RFC 4180), as cases.csv and diff.csv write them:
// numbers as the shortest text that reads back to the same double (NaN: an
// empty field), text quoted when it holds commas, quotes or line breaks, or
// could be taken for a formula (starting with = + - @). Lines end in CRLF.
// Private to the core library.

#include <cstdio>
#include <string>
#include <string_view>

namespace roofline::output {

// The CSV text of one field: quoted when needed (see above).
std::string csv_field(std::string_view text);

class CsvRows {
public:
    // Writes to `out` (not owned); `what` begins the message of a failed
    // write ("cannot write cases.csv").
    CsvRows(std::FILE* out, std::string what) : out_(out), what_(std::move(what)) {
        row_.reserve(512);
    }
    void text(std::string_view text);
    void number(double value);
    // Writes the row; throws std::runtime_error when the stream failed.
    void end_row();

private:
    std::FILE* out_;
    std::string what_;
    std::string row_;
};

}  // namespace roofline::output
