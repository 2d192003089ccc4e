// report.xlsx read back by independent tools: openpyxl for the cells as
// stored (cached values, formulas, formats) and LibreOffice for the formulas
// recalculated (tests/xlsx/xlsx_tool.py). Expected numbers come from the
// formulas of reports.md worked out here, on hardware chosen so that the
// bound flips where predicted when a bandwidth is edited.
#include "columns.hpp"
#include "xlsx_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <functional>
#include <regex>

using namespace roofline;
using namespace roofline::test::xlsx;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// fast: bf16 only, ridge 1e14 / 1e12 = 100 FLOP/B. old: the book's TPU v5e.
// bf = bf16[B,4096] x bf16[4096,4096]: intensity 4096 B / (2 B + 4096), so
// 62.1 at B = 64 (memory-bound on fast), 124.1 at 128 and 227.6 at 256
// (compute-bound). Halving fast's bandwidth moves its ridge to 200: B = 128
// flips to memory, B = 256 stays compute. q8 (int8) has no peak on fast.
constexpr char const* scenario_text = R"roof(
scenario "=1+1"
hardware fast {
    name = "=cmd|'/c calc'!A1"
    source = "+1"
    hbm_bandwidth = 1e12 B/s
    peak bf16 = 1e14 FLOP/s
    nvlink_bandwidth = 450 GB/s
    nvlink_domain = 8
    dcn_bandwidth = 50 GB/s
}
hardware old {
    name = "TPU v5e (book)"
    hbm_bandwidth = 8.2e11 B/s
    ici_bandwidth = 45 GB/s
    ici_wraparound = 16
    peak int8 = 3.94e14 OP/s
    peak bf16 = 1.97e14 FLOP/s
}
target fast, old
let D = 4096
let F = 4096
sweep B = [64, 128, 256]
layer blk x 2 {
    matmul bf = bf16[B, D] * bf16[D, F] -> bf16[B, F]
}
matmul q8 = int8[B, D] * int8[D, F] -> int8[B, F]
)roof";

struct Hand {
    double flops, bytes_read, bytes_written, peak, bw;  // peak NaN: unsupported
};

// The counts of reports.md by hand: 2 x product of the axes; operands x bytes.
Hand by_hand(std::size_t matmul, std::size_t target, double B) {
    double const D = 4096, F = 4096;
    double const nan = std::nan("");
    double bw = target == 0 ? 1e12 : 8.2e11;
    if (matmul == 0)  // bf16, 2 bytes an element
        return {2 * B * D * F, 2 * (B * D + D * F), 2 * B * F, target == 0 ? 1e14 : 1.97e14, bw};
    return {2 * B * D * F, B * D + D * F, B * F, target == 0 ? nan : 3.94e14, bw};  // int8
}

std::string excel_col(std::size_t col) {
    std::string s;
    for (std::size_t n = col + 1; n > 0; n = (n - 1) / 26)
        s.insert(s.begin(), static_cast<char>('A' + (n - 1) % 26));
    return s;
}

// The Cases columns of these scenarios (one sweep, B; no mesh, no on-chip
// operands), found in the report's table by name (tests/columns.hpp).
test::CasesColumns const& table() {
    static test::CasesColumns const columns = [] {
        model::Sweep b;
        b.name = "B";
        return test::CasesColumns(report::case_columns({b}, false));
    }();
    return columns;
}
using Col = std::size_t;
Col const op = table().at("op"), layer = table().at("layer"), count = table().at("count"),
          hardware = table().at("hardware"), compute_dtype = table().at("compute_dtype"),
          sweep_B = table().at("B"), flops = table().at("flops"), bytes_read = table().at("bytes_read"),
          bytes_written = table().at("bytes_written"), intensity = table().at("intensity"),
          peak = table().at("peak"), ridge = table().at("ridge"), t_math = table().at("t_math"),
          t_comms = table().at("t_comms"), t_lower = table().at("t_lower"), t_upper = table().at("t_upper"),
          bound = table().at("bound"), attained = table().at("attained"),
          peak_fraction = table().at("peak_fraction"), critical_B = table().at("critical_B");
std::size_t const columns = table().columns.size();
std::string const& header(Col c) { return table().columns[c].header; }

