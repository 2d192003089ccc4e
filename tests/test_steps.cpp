// The step of a target at a sweep point (report::step_totals) and where it is
// shown: the Summary sheet's Step section, the Steps sheet (formulas that
// LibreOffice recalculates) and the terminal summary of `run`. Expected
// numbers are worked out by hand in step_scenario.hpp.
#include "roofline/cli/format.hpp"

#include "columns.hpp"
#include "step_scenario.hpp"
#include "xlsx_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::test::xlsx;
namespace step = roofline::test::step;

namespace {

// The Summary built from every case, as `run` builds it.
report::Summary summarize(Report& r) {
    report::ReportContext context{r.checked->scenario, r.grid, r.info};
    report::SummaryBuilder builder(context);
    REQUIRE(engine::stream_cases(r.checked->scenario, r.grid, r.checked->diagnostics,
                                 [&](engine::Case const& c) { builder.add(c); }));
    return builder.summary();
}

// The words of a line, split at runs of spaces.
std::vector<std::string> words(std::string const& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The lines of `text` from the line `first` up to (not including) the next
// line that does not start with a space.
std::vector<std::string> block(std::string const& text, std::string const& first) {
    std::istringstream in(text);
    std::vector<std::string> out;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (inside && (line.empty() || line[0] != ' ')) break;
        if (inside) out.push_back(line);
        if (line == first) inside = true;
    }
    return out;
}

// A number as LibreOffice's CSV export writes it (a percentage keeps its %).
double number(json const& rows, std::size_t row, std::size_t col) {
    std::string text = rows.at(row).at(col).get<std::string>();
    INFO("row " << row + 1 << " column " << col + 1 << ": '" << text << "'");
    REQUIRE_FALSE(text.empty());
    return text.back() == '%' ? std::stod(text.substr(0, text.size() - 1)) / 100 : std::stod(text);
}

// The row (0-based) of a sheet dump whose first cell is `first`.
std::size_t find_row(json const& rows, std::string const& first) {
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (!rows[i].empty() && rows[i][0].is_object() && rows[i][0].at("v") == first) return i;
    FAIL("no row starting with " << first);
    return 0;
}

std::vector<std::string> texts(json const& row) {
    std::vector<std::string> out;
    for (auto const& c : row)
        if (c.is_object() && c.at("v").is_string()) out.push_back(c.at("v").get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("steps: the first screens show the first, the last and six points between, in log space",
          "[steps]") {
    // At most 12 points: all of them.
    CHECK(report::step_points(1) == std::vector<std::size_t>{0});
    CHECK(report::step_points(3) == std::vector<std::size_t>{0, 1, 2});
    CHECK(report::step_points(8) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
    // Up to a dozen points, all of them: 1 .. 256 times 2 shows every batch.
    CHECK(report::step_points(9).size() == 9);
    CHECK(report::step_points(12).size() == 12);
    // 512 points: index + 1 = 512^(k/7) = 2^(9k/7) = 2.44, 5.94, 14.5, 35.3, 86.1, 210.0,
    // rounded 2, 6, 14, 35, 86, 210: indices 1, 5, 13, 34, 85, 209.
    CHECK(report::step_points(512) == std::vector<std::size_t>{0, 1, 5, 13, 34, 85, 209, 511});
    // 13 points (1 .. 4096 times 2): 13^(k/7) = 1.44, 2.08, 3.00, 4.33, 6.25, 9.01; the
    // first rounds to 1, the first point again, and is not repeated.
    CHECK(report::step_points(13) == std::vector<std::size_t>{0, 1, 2, 3, 5, 8, 12});
}

TEST_CASE("steps: step totals by hand, with resident bytes and tokens set on the grid", "[steps]") {
    Report r(step::scenario);
    auto summary = summarize(r);
    report::ReportContext context{r.checked->scenario, r.grid, r.info};
    REQUIRE(r.grid.point_count == 3);
    CHECK(summary.layers == std::vector<std::string>{"attn", "mlp"});
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t p = 0; p < 3; ++p) {
            auto const& hand = step::steps[t][p];
            INFO("target " << t << " at B = " << hand.B);
            auto s = report::step_totals(context, summary, p, t);
            CHECK_THAT(s.t_lower, Catch::Matchers::WithinRel(hand.lower, 1e-12));
            CHECK_THAT(s.t_upper, Catch::Matchers::WithinRel(hand.upper, 1e-12));
            CHECK_THAT(s.memory_share, Catch::Matchers::WithinAbs(hand.memory_share, 1e-12));
            // Nothing resident and no tokens statement: not available.
            CHECK(s.resident_bytes == 0);
            CHECK(std::isnan(s.min_chips));
            CHECK(std::isnan(s.tokens_per_s));
            if (t == 0)
                CHECK(s.capacity == step::capacity);
            else
                CHECK(std::isnan(s.capacity));
        }
    // The layers: at B = 120 on fast, attn 2 x 2.48e-6, mlp 3 x 9.6e-6.
    CHECK_THAT(summary.layer_time(1, 0, 0, 2), Catch::Matchers::WithinRel(4.96e-6, 1e-12));
    CHECK_THAT(summary.layer_time(1, 1, 0, 2), Catch::Matchers::WithinRel(2.88e-5, 1e-12));

    step::set_facts(r.grid);
    for (std::size_t p = 0; p < 3; ++p) {
        auto const& hand = step::steps[0][p];
        INFO("fast at B = " << hand.B);
        auto s = report::step_totals(context, summary, p, 0);
        CHECK(s.weight_bytes == step::weights);
        CHECK(s.cache_bytes == step::cache[p]);
        CHECK(s.resident_bytes == step::weights + step::cache[p]);
        CHECK(s.min_chips == step::min_chips[p]);  // 1.5e9 B on 1e9 B: 2 chips
        CHECK(s.tokens == hand.B);
        CHECK_THAT(s.tokens_per_s, Catch::Matchers::WithinRel(hand.B / hand.lower, 1e-12));
        CHECK_THAT(s.tokens_per_s_upper, Catch::Matchers::WithinRel(hand.B / hand.upper, 1e-12));
        auto h = report::step_totals(context, summary, p, 1);
        CHECK(h.resident_bytes == step::weights + step::cache[p]);
        CHECK(std::isnan(h.min_chips));  // half has no hbm_capacity
    }
}

TEST_CASE("steps: without a tokens statement, run prints each op on its own", "[steps][cli]") {
    Report r(std::string(step::scenario).append(step::unsupported_op));
    auto summary = summarize(r);
    report::ReportContext context{r.checked->scenario, r.grid, r.info};
    std::string text = cli::op_summary(context, summary);
    INFO(text);
    CHECK(text.rfind("each op on its own, one chip (no tokens statement", 0) == 0);
    // "step" only in "no step": no step table, no step column.
    CHECK(text.find("step") == text.find("no step") + 3);
    CHECK(text.find("step", text.find("no step") + 7) == std::string::npos);

    auto fast = block(text, "Fast chip [fast]");
    REQUIRE(fast.size() == 4);  // header + proj, up, q
    CHECK(words(fast[0]) == std::vector<std::string>{"op", "count", "t_lower", "at", "B", "=", "1",
                                                     "bound", "t_lower", "at", "B", "=", "1000",
                                                     "bound", "critical_B"});
    // step_scenario.hpp: proj at B = 1 2.004e-6 s memory, at 1000 2e-5 s compute;
    // compute-bound from 2e6 B / 1e14 >= (2e6 + 4000 B) / 1e12, i.e. B >= 125.
    CHECK(words(fast[1]) == std::vector<std::string>{"attn/proj", "2", "2", "µs", "memory", "20",
                                                     "µs", "compute", "125"});
    // up: 8.01e-6 s memory, 8e-5 s compute; 8e6 B / 1e14 >= (8e6 + 1e4 B) / 1e12
    // from B >= 114.29, so the smallest integer is 115.
    CHECK(words(fast[2]) == std::vector<std::string>{"mlp/up", "3", "8.01", "µs", "memory", "80",
                                                     "µs", "compute", "115"});
    // q is int8 and neither chip has an int8 peak.
    CHECK(words(fast[3]) ==
          std::vector<std::string>{"q", "1", "-", "unsupported", "-", "unsupported", "-"});

    auto half = block(text, "half");
    REQUIRE(half.size() == 4);
    // At 5e11 B/s: proj 4.008e-6 s; 2e-8 B >= 4e-6 + 8e-9 B from B >= 333.3 -> 334.
    CHECK(words(half[1]) == std::vector<std::string>{"attn/proj", "2", "4.01", "µs", "memory",
                                                     "20", "µs", "compute", "334"});
    // up 1.602e-5 s; 8e-8 B >= 1.6e-5 + 2e-8 B from B >= 266.7 -> 267.
    CHECK(words(half[2]) == std::vector<std::string>{"mlp/up", "3", "16", "µs", "memory", "80",
                                                     "µs", "compute", "267"});
}

TEST_CASE("steps: the terminal summary of run, by hand", "[steps][cli]") {
    Report r(step::scenario);
    auto summary = summarize(r);
    report::ReportContext context{r.checked->scenario, r.grid, r.info};

    // Without resident bytes or tokens: the times and the share only.
    std::string text = cli::step_summary(context, summary);
    INFO(text);
    auto fast = block(text, "Fast chip [fast]");
    REQUIRE(fast.size() == 4);  // header + B = 1, 120, 1000
    CHECK(words(fast[0]) == std::vector<std::string>{"B", "step", "expected", "t_upper", "memory"});
    // Uncalibrated: expected (the second time) is the step.
    // 2.8038e-5 s = 28 µs (3 digits), 2.8318e-5 = 28.3 µs; 3.376e-5 = 33.8 µs,
    // 6.616e-5 = 66.2 µs, share 14.69% = 14.7%; 2.8e-4 = 280 µs, 3.46e-4 = 346 µs.
    CHECK(words(fast[1]) == std::vector<std::string>{"1", "28", "µs", "28", "µs", "28.3", "µs", "100%"});
    CHECK(words(fast[2]) == std::vector<std::string>{"120", "33.8", "µs", "33.8", "µs", "66.2", "µs", "14.7%"});
    CHECK(words(fast[3]) == std::vector<std::string>{"1000", "280", "µs", "280", "µs", "346", "µs", "0%"});
    auto half = block(text, "half");
    REQUIRE(half.size() == 4);
    // 5.6076e-5 = 56.1 µs, 6.512e-5 = 65.1 µs, 9.872e-5 = 98.7 µs, 4.12e-4 = 412 µs.
    CHECK(words(half[2]) == std::vector<std::string>{"120", "65.1", "µs", "65.1", "µs", "98.7", "µs", "100%"});
    CHECK(words(half[3]) == std::vector<std::string>{"1000", "280", "µs", "280", "µs", "412", "µs", "0%"});

    // With them: tokens/s = B / step, resident in GB, min chips where the
    // target has a capacity (fast, not half).
    step::set_facts(r.grid);
    text = cli::step_summary(context, summary);
    fast = block(text, "Fast chip [fast]");
    REQUIRE(fast.size() == 4);
    CHECK(words(fast[0]) == std::vector<std::string>{"B", "step", "expected", "t_upper", "memory", "tokens/s",
                                                     "resident", "min", "chips"});
    // 1 / 2.8038e-5 = 35666 -> 35.7 k; 120 / 3.376e-5 = 3554502 -> 3.55 M;
    // 1000 / 2.8e-4 = 3571429 -> 3.57 M (3 digits, an SI prefix); resident
    // 1.5e9, 1.7e9, 2.1e9 B -> 1.5 GB, 1.7 GB, 2.1 GB.
    CHECK(words(fast[1]) == std::vector<std::string>{"1", "28", "µs", "28", "µs", "28.3", "µs", "100%", "35.7",
                                                     "k", "1.5", "GB", "2"});
    CHECK(words(fast[2]) == std::vector<std::string>{"120", "33.8", "µs", "33.8", "µs", "66.2", "µs", "14.7%",
                                                     "3.55", "M", "1.7", "GB", "2"});
    CHECK(words(fast[3]) == std::vector<std::string>{"1000", "280", "µs", "280", "µs", "346", "µs", "0%", "3.57",
                                                     "M", "2.1", "GB", "3"});
    half = block(text, "half");
    REQUIRE(half.size() == 4);
    CHECK(words(half[0]).back() == "resident");  // no min chips without a capacity

    // A chip with no peak for any matmul has no step (not a step of 0 s).
    Report none(R"(
hardware int8_only { hbm_bandwidth = 1e12 B/s  peak int8 = 1e14 OP/s }
target int8_only
sweep B = [1, 2]
let D = 64
matmul m = bf16[B, D] * bf16[D, E] -> bf16[B, E]
let E = 64
)");
    auto none_summary = summarize(none);
    report::ReportContext none_context{none.checked->scenario, none.grid, none.info};
    CHECK(cli::step_summary(none_context, none_summary) ==
          "step = sum of count x t_lower over the cases, one chip:\n"
          "expected = sum of count x t_expected + the step's overheads (the step when uncalibrated); "
          "tokens/s = tokens / expected\n"
          "int8_only\n"
          "  no step: no matmul's compute dtype has a peak on this chip\n");
}

TEST_CASE("steps: the Steps sheet and the Summary's Step section, cached and recalculated",
          "[steps][xlsx][libreoffice]") {
    Sandbox dir;
    Report r(step::scenario);
    step::set_facts(r.grid);
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    CHECK(dump.at("sheets") == json({"Summary", "Steps", "Hardware", "Cases", "Charts"}));

    // Steps: a note, the header, then target by target, point by point.
    // Cases columns (C count, D hardware, F B, O t_lower, P t_upper, Q bound),
    // found in the table by name; 12 cases in rows 2 .. 13.
    test::CasesColumns const cases(r.scenario());
    auto range = [&](char const* name) {
        std::string const c = cases.letter(name);
        return "Cases!$" + c + "$2:$" + c + "$13";
    };
    auto const& steps = dump.at("cells").at("Steps");
    // Uncalibrated, step expected is the step (sum of count x t_step) and
    // tokens/s is over it.
    std::vector<std::string> const header = {
        "hardware", "B",        "step t_lower", "step expected", "step t_upper", "memory-bound share",
        "tokens",   "tokens/s", "weights",      "cache",         "resident",     "min chips"};
    CHECK(texts(steps[1]) == header);
    CHECK(texts(steps[0])[0].find("SUMPRODUCT formulas over the Cases sheet") != std::string::npos);
    auto const& settings = dump.at("settings").at("Steps");
    CHECK(settings.at("freeze_panes") == "A3");
    CHECK(settings.at("auto_filter") == "A2:L8");
    std::string const match = "EXACT(" + range("hardware") + ",$A3)*(" + range("B") + "=B3)";
    CHECK(cell(dump, "Steps", 2, 2).at("f") ==
          "=SUMPRODUCT(" + match + "*" + range("count") + "," + range("t_lower") + ")");
    CHECK(cell(dump, "Steps", 2, 3).at("f") ==
          "=SUMPRODUCT(" + match + "*" + range("count") + "," + range("t_expected") + ")");
    CHECK(cell(dump, "Steps", 2, 4).at("f") ==
          "=SUMPRODUCT(" + match + "*" + range("count") + "," + range("t_upper") + ")");
    CHECK(cell(dump, "Steps", 2, 5).at("f") ==
          "=IF(C3>0,SUMPRODUCT(" + match + "*(" + range("bound") + "=\"memory\")*" + range("count") +
              "," + range("t_lower") + ")/C3,0)");
    CHECK(cell(dump, "Steps", 2, 7).at("f") == "=G3/D3");  // tokens / step expected
    CHECK(cell(dump, "Steps", 2, 10).at("f") == "=I3+J3");
    CHECK(cell(dump, "Steps", 2, 11).at("f") == "=CEILING(K3/Hardware!$D$2,1)");
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t p = 0; p < 3; ++p) {
            auto const& hand = step::steps[t][p];
            std::size_t row = 2 + t * 3 + p;
            INFO("Steps row " << row + 1);
            auto v = [&](std::size_t col) { return cell(dump, "Steps", row, col).at("v"); };
            CHECK(v(0) == (t == 0 ? "fast" : "half"));
            CHECK_FALSE(cell(dump, "Steps", row, 0).contains("f"));  // the id is text
            CHECK(v(1).get<double>() == hand.B);
            CHECK(close(v(2).get<double>(), hand.lower, 1e-12));
            CHECK(close(v(3).get<double>(), hand.lower, 1e-12));  // uncalibrated: the step
            CHECK(close(v(4).get<double>(), hand.upper, 1e-12));
            CHECK(std::fabs(v(5).get<double>() - hand.memory_share) < 1e-12);
            CHECK(v(6).get<double>() == hand.B);
            CHECK(close(v(7).get<double>(), hand.B / hand.lower, 1e-12));
            CHECK(v(8).get<double>() == step::weights);
            CHECK(v(9).get<double>() == step::cache[p]);
            CHECK(v(10).get<double>() == step::weights + step::cache[p]);
            if (t == 0)
                CHECK(v(11).get<double>() == step::min_chips[p]);
            else
                CHECK(cell(dump, "Steps", row, 11).is_null());  // half: no capacity
        }
    CHECK(cell(dump, "Steps", 2, 2).at("fmt").get<std::string>().find("E+0\" s\"") !=
          std::string::npos);
    CHECK(cell(dump, "Steps", 2, 3).at("fmt").get<std::string>().find("E+0\" s\"") !=
          std::string::npos);
    CHECK(cell(dump, "Steps", 2, 8).at("fmt").get<std::string>().find("GB") != std::string::npos);

    // Summary: the Step section comes before the per-matmul tables.
    auto const& summary = dump.at("cells").at("Summary");
    std::size_t section =
        find_row(summary, "Step: sum of count x time over the cases, one chip");
    CHECK(section < find_row(summary, "Per target and op"));
    std::size_t h = section + 2;
    CHECK(texts(summary[h]) ==
          std::vector<std::string>{"hardware", "B", "step t_lower", "step expected", "step t_upper",
                                   "memory-bound share", "tokens/s", "weights", "cache", "resident",
                                   "hbm_capacity", "min chips", "fits on one chip"});
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t p = 0; p < 3; ++p) {
            auto const& hand = step::steps[t][p];
            std::size_t row = h + 1 + t * 3 + p;
            std::string const n = std::to_string(row + 1), s = std::to_string(3 + t * 3 + p);
            INFO("Summary row " << n);
            auto at = [&](std::size_t col) -> json const& {
                return cell(dump, "Summary", row, col);
            };
            CHECK(at(0).at("v") == (t == 0 ? "fast" : "half"));
            CHECK(at(1).at("v").get<double>() == hand.B);
            CHECK(at(2).at("f") == "=Steps!$C$" + s);
            CHECK(close(at(2).at("v").get<double>(), hand.lower, 1e-12));
            CHECK(at(3).at("f") == "=Steps!$D$" + s);
            CHECK(close(at(3).at("v").get<double>(), hand.lower, 1e-12));  // uncalibrated: the step
            CHECK(close(at(4).at("v").get<double>(), hand.upper, 1e-12));
            CHECK(std::fabs(at(5).at("v").get<double>() - hand.memory_share) < 1e-12);
            // tokens / step expected
            CHECK(at(6).at("f") == "=Steps!$G$" + s + "/D" + n);
            CHECK(close(at(6).at("v").get<double>(), hand.B / hand.lower, 1e-12));
            CHECK(at(9).at("f") == "=H" + n + "+I" + n);
            CHECK(at(9).at("v").get<double>() == step::weights + step::cache[p]);
            if (t == 0) {
                CHECK(at(10).at("f") == "=Hardware!$D$2");
                CHECK(at(10).at("v").get<double>() == step::capacity);
                CHECK(at(11).at("f") == "=CEILING(J" + n + "/Hardware!$D$2,1)");
                CHECK(at(11).at("v").get<double>() == step::min_chips[p]);
                CHECK(at(12).at("f") == "=IF(J" + n + "<=Hardware!$D$2,\"yes\",\"no\")");
                CHECK(at(12).at("v") == "no");  // 1.5e9 B and more on 1e9 B
            } else {
                for (std::size_t col : {10, 11, 12}) CHECK(at(col).is_null());
            }
        }

    // LibreOffice, from cached results all zeroed: the hand numbers again.
    auto poisoned = dir / "poisoned.xlsx";
    run_tool("poison " + quoted(path) + " " + quoted(poisoned));
    auto recalculated =
        run_tool("recalc " + quoted(poisoned) + " " + quoted(dir / "work"));
    auto const& rows = recalculated.at("sheets").at("Steps");
    auto const& srows = recalculated.at("sheets").at("Summary");
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t p = 0; p < 3; ++p) {
            auto const& hand = step::steps[t][p];
            std::size_t row = 2 + t * 3 + p, srow = h + 1 + t * 3 + p;
            INFO("target " << t << " at B = " << hand.B);
            CHECK(close(number(rows, row, 2), hand.lower, 1e-9));
            CHECK(close(number(rows, row, 3), hand.lower, 1e-9));
            CHECK(close(number(rows, row, 4), hand.upper, 1e-9));
            CHECK(std::fabs(number(rows, row, 5) - hand.memory_share) < 1e-9);
            CHECK(close(number(rows, row, 7), hand.B / hand.lower, 1e-9));
            CHECK(number(rows, row, 10) == step::weights + step::cache[p]);
            CHECK(close(number(srows, srow, 2), hand.lower, 1e-9));
            CHECK(close(number(srows, srow, 3), hand.lower, 1e-9));
            CHECK(close(number(srows, srow, 6), hand.B / hand.lower, 1e-9));
            if (t == 0) {
                CHECK(number(rows, row, 11) == step::min_chips[p]);
                CHECK(number(srows, srow, 11) == step::min_chips[p]);
                CHECK(srows[srow][12] == "no");
            }
        }

