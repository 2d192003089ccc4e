#include "chart_commands.hpp"

#include "gnuplot_text.hpp"

#include <gnuplot-iostream.h>

#include <array>
#include <string>

namespace roofline::report::chart_detail {

namespace {

constexpr std::size_t max_key_series = 40;

std::string axis_commands(char name, Axis const& axis) {
    std::string n(1, name);
    std::string out = "set " + n + "label " + literal(axis.label) + " noenhanced\n";
    out += axis.log ? "set logscale " + n + " 10\nset m" + n + "tics 10\n"
                    : "unset logscale " + n + "\nset m" + n + "tics 2\n";
    out += "set " + n + "range [" + num(axis.lo) + ":" + num(axis.hi) + "]\n";
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
    out += axis_commands('x', chart.x) + axis_commands('y', chart.y);
    out += "set grid xtics ytics mxtics mytics lw 1 lc rgb '#e4e4e4', lw 0.5 lc rgb '#f2f2f2'\n";
    out += "set border 3 lc rgb '#404040'\n";
    out += "set lmargin 11\nset rmargin 5\n";
    out +=
        "set key outside below center horizontal Left reverse noenhanced samplen 2.5 spacing 1.15 "
        "width 2 height 0.6 maxrows 12\n";
    for (auto const& d : chart.decorations) out += d + "\n";
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
        } else if (in_key++ >= max_key_series) {
            out += " notitle";
            ++left_out;
        } else if (s.key_style.empty()) {
            out += " title " + literal(s.title, 70) + " noenhanced";
        } else {
            out += " notitle, keyentry " + s.key_style + " title " + literal(s.title, 70) +
                   " noenhanced";
        }
    }
    for (auto const& note : chart.notes)
        out += ", keyentry with lines lt -2 title " + literal(note, 90) + " noenhanced";
    if (left_out)
        out += ", keyentry with lines lt -2 title " +
               literal("... and " + std::to_string(left_out) + " more series, not in the key") +
               " noenhanced";
    return out + "\n";
}

}  // namespace

void draw(Gnuplot& gp, Chart const& chart) {
    std::string const settings = chart_commands(chart);
    std::string const plot = plot_command(chart);
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
        gp << "set output " << literal(chart.stem + f.extension) << "\n";
        gp << settings << plot;
        for (auto const& s : chart.series) {
            if (s.band.empty())
                gp.send1d(s.points);
            else
                gp.send1d(s.band);
        }
        gp << "unset output\n";
    }
    gp.flush();
}

}  // namespace roofline::report::chart_detail
