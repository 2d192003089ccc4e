#pragma once
// Shared by the tests that read report.xlsx back (test_xlsx_writer.cpp,
// test_steps.cpp): a scenario written as `run` writes it, and the independent
// reader tests/xlsx/xlsx_tool.py (openpyxl for the stored cells, LibreOffice
// for the recalculated ones).

#include "helpers.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace roofline::test::xlsx {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path = fs::temp_directory_path() /
               ("roofline-xlsx-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

inline std::string slurp(fs::path const& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

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
inline json run_tool(std::string const& args, fs::path const& dir) {
    std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    auto out = dir / "tool.out", err = dir / "tool.err";
    std::string command = python + " '" + ROOFLINE_TESTS_DIR + "/xlsx/xlsx_tool.py' " + args +
                          " >'" + out.string() + "' 2>'" + err.string() + "'";
    int status = std::system(command.c_str());
    INFO(command << "\n" << slurp(err));
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::string text = slurp(out);
    return text.empty() ? json() : json::parse(text);
}

// Appended, not "'" + p.string(): GCC 12 at -O3 gives a false -Wrestrict for a
// string literal + a temporary std::string.
inline std::string quoted(fs::path const& p) {
    return std::string("'").append(p.string()).append("'");
}

inline json const& cell(json const& dump, std::string const& sheet, std::size_t row,
                        std::size_t col) {
    static json const none;
    auto const& rows = dump.at("cells").at(sheet);
    if (row >= rows.size() || col >= rows[row].size()) return none;
    return rows[row][col];
}

inline bool close(double a, double b, double rel) {
    return a == b || std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace roofline::test::xlsx