// The formulas a derived cell must hold, by hand: row n (1-based), target t.
std::string expected_formula(Col c, std::size_t n, std::size_t t, std::size_t dtype_col) {
    std::string r = std::to_string(n), hw = std::to_string(t + 2);
    std::string bw = "Hardware!$C$" + hw;
    auto at = [&](Col col) { return excel_col(col) + r; };
    if (c == intensity) return "=" + at(flops) + "/(" + at(bytes_read) + "+" + at(bytes_written) + ")";
    if (c == peak) return "=Hardware!$" + excel_col(dtype_col) + "$" + hw;
    if (c == ridge) return "=" + at(peak) + "/" + bw;
    if (c == t_math) return "=" + at(flops) + "/" + at(peak);
    if (c == t_comms) return "=(" + at(bytes_read) + "+" + at(bytes_written) + ")/" + bw;
    if (c == t_lower) return "=MAX(" + at(t_math) + "," + at(t_comms) + ")";
    if (c == t_upper) return "=" + at(t_math) + "+" + at(t_comms);
    if (c == bound) return "=IF(" + at(t_math) + ">=" + at(t_comms) + ",\"compute\",\"memory\")";
    if (c == attained) return "=" + at(flops) + "/" + at(t_lower);
    if (c == peak_fraction) return "=" + at(attained) + "/" + at(peak);
    return "";
}

double metric(engine::Metrics const& m, Col c) {
    if (c == intensity) return m.intensity;
    if (c == peak) return m.peak;
    if (c == ridge) return m.ridge;
    if (c == t_math) return m.t_math;
    if (c == t_comms) return m.t_comms;
    if (c == t_lower) return m.t_lower;
    if (c == t_upper) return m.t_upper;
    if (c == attained) return m.attained;
    if (c == peak_fraction) return m.peak_fraction;
    return std::nan("");
}

Col const numeric_derived[] = {intensity, peak,     ridge,         t_math,  t_comms,
                                   t_lower,   t_upper,  attained,      peak_fraction};

// Every Cases row against the engine's case and the hand formulas. `rows` are
// the data rows of every Cases sheet, in order, each with its sheet row number.
void check_cases_rows(Report const& r, json const& dump,
                      std::vector<std::pair<std::string, std::size_t>> const& rows) {
    REQUIRE(rows.size() == r.cases.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        auto const& sheet = rows[i].first;
        std::size_t const row = rows[i].second;
        auto const& c = r.cases[i];
        auto const& m = r.scenario().ops[c.op];
        double B = r.grid.sweep_value(c, 0);
        Hand h = by_hand(c.op, c.target, B);
        INFO(sheet << " row " << row + 1 << ": " << m.name << " on " << r.target_id(c.target)
                   << " at B = " << B);
        auto get = [&](Col col) -> json const& { return cell(dump, sheet, row, col); };

        CHECK(get(op).at("v") == m.name);
        if (m.layer.empty())
            CHECK(get(layer).is_null());
        else
            CHECK(get(layer).at("v") == m.layer);
        CHECK(get(count).at("v").get<double>() == m.count);
        CHECK(get(hardware).at("v") == r.target_id(c.target));
        CHECK(get(compute_dtype).at("v") == (c.op == 0 ? "bf16" : "int8"));
        CHECK(get(sweep_B).at("v").get<double>() == B);
        // Inputs: plain values, exactly the engine's and the hand counts.
        for (auto [col, engine, hand] :
             {std::tuple{flops, c.metrics.counts.flops, h.flops},
              std::tuple{bytes_read, c.metrics.counts.bytes_read, h.bytes_read},
              std::tuple{bytes_written, c.metrics.counts.bytes_written, h.bytes_written}}) {
            CHECK_FALSE(get(col).contains("f"));
            CHECK(get(col).at("v").get<double>() == engine);
            CHECK(engine == hand);
        }
        bool supported = !std::isnan(h.peak);
        CHECK(supported == (c.metrics.bound != engine::Bound::unsupported));
        std::size_t dtype_col = c.op == 0 ? 9 : 10;  // compute dtypes in first-use order
        std::size_t n = row + 1;
        for (Col col : numeric_derived) {
            INFO(header(col));
            bool present = supported || col == intensity || col == t_comms;
            if (!present) {
                CHECK(get(col).is_null());
                continue;
            }
            REQUIRE(get(col).is_object());
            CHECK(get(col).value("f", "") == expected_formula(col, n, c.target, dtype_col));
            double cached = get(col).at("v").get<double>();
            CHECK(close(cached, metric(c.metrics, col), 1e-15));
        }
        // The hand formulas of reports.md, from the hand counts.
        double bytes = h.bytes_read + h.bytes_written;
        CHECK(close(get(intensity).at("v").get<double>(), h.flops / bytes, 1e-15));
        CHECK(close(get(t_comms).at("v").get<double>(), bytes / h.bw, 1e-15));
        if (supported) {
            double tm = h.flops / h.peak, tc = bytes / h.bw;
            CHECK(close(get(t_math).at("v").get<double>(), tm, 1e-15));
            CHECK(close(get(t_lower).at("v").get<double>(), std::max(tm, tc), 1e-15));
            CHECK(close(get(t_upper).at("v").get<double>(), tm + tc, 1e-15));
            CHECK(close(get(attained).at("v").get<double>(), h.flops / std::max(tm, tc), 1e-15));
            CHECK(get(bound).value("f", "") == expected_formula(bound, n, c.target, dtype_col));
            CHECK(get(bound).at("v") == (tm >= tc ? "compute" : "memory"));
        } else {
            CHECK_FALSE(get(bound).contains("f"));
            CHECK(get(bound).at("v") == "unsupported");
        }
        double crit = r.grid.critical_value(c, 0);
        if (std::isnan(crit))
            CHECK(get(critical_B).is_null());
        else
            CHECK(get(critical_B).at("v").get<double>() == crit);
    }
}

