#include "output/chart_key.hpp"

#include "output/chart_axes.hpp"
#include "output/gnuplot_text.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::output {

namespace {

bool continues(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The titles the key shows, in order: the titled series (at most
// max_key_series), the key entries.
std::vector<std::string const*> key_titles(Chart const& chart) {
    std::vector<std::string const*> titles;
    std::size_t series = 0;
    for (auto const& s : chart.series)
        if (!s.title.empty() && series++ < chart.max_key_series) titles.push_back(&s.title);
    for (auto const& e : chart.key_entries) titles.push_back(&e.title);
    return titles;
}

std::size_t lines_of(std::vector<std::string const*> const& titles, std::size_t wrap) {
    std::size_t lines = 0;
    for (auto const* t : titles) lines += std::max<std::size_t>(1, wrap_lines(*t, wrap).size());
    return lines;
}

// Characters of a title that fit one column of `columns` in the key.
std::size_t wrap_width(std::size_t columns, double char_width) {
    double const column = (1 - KeyBeside::key_left) / static_cast<double>(columns);
    return static_cast<std::size_t>(std::floor(column / char_width - KeyBeside::sample_chars));
}

}  // namespace

std::vector<std::string> wrap_lines(std::string_view text, std::size_t width, std::size_t max_chars) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t chars = 0, total = 0, last_break = std::string::npos;  // in `line`, after it
    for (std::size_t i = 0; i < text.size() && (total < max_chars || continues(text[i])); ++i) {
        char const c = text[i];
        if (!continues(c)) {
            if (chars == width) {  // full: break at the last space or '/', else here
                std::string rest;
                if (last_break != std::string::npos && last_break > 0) {
                    rest = line.substr(last_break);
                    line.erase(last_break);
                }
                while (!line.empty() && line.back() == ' ') line.pop_back();
                lines.push_back(std::move(line));
                line = std::move(rest);
                chars = 0;
                for (char r : line) chars += continues(r) ? 0 : 1;
                last_break = std::string::npos;
            }
            ++chars, ++total;
        }
        line += c;
        if (c == ' ' || c == '/') last_break = line.size();
    }
    if (!line.empty() || lines.empty()) lines.push_back(std::move(line));
    return lines;
}

std::string title_tail(std::string_view text, std::size_t chars) {
    std::size_t count = 0;
    for (char c : text) count += continues(c) ? 0 : 1;
    if (count <= chars || chars == 0) return std::string(text);
    std::size_t keep = chars - 1, at = text.size();
    while (at > 0 && keep > 0)
        if (!continues(text[--at])) --keep;
    return std::string("\u2026").append(text.substr(at));
}

void plot_beside_key(Chart& chart) {
    chart.plot_left = KeyBeside::plot_left;
    chart.plot_right = KeyBeside::plot_right;
}

double graph_char_width(Chart const& chart) {
    if (!(chart.plot_right > chart.plot_left)) return char_width_graph;
    // char_width_graph is 7.2 px of a plot 880 px wide; the PNG is 1000 px.
    return char_width_graph * 0.88 / (chart.plot_right - chart.plot_left);
}

void key_beside(Chart& chart) {
    plot_beside_key(chart);
    std::string const at = "at screen " + num(KeyBeside::key_left) + ", graph 1 left top vertical";
    // As many series as two columns hold (fewer below when their lines need
    // more): the rest in a note.
    std::size_t const room = 2 * KeyBeside::small_rows;
    std::size_t const notes = chart.key_entries.size() + 1;  // + the note of the rest
    chart.max_key_series = room > notes ? room - notes : 1;
    chart.key_wrap = wrap_width(1, KeyBeside::char_width);
    std::size_t const lines = lines_of(key_titles(chart), chart.key_wrap);
    if (lines <= KeyBeside::rows) {
        // One column as wide as its longest line: the plot takes the rest.
        std::size_t longest = 1;
        for (auto const* t : key_titles(chart))
            for (auto const& line : wrap_lines(*t, chart.key_wrap)) {
                std::size_t n = 0;
                for (char c : line) n += continues(c) ? 0 : 1;
                longest = std::max(longest, n);
            }
        chart.key_wrap = longest;
        double const key_left = std::max(
            KeyBeside::key_left,
            1 - (static_cast<double>(longest) + KeyBeside::sample_chars + 2.5) * KeyBeside::char_width);
        chart.plot_right = key_left - (KeyBeside::key_left - KeyBeside::plot_right);
        chart.key = "at screen " + num(key_left) + ", graph 1 left top vertical maxrows " +
                    std::to_string(KeyBeside::rows);
        return;
    }
    chart.key_wrap = 0;
    chart.key_tail = wrap_width(2, KeyBeside::small_char_width);
    std::size_t const entries = key_titles(chart).size() + 1;
    chart.key = at + " font ',8' maxrows " + std::to_string((entries + 1) / 2);
}

}  // namespace roofline::output
