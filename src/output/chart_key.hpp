#pragma once
// The key beside the plot (right of it), for charts whose key is long (a
// model's ops on a roofline): the plot keeps at least half the image's
// width at every number of entries, the titles wrap to the key's width, and
// with more entries than one column holds, two columns in a smaller font.
// Private to the core library.

#include "output/chart.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::output {

// The layout of the PNG (1000 x 700, Sans 10), as fractions of its width:
// the plot from plot_left to plot_right at most, the key from key_left to
// the edge at least (a key of short titles leaves the plot more).
struct KeyBeside {
    static constexpr double plot_left = 0.09, plot_right = 0.595, key_left = 0.61;
    // One character of a key title (6.6 px, measured on gnuplot's pngcairo
    // at Sans 10; 5.3 px at Sans 8) and the sample before it (samplen 2.5,
    // reverse: about 6 characters).
    // In two columns gnuplot spaces them by its own estimate of a character
    // (7.5 px at Sans 8, measured), not by the text drawn.
    static constexpr double char_width = 0.0068, small_char_width = 0.0075, sample_chars = 6.5;
    // Lines of one column, from the plot's top down: at Sans 10, at Sans 8.
    static constexpr std::size_t rows = 44, small_rows = 54;
};

// `text` in lines of at most `width` characters (UTF-8 sequences count as
// one), broken after a space or a '/' where one is near, else inside a word;
// at most `max_chars` characters in all.
std::vector<std::string> wrap_lines(std::string_view text, std::size_t width,
                                    std::size_t max_chars = 90);

// `text` when it has at most `chars` characters, else an ellipsis and its
// last chars - 1 characters (UTF-8 sequences count as one).
std::string title_tail(std::string_view text, std::size_t chars);

// Sets the plot's edges of a key beside it (key_beside does too): before
// placing what needs the plot's width (graph_char_width).
void plot_beside_key(Chart& chart);
// One character of the chart's labels (Sans 10) as a fraction of the plot's
// width: char_width_graph with gnuplot's margins, more beside a key.
double graph_char_width(Chart const& chart);

// Puts the key of `chart` beside the plot: sets plot_left, plot_right,
// key_wrap and the key's placement: one column, its titles wrapped; or, when
// their lines need more than KeyBeside::rows, two in Sans 8, each title on
// one line (key_tail), as many series as they hold (the rest in a note,
// chart.max_key_series).
void key_beside(Chart& chart);

}  // namespace roofline::output
