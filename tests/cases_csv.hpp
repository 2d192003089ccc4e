#pragma once
// cases.csv read back as header -> value, one map per row, for tests that
// check figures by column name (so that a new column moves none of them).

#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace roofline::test {

// The fields of one CSV line, its "\r\n" cut off (roofline quotes only text;
// these rows have none with a comma).
inline std::vector<std::string> csv_fields(std::string line) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    return fields;
}

using CsvRow = std::map<std::string, std::string>;

inline std::vector<CsvRow> read_cases(std::filesystem::path const& path) {
    std::stringstream in(read_file(path));
    std::string line;
    std::getline(in, line);
    auto header = csv_fields(line);
    std::vector<CsvRow> rows;
    while (std::getline(in, line)) {
        auto fields = csv_fields(line);
        REQUIRE(fields.size() == header.size());
        auto& row = rows.emplace_back();
        for (std::size_t i = 0; i < fields.size(); ++i) row[header[i]] = fields[i];
    }
    return rows;
}

inline double number(CsvRow const& row, std::string const& column) {
    return std::strtod(row.at(column).c_str(), nullptr);
}

}  // namespace roofline::test
