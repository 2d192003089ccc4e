#include "roofline/report/chart_writer.hpp"

#include <gnuplot-iostream.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iomanip>
#include <locale>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>

extern char** environ;

namespace roofline::report {

// ---------------------------------------------------------------------------
// Sampling: which sweep points a series keeps.

namespace {

// `count` indices spread evenly over [0, n), the first and the last included.
std::vector<std::size_t> even_sample(std::size_t n, std::size_t count) {
    std::vector<std::size_t> kept;
    if (n <= count) {
        for (std::size_t i = 0; i < n; ++i) kept.push_back(i);
        return kept;
    }
    for (std::size_t s = 0; s < count; ++s)
        kept.push_back((s * (n - 1) + (count - 1) / 2) / (count - 1));
    return kept;
}

}  // namespace

ChartData::ChartData(ReportContext const& context)
    : context_(context),
      matmuls_(context.grid.matmul_count),
      targets_(context.grid.target_count),
      roofline_(matmuls_ * targets_),
      sweep_(context.grid.sweep_count * matmuls_ * targets_) {
    auto const& grid = context.grid;
    roofline_points_ = even_sample(grid.point_count, max_points);
    stride_.assign(grid.sweep_count, 1);
    for (std::size_t v = grid.sweep_count; v-- > 1;)
        stride_[v - 1] = stride_[v] * grid.sweep_sizes[v];
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        sweep_values_.push_back(even_sample(grid.sweep_sizes[v], max_points));
}

void ChartData::add(engine::Case const& c) {
    auto const& m = c.metrics;
    if (m.bound == engine::Bound::unsupported) return;
    if (!std::isfinite(m.intensity) || !std::isfinite(m.attained)) return;
    std::size_t const series = c.matmul * targets_ + c.target;
    if (std::binary_search(roofline_points_.begin(), roofline_points_.end(), c.point))
        roofline_[series].push_back({m.intensity, m.attained});
    // Sweep v's slice: every other sweep at its first value, i.e. the point's
    // other digits are all zero.
    for (std::size_t v = 0; v < stride_.size(); ++v) {
        if (c.point % stride_[v] != 0) continue;
        std::size_t j = c.point / stride_[v];
        if (j >= context_.grid.sweep_sizes[v]) continue;
        if (!std::binary_search(sweep_values_[v].begin(), sweep_values_[v].end(), j)) continue;
        sweep_[v * matmuls_ * targets_ + series].push_back(
            {context_.grid.sweep_value(c, v), m.attained});
    }
}

// ---------------------------------------------------------------------------
// Text: everything from a scenario goes through `literal`.

namespace {

// The length of the UTF-8 sequence at s[i] if it is valid and encodes a
// character that XML allows, else 0.
std::size_t utf8_char(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b = byte(i);
    if (b < 0x80) return 1;
    std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (n == 0 || b > 0xF4 || i + n > s.size()) return 0;
    char32_t cp = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    bool bad = cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF ||
               (cp >= 0x80 && cp <= 0x9F);
    return overlong || bad ? 0 : n;
}

// Printable text of at most `max_chars` characters: control characters (a
// newline would end the gnuplot command) become spaces, bytes that are not
// valid UTF-8 become '?', and a cut is marked with an ellipsis.
std::string clean(std::string_view s, std::size_t max_chars = 90) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < s.size();) {
        if (chars == max_chars) {
            out += "\u2026";
            break;
        }
        auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
        std::size_t n = utf8_char(s, i);
        if (byte(i) == 0xC2 && i + 1 < s.size() && byte(i + 1) >= 0x80 && byte(i + 1) <= 0x9F) {
            out += ' ';  // a C1 control
            i += 2;
        } else if (n == 0) {
            out += '?';
            ++i;
        } else if (n == 1 && (byte(i) < 0x20 || byte(i) == 0x7F)) {
            out += ' ';
            ++i;
        } else {
            out.append(s, i, n);
            i += n;
        }
        ++chars;
    }
    return out;
}

// A gnuplot single-quoted string: '' stands for a quote and nothing else is
// special inside (no backslash escapes, no `command` or @macro substitution).
std::string literal(std::string_view text, std::size_t max_chars = 90) {
    std::string out = "'";
    for (char ch : clean(text, max_chars)) {
        if (ch == '\'') out += '\'';
        out += ch;
    }
    return out + "'";
}

// A number for a gnuplot command: shortest round-trip text, locale-free.
std::string num(double v) {
    std::array<char, 32> buf;
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), std::isfinite(v) ? v : 0.0);
    return std::string(buf.data(), r.ptr);
}

std::string digits(double v, int significant) {
    std::array<char, 32> buf;
    auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general,
                           significant);
    return std::string(buf.data(), r.ptr);
}