std::vector<std::pair<std::string, std::size_t>> data_rows(json const& dump) {
    std::vector<std::pair<std::string, std::size_t>> rows;
    for (auto const& sheet : dump.at("sheets")) {
        std::string name = sheet.get<std::string>();
        if (name.rfind("Cases", 0) != 0) continue;
        auto const& cells = dump.at("cells").at(name);
        for (std::size_t r = 1; r < cells.size(); ++r)
            if (!cells[r].empty() && !cells[r][0].is_null()) rows.emplace_back(name, r);
    }
    return rows;
}

}  // namespace

TEST_CASE("xlsx: cached values are the engine's, formulas reference the Hardware sheet", "[xlsx]") {
    Sandbox dir;
    Report r(scenario_text);
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));

    CHECK(dump.at("sheets") == json({"Summary", "Steps", "Hardware", "Cases", "Charts"}));
    for (std::size_t c = 0; c < columns; ++c) CHECK(cell(dump, "Cases", 0, c).at("v") == header(c));
    REQUIRE(r.cases.size() == 12);  // 3 points x 2 matmuls x 2 targets
    check_cases_rows(r, dump, data_rows(dump));

    // Hardware: the inputs of those formulas, one row per target.
    CHECK(cell(dump, "Hardware", 0, 2).at("v") == "hbm_bandwidth (B/s)");
    // The interconnect columns (E to I), then the peaks from J.
    CHECK(cell(dump, "Hardware", 0, 4).at("v") == "ici_bandwidth (B/s)");
    CHECK(cell(dump, "Hardware", 0, 5).at("v") == "ici_wraparound");
    CHECK(cell(dump, "Hardware", 0, 6).at("v") == "nvlink_bandwidth (B/s)");
    CHECK(cell(dump, "Hardware", 0, 7).at("v") == "nvlink_domain");
    CHECK(cell(dump, "Hardware", 0, 8).at("v") == "dcn_bandwidth (B/s)");
    CHECK(cell(dump, "Hardware", 1, 4).is_null());  // fast: no ICI
    CHECK(cell(dump, "Hardware", 1, 5).is_null());
    CHECK(cell(dump, "Hardware", 1, 6).at("v").get<double>() == 4.5e11);
    CHECK(cell(dump, "Hardware", 1, 7).at("v").get<double>() == 8);
    CHECK(cell(dump, "Hardware", 1, 8).at("v").get<double>() == 5e10);
    CHECK(cell(dump, "Hardware", 2, 4).at("v").get<double>() == 4.5e10);
    CHECK(cell(dump, "Hardware", 2, 5).at("v").get<double>() == 16);
    for (std::size_t c = 6; c <= 8; ++c) CHECK(cell(dump, "Hardware", 2, c).is_null());  // old: no NVLink
    CHECK(cell(dump, "Hardware", 0, 9).at("v") == "peak bf16 (FLOP/s)");
    CHECK(cell(dump, "Hardware", 0, 10).at("v") == "peak int8 (FLOP/s)");
    CHECK(cell(dump, "Hardware", 1, 0).at("v") == "fast");
    CHECK(cell(dump, "Hardware", 1, 2).at("v").get<double>() == 1e12);
    CHECK(cell(dump, "Hardware", 1, 9).at("v").get<double>() == 1e14);
    CHECK(cell(dump, "Hardware", 1, 10).is_null());  // fast has no int8 peak
    CHECK(cell(dump, "Hardware", 1, 11).value("f", "") == "=J2/C2");
    CHECK(cell(dump, "Hardware", 1, 11).at("v").get<double>() == 100);
    CHECK(cell(dump, "Hardware", 2, 2).at("v").get<double>() == 8.2e11);
    CHECK(cell(dump, "Hardware", 2, 10).at("v").get<double>() == 3.94e14);
    CHECK(close(cell(dump, "Hardware", 2, 12).at("v").get<double>(), 3.94e14 / 8.2e11, 1e-15));

    // A sheet people can work in.
    auto const& cases = dump.at("settings").at("Cases");
    CHECK(cases.at("freeze_panes") == "A2");
    CHECK(cases.at("auto_filter") == "A1:" + table().last_letter() + "13");
    std::vector<std::string> rules;
    for (auto const& rule : cases.at("conditional_formats"))
        rules.push_back(rule.at("range").get<std::string>() + " " + rule.at("formula")[0].get<std::string>());
    // The bound column (Q) strongly coloured, the rest of the row tinted.
    std::string const Q = table().letter("bound"), P = table().letter("bound", -1),
                      R = table().letter("bound", 1), T = table().last_letter();
    CHECK_THAT(rules, Catch::Matchers::VectorContains(Q + "2:" + Q + "13 \"memory\""));
    CHECK_THAT(rules, Catch::Matchers::VectorContains(Q + "2:" + Q + "13 \"compute\""));
    CHECK_THAT(rules, Catch::Matchers::VectorContains("A2:" + P + "13 " + R + "2:" + T + "13 $" + Q +
                                                      "2=\"memory\""));
    CHECK(cell(dump, "Cases", 1, t_lower).at("fmt").get<std::string>().find("E+0\" s\"") !=
          std::string::npos);
    // FLOPs in T or G from a billion, exact below (reports.md, "Number formats").
    CHECK(cell(dump, "Cases", 1, flops).at("fmt") ==
          "[>=1E12]#,##0.00,,,,\" T\";[>=1E9]#,##0.00,,,\" G\";#,##0");

    // Charts: a log-log scatter per target, a series per matmul with cases
    // there, pointing at (intensity, attained) tables on the Charts sheet.
    auto const& charts = dump.at("charts");
    REQUIRE(charts.size() == 2);
    for (std::size_t t = 0; t < 2; ++t) {
        auto const& chart = charts[t];
        CHECK(chart.at("scatter") == true);
        CHECK(chart.at("log_axes") == 2);
        for (auto const& series : chart.at("series")) {
            auto refs = series.at("refs").get<std::vector<std::string>>();
            REQUIRE(refs.size() == 3);  // name, x, y
            std::string name = range_text(dump, refs[0]);
            if (name.rfind("roof ", 0) == 0) continue;
            std::size_t matmul = name == "blk/bf" ? 0 : 1;
            REQUIRE((name == "blk/bf" || name == "q8"));
            auto xs = range_values(dump, refs[1]), ys = range_values(dump, refs[2]);
            std::vector<engine::Case> expected;
            for (auto const& c : r.cases)
                if (c.op == matmul && c.target == t) expected.push_back(c);
            REQUIRE(xs.size() == expected.size());
            for (std::size_t i = 0; i < xs.size(); ++i) {
                CHECK(close(xs[i], expected[i].metrics.intensity, 1e-15));
                CHECK(close(ys[i], expected[i].metrics.attained, 1e-15));
            }
        }
    }
    // Chart 1 (fast): the bf16 roof and bf; q8 is unsupported there.
    CHECK(charts[0].at("series").size() == 2);
    CHECK(charts[1].at("series").size() == 4);  // roofs bf16, int8; bf; q8
}

