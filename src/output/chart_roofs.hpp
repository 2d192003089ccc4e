#pragma once
// Roofs on a roofline chart, drawn one way for each kind of roof (HBM,
// network, on-chip in a report; A's and B's in a diff; the workbook's
// Charts sheet takes their points too). Private to the core library.

#include "output/chart.hpp"

#include <string>
#include <string_view>

namespace roofline::output {

// The roof of a bandwidth (bytes/s) and a peak (FLOP/s), whose ridge is at
// intensity `ridge` (FLOP/byte): the slope bandwidth x intensity from `lo`,
// the left end of the axis, up to the ridge, then with `flat` the peak on
// to `hi`, the right end. The caller gives the bandwidth and the ridge as
// it has them (peak / ridge and peak / bandwidth differ in the last bits).
Points roof_points(double bandwidth, double ridge, double peak, double lo, double hi,
                   bool flat = true);

// A line from the x axis up to (x, y), behind the data, of dash type `dash`
// (gnuplot code): where a ridge lies on the axis.
std::string drop_line(double x, double y, int dash);

// "set label" of `text` (data) at (x, y) on the first axes; `placement` is
// gnuplot code ("left offset character 0.8, 0.9 tc rgb '#303030' front").
std::string label_at(std::string_view text, double x, double y, std::string_view placement);

// One roof of a report's roofline chart: its line (in the key with `title`,
// unless empty), a marker at the ridge, a line down from the ridge to the
// axis and, unless `label` is empty, the label beside the ridge.
struct Roof {
    std::string title{};
    double bandwidth = 0, ridge = 0, peak = 0;
    bool flat = true;      // the peak drawn on to the right end of the axis
    std::string line{};    // line style: "lw 2.5", "lw 2 dt 2"
    std::string marker{};  // the ridge's point style: "pt 7 ps 1.4"
    int drop_dash = 2;     // dash type of the line down from the ridge
    std::string label{};   // beside the ridge, above the peak; "" none
    bool label_left = true;  // its side when the axis leaves room, else the other
    double label_rise = 0.9;  // above the peak, in lines of text
    std::string color = "#303030";
};

// Adds `roof` to `chart`, whose x axis is set: two series, the drop line and
// the label.
void add_roof(Chart& chart, Roof const& roof);

}  // namespace roofline::output