// Three significant digits with an SI prefix: 1.97e14 -> "197 T" (+ unit).
std::string eng(double v, std::string_view unit = "") {
    static constexpr std::array<char const*, 13> prefixes = {"f", "p", "n", "\u00b5", "m", "", "k",
                                                             "M", "G", "T", "P",      "E", "Z"};
    std::string text;
    if (v == 0 || !std::isfinite(v)) {
        text = "0";
    } else {
        int e = static_cast<int>(std::floor(std::log10(std::fabs(v))));
        double rounded = std::round(v / std::pow(10.0, e - 2)) * std::pow(10.0, e - 2);
        int group =
            std::clamp(static_cast<int>(std::floor(std::log10(std::fabs(rounded)) / 3)), -5, 7);
        text = digits(rounded / std::pow(1000.0, group), 3);
        text += " ";
        text += prefixes[static_cast<std::size_t>(group + 5)];
    }
    text += unit;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

// A sweep value or tick on a value axis: integers in full, others short.
std::string value_text(double v) {
    if (std::fabs(v) >= 1e5 || (v != 0 && std::fabs(v) < 1e-3)) return eng(v);
    if (v == std::round(v)) return digits(v, 15);
    return digits(v, 6);
}

// ---------------------------------------------------------------------------
// What a chart is, independent of gnuplot.

using Points = std::vector<std::pair<double, double>>;
using Ticks = std::vector<std::pair<double, std::string>>;

struct Axis {
    std::string label;
    bool log = false;
    double lo = 1, hi = 10;
    Ticks ticks;
};

struct Series {
    std::string title;  // data (quoted when written); empty: not in the key
    std::string style;  // gnuplot code, ours
    Points points;
    std::string key_style;  // when set, the key shows this style instead of `style`
};

struct Chart {
    std::string stem;  // file name without extension
    std::string title, subtitle;
    Axis x, y;
    std::vector<std::string> decorations;  // set label / set arrow commands
    std::vector<Series> series;
    std::vector<std::string> notes;  // extra key lines (data)
};

constexpr std::array<char const*, 10> palette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                 "#bcbd22", "#7f7f7f"};
constexpr std::array<int, 6> filled_points = {7, 5, 9, 11, 13, 15};
constexpr std::array<int, 6> open_points = {6, 4, 8, 10, 12, 14};
constexpr char const* roof_color = "#303030";
constexpr std::size_t max_key_series = 40;

// Plot geometry used to keep labels apart: a 1000 px wide chart has about
// 880 px of plot, and a character of the 10-point key font is about 7 px.
constexpr double char_width_graph = 7.2 / 880.0;
constexpr double char_height_graph = 14.0 / 520.0;

std::string color(std::size_t i) {
    return palette[i % palette.size()];
}
int filled_point(std::size_t i) {
    return filled_points[i % filled_points.size()];
}
int open_point(std::size_t i) {
    return open_points[i % open_points.size()];
}
int dash_type(std::size_t i) {
    return 1 + static_cast<int>((i / palette.size()) % 4);
}

std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) {
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
        out += ok ? ch : '_';
    }
    return out.empty() || out.find_first_not_of('.') == std::string::npos ? "_" + out : out;
}

// The nearest 1, 2 or 5 times a power of ten below (above) v: tidy ends for
// a log axis without a mostly empty decade.
double nice_floor(double v) {
    double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {5.0, 2.0, 1.0})
        if (m * decade <= v * (1 + 1e-9)) return m * decade;
    return decade;
}
double nice_ceil(double v) {
    double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= v * (1 - 1e-9)) return m * decade;
    return 10 * decade;
}

// Ticks on a log axis: every decade, with 2 and 5 (or every digit) between
// them when the axis spans few decades.
Ticks log_ticks(double lo, double hi, std::string (*text)(double)) {
    double decades = std::log10(hi / lo);
    std::vector<double> steps = decades < 1.2   ? std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                : decades < 4.2 ? std::vector<double>{1, 2, 5}
                                                : std::vector<double>{1};
    int every = decades > 12 ? static_cast<int>(std::ceil(decades / 10)) : 1;
    Ticks ticks;
    for (int e = static_cast<int>(std::floor(std::log10(lo))) - 1;
         e <= static_cast<int>(std::ceil(std::log10(hi))); ++e) {
        if (e % every != 0) continue;
        for (double m : steps) {
            double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back({v, text(v)});
        }
    }
    return ticks;
}

// About seven ticks at multiples of 1, 2 or 5 times a power of ten.
Ticks linear_ticks(double lo, double hi, std::string (*text)(double)) {
    if (!(hi > lo)) return {{lo, text(lo)}};
    double raw = (hi - lo) / 7;
    double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (double f : {1.0, 2.0, 2.5, 5.0})
        if (magnitude * f >= raw) {
            step = magnitude * f;
            break;
        }
    Ticks ticks;
    for (double k = std::ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-12) + step * 1e-9; ++k) {
        double v = k * step;
        if (std::fabs(v) < step * 1e-9) v = 0;
        ticks.push_back({v, text(v)});
    }
    return ticks;
}

