#pragma once
// The columns of a table as the report writes them (report/case_columns.hpp):
// tests find a column's position, letter and header through the table, so
// that a new column moves what it moves and breaks no unrelated assertion.

#include "roofline/report/case_columns.hpp"

#include "output/xlsx_cells.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::test {

// The Cases columns of a scenario (cases.csv, the Cases sheets).
struct CasesColumns {
    std::vector<report::CaseColumn> columns;
    explicit CasesColumns(model::Scenario const& scenario) : columns(report::case_columns(scenario)) {}
    explicit CasesColumns(std::vector<report::CaseColumn> c) : columns(std::move(c)) {}

    // The 0-based position of the column with this header ("t_lower", "critical_B").
    std::size_t at(std::string_view header) const { return report::column_index(columns, header); }
    // Its letters in the sheet ("O").
    std::string letter(std::string_view header) const { return output::column_letters(at(header)); }
    // The letters of the column `offset` after (or before) this one: "the next column".
    std::string letter(std::string_view header, long offset) const {
        return output::column_letters(static_cast<std::size_t>(static_cast<long>(at(header)) + offset));
    }
    std::string last_letter() const { return output::column_letters(columns.size() - 1); }
    std::vector<std::string> headers() const {
        std::vector<std::string> out;
        for (auto const& column : columns) out.push_back(column.header);
        return out;
    }
};

}  // namespace roofline::test
