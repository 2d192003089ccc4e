// The roofline's key beside the plot (output/chart_key.hpp): at 1, 5, 20 and
// 60 ops the plot keeps at least half of the image's width, the key starts
// right of it, and every line of its titles fits the width left to it.
#include "chart_models.hpp"

#include "output/chart_key.hpp"
#include "output/chart_script.hpp"
#include "report/chart_model.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

using namespace roofline;
using output::KeyBeside;
using test::charts::Models;

namespace {

// `ops` matmuls in a layer, on one chip.
std::string many_ops(std::size_t ops) {
    std::string text = R"roof(
        hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s }
        target chip
        sweep B = [1, 64]
        let D = 256
        let F = 256
        layer decoder {
)roof";
    for (std::size_t k = 0; k < ops; ++k)
        text += "matmul attention_proj_" + std::to_string(k) +
                " = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    return text + "}\n";
}

double screen(std::string const& script, std::string const& what) {
    std::smatch m;
    REQUIRE(std::regex_search(script, m, std::regex(what + " at screen ([0-9.]+)")));
    return std::stod(m[1]);
}

// The lines of every key title in the plot command: the literals of a
// title, joined by ."\n".
std::vector<std::string> title_lines(std::string const& script) {
    std::vector<std::string> lines;
    std::regex const title(" title ((?:'(?:[^']|'')*'(?:\\.\"\\\\n\"\\.)?)+) noenhanced");
    std::regex const piece("'((?:[^']|'')*)'");
    auto const plot = script.substr(script.find("\nplot "));
    for (std::sregex_iterator it(plot.begin(), plot.end(), title), end; it != end; ++it) {
        std::string const all = (*it)[1];
        for (std::sregex_iterator p(all.begin(), all.end(), piece); p != end; ++p)
            lines.push_back((*p)[1]);
    }
    return lines;
}

std::size_t chars(std::string const& s) {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

}  // namespace

TEST_CASE("charts: the roofline's key beside the plot leaves it half the width at any op count",
          "[charts]") {
    for (std::size_t ops : {1u, 5u, 20u, 60u}) {
        INFO(ops << " ops");
        Models m(many_ops(ops));
        auto const chart = report::chart_detail::roofline_chart(*m.context, *m.data, 0);
        std::string const script = output::chart_script(chart);
        double const left = screen(script, "set lmargin"), right = screen(script, "set rmargin");
        CHECK(right - left >= 0.5);
        double const key = screen(script, "set key");
        CHECK(key > right);
        // One column up to 44 lines, else two in Sans 8: each line of a title
        // within its column, after the sample.
        bool const two = script.find("font ',8'") != std::string::npos;
        CHECK(two == (ops > 40));
        double const per_char = two ? KeyBeside::small_char_width : KeyBeside::char_width;
        double const column = (1 - key) / (two ? 2 : 1);
        auto const lines = title_lines(script);
        CHECK(lines.size() >= ops);
        // Wrapped in one column; in two, each title on one line, its end kept.
        std::size_t const width = two ? chart.key_tail : chart.key_wrap;
        for (auto const& line : lines) {
            INFO(line);
            CHECK(chars(line) <= width);
        }
        CHECK((static_cast<double>(width) + KeyBeside::sample_chars) * per_char <= column);
        // One column as wide as its longest title: "decoder/attention_proj_0"
        // (24 characters), from 10 ops "decoder/attention_proj_10" (25). Two
        // columns of 19 (0.39 / 2 / 0.0075 - 6.5): an ellipsis and the last 18.
        CHECK(width == (two ? 19 : ops > 10 ? 25 : 24));
        CHECK(script.find(two ? "'\u2026r/attention_proj_0' noenhanced" : "'decoder/attention_proj_0' noenhanced") !=
              std::string::npos);
    }
}

TEST_CASE("charts: key titles wrap after a space or a slash", "[charts]") {
    // Width 20: "embedding/gather: no" is full at the 't' of "not": the break
    // after "gather: " (18 characters); then "not plotted, no fp4 " (20) and
    // the rest, 17.
    CHECK(output::wrap_lines("embedding/gather: not plotted, no fp4 peak on this chip", 20) ==
          std::vector<std::string>{"embedding/gather:", "not plotted, no fp4", "peak on this chip"});
    // No break near: inside the word, a UTF-8 sequence as one character.
    CHECK(output::wrap_lines("\u00b5\u00b5\u00b5\u00b5\u00b5", 2) ==
          std::vector<std::string>{"\u00b5\u00b5", "\u00b5\u00b5", "\u00b5"});
    // At most max_chars in all.
    CHECK(output::wrap_lines("abcdefgh", 3, 5) == std::vector<std::string>{"abc", "de"});
    CHECK(output::wrap_lines("", 3) == std::vector<std::string>{""});
    CHECK(output::title_tail("decoder/attention/q_proj", 10) == "\u2026on/q_proj");  // … + 9
    CHECK(output::title_tail("q_proj", 10) == "q_proj");
}