std::string flops_tick(double v) {
    return eng(v);
}

// The fraction of the axis at which v lies.
double fraction(Axis const& axis, double v) {
    if (axis.log) return std::log10(v / axis.lo) / std::log10(axis.hi / axis.lo);
    return (v - axis.lo) / (axis.hi - axis.lo);
}

// One point per cell of a `cells` x `cells` grid over the plot: thousands of
// cases on one roof would only draw a thick line and hide each other.
Points thin(std::vector<ChartData::Point> const& points, Axis const& x, Axis const& y, int cells) {
    Points kept;
    std::set<std::pair<long, long>> taken;
    for (auto const& p : points) {
        if (!(p.x > 0 && p.y > 0)) continue;
        auto cell =
            std::pair{std::lround(fraction(x, p.x) * cells), std::lround(fraction(y, p.y) * cells)};
        if (taken.insert(cell).second) kept.push_back({p.x, p.y});
    }
    return kept;
}

// `count` points of a sorted curve, spread evenly across the x axis and
// shifted by `phase` (0..1) of a spacing, so that curves that coincide still
// show each one's markers.
Points markers_along(Points const& curve, Axis const& x, std::size_t count, double phase) {
    Points kept;
    if (curve.empty()) return kept;
    for (std::size_t k = 0; k < count; ++k) {
        double f = (static_cast<double>(k) + phase) / static_cast<double>(count);
        double target = x.log ? x.lo * std::pow(x.hi / x.lo, f) : x.lo + (x.hi - x.lo) * f;
        auto it = std::lower_bound(curve.begin(), curve.end(), target,
                                   [](auto const& p, double v) { return p.first < v; });
        if (it == curve.end()) it = std::prev(it);
        if (it != curve.begin() &&
            std::fabs(std::prev(it)->first - target) < std::fabs(it->first - target))
            it = std::prev(it);
        if (kept.empty() || kept.back() != *it) kept.push_back(*it);
    }
    return kept;
}

// The y range that puts `top` at `top_fraction` of the plot height.
double y_high(Axis const& y, double top, double top_fraction) {
    if (y.log) return y.lo * std::pow(top / y.lo, 1 / top_fraction);
    return y.lo + (top - y.lo) / top_fraction;
}

// A label above the plot, for the value x at axis fraction `want`.
struct Label {
    double x, want, width;
    std::string text, color;
    double at;        // its centre, as an axis fraction, once placed
    std::size_t row;  // 0: the lowest
};

// Places labels (sorted by `want`) side by side in as few rows as their
// widths need: in each row, labels that would overlap form a cluster, laid
// out edge to edge and centred on the mean of what its labels want, within
// the plot. Returns the number of rows.
std::size_t place_labels(std::vector<Label>& labels) {
    double total = 0;
    for (auto const& l : labels) total += l.width;
    std::size_t rows = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(total / 0.9)));
    for (std::size_t row = 0; row < rows; ++row) {
        struct Cluster {
            std::vector<std::size_t> members;
            double width = 0, sum = 0;  // sum of (wanted left edge - offset in cluster)
            double left = 0;
        };
        std::vector<Cluster> clusters;
        for (std::size_t i = row; i < labels.size(); i += rows) {
            auto& l = labels[i];
            l.row = row;
            Cluster c;
            c.members = {i};
            c.width = l.width;
            c.sum = l.want - l.width / 2;
            c.left = std::clamp(c.sum, 0.0, std::max(0.0, 1 - c.width));
            clusters.push_back(std::move(c));
            while (clusters.size() > 1 &&
                   clusters[clusters.size() - 2].left + clusters[clusters.size() - 2].width >
                       clusters.back().left) {
                Cluster last = std::move(clusters.back());
                clusters.pop_back();
                auto& merged = clusters.back();
                merged.sum += last.sum - merged.width * static_cast<double>(last.members.size());
                merged.width += last.width;
                merged.members.insert(merged.members.end(), last.members.begin(),
                                      last.members.end());
                merged.left = std::clamp(merged.sum / static_cast<double>(merged.members.size()),
                                         0.0, std::max(0.0, 1 - merged.width));
            }
        }
        for (auto const& c : clusters) {
            double left = c.left;
            for (std::size_t i : c.members) {
                labels[i].at = left + labels[i].width / 2;
                left += labels[i].width;
            }
        }
    }
    return rows;
}

// ---------------------------------------------------------------------------
// The charts.

std::string op_label(model::Matmul const& m) {
    return m.layer.empty() ? m.name : m.layer + "/" + m.name;
}

