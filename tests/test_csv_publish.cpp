// cases.csv formatting and the publishing rules of versioned report folders.
#include "columns.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "output/csv_rows.hpp"
#include "roofline/report/csv_writer.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

// "v<N>". Appended, not "v" + std::to_string(n): GCC 12 at -O3 gives a false
// -Wrestrict for a string literal + a temporary std::string.
std::string version_name(int n) { return std::string("v").append(std::to_string(n)); }

std::string csv_of(std::string const& text) {
    auto checked = test::check_text(text);
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    report::ReportInfo info;
    report::ReportContext context{checked->scenario, *grid, info};
    char* data = nullptr;
    std::size_t size = 0;
    std::FILE* out = open_memstream(&data, &size);
    {
        report::CsvWriter csv(out, context);
        REQUIRE(engine::stream_cases(checked->scenario, *grid, checked->diagnostics,
                                     [&](engine::Case const& c) { csv.add(c); }));
        csv.flush();
    }
    std::fclose(out);
    std::string result(data, size);
    std::free(data);
    return result;
}

// cases.csv's rows by the header's names, and whether the header is the
// table's (case_columns.hpp): a test names the fields it checks, so that a
// new column breaks nothing here. (Fields without quotes: these rows have none.)
std::vector<std::map<std::string, std::string>> csv_rows(std::string const& csv, std::string const& text) {
    std::vector<std::vector<std::string>> lines;
    for (std::size_t at = 0; at < csv.size();) {
        std::size_t end = csv.find("\r\n", at);
        std::string const line = csv.substr(at, end - at);
        auto& fields = lines.emplace_back();
        for (std::size_t from = 0;;) {
            std::size_t comma = line.find(',', from);
            fields.push_back(line.substr(from, comma - from));
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
        at = end + 2;
    }
    REQUIRE_FALSE(lines.empty());
    auto checked = test::check_text(text);
    CHECK(lines[0] == test::CasesColumns(checked->scenario).headers());
    std::vector<std::map<std::string, std::string>> rows;
    for (std::size_t r = 1; r < lines.size(); ++r) {
        REQUIRE(lines[r].size() == lines[0].size());
        auto& row = rows.emplace_back();
        for (std::size_t c = 0; c < lines[0].size(); ++c) row[lines[0][c]] = lines[r][c];
    }
    return rows;
}

}  // namespace

TEST_CASE("cases.csv: header and one row, every number worked out by hand", "[csv]") {
    std::string const text = R"(
        hardware v5e { hbm_bandwidth = 8.2e11 B/s  peak int8 = 3.94e14 OP/s }
        let D = 4096
        let F = 4096
        sweep B = [256]
        matmul m = int8[B, D] * int8[D, F] -> int8[B, F])";
    auto const rows = csv_rows(csv_of(text), text);
    // flops 2*256*4096^2; bytes 256*4096 + 4096^2 and 256*4096; intensity 4096/9;
    // ridge 3.94e14/8.2e11; t_math 8589934592/3.94e14; t_comms 18874368/8.2e11 (memory-bound);
    // attained 8589934592/t_comms; critical B 273. Shortest round-trip text of each double.
    REQUIRE(rows.size() == 1);
    std::map<std::string, std::string> const expected = {
        {"op", "m"}, {"layer", ""}, {"count", "1"}, {"hardware", "v5e"}, {"compute_dtype", "int8"},
        {"B", "256"}, {"flops", "8589934592"}, {"bytes_read", "17825792"}, {"bytes_written", "1048576"},
        {"intensity", "455.1111111111111"}, {"peak", "3.94e+14"}, {"ridge", "480.4878048780488"},
        {"t_math", "2.1801864446700508e-05"}, {"t_comms", "2.3017521951219513e-05"},
        {"t_lower", "2.3017521951219513e-05"}, {"t_upper", "4.481938639792002e-05"},
        {"bound", "memory"}, {"attained", "373191111111111.1"},
        {"peak_fraction", "0.9471855611957135"}, {"critical_B", "273"}};
    for (auto const& [name, value] : expected) {
        INFO(name);
        REQUIRE(rows[0].count(name) == 1);
        CHECK(rows[0].at(name) == value);
    }
}

TEST_CASE("cases.csv: unsupported cases and missing critical values are empty fields", "[csv]") {
    std::string const text = R"(
        hardware h { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
        sweep B = [2]
        matmul q = fp8[B] * fp8[B] -> fp8[])";
    auto const rows = csv_rows(csv_of(text), text);
    // flops 2*2 = 4; bytes 2 + 2 read, 1 written; intensity 4/5; t_comms 5/1e12.
    REQUIRE(rows.size() == 1);
    std::map<std::string, std::string> const expected = {
        {"op", "q"}, {"layer", ""}, {"count", "1"}, {"hardware", "h"}, {"compute_dtype", "fp8"},
        {"B", "2"}, {"flops", "4"}, {"bytes_read", "4"}, {"bytes_written", "1"}, {"intensity", "0.8"},
        {"peak", ""}, {"ridge", ""}, {"t_math", ""}, {"t_comms", "5e-12"}, {"t_lower", ""},
        {"t_upper", ""}, {"bound", "unsupported"}, {"attained", ""}, {"peak_fraction", ""},
        {"critical_B", ""}};
    for (auto const& [name, value] : expected) {
        INFO(name);
        REQUIRE(rows[0].count(name) == 1);
        CHECK(rows[0].at(name) == value);
    }
}

