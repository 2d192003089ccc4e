#pragma once
// Shared by the tests that read report.xlsx back (test_xlsx_writer.cpp,
// test_steps.cpp): a scenario written as `run` writes it, and the independent
// reader tests/xlsx/xlsx_tool.py (openpyxl for the stored cells, LibreOffice
// for the recalculated ones).

#include "command.hpp"
#include "helpers.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/xlsx_writer.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <regex>
#include <string>
#include <vector>

namespace roofline::test::xlsx {

namespace fs = std::filesystem;
using json = nlohmann::json;

using test::quoted;
using test::read_file;
using test::Sandbox;

// A scenario checked, its grid, its cases (kept for comparison) and summary.
struct Report {
    std::unique_ptr<test::Checked> checked;
    engine::CaseGrid grid;
    report::ReportInfo info{"xlsx-test", 2, "2026-11-30T02:51:47Z", std::string(64, 'c'), "9.9.9"};
    std::vector<engine::Case> cases;

    explicit Report(std::string const& text,
                    std::function<void(model::Scenario&)> const& edit = {}) {
        checked = test::check_text(text);
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        if (edit) edit(checked->scenario);
        auto g = engine::prepare(checked->scenario, checked->diagnostics);
        REQUIRE(g);
        grid = std::move(*g);
    }
    model::Scenario const& scenario() const { return checked->scenario; }

    // Streams the cases into a SummaryBuilder and the writer, as `run` does.
    void write(fs::path const& path, report::XlsxOptions const& options = {}) {
        report::ReportContext context{checked->scenario, grid, info};
        report::SummaryBuilder summary(context);
        report::XlsxWriter writer(path.string(), context, options);
        cases.clear();
        REQUIRE(engine::stream_cases(checked->scenario, grid, checked->diagnostics,
                                     [&](engine::Case const& c) {
                                         cases.push_back(c);
                                         summary.add(c);
                                         writer.add(c);
                                     }));
        writer.finish(summary.summary());
    }
    std::string const& target_id(std::size_t t) const {
        auto const& s = scenario();
        return s.hardware[static_cast<std::size_t>(s.targets[t])].id;
    }
};

// tests/xlsx/xlsx_tool.py through the system's Python (Debian's python3-openpyxl).
inline json run_tool(std::string const& args) {
    std::string command =
        test::python3() + " '" + ROOFLINE_TESTS_DIR + "/xlsx/xlsx_tool.py' " + args;
    auto tool = test::run_command(command);
    INFO(command << "\n" << tool.err);
    REQUIRE(tool.exit_code == 0);
    return tool.out.empty() ? json() : json::parse(tool.out);
}

inline json const& cell(json const& dump, std::string const& sheet, std::size_t row,
                        std::size_t col) {
    static json const none;
    auto const& rows = dump.at("cells").at(sheet);
    if (row >= rows.size() || col >= rows[row].size()) return none;
    return rows[row][col];
}

// The column whose header (row 0 of `sheet`) is `header`: the tests ask the
// sheet, so that a new column (a hardware field) moves no test.
inline std::size_t header_column(json const& dump, std::string const& sheet, std::string const& header) {
    auto const& rows = dump.at("cells").at(sheet);
    REQUIRE_FALSE(rows.empty());
    for (std::size_t col = 0; col < rows[0].size(); ++col)
        if (rows[0][col].is_object() && rows[0][col].value("v", json()) == header) return col;
    FAIL("no column '" << header << "' in sheet " << sheet);
    return 0;
}

inline bool close(double a, double b, double rel) {
    return a == b || std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

// The numbers and the text of a chart reference ("Charts!$P$5:$P$7") in a dump.
inline std::vector<double> range_values(json const& dump, std::string const& ref) {
    static std::regex const pattern(R"(Charts!\$([A-Z]+)\$(\d+)(?::\$([A-Z]+)\$(\d+))?)");
    std::smatch m;
    REQUIRE(std::regex_match(ref, m, pattern));
    std::size_t col = 0;
    for (char ch : m[1].str()) col = col * 26 + static_cast<std::size_t>(ch - 'A' + 1);
    --col;
    std::size_t first = std::stoul(m[2].str()) - 1;
    std::size_t last = m[4].matched ? std::stoul(m[4].str()) - 1 : first;
    std::vector<double> out;
    for (std::size_t r = first; r <= last; ++r) out.push_back(cell(dump, "Charts", r, col).at("v").get<double>());
    return out;
}

inline std::string range_text(json const& dump, std::string const& ref) {
    static std::regex const pattern(R"(Charts!\$([A-Z]+)\$(\d+))");
    std::smatch m;
    REQUIRE(std::regex_match(ref, m, pattern));
    std::size_t col = 0;
    for (char ch : m[1].str()) col = col * 26 + static_cast<std::size_t>(ch - 'A' + 1);
    return cell(dump, "Charts", std::stoul(m[2].str()) - 1, col - 1).at("v").get<std::string>();
}

}  // namespace roofline::test::xlsx