std::string chart_title(ReportContext const& context) {
    if (!context.scenario.title.empty()) return context.scenario.title;
    return context.info.name.empty() ? "roofline" : context.info.name;
}

std::string chip_name(model::Hardware const& hw) {
    return hw.display_name == hw.id || hw.display_name.empty()
               ? hw.id
               : hw.display_name + " [" + hw.id + "]";
}

// The compute dtypes used on a chip, grouped by equal peak (bf16 and fp16 on
// an H100 share one roof), highest peak first.
struct Roof {
    std::string dtypes;  // "bf16, fp16"
    double peak;
    double ridge;
};

std::vector<Roof> roofs(ReportContext const& context, model::Hardware const& hw) {
    std::vector<Roof> result;
    for (int dtype : context.compute_dtypes()) {
        auto peak = hw.peak_for(dtype);
        if (!peak) continue;
        auto same = std::find_if(result.begin(), result.end(),
                                 [&](Roof const& r) { return r.peak == *peak; });
        if (same != result.end())
            same->dtypes += ", " + context.dtype_name(dtype);
        else
            result.push_back({context.dtype_name(dtype), *peak, *peak / hw.hbm_bytes_per_s});
    }
    std::stable_sort(result.begin(), result.end(),
                     [](Roof const& a, Roof const& b) { return a.peak > b.peak; });
    return result;
}

std::string unsupported_note(ReportContext const& context, model::Matmul const& m) {
    return op_label(m) + ": not plotted, no " + context.dtype_name(m.compute_dtype) +
           " peak on this chip";
}

Chart roofline_chart(ReportContext const& context, ChartData const& data, std::size_t t) {
    auto const& hw = context.target(t);
    auto const& matmuls = context.scenario.matmuls;
    auto const roof_list = roofs(context, hw);

    Chart chart;
    chart.stem = "roofline-" + file_part(hw.id);
    chart.title = chart_title(context);
    chart.subtitle = "Roofline of " + chip_name(hw);
    chart.x.label = "arithmetic intensity (FLOP/byte)";
    chart.y.label = "attained (FLOP/s)";
    chart.x.log = chart.y.log = true;

    double x_min = INFINITY, x_max = 0, y_min = INFINITY, top = 0;
    for (std::size_t i = 0; i < matmuls.size(); ++i)
        for (auto const& p : data.roofline(i, t))
            if (p.x > 0 && p.y > 0) {
                x_min = std::min(x_min, p.x), x_max = std::max(x_max, p.x);
                y_min = std::min(y_min, p.y), top = std::max(top, p.y);
            }
    for (auto const& r : roof_list) {
        x_min = std::min(x_min, r.ridge), x_max = std::max(x_max, r.ridge);
        top = std::max(top, r.peak);
    }
    if (!(x_min <= x_max)) x_min = 1, x_max = 1e4;
    chart.x.lo = nice_floor(x_min / 1.3);
    chart.x.hi = nice_ceil(x_max * 1.5);
    if (!(y_min <= top)) y_min = top = hw.hbm_bytes_per_s * chart.x.hi;
    chart.y.lo = nice_floor(y_min / 1.3);
    chart.y.hi = y_high(chart.y, top, 0.88);
    chart.x.ticks = log_ticks(chart.x.lo, chart.x.hi, flops_tick);
    chart.y.ticks = log_ticks(chart.y.lo, chart.y.hi, flops_tick);

    std::string const bandwidth = eng(hw.hbm_bytes_per_s, "B/s");
    for (std::size_t r = 0; r < roof_list.size(); ++r) {
        auto const& roof = roof_list[r];
        chart.series.push_back({r == 0 ? "roof (HBM " + bandwidth + ")" : "",
                                "with lines lw 2.5 lc rgb '" + std::string(roof_color) + "'",
                                {{chart.x.lo, hw.hbm_bytes_per_s * chart.x.lo},
                                 {roof.ridge, roof.peak},
                                 {chart.x.hi, roof.peak}},
                                ""});
        chart.series.push_back({"",
                                "with points pt 7 ps 1.4 lc rgb '" + std::string(roof_color) + "'",
                                {{roof.ridge, roof.peak}},
                                ""});
        chart.decorations.push_back("set arrow from first " + num(roof.ridge) +
                                    ", graph 0 to first " + num(roof.ridge) + ", first " +
                                    num(roof.peak) + " nohead dt 2 lw 1 lc rgb '#777777' back");
        // The label sits left of the ridge, above the bandwidth slope, where
        // nothing is drawn; right of it when the axis leaves no room.
        std::string text = roof.dtypes + ": peak " + eng(roof.peak, "FLOP/s") + ", ridge " +
                           eng(roof.ridge, "FLOP/B");
        double width = (static_cast<double>(text.size()) + 1) * char_width_graph;
        bool left = fraction(chart.x, roof.ridge) > width;
        chart.decorations.push_back("set label " + literal(text) + " at first " + num(roof.ridge) +
                                    ", first " + num(roof.peak) + (left ? " right" : " left") +
                                    " offset character " + (left ? "-0.8" : "0.8") +
                                    ", 0.9 tc rgb '" + roof_color + "' front noenhanced");
    }

    bool several_roofs = roof_list.size() > 1;
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
        auto const& m = matmuls[i];
        auto const& points = data.roofline(i, t);
        if (!hw.peak_for(m.compute_dtype)) {
            chart.notes.push_back(unsupported_note(context, m));
            continue;
        }
        Series s;
        s.title = op_label(m);
        if (several_roofs) s.title += " (" + context.dtype_name(m.compute_dtype) + ")";
        s.style = "with points pt " + std::to_string(open_point(i)) + " ps 1.3 lw 1.5 lc rgb '" +
                  color(i) + "'";
        s.points = thin(points, chart.x, chart.y, 160);
        chart.series.push_back(std::move(s));
    }
    return chart;
}

