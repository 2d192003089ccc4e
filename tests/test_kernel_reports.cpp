// The report outputs of kernels and the on-chip level (docs/fusion.md
// sections 1 and 3): kernels.csv and the Kernels sheet list each member of a
// kernel case, and their figures add up to the case's; t_onchip in Cases is
// a formula over the Hardware sheet that LibreOffice recalculates, and a
// value 0 on a chip without an onchip_bandwidth. Every expected number is
// worked out by hand from the shapes below.
#include "published.hpp"
#include "xlsx_support.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::test::xlsx;

namespace {

// `chip` has an on-chip level of 2e12 B/s, `bare` none (its on-chip traffic
// is free). KV = 2, G = 2, Hd = 64, bf16 (2 bytes); T = S; K and V are read
// ceil(T / 128) times.
constexpr char const* kernel_text = R"(scenario "kernels"
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 2e12 B/s }
hardware bare { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }
target chip
target bare
let KV = 2
let G = 2
let Hd = 64
let D = 256
let F = 256
sweep T = [128, 256]
let S = T
kernel attention {
    matmul scores = bf16[T, KV, G, Hd] * cache bf16[S, KV, Hd] x ceil(T / 128) -> onchip bf16[KV, G, T, S]
    elementwise softmax = onchip bf16[KV, G, T, S] -> onchip bf16[KV, G, T, S] flops 5
    matmul values = onchip bf16[KV, G, T, S] * cache bf16[S, KV, Hd] x ceil(T / 128) -> bf16[T, KV, G, Hd]
}
matmul proj = bf16[T, D] * weight bf16[D, F] -> bf16[T, F]
)";

constexpr char const* plain_text = R"(scenario "plain"
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  onchip_bandwidth = 2e12 B/s }
target chip
let D = 512
let F = 512
sweep B = [1, 64]
matmul up = bf16[B, D] * weight onchip bf16[D, F] -> bf16[B, F]
)";

// One member's counts at T, by hand.
struct Member {
    std::string name, kind;
    double flops, bytes_read, bytes_written, bytes_onchip;
};

std::vector<Member> members_at(double T) {
    double const KV = 2, G = 2, Hd = 64, S = T, reads = T <= 128 ? 1 : 2;
    double const q = T * KV * G * Hd * 2;     // bytes of the queries, and of the output
    double const kv = S * KV * Hd * 2;        // bytes of K (and of V), once
    double const scores = KV * G * T * S * 2;  // bytes of the scores on chip
    double const matmul_flops = 2 * T * KV * G * Hd * S;
    return {
        {"scores", "matmul", matmul_flops, q + reads * kv, 0, scores},
        {"softmax", "elementwise", 5 * KV * G * T * S, 0, 0, 2 * scores},
        {"values", "matmul", matmul_flops, reads * kv, q, scores},
    };
}

// The sums, also written out for T = 128 as a check of members_at itself.
Member kernel_at(double T) {
    Member k{"attention", "kernel", 0, 0, 0, 0};
    for (auto const& m : members_at(T)) {
        k.flops += m.flops, k.bytes_read += m.bytes_read;
        k.bytes_written += m.bytes_written, k.bytes_onchip += m.bytes_onchip;
    }
    return k;
}

// RFC 4180 without quoted fields (none of these names needs quotes).
std::vector<std::map<std::string, std::string>> read_csv(std::filesystem::path const& path) {
    std::istringstream in(read_file(path));
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        REQUIRE(!line.empty());
        REQUIRE(line.back() == '\r');
        line.pop_back();
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string f; std::getline(split, f, ',');) fields.push_back(f);
        if (line.back() == ',') fields.emplace_back();
        if (header.empty()) {
            header = fields;
            continue;
        }
        REQUIRE(fields.size() == header.size());
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < fields.size(); ++i) row[header[i]] = fields[i];
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> csv_header(std::filesystem::path const& path) {
    std::string text = read_file(path);
    std::string line = text.substr(0, text.find("\r\n"));
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string f; std::getline(split, f, ',');) fields.push_back(f);
    return fields;
}

double number(std::map<std::string, std::string> const& row, std::string const& column) {
    INFO(column);
    REQUIRE(row.count(column));
    REQUIRE_FALSE(row.at(column).empty());
    return std::stod(row.at(column));
}