TEST_CASE("xlsx: LibreOffice recalculates the engine's numbers, and follows an edited bandwidth",
          "[xlsx][libreoffice]") {
    Sandbox dir;
    Report r(scenario_text);
    auto path = dir / "report.xlsx";
    r.write(path);

    // Every cached result zeroed first, so that only a recalculation can
    // produce the numbers. A missing soffice fails here (the tool exits 3):
    // make test installs it.
    auto poisoned = dir / "poisoned.xlsx";
    run_tool("poison " + quoted(path) + " " + quoted(poisoned));
    auto before = run_tool("recalc " + quoted(poisoned) + " " + quoted(dir / "work"));
    auto const& rows = before.at("sheets").at("Cases");
    REQUIRE(rows.size() == r.cases.size() + 1);
    // LibreOffice writes unformatted numbers (15 significant digits), except
    // that a percentage keeps its % sign.
    auto num = [](json const& rows, std::size_t row, Col col) {
        std::string text = rows[row][col].get<std::string>();
        INFO("'" << text << "'");
        REQUIRE_FALSE(text.empty());
        return text.back() == '%' ? std::stod(text.substr(0, text.size() - 1)) / 100
                                  : std::stod(text);
    };
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        auto const& c = r.cases[i];
        INFO("case " << i);
        bool supported = c.metrics.bound != engine::Bound::unsupported;
        for (Col col : numeric_derived) {
            if (!supported && col != intensity && col != t_comms) continue;
            INFO(header(col));
            CHECK(close(num(rows, i + 1, col), metric(c.metrics, col), 1e-9));
        }
        CHECK(rows[i + 1][bound] == std::string(engine::bound_name(c.metrics.bound)));
    }

    // Halve fast's bandwidth (Hardware!C2) in a copy, recalculate.
    auto edited = dir / "edited.xlsx";
    run_tool("set " + quoted(path) + " Hardware C2 5e11 " + quoted(edited));
    auto after = run_tool("recalc " + quoted(edited) + " " + quoted(dir / "work"));
    auto const& rows2 = after.at("sheets").at("Cases");
    REQUIRE(rows2.size() == rows.size());
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        auto const& c = r.cases[i];
        double B = r.grid.sweep_value(c, 0);
        INFO("case " << i << " at B = " << B << " on " << r.target_id(c.target));
        double ratio = c.target == 0 ? 2.0 : 1.0;  // only fast's cases see the edit
        CHECK(close(num(rows2, i + 1, t_comms), num(rows, i + 1, t_comms) * ratio, 1e-12));
        if (c.metrics.bound == engine::Bound::unsupported) {
            CHECK(rows2[i + 1][bound] == "unsupported");
            continue;
        }
        CHECK(close(num(rows2, i + 1, ridge), num(rows, i + 1, ridge) * ratio, 1e-12));
        // By hand, at 5e11 B/s: t_comms = bytes / 5e11 against t_math = flops / peak.
        Hand h = by_hand(c.op, c.target, B);
        double bw = c.target == 0 ? 5e11 : 8.2e11;
        double tm = h.flops / h.peak, tc = (h.bytes_read + h.bytes_written) / bw;
        CHECK(close(num(rows2, i + 1, t_lower), std::max(tm, tc), 1e-12));
        CHECK(close(num(rows2, i + 1, t_upper), tm + tc, 1e-12));
        CHECK(close(num(rows2, i + 1, attained), h.flops / std::max(tm, tc), 1e-12));
        std::string expected_bound = tm >= tc ? "compute" : "memory";
        CHECK(rows2[i + 1][bound] == expected_bound);
        // The flip predicted in the scenario's comment.
        if (c.target == 0 && c.op == 0) {
            CHECK(rows[i + 1][bound] == (B == 64 ? "memory" : "compute"));
            CHECK(expected_bound == (B == 256 ? "compute" : "memory"));
        }
    }
}