bool is_geometric(std::vector<double> const& values) {
    if (values.size() < 3 || values[0] <= 0) return false;
    double ratio = values[1] / values[0];
    if (std::fabs(ratio - 1) < 1e-9) return false;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (values[i] <= 0 || std::fabs(values[i] / values[i - 1] / ratio - 1) > 1e-9) return false;
    return true;
}

Chart sweep_chart(ReportContext const& context, ChartData const& data, std::size_t v,
                  std::size_t t) {
    auto const& hw = context.target(t);
    auto const& scenario = context.scenario;
    auto const& matmuls = scenario.matmuls;
    auto const& sweep = scenario.sweeps[v];
    auto const roof_list = roofs(context, hw);

    Chart chart;
    chart.stem = "sweep-" + file_part(sweep.name) + "-" + file_part(hw.id);
    chart.title = chart_title(context);
    chart.subtitle = "Attained FLOP/s against " + sweep.name + " on " + chip_name(hw);
    std::string fixed;
    for (std::size_t w = 0; w < scenario.sweeps.size(); ++w)
        if (w != v)
            fixed += (fixed.empty() ? "" : ", ") + scenario.sweeps[w].name + " = " +
                     value_text(scenario.sweeps[w].values.front());
    if (!fixed.empty()) chart.subtitle += " (" + fixed + ")";
    chart.x.label = sweep.name;
    chart.y.label = "attained (FLOP/s)";

    auto const [lo_it, hi_it] = std::minmax_element(sweep.values.begin(), sweep.values.end());
    double x_lo = *lo_it, x_hi = *hi_it;
    bool geometric = is_geometric(sweep.values);
    chart.x.log = x_lo > 0 && (geometric || x_hi / x_lo > 100);
    if (x_lo == x_hi) {
        x_lo = chart.x.log ? x_lo / 2 : x_lo - std::max(1.0, std::fabs(x_lo) / 2);
        x_hi = chart.x.log ? x_hi * 2 : x_hi + std::max(1.0, std::fabs(x_hi) / 2);
    } else if (sweep.values.size() <= 40) {
        // Few values are drawn as points: keep them off the frame.
        if (chart.x.log) {
            double pad = std::pow(x_hi / x_lo, 0.02);
            x_lo /= pad, x_hi *= pad;
        } else {
            double pad = (x_hi - x_lo) * 0.02;
            x_lo -= pad, x_hi += pad;
        }
    }
    chart.x.lo = x_lo, chart.x.hi = x_hi;
    if (chart.x.log && geometric && sweep.values.size() <= 12) {
        for (double value : sweep.values) chart.x.ticks.push_back({value, value_text(value)});
    } else {
        chart.x.ticks =
            chart.x.log ? log_ticks(x_lo, x_hi, value_text) : linear_ticks(x_lo, x_hi, value_text);
    }
    chart.y.log = chart.x.log;

    // The curves, with the critical value as a point of the curve: there the
    // case turns compute-bound, so it attains the peak exactly.
    struct Marker {
        std::size_t matmul;
        double x, peak;
    };
    std::vector<Marker> markers;
    std::vector<Series> curves;
    std::vector<std::pair<std::size_t, std::size_t>>
        marker_curves;  // (matmul, curve) with separate markers
    std::vector<Series> critical_points;
    double y_min = INFINITY, top = 0;
    for (auto const& r : roof_list) top = std::max(top, r.peak);
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
        auto const& m = matmuls[i];
        auto peak = hw.peak_for(m.compute_dtype);
        if (!peak) {
            chart.notes.push_back(unsupported_note(context, m));
            continue;
        }
        double critical = context.grid.critical_value(0, i, t, v);
        Series s;
        s.title = op_label(m) + ": ";
        s.title += std::isnan(critical) ? "never compute-bound"
                                        : "critical " + sweep.name + " = " + value_text(critical);
        for (auto const& p : data.sweep(v, i, t))
            if (!chart.y.log || p.y > 0) s.points.push_back({p.x, p.y});
        bool shown = !std::isnan(critical) && critical >= *lo_it && critical <= *hi_it;
        if (shown) {
            markers.push_back({i, critical, *peak});
            s.points.push_back({critical, *peak});
        }
        std::stable_sort(s.points.begin(), s.points.end(),
                         [](auto const& a, auto const& b) { return a.first < b.first; });
        for (auto const& p : s.points)
            y_min = std::min(y_min, p.second), top = std::max(top, p.second);
        std::string line =
            " lw 2 dt " + std::to_string(dash_type(i)) + " lc rgb '" + color(i) + "'";
        std::string point = " pt " + std::to_string(filled_point(i)) + " ps 0.9";
        if (s.points.size() <= 12) {
            s.style = "with linespoints" + line + point;
            curves.push_back(std::move(s));
        } else {
            // Dense curves: the line, and a few markers placed so that curves
            // lying on top of each other still show every marker.
            s.style = "with lines" + line;
            s.key_style = "with linespoints" + line + point;
            curves.push_back(std::move(s));
            marker_curves.push_back({i, curves.size() - 1});
        }
    }
    if (!(top > 0)) top = 1;
    if (!(y_min <= top)) y_min = top / 100;
    chart.y.lo = chart.y.log ? nice_floor(y_min / 1.3) : 0;

    // Critical values: a dotted line up from the axis to above the highest
    // peak, and there the value, in a band that no curve reaches. Equal values
    // share one label; labels that would touch are spread sideways and joined
    // to their lines by short leaders.
    std::stable_sort(markers.begin(), markers.end(),
                     [](Marker const& a, Marker const& b) { return a.x < b.x; });
    std::vector<Label> labels;
    for (auto const& mk : markers) {
        critical_points.push_back({"",
                                   "with points pt 6 ps 2 lw 2 lc rgb '" + color(mk.matmul) + "'",
                                   {{mk.x, mk.peak}},
                                   ""});
        if (!labels.empty() && labels.back().x == mk.x) {
            if (labels.back().color != color(mk.matmul)) labels.back().color = roof_color;
            continue;
        }
        std::string text = value_text(mk.x);
        labels.push_back({mk.x, fraction(chart.x, mk.x),
                          (static_cast<double>(text.size()) + 1.2) * char_width_graph, text,
                          color(mk.matmul), 0, 0});
    }
    std::size_t const rows = place_labels(labels);
    double const top_fraction = 1 - (0.075 + 1.5 * char_height_graph * static_cast<double>(rows));
    chart.y.hi = y_high(chart.y, top, top_fraction);
    chart.y.ticks = chart.y.log ? log_ticks(chart.y.lo, chart.y.hi, flops_tick)
                                : linear_ticks(chart.y.lo, chart.y.hi, flops_tick);
    for (auto const& label : labels) {
        double row_y =
            top_fraction + 0.05 + 1.5 * char_height_graph * static_cast<double>(label.row);
        double line_top = top_fraction + 0.012;
        std::string lc = " lc rgb '" + label.color + "'";
        chart.decorations.push_back("set arrow from first " + num(label.x) + ", graph 0 to first " +
                                    num(label.x) + ", graph " + num(line_top) +
                                    " nohead dt 3 lw 1.2" + lc + " back");
        chart.decorations.push_back("set arrow from first " + num(label.x) + ", graph " +
                                    num(line_top) + " to graph " + num(label.at) + ", graph " +
                                    num(row_y - 0.55 * char_height_graph) + " nohead lw 1" + lc +
                                    " back");
        chart.decorations.push_back("set label " + literal(label.text) + " at graph " +
                                    num(label.at) + ", graph " + num(row_y) + " center tc rgb '" +
                                    label.color + "' front noenhanced");
    }

    // The peaks: dashed lines across, named at the left end, where the
    // curves are still low; above the line, or below it when the peak above
    // is too close for two lines of text.
    double above = 2;  // axis fraction of the previous (higher) peak
    for (auto const& roof : roof_list) {
        chart.series.insert(chart.series.begin(),
                            {"",
                             "with lines dt 2 lw 1.5 lc rgb '" + std::string(roof_color) + "'",
                             {{chart.x.lo, roof.peak}, {chart.x.hi, roof.peak}},
                             ""});
        double at = fraction(chart.y, roof.peak);
        bool below = above - at < 1.4 * char_height_graph;
        chart.decorations.push_back(
            "set label " + literal(roof.dtypes + " peak " + eng(roof.peak, "FLOP/s")) +
            " at graph 0.01, first " + num(roof.peak) + " left offset 0, character " +
            (below ? "-0.8" : "0.7") + " tc rgb '" + roof_color + "' front noenhanced");
        above = below ? -1 : at;
    }
    std::vector<Series> curve_markers;
    for (std::size_t k = 0; k < marker_curves.size(); ++k) {
        auto [i, curve] = marker_curves[k];
        double phase = (static_cast<double>(k) + 0.5) / static_cast<double>(marker_curves.size());
        curve_markers.push_back({"",
                                 "with points pt " + std::to_string(filled_point(i)) +
                                     " ps 0.9 lc rgb '" + color(i) + "'",
                                 markers_along(curves[curve].points, chart.x, 10, phase), ""});
    }
    for (auto* group : {&curves, &curve_markers, &critical_points})
        for (auto& s : *group) chart.series.push_back(std::move(s));
    return chart;
}

