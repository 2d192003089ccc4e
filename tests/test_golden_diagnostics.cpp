// Golden tests for diagnostics. Each tests/golden/diagnostics/*.roof file (and
// the main file of the include_cycle/ folder) is a malformed scenario whose
// leading comment lines say, wabt-style, exactly which diagnostics it must
// produce, in the order they are printed:
//
//   # expect: LINE:COL: error: MESSAGE
//   # expect: LINE:COL: note: MESSAGE
//   # expect: OTHER.roof:LINE:COL: warning: MESSAGE   (in another file)
//
// The file is loaded from disk, checked, and (when the check finds no error)
// evaluated by the engine; the first line of every printed diagnostic is
// compared with the expectations. Paths are shown relative to the main file's
// folder, as the program prints them when run from that folder ("a.roof",
// "searched '.'"), so that the expectations do not depend on the checkout.
//
// The remaining cases are built in code: binary junk, deep nesting, empty
// files, the error cap, and deterministic random input.
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using roofline::test::read_file;

std::string golden_dir() {
    return fs::path(ROOFLINE_TESTS_DIR "/golden/diagnostics").lexically_normal().string();
}

// Every *.roof directly in the golden folder, then the include-cycle main file.
std::vector<std::string> golden_files() {
    std::vector<std::string> files;
    for (auto const& entry : fs::directory_iterator(golden_dir()))
        if (entry.is_regular_file() && entry.path().extension() == ".roof")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    files.push_back((fs::path(golden_dir()) / "include_cycle" / "a.roof").string());
    return files;
}

std::vector<std::string> split_lines(std::string const& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The `# expect: ` lines, which must all be in the leading block of comments.
std::vector<std::string> expectations(std::string const& text) {
    static std::string const marker = "# expect: ";
    std::vector<std::string> expected;
    bool leading = true;
    for (auto const& line : split_lines(text)) {
        if (line.empty() || line[0] != '#') leading = false;
        if (line.rfind(marker, 0) != 0) continue;
        INFO("misplaced expectation: " << line);
        CHECK(leading);
        expected.push_back(line.substr(marker.size()));
    }
    return expected;
}

void replace_all(std::string& text, std::string const& from, std::string const& to) {
    if (from.empty()) return;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// The first line of each diagnostic and note in `roofline::format` output. A
// diagnostic with a place is three lines (header, source line, caret line);
// one without ("roofline: error: ...") is one.
std::vector<std::string> headers(std::string const& formatted) {
    std::vector<std::string> result;
    auto lines = split_lines(formatted);
    for (std::size_t i = 0; i < lines.size();) {
        result.push_back(lines[i]);
        if (lines[i].rfind("roofline: ", 0) == 0) {
            ++i;
            continue;
        }
        INFO("diagnostic without its source and caret lines: " << lines[i]);
        REQUIRE(i + 2 < lines.size());
        CHECK(lines[i + 2].find('^') != std::string::npos);
        i += 3;
    }
    return result;
}

struct GoldenRun {
    std::string formatted;             // as printed, paths made relative
    std::vector<std::string> actual;   // first lines, main-file prefix stripped
    std::size_t errors_and_warnings = 0;
};

GoldenRun run_golden(std::string const& path) {
    roofline::Diagnostics diagnostics;
    roofline::DiskFileSystem disk;
    roofline::LoadOptions load{{}};
    auto program = roofline::load_program(path, disk, load, diagnostics);
    auto scenario = roofline::model::check(program, {}, diagnostics);
    if (!diagnostics.has_errors())
        if (auto evaluation = roofline::engine::evaluate(scenario, diagnostics))
            roofline::engine::evaluate_requests(scenario, *evaluation, diagnostics);

    GoldenRun run;
    for (auto const& d : diagnostics.all())
        if (d.severity == roofline::Severity::error || d.severity == roofline::Severity::warning)
            ++run.errors_and_warnings;
    run.formatted = roofline::format(diagnostics);
    // As if run from the main file's folder with a relative path.
    auto folder = roofline::parent_dir(path);
    replace_all(run.formatted, folder + "/", "");
    replace_all(run.formatted, "'" + folder + "'", "'.'");
    auto const prefix = fs::path(path).filename().string() + ":";
    for (auto line : headers(run.formatted)) {
        if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
        run.actual.push_back(line);
    }
    return run;
}

// A fixed, portable pseudo-random sequence (std::mt19937 is specified exactly;
// the standard distributions are not, so they are not used).
struct Random {
    std::mt19937 engine;
    explicit Random(std::uint32_t seed) : engine(seed) {}
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine() % n); }
};

}  // namespace

