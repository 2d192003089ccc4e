#pragma once
// What a chart is, independent of gnuplot: the model every chart of `run`
// (roofline, sweep, step) and `diff` (roofline, speedup) is built as, which
// chart_script.cpp turns into gnuplot commands and render_charts.cpp draws.
// Private to the core library.

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace roofline::output {

using Points = std::vector<std::pair<double, double>>;
using Band = std::vector<std::tuple<double, double, double>>;  // x, y low, y high
using Ticks = std::vector<std::pair<double, std::string>>;

struct Axis {
    std::string label;
    bool log = false;
    int log_base = 10;
    double lo = 1, hi = 10;
    Ticks ticks;         // the tics and their labels; empty: gnuplot places them
    std::string format;  // with gnuplot's tics: their format ("%g×"); empty: its own
};

struct Series {
    std::string title;  // data (quoted when written); empty: not in the key
    std::string style;  // gnuplot code, ours
    Points points;
    std::string key_style;  // when set, the key shows this style instead of `style`
    Band band{};            // when set, sent instead of `points` (for filledcurves)
    std::size_t title_chars = 70;  // the key shows at most this much of the title
};

// A line of the key without data: `style` is gnuplot code, `title` data.
struct KeyEntry {
    std::string style;
    std::string title;
    std::size_t title_chars = 90;
};

// A key line of text alone (a note about what the chart leaves out).
inline KeyEntry key_note(std::string text) { return {"with lines lt -2", std::move(text), 90}; }

// The key note of an op whose cases a log axis cannot show, because their
// FLOPs (intensity and attained 0) or bytes (intensity infinite) are 0:
// "not on a log axis: embedding/gather (0 FLOPs)"; `partly`: only some of
// its cases ("(0 FLOPs at some points)"). The op name is data.
std::string off_log_note(std::string_view op, bool zero_flops, bool zero_bytes, bool partly);

struct Chart {
    std::string stem;  // file name without extension, from output::file_name (safe, bounded)
    std::string title, subtitle;
    Axis x, y;
    // A second y axis on the right, when `has_y2`; a series is drawn against
    // it when its style starts with "axes x1y2".
    bool has_y2 = false;
    Axis y2;
    // gnuplot's `set key` placement and `set grid` (code, ours).
    std::string key = "outside below center horizontal height 0.6 maxrows 12";
    // With the key beside the plot (key_beside, chart_key.hpp): the plot's
    // left and right edges as fractions of the image's width, and the width
    // at which the key's titles wrap (characters). 0: a key below, gnuplot's
    // margins, no wrapping.
    double plot_left = 0, plot_right = 0;
    std::size_t key_wrap = 0;
    // Instead of wrapping (two key columns): a longer title keeps its last
    // key_tail - 1 characters after an ellipsis, where op names differ.
    std::size_t key_tail = 0;
    std::string grid = "xtics ytics mxtics mytics lw 1 lc rgb '#e4e4e4', lw 0.5 lc rgb '#f2f2f2'";
    std::vector<std::string> decorations;  // set label / set arrow commands
    std::vector<Series> series;
    std::vector<KeyEntry> key_entries;     // after the series' entries
    std::size_t max_key_series = 40;       // more titled series: a note instead
};

// Adds a series of `points` to `chart` (its title, data, shows at most
// `title_chars` in the key; empty: not in the key), none when there is no
// point: gnuplot warns about an empty data block.
void add_series(Chart& chart, std::string title, std::string style, Points points,
                std::size_t title_chars = 70);

// Series styles by index: palette colour ("#1f77b4"; `palette_size` of them,
// none repeated), filled and open point types, and a dash type that changes
// once the palette repeats.
constexpr std::size_t palette_size = 12;
std::string color(std::size_t i);
int filled_point(std::size_t i);
int open_point(std::size_t i);
int dash_type(std::size_t i);

}  // namespace roofline::output