// ---------------------------------------------------------------------------
// gnuplot: gnuplot-iostream writes each script (commands and inline data)
// into a file in memory, which a gnuplot process then runs as its script.
// Not a pipe to its stdin: gnuplot reads a piped stdin one byte per read(2)
// and gnuplot-iostream flushes after every data row, which together made the
// charts of a 330,000-case report four times slower.

struct Fd {
    int fd = -1;
    explicit Fd(int f = -1) : fd(f) {}
    Fd(Fd const&) = delete;
    Fd& operator=(Fd const&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// A file in memory, at a descriptor above the ones a child's are moved to.
int memory_file(char const* name) {
    int fd = ::memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0 && fd < 10) {
        int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
        ::close(fd);
        fd = high;
    }
    if (fd < 0)
        throw ChartError(std::string("cannot make a gnuplot script: ") + std::strerror(errno));
    return fd;
}

class Script {
public:
    Script() : file_(memory_file("roofline-gnuplot-script")) {
        int copy = ::fcntl(file_.fd, F_DUPFD_CLOEXEC, 0);
        FILE* stream = copy < 0 ? nullptr : ::fdopen(copy, "w");
        if (!stream) {
            if (copy >= 0) ::close(copy);
            throw ChartError(std::string("cannot make a gnuplot script: ") + std::strerror(errno));
        }
        gnuplot_ = std::make_unique<Gnuplot>(stream);  // closes `stream`
        gnuplot_->imbue(std::locale::classic());
        // Ten digits place a point within 1e-10 of the plot, far below a pixel.
        *gnuplot_ << std::setprecision(10);
    }
    Gnuplot& gp() { return *gnuplot_; }
    // Closes the writing side; the script is complete.
    void end() {
        *gnuplot_ << "exit\n";
        gnuplot_->flush();
        bool failed = gnuplot_->fail();
        gnuplot_.reset();
        if (failed)
            throw ChartError("cannot write a gnuplot script: " + std::string(std::strerror(errno)));
    }
    int fd() const { return file_.fd; }

private:
    Fd file_;
    std::unique_ptr<Gnuplot> gnuplot_;
};

struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
    SpawnActions(SpawnActions const&) = delete;
    SpawnActions& operator=(SpawnActions const&) = delete;
};