// The column (0-based) of a header in row 0 of a dumped sheet.
std::size_t column_of(json const& dump, std::string const& sheet, std::string const& header) {
    auto const& row = dump.at("cells").at(sheet).at(0);
    for (std::size_t i = 0; i < row.size(); ++i)
        if (!row[i].is_null() && row[i].at("v") == header) return i;
    FAIL("no column " << header << " in " << sheet);
    return 0;
}

}  // namespace

TEST_CASE("kernels: the hand counts add up as the contract says", "[kernels]") {
    // T = 128: scores 2·128·2·2·64·128 FLOPs, softmax 5 per score.
    auto k = kernel_at(128);
    CHECK(k.flops == 8388608.0 * 2 + 327680);
    CHECK(k.bytes_read == 65536 + 32768 + 32768);
    CHECK(k.bytes_written == 65536);
    CHECK(k.bytes_onchip == 131072 + 262144 + 131072);
}

TEST_CASE("kernels: run writes kernels.csv, one row per kernel case and member, that add up to "
          "the case",
          "[kernels][run]") {
    Sandbox box;
    test::write_file(box / "kernels.roof", kernel_text);
    auto run = test::run_roofline(box.path, "run kernels.roof --no-charts");
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto version = box / "out" / "kernels" / "v1";
    test::check_complete(version);
    auto manifest = json::parse(read_file(version / "manifest.json"));
    bool listed = false;
    for (auto const& output : manifest["outputs"]) listed = listed || output["path"] == "kernels.csv";
    CHECK(listed);

    CHECK(csv_header(version / "kernels.csv") ==
          std::vector<std::string>{"kernel", "layer", "hardware", "compute_dtype", "T", "member",
                                   "kind", "repeat", "flops", "bytes_read", "bytes_written",
                                   "bytes_onchip", "t_math", "t_comms", "t_onchip", "t_expected", "flops_share"});
    auto rows = read_csv(version / "kernels.csv");
    // 2 points x 2 targets x 3 members, in the order of the cases.
    REQUIRE(rows.size() == 12);
    auto cases = read_csv(version / "cases.csv");
    REQUIRE(cases.size() == 2 * 2 * 2);  // attention and proj, at 2 points, on 2 chips
    std::size_t r = 0;
    for (double T : {128.0, 256.0})
        for (std::string hw : {"chip", "bare"}) {
            INFO("T = " << T << " on " << hw);
            double const onchip_bw = hw == "chip" ? 2e12 : 0;
            Member sum{"", "", 0, 0, 0, 0};
            double t_math = 0, t_comms = 0, t_onchip = 0, share = 0;
            auto const expected = members_at(T);
            auto const k = kernel_at(T);
            for (auto const& m : expected) {
                auto const& row = rows[r++];
                INFO(m.name);
                CHECK(row.at("kernel") == "attention");
                CHECK(row.at("layer").empty());
                CHECK(row.at("hardware") == hw);
                CHECK(row.at("compute_dtype") == "bf16");
                CHECK(number(row, "T") == T);
                CHECK(row.at("member") == m.name);
                CHECK(row.at("kind") == m.kind);
                CHECK(number(row, "repeat") == 1);
                CHECK(number(row, "flops") == m.flops);
                CHECK(number(row, "bytes_read") == m.bytes_read);
                CHECK(number(row, "bytes_written") == m.bytes_written);
                CHECK(number(row, "bytes_onchip") == m.bytes_onchip);
                CHECK_THAT(number(row, "t_math"), Catch::Matchers::WithinRel(m.flops / 1e15, 1e-12));
                CHECK_THAT(number(row, "t_comms"),
                           Catch::Matchers::WithinRel((m.bytes_read + m.bytes_written) / 1e12, 1e-12));
                if (onchip_bw > 0)
                    CHECK_THAT(number(row, "t_onchip"),
                               Catch::Matchers::WithinRel(m.bytes_onchip / onchip_bw, 1e-12));
                else
                    CHECK(number(row, "t_onchip") == 0);
                CHECK_THAT(number(row, "flops_share"), Catch::Matchers::WithinRel(m.flops / k.flops, 1e-12));
                sum.flops += number(row, "flops"), sum.bytes_read += number(row, "bytes_read");
                sum.bytes_written += number(row, "bytes_written");
                sum.bytes_onchip += number(row, "bytes_onchip");
                t_math += number(row, "t_math"), t_comms += number(row, "t_comms");
                t_onchip += number(row, "t_onchip"), share += number(row, "flops_share");
            }
            // The members' sums are the kernel's case, in cases.csv too.
            CHECK(sum.flops == k.flops);
            CHECK(sum.bytes_read == k.bytes_read);
            CHECK(sum.bytes_written == k.bytes_written);
            CHECK(sum.bytes_onchip == k.bytes_onchip);
            CHECK_THAT(share, Catch::Matchers::WithinRel(1.0, 1e-12));
            std::map<std::string, std::string> const* kernel_case = nullptr;
            for (auto const& c : cases)
                if (c.at("op") == "attention" && c.at("hardware") == hw && number(c, "T") == T)
                    kernel_case = &c;
            REQUIRE(kernel_case);
            CHECK(number(*kernel_case, "flops") == k.flops);
            CHECK(number(*kernel_case, "bytes_read") == k.bytes_read);
            CHECK(number(*kernel_case, "bytes_written") == k.bytes_written);
            CHECK(number(*kernel_case, "bytes_onchip") == k.bytes_onchip);
            CHECK_THAT(number(*kernel_case, "t_math"), Catch::Matchers::WithinRel(t_math, 1e-12));
            CHECK_THAT(number(*kernel_case, "t_comms"), Catch::Matchers::WithinRel(t_comms, 1e-12));
            if (onchip_bw > 0) {
                CHECK_THAT(number(*kernel_case, "t_onchip"), Catch::Matchers::WithinRel(t_onchip, 1e-12));
                // 2.6e-7 s on chip against 2.0e-7 s of HBM at T = 128.
                CHECK(kernel_case->at("bound") == "onchip");
            } else {
                CHECK(number(*kernel_case, "t_onchip") == 0);
                CHECK(kernel_case->at("bound") == "memory");
            }
        }
    // The terminal names the kernel's bound as the CSV does.
    CHECK(test::contains(run.out, "onchip"));
}