TEST_CASE("cases.csv: RFC 4180 quoting, formula-like text is quoted", "[csv]") {
    CHECK(output::csv_field("plain") == "plain");
    CHECK(output::csv_field("") == "");
    CHECK(output::csv_field("a,b") == "\"a,b\"");
    CHECK(output::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(output::csv_field("two\nlines") == "\"two\nlines\"");
    CHECK(output::csv_field("=cmd|'/c calc'!A1") == "\"=cmd|'/c calc'!A1\"");
    CHECK(output::csv_field("+1") == "\"+1\"");
    CHECK(output::csv_field("-1") == "\"-1\"");
    CHECK(output::csv_field("@SUM(A1)") == "\"@SUM(A1)\"");
}

TEST_CASE("sha256 of known texts", "[publish]") {
    // FIPS 180-2 test vectors.
    CHECK(output::sha256_hex("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(output::sha256_hex("") ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("publish: versions count up, latest follows, nothing partial is visible", "[publish]") {
    test::Sandbox out;
    for (int expected = 1; expected <= 3; ++expected) {
        report::Publisher publisher(out.path.string(), "demo");
        CHECK(publisher.reserve() == expected);
        auto temp = fs::path(publisher.temp_dir());
        CHECK(temp.filename().string().rfind(".tmp-", 0) == 0);  // hidden while written
        std::ofstream(temp / "cases.csv") << "x\n";
        CHECK_FALSE(fs::exists(out / "demo" / version_name(expected)));
        auto published = publisher.commit();
        CHECK(published == (out / "demo" / version_name(expected)).string());
        CHECK(fs::read_symlink(out / "demo" / "latest") == fs::path(version_name(expected)));
        CHECK(publisher.latest_version() == expected);
    }
    // Only v1..v3, latest, and the lock file remain.
    std::set<std::string> names;
    for (auto const& entry : fs::directory_iterator(out / "demo"))
        names.insert(entry.path().filename().string());
    CHECK(names == std::set<std::string>{".lock", "latest", "v1", "v2", "v3"});
}

TEST_CASE("publish: an abandoned or destroyed reservation leaves nothing", "[publish]") {
    test::Sandbox out;
    {
        report::Publisher publisher(out.path.string(), "demo");
        publisher.reserve();
        std::ofstream(fs::path(publisher.temp_dir()) / "half.csv") << "x";
        // a failure: the publisher goes away without commit
    }
    std::set<std::string> names;
    for (auto const& entry : fs::directory_iterator(out / "demo"))
        names.insert(entry.path().filename().string());
    CHECK(names == std::set<std::string>{".lock"});
    report::Publisher again(out.path.string(), "demo");
    CHECK(again.reserve() == 1);  // the number was released
}

TEST_CASE("publish: leftovers of a killed run are cleaned up, earlier versions untouched", "[publish]") {
    test::Sandbox out;
    {
        report::Publisher first(out.path.string(), "demo");
        first.reserve();
        std::ofstream(fs::path(first.temp_dir()) / "cases.csv") << "v1 data";
        first.commit();
    }
    // What a kill -9 during v2 leaves: a reservation and a temporary folder
    // owned by a process that no longer exists.
    long dead = 999'999'999;
    std::ofstream(out / "demo" / ".reserve-v2") << dead;
    fs::create_directories(out / "demo" / (".tmp-" + std::to_string(dead) + "-v2"));
    report::Publisher next(out.path.string(), "demo");
    CHECK(next.reserve() == 2);
    CHECK_FALSE(fs::exists(out / "demo" / (".tmp-" + std::to_string(dead) + "-v2")));
    next.commit();
    std::ifstream v1(out / "demo" / "v1" / "cases.csv");
    std::string text;
    std::getline(v1, text);
    CHECK(text == "v1 data");
}

TEST_CASE("publish: concurrent runs get distinct versions", "[publish]") {
    test::Sandbox out;
    constexpr int runs = 8;
    std::vector<int> versions(runs);
    std::vector<std::thread> threads;
    for (int i = 0; i < runs; ++i)
        threads.emplace_back([&, i] {
            report::Publisher publisher(out.path.string(), "demo");
            versions[static_cast<std::size_t>(i)] = publisher.reserve();
            std::ofstream(fs::path(publisher.temp_dir()) / "cases.csv") << i;
            publisher.commit();
        });
    for (auto& t : threads) t.join();
    CHECK(std::set<int>(versions.begin(), versions.end()).size() == runs);
    for (int v = 1; v <= runs; ++v) CHECK(fs::is_directory(out / "demo" / version_name(v)));
    CHECK(fs::read_symlink(out / "demo" / "latest") == fs::path("v8"));
}