struct Finished {
    bool ok;
    std::string errors;  // gnuplot's stderr
};

class GnuplotProcess {
public:
    // Runs `gnuplot -d /dev/fd/3` (no init file; the script as fd 3, stdin
    // empty) in `folder`, which must exist, so that output file names need no
    // path. Throws ChartError.
    GnuplotProcess(Script const& script, std::string const& folder)
        : errors_(memory_file("roofline-gnuplot-stderr")) {
        SpawnActions spawn;
        posix_spawn_file_actions_addopen(&spawn.actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&spawn.actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_adddup2(&spawn.actions, errors_.fd, 2);
        posix_spawn_file_actions_adddup2(&spawn.actions, script.fd(), 3);
        if (!folder.empty()) posix_spawn_file_actions_addchdir_np(&spawn.actions, folder.c_str());
        std::string program = "gnuplot", option = "-d", path = "/dev/fd/3";
        char* argv[] = {program.data(), option.data(), path.data(), nullptr};
        int rc = ::posix_spawnp(&pid_, "gnuplot", &spawn.actions, nullptr, argv, environ);
        if (rc == ENOENT)
            throw ChartError(
                "gnuplot not found on PATH; the charts need it (Debian: apt-get install "
                "gnuplot-nox)");
        if (rc != 0) throw ChartError(std::string("cannot start gnuplot: ") + std::strerror(rc));
    }
    ~GnuplotProcess() {
        if (pid_ > 0) finish();
    }
    GnuplotProcess(GnuplotProcess const&) = delete;
    GnuplotProcess& operator=(GnuplotProcess const&) = delete;

    // Waits for gnuplot to exit. gnuplot stops at the first error in a script.
    Finished finish() {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        std::string errors;
        std::array<char, 4096> buf;
        for (off_t at = 0; errors.size() < 65536;) {
            ssize_t n = ::pread(errors_.fd, buf.data(), buf.size(), at);
            if (n <= 0) break;
            errors.append(buf.data(), static_cast<std::size_t>(n));
            at += n;
        }
        bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!ok && errors.find_first_not_of(" \n") == std::string::npos)
            errors = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                         : "exit status " + std::to_string(WEXITSTATUS(status));
        return {ok, errors};
    }

private:
    pid_t pid_ = -1;
    Fd errors_;
};

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
        for (auto const& s : chart.series) gp.send1d(s.points);
        gp << "unset output\n";
    }
    gp.flush();
}