    // Edit fast into half (bandwidth 5e11) and its capacity to 2e9 B: the fast
    // rows become the half rows by hand; 1.5e9 and 1.7e9 B now fit on one chip
    // (min chips 1), 2.1e9 B needs 2.
    auto edited = dir / "edited.xlsx", edited2 = dir / "edited2.xlsx";
    run_tool("set " + quoted(path) + " Hardware C2 5e11 " + quoted(edited));
    run_tool("set " + quoted(edited) + " Hardware D2 2e9 " + quoted(edited2));
    auto after = run_tool("recalc " + quoted(edited2) + " " + quoted(dir / "work"));
    auto const& rows2 = after.at("sheets").at("Steps");
    auto const& srows2 = after.at("sheets").at("Summary");
    for (std::size_t p = 0; p < 3; ++p) {
        auto const& hand = step::steps[1][p];
        INFO("fast at 5e11 B/s, B = " << hand.B);
        CHECK(close(number(rows2, 2 + p, 2), hand.lower, 1e-9));
        CHECK(close(number(rows2, 2 + p, 3), hand.lower, 1e-9));
        CHECK(close(number(rows2, 2 + p, 4), hand.upper, 1e-9));
        CHECK(std::fabs(number(rows2, 2 + p, 5) - hand.memory_share) < 1e-9);
        CHECK(close(number(srows2, h + 1 + p, 2), hand.lower, 1e-9));
        double chips = p < 2 ? 1 : 2;
        CHECK(number(rows2, 2 + p, 11) == chips);
        CHECK(number(srows2, h + 1 + p, 11) == chips);
        CHECK(srows2[h + 1 + p][12] == (p < 2 ? "yes" : "no"));
    }
}