TEST_CASE("xlsx: the same inputs give the same bytes, the cell API path gives the same cells",
          "[xlsx]") {
    Sandbox dir;
    Report r(scenario_text);
    r.write(dir / "a.xlsx");
    r.info.created_utc = "2027-01-01T00:00:00Z";  // a later run: manifest.json differs, not this
    r.write(dir / "b.xlsx");
    auto a = read_file(dir / "a.xlsx"), b = read_file(dir / "b.xlsx");
    REQUIRE(a.size() > 1000);
    CHECK(a == b);

    report::XlsxOptions api;
    api.direct_rows = false;
    r.write(dir / "api.xlsx", api);
    auto direct = run_tool("dump " + quoted(dir / "a.xlsx"));
    auto reference = run_tool("dump " + quoted(dir / "api.xlsx"));
    CHECK(reference.at("sheets") == direct.at("sheets"));
    check_cases_rows(r, reference, data_rows(reference));
    auto const& x = direct.at("cells").at("Cases");
    auto const& y = reference.at("cells").at("Cases");
    REQUIRE(x.size() == y.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t c = 0; c < columns; ++c) {
            INFO("row " << i + 1 << " column " << c);
            auto const& p = x[i][c];
            auto const& q = y[i][c];
            REQUIRE(p.is_null() == q.is_null());
            if (p.is_null()) continue;
            CHECK(p.value("f", "") == q.value("f", ""));
            CHECK(p.at("fmt") == q.at("fmt"));
            if (p.at("v").is_number())  // the API writes 16 significant digits
                CHECK(close(p.at("v").get<double>(), q.at("v").get<double>(), 1e-15));
            else
                CHECK(p.at("v") == q.at("v"));
        }
}