// An empty series ('-' with no points) makes gnuplot warn and drop its key
// entry; give it one point outside the range instead.
void fill_empty(Chart& chart) {
    for (auto& s : chart.series)
        if (s.points.empty())
            s.points.push_back(
                {chart.x.log ? chart.x.lo / 1e3 : chart.x.lo - (chart.x.hi - chart.x.lo),
                 chart.y.log ? chart.y.lo / 1e3 : chart.y.lo - (chart.y.hi - chart.y.lo)});
}

// gnuplot's first few non-blank lines of complaint, on one line.
std::string first_lines(std::string const& text, std::size_t lines) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; lines > 0 && std::getline(in, line);) {
        auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos) continue;
        out += (out.empty() ? "" : " | ") + line.substr(start);
        --lines;
    }
    return out;
}

}  // namespace

void render_charts(std::string const& folder, ReportContext const& context, ChartData const& data) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder))
        throw ChartError("cannot create chart folder " + folder + ": " +
                         (ec ? ec.message() : "not a folder"));
    std::string const where = std::filesystem::absolute(folder, ec).string();
    if (ec) throw ChartError("cannot find chart folder " + folder + ": " + ec.message());

    std::vector<Chart> charts;
    for (std::size_t t = 0; t < context.grid.target_count; ++t) {
        charts.push_back(roofline_chart(context, data, t));
        for (std::size_t v = 0; v < context.grid.sweep_count; ++v)
            charts.push_back(sweep_chart(context, data, v, t));
    }
    for (auto& chart : charts) fill_empty(chart);

    // A few charts per gnuplot (a start costs about 25 ms), and gnuplots at
    // once on all cores but one, which the caller keeps for the workbook.
    std::size_t const cores = std::max(1u, std::thread::hardware_concurrency());
    std::size_t const parallel = std::clamp<std::size_t>(cores - 1, 1, 8);
    std::size_t const per_process =
        std::clamp<std::size_t>((charts.size() + parallel - 1) / parallel, 1, 8);

    struct Job {
        std::size_t first, last;  // charts [first, last)
        Script script;
        std::optional<GnuplotProcess> process;
    };
    std::deque<Job> running;
    std::string failure;
    auto finish_oldest = [&] {
        Job& job = running.front();
        auto finished = job.process->finish();
        if (!finished.ok && failure.empty()) {
            // gnuplot stopped at the first chart that it could not finish.
            std::size_t bad = job.first;
            while (bad + 1 < job.last && std::filesystem::exists(std::filesystem::path(where) /
                                                                 (charts[bad].stem + ".png")))
                ++bad;
            failure = "gnuplot failed drawing " + charts[bad].stem + " in " + folder + ": " +
                      first_lines(finished.errors, 4);
        }
        running.pop_front();
    };
    for (std::size_t first = 0; first < charts.size() && failure.empty(); first += per_process) {
        auto& job = running.emplace_back();
        job.first = first;
        job.last = std::min(charts.size(), first + per_process);
        for (std::size_t c = job.first; c < job.last; ++c) draw(job.script.gp(), charts[c]);
        job.script.end();
        while (running.size() > parallel) finish_oldest();
        job.process.emplace(job.script, where);
    }
    while (!running.empty()) finish_oldest();
    if (!failure.empty()) throw ChartError(failure);

    for (auto const& chart : charts)
        for (char const* ext : {".svg", ".png"}) {
            auto path = std::filesystem::path(where) / (chart.stem + ext);
            if (std::filesystem::file_size(path, ec) == 0 || ec)
                throw ChartError("gnuplot wrote no " + path.string());
        }
}

bool gnuplot_available() {
    try {
        Script script;
        script.gp() << "set terminal svg\nset terminal pngcairo\n";
        script.end();
        return GnuplotProcess(script, "").finish().ok;
    } catch (ChartError const&) {
        return false;
    }
}

}  // namespace roofline::report