TEST_CASE("steps: columns the scenario has nothing for are left out, past one Cases sheet, values",
          "[steps][xlsx]") {
    Sandbox dir;
    Report r(step::scenario);  // no resident bytes, no tokens
    report::XlsxOptions options;
    options.rows_per_cases_sheet = 10;  // 12 cases: Cases and Cases (2)
    auto path = dir / "report.xlsx";
    r.write(path, options);
    auto dump = run_tool("dump " + quoted(path));
    auto const& steps = dump.at("cells").at("Steps");
    CHECK(texts(steps[1]) == std::vector<std::string>{"hardware", "B", "step t_lower", "step expected",
                                                      "step t_upper", "memory-bound share"});
    CHECK(
        texts(steps[0])[0].find("values, not formulas: the cases continue past the Cases sheet") !=
        std::string::npos);
    for (std::size_t t = 0; t < 2; ++t)
        for (std::size_t p = 0; p < 3; ++p) {
            auto const& hand = step::steps[t][p];
            std::size_t row = 2 + t * 3 + p;
            INFO("Steps row " << row + 1);
            for (std::size_t col : {2, 3, 4, 5})
                CHECK_FALSE(cell(dump, "Steps", row, col).contains("f"));
            CHECK(close(cell(dump, "Steps", row, 2).at("v").get<double>(), hand.lower, 1e-12));
            CHECK(close(cell(dump, "Steps", row, 3).at("v").get<double>(), hand.lower, 1e-12));
            CHECK(close(cell(dump, "Steps", row, 4).at("v").get<double>(), hand.upper, 1e-12));
        }
    auto const& summary = dump.at("cells").at("Summary");
    std::size_t h =
        find_row(summary, "Step: sum of count x time over the cases, one chip") + 2;
    CHECK(texts(summary[h]) == std::vector<std::string>{"hardware", "B", "step t_lower", "step expected",
                                                        "step t_upper", "memory-bound share"});
    CHECK(close(cell(dump, "Summary", h + 2, 2).at("v").get<double>(), step::steps[0][1].lower,
                1e-12));

    // Per layer and Whole scenario: values, labelled as such; Per target and
    // op still refers to the cases, on whichever sheet holds them: with 2 ops
    // and 2 targets, fast's up (the table's second row) at B = 1000 is case
    // (2 x 2 + 1) x 2 + 0 = 10, row 10 - 10 + 2 = 2 of Cases (2).
    std::string const fixed =
        "Values evaluated at the scenario's values (they do not follow an edited Hardware "
        "sheet): the cases continue past the Cases sheet.";
    std::size_t layers = find_row(summary, "Per layer: sum of count x t_lower");
    CHECK(cell(dump, "Summary", layers + 1, 0).at("v").get<std::string>().find(fixed) !=
          std::string::npos);
    CHECK_FALSE(cell(dump, "Summary", layers + 3, 2).contains("f"));
    CHECK(close(cell(dump, "Summary", layers + 3, 2).at("v").get<double>(), 2 * 2.004e-6, 1e-12));
    std::size_t whole = find_row(summary, "Whole scenario: sum of count x time over supported cases");
    CHECK(cell(dump, "Summary", whole + 1, 0).at("v") == fixed);
    CHECK_FALSE(cell(dump, "Summary", whole + 3, 1).contains("f"));
    CHECK(close(cell(dump, "Summary", whole + 3, 1).at("v").get<double>(), step::steps[0][0].lower,
                1e-12));
    std::size_t ops = find_row(summary, "Per target and op") + 3;
    test::CasesColumns const cases(r.scenario());
    CHECK(cell(dump, "Summary", ops, 4).at("f") == "=Cases!$" + cases.letter("critical_B") + "$2");
    CHECK(cell(dump, "Summary", ops + 1, 6).at("f") == "='Cases (2)'!$" + cases.letter("bound") + "$2");
    CHECK(cell(dump, "Summary", ops + 1, 6).at("v") == "compute");
    // critical_B of that case: up is compute-bound when 8e6 B / 1e14 >=
    // (8e6 + 1e4 B) / 1e12, B >= 8e-6 / 7e-8 = 114.3: 115.
    auto const& second = cell(dump, "Cases (2)", 1, cases.at("critical_B"));
    CHECK(second.at("v").get<double>() == 115);
    CHECK(second.contains("f"));
}

