#include "output/chart_roofs.hpp"

#include "output/chart_axes.hpp"
#include "output/chart_key.hpp"
#include "output/gnuplot_text.hpp"

namespace roofline::output {

Points roof_points(double bandwidth, double ridge, double peak, double lo, double hi, bool flat) {
    Points points = {{lo, bandwidth * lo}, {ridge, peak}};
    if (flat) points.push_back({hi, peak});
    return points;
}

namespace {

// "first x, first y": a point on the first axes.
std::string at_first(double x, double y) {
    return std::string("first ").append(num(x)).append(", first ").append(num(y));
}

}  // namespace

std::string drop_line(double x, double y, int dash) {
    std::string command = std::string("set arrow from first ").append(num(x));
    command.append(", graph 0 to ").append(at_first(x, y)).append(" nohead dt ");
    return command.append(std::to_string(dash)).append(" lw 1 lc rgb '#777777' back");
}

std::string label_at(std::string_view text, double x, double y, std::string_view placement) {
    std::string command = std::string("set label ").append(literal(text));
    return command.append(" at ").append(at_first(x, y)).append(" ").append(placement);
}

void add_roof(Chart& chart, Roof const& roof) {
    std::string const lc = std::string(" lc rgb '").append(roof.color).append("'");
    chart.series.push_back({roof.title, std::string("with lines ").append(roof.line).append(lc),
                            roof_points(roof.bandwidth, roof.ridge, roof.peak, chart.x.lo,
                                        chart.x.hi, roof.flat),
                            ""});
    chart.series.push_back(
        {"", std::string("with points ").append(roof.marker).append(lc), {{roof.ridge, roof.peak}}, ""});
    chart.decorations.push_back(drop_line(roof.ridge, roof.peak, roof.drop_dash));
    if (roof.label.empty()) return;
    // Beside the ridge where the label fits between it and the plot's edge,
    // else on its other side.
    double const width = (static_cast<double>(roof.label.size()) + 1) * graph_char_width(chart);
    double const at = fraction(chart.x, roof.ridge);
    bool const left = roof.label_left ? at > width : !(at + width < 1);
    chart.decorations.push_back(label_at(
        roof.label, roof.ridge, roof.peak,
        std::string(left ? "right offset character -0.8" : "left offset character 0.8")
            .append(", ")
            .append(num(roof.label_rise))
            .append(" tc rgb '")
            .append(roof.color)
            .append("' front noenhanced")));
}

}  // namespace roofline::output