TEST_CASE("kernels: no kernel, no kernels.csv and no Kernels sheet", "[kernels][run]") {
    Sandbox box;
    test::write_file(box / "plain.roof", plain_text);
    auto run = test::run_roofline(box.path, "run plain.roof --no-charts");
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto version = box / "out" / "plain" / "v1";
    CHECK_FALSE(std::filesystem::exists(version / "kernels.csv"));
    auto dump = run_tool("dump " + quoted(version / "report.xlsx"));
    auto const& sheets = dump.at("sheets");
    CHECK(std::find(sheets.begin(), sheets.end(), "Kernels") == sheets.end());
    CHECK(std::find(sheets.begin(), sheets.end(), "Cases") != sheets.end());
}

TEST_CASE("kernels: the Kernels sheet lists the members, t_onchip is a formula where the chip has "
          "an onchip_bandwidth and 0 where it has none",
          "[kernels][xlsx]") {
    Sandbox dir;
    Report r(kernel_text);
    r.write(dir / "report.xlsx");
    auto dump = run_tool("dump " + quoted(dir / "report.xlsx"));
    auto const& sheets = dump.at("sheets");
    // After the Cases, before the Charts.
    auto at = [&](std::string const& name) {
        return std::find(sheets.begin(), sheets.end(), name) - sheets.begin();
    };
    REQUIRE(at("Kernels") < static_cast<long>(sheets.size()));
    CHECK(at("Cases") < at("Kernels"));
    CHECK(at("Kernels") < at("Charts"));

    auto const& kernels = dump.at("cells").at("Kernels");
    REQUIRE(kernels.size() == 1 + 12);
    std::size_t const member = column_of(dump, "Kernels", "member");
    std::size_t const flops = column_of(dump, "Kernels", "flops");
    std::size_t const t_onchip_k = column_of(dump, "Kernels", "t_onchip");
    std::size_t const t_math_k = column_of(dump, "Kernels", "t_math");
    std::size_t row = 1;
    for (double T : {128.0, 256.0})
        for (int t = 0; t < 2; ++t)
            for (auto const& m : members_at(T)) {
                INFO("T = " << T << ", target " << t << ", " << m.name);
                auto const& cells = kernels.at(row++);
                CHECK(cells.at(member).at("v") == m.name);
                CHECK(cells.at(flops).at("v").get<double>() == m.flops);
                CHECK(cells.at(t_math_k).at("f").get<std::string>().find("Hardware!") != std::string::npos);
                if (t == 0) {
                    CHECK(cells.at(t_onchip_k).contains("f"));
                    CHECK_THAT(cells.at(t_onchip_k).at("v").get<double>(),
                               Catch::Matchers::WithinRel(m.bytes_onchip / 2e12, 1e-12));
                } else {
                    CHECK_FALSE(cells.at(t_onchip_k).contains("f"));
                    CHECK(cells.at(t_onchip_k).at("v").get<double>() == 0);
                }
            }

    // Cases: t_onchip as a formula on chip, the value 0 on bare.
    std::size_t const t_onchip = column_of(dump, "Cases", "t_onchip");
    auto const& cases = dump.at("cells").at("Cases");
    REQUIRE(cases.size() == 1 + r.cases.size());
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        auto const& c = r.cases[i];
        INFO("case " << i);
        auto const& cell = cases.at(i + 1).at(t_onchip);
        if (c.target == 0) {
            CHECK(cell.at("f").get<std::string>().find("Hardware!") != std::string::npos);
        } else {
            CHECK_FALSE(cell.contains("f"));
            CHECK(cell.at("v").get<double>() == 0);
        }
    }
    // The bound's colours cover the on-chip level.
    bool onchip_rule = false;
    for (auto const& rule : dump.at("settings").at("Cases").at("conditional_formats"))
        for (auto const& f : rule.at("formula"))
            onchip_rule = onchip_rule || f.get<std::string>().find("\"onchip\"") != std::string::npos;
    CHECK(onchip_rule);
}