// Every table of the Summary and critical_B in Cases follow an edited Hardware
// sheet. By hand (step_scenario.hpp): compute-bound when
// flops / peak >= bytes / bandwidth, flops = F B, bytes = A + C B.
//   proj: F = 2e6, A = 2e6, C = 4000      up: F = 8e6, A = 8e6, C = 1e4
// fast (1e12 B/s, 1e14 FLOP/s): proj 2e-8 B >= 2e-6 + 4e-9 B  <=> B >= 125 (equal at 125)
//                               up   8e-8 B >= 8e-6 + 1e-8 B  <=> B >= 114.3 -> 115
// half (5e11 B/s):              proj 1.2e-8 B >= 4e-6         <=> B >= 333.3 -> 334
//                               up   6e-8 B >= 1.6e-5         <=> B >= 266.7 -> 267
// fast at 4e14 FLOP/s:          proj 5e-9 B >= 2e-6 + 4e-9 B  <=> B >= 2000 (equal at 2000)
//                               up   2e-8 B >= 8e-6 + 1e-8 B  <=> B >= 800 (equal at 800)
//   and at B = 1000 proj is memory-bound there: t_math 2e9 / 4e14 = 5e-6 < 6e6 / 1e12 = 6e-6.
// Per layer, count x t_lower (from the step derivation): on fast at B = 1 attn 2 x 2.004e-6,
// mlp 3 x 8.01e-6; at B = 1000 attn 2 x 2e-5, mlp 3 x 8e-5; on half at B = 1 attn 2 x 4.008e-6,
// mlp 3 x 1.602e-5; at B = 1000 the same as fast. At 4e14 FLOP/s and B = 1000: attn 2 x 6e-6
// (memory), mlp 3 x max(2e-5, 1.8e-5) = 6e-5; whole 7.2e-5.
TEST_CASE("steps: every Summary table and critical_B follow an edited bandwidth or peak",
          "[steps][xlsx][libreoffice][critical]") {
    Sandbox dir;
    Report r(step::scenario);
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));

    // Cases rows: (point x 2 + op) x 2 + target + 2; critical_B by the table.
    auto cases_row = [](std::size_t p, std::size_t m, std::size_t t) { return (p * 2 + m) * 2 + t + 1; };
    test::CasesColumns const cases(r.scenario());
    std::size_t const critical = cases.at("critical_B");
    auto cell_ref = [&](char const* name, int row) {
        return "=Cases!$" + cases.letter(name) + "$" + std::to_string(row);
    };
    for (std::size_t p = 0; p < 3; ++p) {
        INFO("point " << p);
        auto const& proj = cell(dump, "Cases", cases_row(p, 0, 0), critical);
        CHECK(proj.at("v").get<double>() == 125);
        std::string f = proj.at("f").get<std::string>();
        CHECK(f.find("Hardware!$C$2") != std::string::npos);
        CHECK(f.find("Hardware!$J$2") != std::string::npos);
        CHECK(f.find("SUMPRODUCT") != std::string::npos);
        CHECK(f.find("Cases!") == std::string::npos);  // no range over the cases per row
        CHECK(cell(dump, "Cases", cases_row(p, 1, 0), critical).at("v").get<double>() == 115);
        CHECK(cell(dump, "Cases", cases_row(p, 0, 1), critical).at("v").get<double>() == 334);
        CHECK(cell(dump, "Cases", cases_row(p, 1, 1), critical).at("v").get<double>() == 267);
    }

    auto const& summary = dump.at("cells").at("Summary");
    std::size_t const ops = find_row(summary, "Per target and op") + 3;
    std::size_t const layers = find_row(summary, "Per layer: sum of count x t_lower") + 3;
    std::size_t const whole =
        find_row(summary, "Whole scenario: sum of count x time over supported cases") + 3;
    // Per target and op: fast's proj, up, then half's; critical_B refers to the case at B = 1.
    CHECK(cell(dump, "Summary", ops, 4).at("f") == cell_ref("critical_B", 2));
    CHECK(cell(dump, "Summary", ops, 5).at("f") == cell_ref("bound", 2));
    CHECK(cell(dump, "Summary", ops, 6).at("f") == cell_ref("bound", 10));  // B = 1000, proj, fast
    CHECK(cell(dump, "Summary", ops + 2, 4).at("f") == cell_ref("critical_B", 3));
    // Per layer: attn, mlp, each on fast and half; no name in a formula.
    std::string const layer_f = cell(dump, "Summary", layers, 2).at("f").get<std::string>();
    auto range = [&](char const* name) {
        std::string const c = cases.letter(name);
        return "Cases!$" + c + "$2:$" + c + "$13";
    };
    CHECK(layer_f.find("EXACT(" + range("hardware") + ",$B") != std::string::npos);
    CHECK(layer_f.find("EXACT(" + range("layer") + ",$A") != std::string::npos);
    CHECK(layer_f.find("attn") == std::string::npos);
    CHECK(layer_f.find("fast") == std::string::npos);
    CHECK(cell(dump, "Summary", whole, 1).at("f") == "=Steps!$C$3");
    CHECK(cell(dump, "Summary", whole, 4).at("f") == "=Steps!$E$5");  // step t_upper

    auto check_layers = [&](json const& rows, std::size_t t, double attn1, double attn2,
                            double mlp1, double mlp2) {
        CHECK(close(number(rows, layers + t, 2), attn1, 1e-9));
        CHECK(close(number(rows, layers + t, 3), attn2, 1e-9));
        CHECK(close(number(rows, layers + 2 + t, 2), mlp1, 1e-9));
        CHECK(close(number(rows, layers + 2 + t, 3), mlp2, 1e-9));
    };

    // Recalculated from zeroed caches: the hand values.
    auto poisoned = dir / "poisoned.xlsx";
    run_tool("poison " + quoted(path) + " " + quoted(poisoned));
    auto before = run_tool("recalc " + quoted(poisoned) + " " + quoted(dir / "work"));
    {
        auto const& cases = before.at("sheets").at("Cases");
        auto const& rows = before.at("sheets").at("Summary");
        CHECK(number(cases, cases_row(0, 0, 0), critical) == 125);
        CHECK(number(cases, cases_row(2, 1, 0), critical) == 115);
        CHECK(number(cases, cases_row(1, 0, 1), critical) == 334);
        CHECK(number(cases, cases_row(0, 1, 1), critical) == 267);
        CHECK(number(rows, ops, 4) == 125);
        CHECK(number(rows, ops + 3, 4) == 267);
        CHECK(rows[ops][6] == "compute");
        check_layers(rows, 0, 2 * 2.004e-6, 2 * 2e-5, 3 * 8.01e-6, 3 * 8e-5);
        check_layers(rows, 1, 2 * 4.008e-6, 2 * 2e-5, 3 * 1.602e-5, 3 * 8e-5);
        CHECK(close(number(rows, whole, 1), step::steps[0][0].lower, 1e-9));
        CHECK(close(number(rows, whole, 4), step::steps[0][2].upper, 1e-9));
    }

    // fast at half's bandwidth: fast's rows are half's.
    auto slow = dir / "slow.xlsx";
    run_tool("set " + quoted(path) + " Hardware C2 5e11 " + quoted(slow));
    auto after = run_tool("recalc " + quoted(slow) + " " + quoted(dir / "work"));
    {
        auto const& cases = after.at("sheets").at("Cases");
        auto const& rows = after.at("sheets").at("Summary");
        for (std::size_t p = 0; p < 3; ++p) {
            INFO("point " << p);
            CHECK(number(cases, cases_row(p, 0, 0), critical) == 334);
            CHECK(number(cases, cases_row(p, 1, 0), critical) == 267);
        }
        CHECK(number(rows, ops, 4) == 334);
        CHECK(number(rows, ops + 1, 4) == 267);
        check_layers(rows, 0, 2 * 4.008e-6, 2 * 2e-5, 3 * 1.602e-5, 3 * 8e-5);
        for (std::size_t i = 0; i < 2; ++i) {
            auto const& hand = step::steps[1][i == 0 ? 0 : 2];
            CHECK(close(number(rows, whole, 1 + i), hand.lower, 1e-9));
            CHECK(close(number(rows, whole, 3 + i), hand.upper, 1e-9));
        }
    }

    // fast at 4 times the peak: the ridge moves to 400; exact ties at 2000 and 800.
    auto peaky = dir / "peaky.xlsx";
    run_tool("set " + quoted(path) + " Hardware J2 4e14 " + quoted(peaky));
    auto peaked = run_tool("recalc " + quoted(peaky) + " " + quoted(dir / "work"));
    {
        auto const& cases = peaked.at("sheets").at("Cases");
        auto const& rows = peaked.at("sheets").at("Summary");
        CHECK(number(cases, cases_row(0, 0, 0), critical) == 2000);
        CHECK(number(cases, cases_row(0, 1, 0), critical) == 800);
        CHECK(number(cases, cases_row(0, 0, 1), critical) == 334);  // half untouched
        CHECK(number(rows, ops, 4) == 2000);
        CHECK(number(rows, ops + 1, 4) == 800);
        CHECK(rows[ops][6] == "memory");   // proj at B = 1000
        CHECK(rows[ops + 1][6] == "compute");
        CHECK(close(number(rows, layers, 3), 2 * 6e-6, 1e-9));
        CHECK(close(number(rows, layers + 2, 3), 3 * 2e-5, 1e-9));
        CHECK(close(number(rows, whole, 2), 7.2e-5, 1e-9));
    }
}