TEST_CASE("xlsx: names from the scenario are text, never formulas", "[xlsx]") {
    Sandbox dir;
    // The language's names are identifiers; the writer must not rely on it.
    std::string const evil = "=cmd|'/c calc'!A1", layer = "+1 <b> & \"c\" _x0041_ \x01";
    Report r(scenario_text, [&](model::Scenario& s) {
        s.ops[1].name = evil;
        s.ops[0].layer = layer;
    });
    for (bool direct : {true, false}) {
        INFO("direct rows: " << direct);
        report::XlsxOptions options;
        options.direct_rows = direct;
        auto path = dir / (direct ? "direct.xlsx" : "api.xlsx");
        r.write(path, options);
        auto dump = run_tool("dump " + quoted(path));
        auto text_at = [&](std::string const& sheet, std::size_t row, std::size_t col) {
            auto const& c = cell(dump, sheet, row, col);
            REQUIRE(c.is_object());
            CHECK_FALSE(c.contains("f"));
            return c.at("v").get<std::string>();
        };
        CHECK(text_at("Summary", 0, 0) == "=1+1");                   // the title
        CHECK(text_at("Hardware", 1, 1) == "=cmd|'/c calc'!A1");     // a display name
        CHECK(text_at("Hardware", 1, header_column(dump, "Hardware", "source")) == "+1");  // a source
        bool seen_evil = false, seen_layer = false;
        for (auto const& [sheet, row] : data_rows(dump)) {
            std::string name = text_at(sheet, row, op);
            seen_evil = seen_evil || name == evil;
            if (name == "bf") seen_layer = text_at(sheet, row, table().at("layer")) == layer;
        }
        CHECK(seen_evil);
        CHECK(seen_layer);
        // Charts name their series through text cells as well.
        bool series_named = false;
        for (auto const& chart : dump.at("charts"))
            for (auto const& series : chart.at("series"))
                series_named = series_named || range_text(dump, series.at("refs")[0]) == evil;
        CHECK(series_named);
    }
}

TEST_CASE("xlsx: Cases continue on 'Cases (2)', 'Cases (3)' past the row limit", "[xlsx]") {
    Sandbox dir;
    Report r(scenario_text);
    for (bool direct : {true, false}) {
        INFO("direct rows: " << direct);
        report::XlsxOptions options;
        options.rows_per_cases_sheet = 5;
        options.direct_rows = direct;
        auto path = dir / "report.xlsx";
        r.write(path, options);
        auto dump = run_tool("dump " + quoted(path));
        CHECK(dump.at("sheets") ==
              json({"Summary", "Steps", "Hardware", "Cases", "Cases (2)", "Cases (3)", "Charts"}));
        auto rows = data_rows(dump);
        REQUIRE(rows.size() == 12);  // 5 + 5 + 2: nothing dropped
        CHECK(rows[4] == std::pair<std::string, std::size_t>("Cases", 5));
        CHECK(rows[5] == std::pair<std::string, std::size_t>("Cases (2)", 1));
        CHECK(rows[11] == std::pair<std::string, std::size_t>("Cases (3)", 2));
        check_cases_rows(r, dump, rows);  // formulas use each sheet's own row numbers
        for (std::string sheet : {"Cases", "Cases (2)", "Cases (3)"}) {
            INFO(sheet);
            for (std::size_t c = 0; c < columns; ++c)
                CHECK(cell(dump, sheet, 0, c).at("v") == header(c));
            auto const& settings = dump.at("settings").at(sheet);
            CHECK(settings.at("freeze_panes") == "A2");
            CHECK(settings.at("auto_filter") == "A1:" + table().last_letter() + (sheet == "Cases (3)" ? "3" : "6"));
        }
    }
}

