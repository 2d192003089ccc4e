#include "output/chart_script.hpp"

#include "output/chart_key.hpp"
#include "output/gnuplot_text.hpp"

#include <gnuplot-iostream.h>

#include <array>
#include <string>

namespace roofline::output {

namespace {

std::string axis_commands(std::string const& n, Axis const& axis) {
    std::string out = "set " + n + "label " + literal(axis.label) + " noenhanced\n";
    out += axis.log ? "set logscale " + n + " " + std::to_string(axis.log_base) + "\n"
                    : "unset logscale " + n + "\n";
    out += "set " + n + "range [" + num(axis.lo) + ":" + num(axis.hi) + "]\n";
    if (axis.ticks.empty()) {  // gnuplot's own tics
        out += "set " + n + "tics out nomirror\n";
        if (!axis.format.empty()) out += "set format " + n + " " + literal(axis.format) + "\n";
        return out;
    }
    out += axis.log ? "set m" + n + "tics 10\n" : "set m" + n + "tics 2\n";
    out += "set " + n + "tics out nomirror (";
    for (std::size_t i = 0; i < axis.ticks.size(); ++i)
        out += (i ? ", " : "") + literal(axis.ticks[i].second) + " " + num(axis.ticks[i].first);
    return out + ")\n";
}

// The settings of one chart, shared by its SVG and its PNG.
std::string chart_commands(Chart const& chart) {
    std::string out = "reset\n";
    out += "set title " + literal(chart.title, 110) + ".\"\\n\"." + literal(chart.subtitle, 110) +
           " noenhanced\n";
    out += axis_commands("x", chart.x) + axis_commands("y", chart.y);
    if (chart.has_y2) out += axis_commands("y2", chart.y2);
    out += "set grid " + chart.grid + "\n";
    // Left and bottom; the right one too with a second y axis, and room for its tics.
    out += chart.has_y2 ? "set border 11 lc rgb '#404040'\n" : "set border 3 lc rgb '#404040'\n";
    if (chart.plot_right > 0)  // the key beside the plot: its edges fixed
        out += "set lmargin at screen " + num(chart.plot_left) + "\nset rmargin at screen " +
               num(chart.plot_right) + "\n";
    else
        out += chart.has_y2 ? "set lmargin 11\nset rmargin 12\n" : "set lmargin 11\nset rmargin 5\n";
    out += "set key " + chart.key +
           " Left reverse noenhanced samplen 2.5 spacing 1.15 width 2\n";
    for (auto const& d : chart.decorations) out += d + "\n";
    return out;
}

// A key title (data): a literal, or with `key_wrap` its lines joined by
// newlines, each line a literal of its own.
std::string key_title(Chart const& chart, std::string const& title, std::size_t chars) {
    if (chart.key_tail > 0) return literal(title_tail(title, chart.key_tail), chart.key_tail);
    if (chart.key_wrap == 0) return literal(title, chars);
    std::string out;
    for (auto const& line : wrap_lines(title.substr(0, chars), chart.key_wrap))
        out.append(out.empty() ? "" : ".\"\\n\".").append(literal(line, chart.key_wrap));
    return out;
}

// The plot command; the data follows it.
std::string plot_command(Chart const& chart) {
    std::string out = "plot";
    std::size_t in_key = 0, left_out = 0;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        auto const& s = chart.series[i];
        out += (i ? ", " : " ") + std::string("'-' ") + s.style;
        if (s.title.empty()) {
            out += " notitle";
        } else if (in_key++ >= chart.max_key_series) {
            out += " notitle";
            ++left_out;
        } else if (s.key_style.empty()) {
            out += " title " + key_title(chart, s.title, s.title_chars) + " noenhanced";
        } else {
            out += " notitle, keyentry " + s.key_style + " title " +
                   key_title(chart, s.title, s.title_chars) + " noenhanced";
        }
    }
    for (auto const& entry : chart.key_entries)
        out += ", keyentry " + entry.style + " title " +
               key_title(chart, entry.title, entry.title_chars) + " noenhanced";
    if (left_out)
        out += ", keyentry with lines lt -2 title " +
               literal("... and " + std::to_string(left_out) + " more series, not in the key") +
               " noenhanced";
    return out + "\n";
}

// Inline data: one point a line, numbers as the shortest text that reads
// back the same, each series ended by 'e'.
std::string data_block(Series const& s) {
    std::string out;
    if (s.band.empty()) {
        for (auto const& [x, y] : s.points) out += num(x) + " " + num(y) + "\n";
    } else {
        for (auto const& [x, lo, hi] : s.band) out += num(x) + " " + num(lo) + " " + num(hi) + "\n";
    }
    return out + "e\n";
}

}  // namespace

std::string chart_script(Chart const& chart) { return chart_commands(chart) + plot_command(chart); }

void draw(Gnuplot& gp, Chart const& chart) {
    std::string const settings = chart_commands(chart);
    std::string const plot = plot_command(chart);
    std::string data;
    for (auto const& s : chart.series) data += data_block(s);
    struct Format {
        char const* terminal;
        char const* extension;
    };
    // The SVG carries no date, so it is reproducible byte for byte.
    static constexpr std::array<Format, 2> formats = {
        Format{"svg size 1000,700 fixed font 'Sans,12' background '#ffffff' noenhanced", ".svg"},
        Format{"pngcairo size 1000,700 font 'Sans,10' background '#ffffff' noenhanced", ".png"}};
    for (auto const& f : formats) {
        gp << "set encoding utf8\nset terminal " << f.terminal << "\n";
        // Never cut: the name is a safe, bounded file name already
        // (output::file_name), and a cut one would be another file.
        gp << "set output " << literal(chart.stem + f.extension, std::string::npos) << "\n";
        gp << settings << plot << data;
        gp << "unset output\n";
    }
    gp.flush();
}

}  // namespace roofline::output
