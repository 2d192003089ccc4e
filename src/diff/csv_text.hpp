#pragma once
// Reading the small CSV tables of a report for the diff (serve.csv,
// fleet.csv, a validation report's rows.csv and groups.csv): RFC 4180 as
// output/csv_rows.hpp writes it, read whole; errors name the file and line
// (ReportError). Private to src/diff.

#include "roofline/diff/report_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace roofline::diff {

struct Record {
    std::size_t line;
    std::vector<std::string> fields;
};

class CsvText {
public:
    CsvText(std::string const& path, std::string const& text) : path_(path), text_(text) {}

    [[noreturn]] void bad(std::size_t line, std::string const& what) const {
        throw ReportError(path_ + ":" + std::to_string(line) + ": " + what);
    }

    // The next record, skipping blank lines; false at the end.
    bool next(Record& record) {
        while (pos_ < text_.size() && (text_[pos_] == '\r' || text_[pos_] == '\n')) {
            if (text_[pos_] == '\n') ++line_;
            ++pos_;
        }
        if (pos_ >= text_.size()) return false;
        record.line = line_;
        record.fields.clear();
        for (;;) {
            std::string field;
            if (pos_ < text_.size() && text_[pos_] == '"') {
                for (++pos_;; ++pos_) {
                    if (pos_ >= text_.size()) bad(record.line, "a quoted field is not closed");
                    char c = text_[pos_];
                    if (c == '"' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
                        field += '"';
                        ++pos_;
                    } else if (c == '"') {
                        ++pos_;
                        break;
                    } else {
                        if (c == '\n') ++line_;
                        field += c;
                    }
                }
                if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\r' &&
                    text_[pos_] != '\n')
                    bad(line_, "text after the closing quote of a field");
            } else {
                std::size_t end = text_.find_first_of(",\r\n\"", pos_);
                if (end == std::string::npos) end = text_.size();
                if (end < text_.size() && text_[end] == '"')
                    bad(line_, "a quote inside an unquoted field");
                field.assign(text_, pos_, end - pos_);
                pos_ = end;
            }
            record.fields.push_back(std::move(field));
            if (pos_ < text_.size() && text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
            if (pos_ < text_.size() && text_[pos_] == '\n') {
                ++pos_;
                ++line_;
            }
            return true;
        }
    }

private:
    std::string const& path_;
    std::string const& text_;
    std::size_t pos_ = 0, line_ = 1;
};

inline double parse_number(CsvText const& csv, Record const& r, std::string const& column,
                    std::string const& text) {
    if (text.empty()) return std::numeric_limits<double>::quiet_NaN();
    double value = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), value);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size())
        csv.bad(r.line, "column '" + column + "': '" + text + "' is not a number");
    if (!std::isfinite(value))
        csv.bad(r.line, "column '" + column + "': '" + text +
                            "' is not a finite number (not a file roofline writes)");
    return value;
}

}  // namespace roofline::diff