TEST_CASE("kernels: LibreOffice recalculates t_onchip, t_lower and bound in Cases and the members' "
          "t_onchip in Kernels",
          "[kernels][xlsx][libreoffice]") {
    Sandbox dir;
    Report r(kernel_text);
    auto path = dir / "report.xlsx";
    r.write(path);
    auto columns = run_tool("dump " + quoted(path));
    std::size_t const t_onchip = column_of(columns, "Cases", "t_onchip");
    std::size_t const t_lower = column_of(columns, "Cases", "t_lower");
    std::size_t const bound = column_of(columns, "Cases", "bound");
    std::size_t const t_onchip_k = column_of(columns, "Kernels", "t_onchip");
    std::size_t const member = column_of(columns, "Kernels", "member");

    auto poisoned = dir / "poisoned.xlsx";
    run_tool("poison " + quoted(path) + " " + quoted(poisoned));
    auto recalculated = run_tool("recalc " + quoted(poisoned) + " " + quoted(dir / "work"));
    auto const& rows = recalculated.at("sheets").at("Cases");
    REQUIRE(rows.size() == r.cases.size() + 1);
    auto num = [](json const& rows, std::size_t row, std::size_t col) {
        std::string text = rows[row][col].get<std::string>();
        INFO("'" << text << "'");
        REQUIRE_FALSE(text.empty());
        return std::stod(text);
    };
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        auto const& c = r.cases[i];
        if (r.scenario().ops[c.op].name != "attention") continue;
        double const T = r.grid.sweep_value(c, 0);
        INFO("T = " << T << " on target " << c.target);
        auto const k = kernel_at(T);
        double const tm = k.flops / 1e15, tc = (k.bytes_read + k.bytes_written) / 1e12;
        double const to = c.target == 0 ? k.bytes_onchip / 2e12 : 0;
        CHECK(close(num(rows, i + 1, t_onchip), to, 1e-12));
        CHECK(close(num(rows, i + 1, t_lower), std::max({tm, tc, to}), 1e-12));
        CHECK(rows[i + 1][bound] == (c.target == 0 ? "onchip" : "memory"));
    }
    auto const& kernels = recalculated.at("sheets").at("Kernels");
    REQUIRE(kernels.size() == 1 + 12);
    std::size_t row = 1;
    for (double T : {128.0, 256.0})
        for (int t = 0; t < 2; ++t)
            for (auto const& m : members_at(T)) {
                INFO("T = " << T << ", target " << t << ", " << m.name);
                CHECK(kernels[row][member] == m.name);
                CHECK(close(num(kernels, row, t_onchip_k), t == 0 ? m.bytes_onchip / 2e12 : 0, 1e-12));
                ++row;
            }
}