TEST_CASE("xlsx: Summary tables by hand", "[xlsx]") {
    Sandbox dir;
    Report r(scenario_text);
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    auto const& rows = dump.at("cells").at("Summary");
    auto find = [&](std::string const& first) {
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (!rows[i].empty() && rows[i][0].is_object() && rows[i][0].at("v") == first) return i;
        FAIL("no Summary row starting with " << first);
        return std::size_t(0);
    };
    CHECK(rows[find("report")][1].at("v") == "xlsx-test v2");
    // No creation time: two runs of the same inputs must give the same bytes.
    for (auto const& row : rows)
        for (auto const& c : row)
            if (c.is_object() && c.at("v").is_string())
                CHECK(c.at("v").get<std::string>().find("2026-11-30") == std::string::npos);
    CHECK(rows[find("inputs SHA-256")][1].at("v") == std::string(64, 'c'));

    // Per target and matmul: bf on fast is memory-bound at B = 64 and
    // compute-bound at 256; its critical B is the smallest B with
    // 4096 B / (2 B + 4096) >= 100, i.e. 3896 B >= 409600: B = 106.
    std::size_t header = find("op");
    CHECK(rows[header][4].at("v") == "critical_B");
    CHECK(rows[header][5].at("v") == "bound at B = 64");
    CHECK(rows[header][6].at("v") == "bound at B = 256");
    auto const& bf_fast = rows[header + 1];  // targets outer, matmuls inner
    CHECK(bf_fast[0].at("v") == "bf");
    CHECK(bf_fast[2].at("v") == "fast");
    CHECK(bf_fast[4].at("v").get<double>() == 106);
    CHECK(bf_fast[5].at("v") == "memory");
    CHECK(bf_fast[6].at("v") == "compute");
    auto const& q8_fast = rows[header + 2];
    CHECK(q8_fast[0].at("v") == "q8");
    CHECK(q8_fast[5].at("v") == "unsupported");

    // Whole scenario, fast, at B = 64: only bf counts (q8 unsupported), twice
    // (layer blk x 2); memory-bound, so t_lower = bytes / bandwidth.
    Hand h = by_hand(0, 0, 64);
    double expected = 2 * (h.bytes_read + h.bytes_written) / 1e12;
    std::size_t whole = find("Whole scenario: sum of count x time over supported cases");
    // A note (the cells are the Steps sheet's), the header, the rows.
    CHECK(rows[whole + 1][0].at("v") == "The Steps sheet's rows of each target at these points.");
    CHECK(rows[whole + 2][1].at("v") == "t_lower at B = 64");
    CHECK(rows[whole + 3][0].at("v") == "fast");
    CHECK(rows[whole + 3][1].at("f") == "=Steps!$C$3");
    CHECK(close(rows[whole + 3][1].at("v").get<double>(), expected, 1e-15));
    // Per layer: blk on fast at B = 64, the same number.
    std::size_t per_layer = find("layer");
    CHECK(rows[per_layer + 1][0].at("v") == "blk");
    CHECK(rows[per_layer + 1][1].at("v") == "fast");
    CHECK(close(rows[per_layer + 1][2].at("v").get<double>(), expected, 1e-15));
}