TEST_CASE("golden diagnostics: the folder holds enough scenarios", "[golden]") {
    std::size_t top_level = golden_files().size() - 1;
    CHECK(top_level >= 26);
    CHECK(fs::is_regular_file(fs::path(golden_dir()) / "include_cycle" / "a.roof"));
    CHECK(fs::is_regular_file(fs::path(golden_dir()) / "include_cycle" / "b.roof"));
}

TEST_CASE("golden diagnostics: each file prints exactly its expectations", "[golden]") {
    for (auto const& path : golden_files()) {
        auto name = fs::relative(path, golden_dir()).generic_string();
        DYNAMIC_SECTION(name) {
            auto expected = expectations(read_file(path));
            INFO("golden file: " << path);
            // A golden file that expects nothing, or a run that reports
            // nothing, would make a test that cannot fail.
            REQUIRE_FALSE(expected.empty());
            auto run = run_golden(path);
            INFO("printed:\n" << run.formatted);
            CHECK(run.errors_and_warnings > 0);
            CHECK(run.actual == expected);
        }
    }
}

TEST_CASE("diagnostics: a NUL byte is one clear error", "[golden]") {
    std::string text = "scenario \"Modèle\"\nlet B = 8 ";
    text += '\0';
    text += " 1\nlet D = 64\n";
    auto checked = roofline::test::check_text(text);
    INFO(checked->errors());
    REQUIRE(checked->diagnostics.error_count() == 1);
    CHECK(headers(checked->errors()) ==
          std::vector<std::string>{"test.roof:2:11: error: NUL byte in file; .roof files are UTF-8 text"});
}

TEST_CASE("diagnostics: invalid UTF-8 is one clear error", "[golden]") {
    std::string text = "let B = 8\nlet D = 64  # caf\xff\nlet F = 4 * D\n";
    auto checked = roofline::test::check_text(text);
    INFO(checked->errors());
    REQUIRE(checked->diagnostics.error_count() == 1);
    CHECK(headers(checked->errors()) ==
          std::vector<std::string>{
              "test.roof:2:18: error: invalid UTF-8 byte 0xff; .roof files are UTF-8 text"});
}