// The three ways V enters an op. On fast (1e12 B/s, 1e14 FLOP/s, ridge 100):
//   proj  = bf16[B,1000] x bf16[1000,1000]: linear, critical_B 125 (above).
//   twice = bf16[S,1000] x ..., S = 2 B: through a let, compute-bound when S >= 125,
//           B >= 62.5: 63; a value, in italics.
//   small = bf16[4,1000] x bf16[1000,1000]: no B; flops 8e6, bytes 2 (4000 + 1e6 + 4000)
//           = 2.016e6: t_math 8e-8 < t_comms 2.016e-6, never; at 1e15 B/s t_comms
//           2.016e-9 < 8e-8: compute-bound at every B, 1. proj at 1e15 B/s:
//           2e-8 B >= 2e-9 + 4e-12 B <=> B >= 0.1: 1.
//   alias = proj over X, let X = B (as a template's B = B): the same as proj, a formula.
TEST_CASE("steps: critical_B is a formula where B is an axis or absent, a labelled value through lets",
          "[steps][xlsx][libreoffice][critical]") {
    Sandbox dir;
    Report r(R"roof(
scenario "critical kinds"
hardware fast { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
target fast
sweep B = [1, 200]
let D = 1000
let E = 1000
let S = 2 * B
let M = 4
let X = B
matmul proj = bf16[B, D] * bf16[D, E] -> bf16[B, E]
matmul twice = bf16[S, D] * bf16[D, E] -> bf16[S, E]
matmul small = bf16[M, D] * bf16[D, E] -> bf16[M, E]
matmul alias = bf16[X, D] * bf16[D, E] -> bf16[X, E]
)roof");
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    // Cases: op-major within a point, one target; critical_B by the table.
    std::size_t const critical = test::CasesColumns(r.scenario()).at("critical_B");
    for (std::size_t p = 0; p < 2; ++p) {
        std::size_t row = p * 4 + 1;
        INFO("Cases row " << row + 1);
        CHECK(cell(dump, "Cases", row, critical).at("v").get<double>() == 125);
        CHECK(cell(dump, "Cases", row, critical).contains("f"));
        auto const& twice = cell(dump, "Cases", row + 1, critical);
        CHECK(twice.at("v").get<double>() == 63);
        CHECK_FALSE(twice.contains("f"));
        CHECK(twice.value("italic", false));
        auto const& small = cell(dump, "Cases", row + 2, critical);
        CHECK(small.at("v") == "never");
        std::string const n = std::to_string(row + 3);
        CHECK(small.at("f") == "=IF(" + test::CasesColumns(r.scenario()).letter("bound") + n +
                                   "=\"compute\",1,\"never\")");
        auto const& alias = cell(dump, "Cases", row + 3, critical);
        CHECK(alias.at("v").get<double>() == 125);
        CHECK(alias.at("f") == cell(dump, "Cases", row, critical).at("f"));
    }
    auto const& summary = dump.at("cells").at("Summary");
    std::size_t const ops = find_row(summary, "Per target and op");
    CHECK(cell(dump, "Summary", ops + 1, 0).at("v").get<std::string>().find(
              "Values in italics are evaluated at the scenario's values") != std::string::npos);
    CHECK(cell(dump, "Summary", ops + 4, 4).value("italic", false));
    CHECK(cell(dump, "Summary", ops + 5, 4).at("v") == "never");

    auto fast = dir / "fast.xlsx";
    run_tool("set " + quoted(path) + " Hardware C2 1e15 " + quoted(fast));
    auto after = run_tool("recalc " + quoted(fast) + " " + quoted(dir / "work"));
    auto const& cases = after.at("sheets").at("Cases");
    auto const& rows = after.at("sheets").at("Summary");
    for (std::size_t p = 0; p < 2; ++p) {
        std::size_t row = p * 4 + 1;
        CHECK(number(cases, row, critical) == 1);
        CHECK(number(cases, row + 1, critical) == 63);  // fixed, as labelled
        CHECK(number(cases, row + 2, critical) == 1);
        CHECK(number(cases, row + 3, critical) == 1);
    }
    CHECK(number(rows, ops + 3, 4) == 1);
    CHECK(number(rows, ops + 5, 4) == 1);
}

// The whole workbook at once: fast's bandwidth and peak edited in the sheet
// and recalculated by LibreOffice must read as the engine's workbook of the
// scenario with those values, cell for cell (Cases, Steps, Summary). The
// numbers above are by hand; this catches any table left behind.
namespace {

// Edits the Hardware sheet of the workbook of `scenario`, recalculates it in
// LibreOffice and compares it with the engine's workbook of the edited
// scenario; returns how many numbers were compared.
// `skip`: the header (in the sheet's header row) of a column left out, a
// value that does not follow edits (a mesh's memory-bound share, Steps).
std::size_t check_edited_workbook(std::string const& scenario,
                                  std::vector<char const*> const& sheets = {"Cases", "Steps", "Summary"},
                                  std::string const& skip = "") {
    Sandbox dir;
    std::string edited_text = scenario;
    auto replace = [&](std::string const& from, std::string const& to) {
        auto at = edited_text.find(from);
        REQUIRE(at != std::string::npos);
        edited_text.replace(at, from.size(), to);
    };
    replace("hbm_bandwidth = 1e12 B/s", "hbm_bandwidth = 3e11 B/s");
    replace("peak bf16 = 1e14 FLOP/s\n    hbm_capacity", "peak bf16 = 2.5e14 FLOP/s\n    hbm_capacity");
    Report original(scenario), edited(edited_text);
    auto path = dir / "report.xlsx", expected_path = dir / "expected.xlsx";
    original.write(path);
    edited.write(expected_path);
    auto a = dir / "a.xlsx", b = dir / "b.xlsx";
    run_tool("set " + quoted(path) + " Hardware C2 3e11 " + quoted(a));
    run_tool("set " + quoted(a) + " Hardware J2 2.5e14 " + quoted(b));
    auto recalculated = run_tool("recalc " + quoted(b) + " " + quoted(dir / "work"));
    auto expected = run_tool("dump " + quoted(expected_path));
    std::size_t numbers = 0;
    for (char const* sheet : sheets) {
        auto const& cells = expected.at("cells").at(sheet);
        auto const& rows = recalculated.at("sheets").at(sheet);
        std::size_t const header_row = std::string(sheet) == "Cases" ? 0 : 1;
        for (std::size_t i = 0; i < cells.size(); ++i)
            for (std::size_t j = 0; j < cells[i].size(); ++j) {
                auto const& c = cells[i][j];
                if (!c.is_object()) continue;
                auto const& head = cells.at(header_row).size() > j ? cells[header_row][j] : json();
                if (!skip.empty() && i > header_row && head.is_object() && head.at("v") == skip) continue;
                INFO(sheet << " row " << i + 1 << " column " << j + 1);
                if (c.at("v").is_number()) {
                    double want = c.at("v").get<double>();
                    double got = number(rows, i, j);
                    CHECK(std::fabs(got - want) <= 1e-12 * std::fabs(want));
                    ++numbers;
                } else {
                    CHECK(rows.at(i).at(j) == c.at("v"));
                }
            }
    }
    return numbers;
}

}  // namespace

TEST_CASE("steps: an edited and recalculated workbook is the engine's workbook of the edited scenario",
          "[steps][xlsx][libreoffice][critical]") {
    // 12 cases of about 14 numbers, the Steps rows and the Summary.
    CHECK(check_edited_workbook(step::scenario) > 200);
}

// Issue 21: on a mesh the Cases' t_step (MAX(t_math, t_comms) + t_net for an
// op whose AllReduce runs after it) and the Steps sheet's serial step and
// overlapped bound recalculate to the engine's. proj is row-parallel over
// tp = 2 (an AllReduce of B x E bf16 after it); up is replicated. Steps'
// memory-bound share is a value on a mesh (the roof of each op's part
// before its collectives), so it is left out.
TEST_CASE("steps: a mesh workbook's t_step and serial step, edited and recalculated, are the engine's",
          "[steps][xlsx][libreoffice][multichip]") {
    std::string text = step::scenario;
    auto replace = [&](std::string const& from, std::string const& to) {
        auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    replace("hbm_capacity = 1e9 B\n", "hbm_capacity = 1e9 B\n    nvlink_bandwidth = 1e10 B/s\n");
    replace("peak bf16 = 1e14 FLOP/s }", "peak bf16 = 1e14 FLOP/s  nvlink_bandwidth = 1e10 B/s }");
    replace("target fast, half\n", "target fast, half\nmesh tp = 2 over nvlink\n");
    replace("matmul proj = bf16[B, D] * bf16[D, E] -> bf16[B, E]",
            "matmul proj = bf16[B, D@tp] * bf16[D@tp, E] -> bf16[B, E]");
    // 12 cases, now with chips, net_bytes, t_net and t_step, and the Steps rows.
    CHECK(check_edited_workbook(text, {"Cases", "Steps"}, "memory-bound share") > 150);
}

// Issue 11: with a dtype sweep, the Cases rows take the peak of their own
// compute dtype, and the Steps and Summary formulas match the dtype's name
// (EXACT on text cells); the edited workbook must still be the engine's.
TEST_CASE("steps: a dtype sweep's workbook, edited and recalculated, is the engine's",
          "[steps][xlsx][libreoffice][dtype-sweep]") {
    std::string const text = step::with_dtype_sweep(true);
    // Twice the cases of the scenario above, and the Steps rows with them.
    CHECK(check_edited_workbook(text) > 400);
}