TEST_CASE("xlsx: chart series sample the sweep evenly", "[xlsx]") {
    Sandbox dir;
    // 9 points, 3 per series: points 0, 4 and 8 (B = 1, 5, 9).
    Report r(R"(
hardware hw { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
target hw
sweep B = 1 .. 9
let D = 64
let D2 = 64
matmul m = bf16[B, D] * bf16[D, D2] -> bf16[B, D2]
)");
    report::XlsxOptions options;
    options.chart_points_per_series = 3;
    auto path = dir / "report.xlsx";
    r.write(path, options);
    auto dump = run_tool("dump " + quoted(path));
    REQUIRE(dump.at("charts").size() == 1);
    auto const& series = dump.at("charts")[0].at("series");
    REQUIRE(series.size() == 2);  // roof bf16, m
    CHECK(range_text(dump, series[0].at("refs")[0]) == "roof bf16");
    // The roof: the bandwidth slope to the ridge (100, 1e14), then flat.
    auto roof_x = range_values(dump, series[0].at("refs")[1]);
    auto roof_y = range_values(dump, series[0].at("refs")[2]);
    REQUIRE(roof_x.size() == 3);
    CHECK(close(roof_y[0], roof_x[0] * 1e12, 1e-15));
    CHECK(roof_x[1] == 100);
    CHECK(roof_y[1] == 1e14);
    CHECK(roof_y[2] == 1e14);
    auto xs = range_values(dump, series[1].at("refs")[1]);
    REQUIRE(xs.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        double B = 1 + 4.0 * static_cast<double>(i);
        // bf16: 2 x B x 64 x 64 FLOPs over 2 (64 B + 64 x 64 + 64 B) bytes.
        CHECK(close(xs[i], (2 * B * 64 * 64) / (2 * (64 * B + 64 * 64 + 64 * B)), 1e-15));
    }
}

TEST_CASE("xlsx: errors", "[xlsx]") {
    Sandbox dir;
    Report r(scenario_text);
    report::ReportContext context{r.checked->scenario, r.grid, r.info};
    // The temporary files go beside the output: a missing folder fails at once.
    auto missing = dir / "no" / "such" / "report.xlsx";
    try {
        report::XlsxWriter writer(missing.string(), context);
        FAIL("no error");
    } catch (report::WriteError const& e) {
        CHECK_THAT(e.what(), Catch::Matchers::Contains(missing.string()));
    }
    // Unfinished: the destructor closes the file and does not throw.
    {
        report::XlsxWriter writer((dir / "partial.xlsx").string(), context);
        bool first = true;
        engine::stream_cases(r.checked->scenario, r.grid, r.checked->diagnostics,
                             [&](engine::Case const& c) {
                                 if (first) writer.add(c);
                                 first = false;
                             });
    }
    CHECK(fs::exists(dir / "partial.xlsx"));
    // More cases than the grid holds is a caller's bug.
    {
        report::XlsxWriter writer((dir / "extra.xlsx").string(), context);
        std::vector<engine::Case> all;
        engine::stream_cases(r.checked->scenario, r.grid, r.checked->diagnostics,
                             [&](engine::Case const& c) { all.push_back(c); });
        for (auto const& c : all) writer.add(c);
        CHECK_THROWS_AS(writer.add(all.front()), std::logic_error);
    }
}

TEST_CASE("xlsx: chart axes from the positive data and the roof, an op of 0 FLOPs is a note",
          "[xlsx]") {
    Sandbox dir;
    // gather has 0 FLOPs: intensity and attained 0, which a log axis cannot
    // show. m, by hand: 2 B 64^2 FLOPs over 2 (64 B + 64^2 + 64 B) bytes,
    // intensity 8192 / 8448 = 0.970 at B = 1 and 524288 / 24576 = 21.3 at
    // B = 64; memory-bound at 1e12 B/s (ridge 1e14 / 1e12 = 100).
    Report r(R"(
hardware hw { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
target hw
sweep B = [1, 64]
let D = 64
let F = 64
elementwise gather = bf16[B, D] -> bf16[B, D] flops 0
matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]
)",
             [](model::Scenario& s) { s.ops[0].name = "=HYPERLINK(\"http://x\",\"gather\")"; });
    auto path = dir / "report.xlsx";
    r.write(path);
    auto dump = run_tool("dump " + quoted(path));
    REQUIRE(dump.at("charts").size() == 1);
    auto const& chart = dump.at("charts")[0];
    // Decades around the data and the roof: x from the decade below 0.970
    // (0.1) to the one above 4 x the ridge (400: 1000); y from the decade
    // below the roof at x = 0.1 (1e12 x 0.1 = 1e11, under m's 9.70e11) to
    // the one above the peak (1e15).
    REQUIRE(chart.at("axis_min").size() == 2);
    CHECK(close(chart.at("axis_min")[0].get<double>(), 0.1, 1e-12));
    CHECK(close(chart.at("axis_min")[1].get<double>(), 1e11, 1e-12));
    CHECK(close(chart.at("axis_max")[0].get<double>(), 1000, 1e-12));
    CHECK(close(chart.at("axis_max")[1].get<double>(), 1e15, 1e-12));
    // Plain numbers on x, powers of ten on y: no SI prefix to misread.
    CHECK(chart.at("axis_formats") == json({"General", "0E+00"}));
    // The roof and m; no series for the op that has no point.
    auto const& series = chart.at("series");
    REQUIRE(series.size() == 2);
    CHECK(range_text(dump, series[0].at("refs")[0]) == "roof bf16");
    CHECK(range_text(dump, series[1].at("refs")[0]) == "m");
    for (auto const& s : series)
        for (double v : range_values(dump, s.at("refs")[1])) CHECK(v > 0);
    // Under the chart (rows 3 .. 34 are its 32), the note: text, never a
    // formula.
    auto const& note = cell(dump, "Charts", 34, 0);
    CHECK(note.at("v") ==
          "not on a log axis: =HYPERLINK(\"http://x\",\"gather\") (0 FLOPs)");
    CHECK(note.value("f", "").empty());
}