TEST_CASE("diagnostics: brackets nested 100,000 deep are one error, not a crash", "[golden]") {
    std::string text = "let X = " + std::string(100'000, '(') + "1" + std::string(100'000, ')');
    auto checked = roofline::test::check_text(text);
    auto formatted = checked->errors();
    REQUIRE(checked->diagnostics.error_count() == 1);
    // The 257th '(' starts at byte 8 + 256, column 265.
    CHECK(headers(formatted) ==
          std::vector<std::string>{
              "test.roof:1:265: error: brackets nested too deeply (more than 256 levels)"});
    // The 200,001-character line is shown as a window around the caret.
    CHECK(formatted.size() < 1000);
}

TEST_CASE("diagnostics: an empty file and a file of comments are fine", "[golden]") {
    for (std::string text : {std::string(), std::string("# only a comment\n"),
                             std::string("# one\n   # two, indented\n\n# three, no newline"),
                             std::string(" \t\r\n\n")}) {
        auto checked = roofline::test::check_text(text);
        INFO("text: '" << text << "'\n" << checked->errors());
        CHECK_FALSE(checked->diagnostics.has_errors());
        CHECK(checked->diagnostics.all().empty());
    }
}

TEST_CASE("diagnostics: at most 50 errors are kept, then a 'too many errors' line", "[golden]") {
    std::string const last_line_end = "only the first 50 are shown";
    auto check_capped = [&](std::string const& text) {
        auto checked = roofline::test::check_text(text);
        auto formatted = checked->errors();
        INFO(formatted);
        auto lines = headers(formatted);
        std::size_t shown = static_cast<std::size_t>(
            std::count_if(lines.begin(), lines.end(), [](std::string const& line) {
                return line.find(": error: ") != std::string::npos &&
                       line.rfind("roofline: ", 0) != 0;
            }));
        CHECK(shown <= roofline::Diagnostics::max_errors);
        CHECK(checked->diagnostics.all().size() <= roofline::Diagnostics::max_errors);
        REQUIRE_FALSE(lines.empty());
        auto const& last = lines.back();
        CHECK(last.rfind("roofline: error: too many errors", 0) == 0);
        CHECK(last.size() >= last_line_end.size());
        CHECK(last.substr(last.size() - std::min(last.size(), last_line_end.size())) ==
              last_line_end);
    };
    SECTION("200 broken statements (syntax errors)") {
        std::string text;
        for (int i = 0; i < 200; ++i) text += "let X" + std::to_string(i) + " 1\n";
        check_capped(text);
    }
    SECTION("200 statements with an unknown name (checker errors)") {
        std::string text;
        for (int i = 0; i < 200; ++i)
            text += "let X" + std::to_string(i) + " = nothing_here_" + std::to_string(i) + "\n";
        check_capped(text);
    }
}

TEST_CASE("diagnostics: random input never crashes or throws", "[golden]") {
    // Valid statements, tokens separated by spaces, to be mutated.
    static std::vector<std::string> const statements = {
        "scenario \"Random\"",
        "include \"extra.roof\"",
        "dtype mx = 4.25 bits",
        "dtype wide = 3 bytes",
        "let B = 8",
        "let D = 4096",
        "let F = 4 * D",
        "let H = min ( D , F ) / 2 ^ 2 - 1",
        "let E = ceil ( B / 3 ) + floor ( - 2.5 )",
        "sweep S = 1 .. 64",
        "sweep T = [ 128 , 256 , 512 ]",
        "sweep U = 1 .. 1024 times 2",
        "sweep V = 2 .. 20 step 3",
        "hardware chip { hbm_bandwidth = 1e12 B/s peak bf16 = 1e15 FLOP/s peak int8 = 2e15 OP/s }",
        "hardware v2 extends chip { name = \"V2 é\" source = \"a \\\" b\" hbm_capacity = 16 GiB }",
        "hardware old { hbm_bandwidth = 9e11 B/s peak fp32 = 1 TFLOP/s ici_bandwidth = 1e11 B/s }",
        "hardware pod { hbm_bandwidth = 1e12 ici_bandwidth = 45 GB/s ici_wraparound = 16 ici_latency = 1 us "
        "nvlink_bandwidth = 450 GB/s nvlink_domain = 8 nvlink_latency = 500 ns dcn_bandwidth = 50 GB/s "
        "dcn_latency = 0.01 ms }",
        "target chip , v2",
        "target old",
        "matmul up = bf16 [ B , D ] * bf16 [ D , F ] -> bf16 [ B , F ]",
        "matmul sweep_mm = int8 [ S , D ] * bf16 [ D , T ] -> bf16 [ S , T ] compute fp8",
        "matmul q = mx [ U , V ] * int4 [ V , D ] -> fp32 [ U , D ]",
        "layer block x 2 { let K = D / 2 matmul m = bf16 [ B , K ] * bf16 [ K , F ] -> bf16 [ B , F ] }",
        "layer outer { layer inner x B { matmul n = fp16 [ B , H ] * fp16 [ H , E ] -> fp16 [ B , E ] } }",
    };
    static std::vector<std::string> const vocabulary = {
        "scenario", "include", "dtype", "hardware", "extends", "target", "let", "sweep",
        "matmul", "compute", "layer", "x", "step", "times", "bits", "bytes", "peak", "name",
        "source", "hbm_bandwidth", "hbm_capacity", "ici_bandwidth", "ici_wraparound",
        "ici_latency", "nvlink_bandwidth", "nvlink_domain", "nvlink_latency", "dcn_bandwidth",
        "dcn_latency", "us", "ms", "ns", "s", "min", "max", "ceil",
        "floor", "bf16", "int8", "fp8", "fp32", "int4", "B", "D", "F", "Fx", "S", "T", "chip",
        "B/s", "GB/s", "GiB", "FLOP/s", "TFLOP/s", "TB/sec", "=", "[", "]", "(", ")", "{", "}",
        ",", "*", "->", "..", "...", "+", "-", "/", "^", "0", "1", "2", "512", "4096", "0.5",
        "-1", "8.2e11", "1e999", "1e308", "1_000", "1__0", "10^400", "\"", "\"title\"",
        "\"Modèle 🚀\"", "\"a\\\"b\"", "\\", "#", "# comment\n", "\n", " ", "\t", "\r\n", "é",
        "日本", "€", "_", "0x", "@", "!"};
    auto split = [](std::string const& text) {
        std::vector<std::string> tokens;
        std::istringstream in(text);
        for (std::string token; in >> token;) tokens.push_back(token);
        return tokens;
    };
    std::vector<std::pair<std::string, std::string>> const extra_files = {
        {"extra.roof", "let Z = 3\nhardware extra_chip { hbm_bandwidth = 2 TB/s }\n"}};
    Random random(20240601);
    std::size_t clean = 0, parsed = 0;
    for (int n = 0; n < 2000; ++n) {
        std::string text;
        std::size_t kind = random.below(10);
        if (kind < 5) {
            // Statements of the language with a few tokens deleted, replaced,
            // inserted or repeated.
            std::vector<std::string> tokens;
            for (std::size_t i = 0, count = 1 + random.below(12); i < count; ++i) {
                for (auto& token : split(statements[random.below(statements.size())]))
                    tokens.push_back(std::move(token));
                tokens.push_back("\n");
            }
            for (std::size_t k = 0, mutations = random.below(4); k < mutations; ++k) {
                auto at = static_cast<std::ptrdiff_t>(random.below(tokens.size()));
                auto const& other = vocabulary[random.below(vocabulary.size())];
                switch (random.below(4)) {
                    case 0: tokens.erase(tokens.begin() + at); break;
                    case 1: tokens[static_cast<std::size_t>(at)] = other; break;
                    case 2: tokens.insert(tokens.begin() + at, other); break;
                    default: tokens.insert(tokens.begin() + at, tokens[static_cast<std::size_t>(at)]);
                }
                if (tokens.empty()) break;
            }
            for (auto const& token : tokens) text += token == "\n" ? token : token + " ";
        } else if (kind < 7) {
            // Tokens of the language in any order, glued together or spaced.
            for (std::size_t i = 0, count = 1 + random.below(120); i < count; ++i) {
                text += vocabulary[random.below(vocabulary.size())];
                if (random.below(3) != 0) text += ' ';
            }
            if (kind == 6) {
                // ... with a few raw bytes spliced in.
                for (std::size_t k = 0, splices = 1 + random.below(4); k < splices; ++k) {
                    auto at = static_cast<std::ptrdiff_t>(random.below(text.size() + 1));
                    text.insert(text.begin() + at, static_cast<char>(random.below(256)));
                }
            }
        } else {
            // Raw bytes; mostly printable ASCII, so that some of it gets past
            // the UTF-8 check.
            bool printable = kind < 9;
            for (std::size_t i = 0, count = random.below(400); i < count; ++i)
                text += printable ? static_cast<char>(0x20 + random.below(0x5f))
                                  : static_cast<char>(random.below(256));
        }
        INFO("input #" << n << ":\n" << text);
        std::unique_ptr<roofline::test::Checked> checked;
        REQUIRE_NOTHROW(checked = roofline::test::check_text(text, extra_files));
        std::string formatted;
        REQUIRE_NOTHROW(formatted = checked->errors());
        auto const& all = checked->diagnostics.all();
        auto kept_errors = std::count_if(all.begin(), all.end(), [](auto const& d) {
            return d.severity == roofline::Severity::error;
        });
        CHECK(static_cast<std::size_t>(kept_errors) <= roofline::Diagnostics::max_errors);
        if (!checked->program.files.empty() && !checked->program.files[0]->parsed.statements.empty())
            ++parsed;
        if (!checked->diagnostics.has_errors()) {
            ++clean;
            // A clean scenario is small here (at most 64 * 3 * 11 * 7 points),
            // so the engine runs too.
            roofline::Diagnostics engine_diagnostics;
            REQUIRE_NOTHROW(roofline::engine::evaluate(checked->scenario, engine_diagnostics));
        }
    }
    // The generator must reach past the parser, or the test says little.
    INFO("inputs with a statement: " << parsed << ", without an error: " << clean);
    CHECK(parsed >= 500);
    CHECK(clean >= 20);
}
