#pragma once
// The charts of a report as output::Charts, and the parts they share:
//   chart_model.cpp     chip names, roofs, notes
//   roofline_chart.cpp  roofline-<HW>
//   sweep_chart.cpp     sweep-<V>-<HW>
//   step_chart.cpp      step-<V>-<HW>
//   scaling_chart.cpp   scaling-<V>-<HW>
//   request_chart.cpp   request-<NAME>-<HW>
//   serve_chart.cpp     serve-<NAME>-latency-<HW>, serve-<NAME>-front
// Axes, ticks, roofs, keys and the sampler are output's (output/chart_*),
// shared with the diff's charts; output::render_charts draws them. Private
// to src/report.

#include "roofline/report/chart_writer.hpp"

#include "output/chart.hpp"
#include "output/chart_axes.hpp"
#include "output/chart_roofs.hpp"
#include "output/file_names.hpp"
#include "output/gnuplot_text.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace roofline::report::chart_detail {

using output::eng;
using output::literal;
using output::num;
using output::value_text;

using output::Axis;
using output::Band;
using output::Chart;
using output::color;
using output::dash_type;
using output::filled_point;
using output::key_note;
using output::open_point;
using output::Points;
using output::Series;
using output::Ticks;

using output::char_height_graph;
using output::char_width_graph;
using output::decimal_tick;
using output::fraction;
using output::linear_ticks;
using output::log_axis;
using output::log_ticks;
using output::nice_ceil;
using output::nice_floor;
using output::power_tick;
using output::sweep_axis;
using output::time_tick;
using output::time_unit;
using output::TimeUnit;
using output::y_high;
using output::zero_based;

constexpr char const* roof_color = "#303030";

// "layer/name", or "name" at the top level.
std::string op_label(model::Op const& m);
// The scenario's title, else the report's name.
std::string chart_title(ReportContext const& context);
// "display name [id]", or the id alone.
std::string chip_name(model::Hardware const& hw);
// " (S = 128, T = 1)": the other sweeps, at their first value, for the
// subtitle of a chart along sweep v; empty with one sweep.
// " (S = 128, wdt = bf16)": the values of the other sweeps at point `base`.
// `skip`: a second sweep left out (the lines of a scaling chart).
std::string other_sweeps_note(ReportContext const& context, std::size_t v, std::size_t base = 0,
                              std::size_t skip = static_cast<std::size_t>(-1));
// The dtypes of the dtype sweeps at point `base`, joined with '_' ("fp8",
// "fp8_bf16"): the end of a chart's name; "" without a dtype sweep.
std::string dtypes_at(ReportContext const& context, std::size_t base);

constexpr std::size_t no_sweep = static_cast<std::size_t>(-1);

// Whether sweep w, of several values, sets a mesh size (a mesh axis's size
// depends on it), as the Plan's mesh sweeps (report::make_plan).
bool sets_mesh(ReportContext const& context, std::size_t w);
// The points that charts along sweep v are drawn from, in increasing order:
// the sweeps of numbers that set no mesh size at their first value, the
// dtype sweeps and the mesh sweeps at every combination of their values
// (but v and `skip`, at their first). One chart per point: on a mesh, one
// per mesh size. dtype_bases() when no sweep sets a mesh size; with v =
// no_sweep, every point ChartData keeps a slice from.
std::vector<std::size_t> chart_bases(ReportContext const& context, std::size_t v,
                                     std::size_t skip = no_sweep);

// A chart along sweep v on `hw`, named <kind>-<V>-<HW>, then the value of
// each mesh sweep but v and `skip` at `base` (<kind>-<V>-<HW>-TP8), then the
// dtypes of a dtype sweep (<kind>-<V>-<HW>-<DTYPE>, dtypes_at `base`),
// titled chart_title: the start of the sweep, step and scaling charts.
Chart chart_along(ReportContext const& context, char const* kind, std::size_t v,
                  model::Hardware const& hw, std::size_t base, std::size_t skip = no_sweep);

// The marks on points whose step does not fit in a chip's HBM (resident
// bytes per chip > hbm_capacity) or misses the scenario's slo (the step >
// slo step, as the Plan reads them): a ring, a triangle around the point
// (chart_marks.cpp). `axes`: "axes x1y2 " for points on the right axis.
constexpr char const* no_fit_style = "with points pt 6 ps 2.4 lw 2 lc rgb '#d62728'";
constexpr char const* slo_style = "with points pt 8 ps 2.4 lw 2 lc rgb '#ff7f0e'";
struct StepMarks {
    std::string axes{};
    Points no_fit{}, misses_slo{};
    // Marks (x, y) as `step` says.
    void add(ReportContext const& context, StepTotals const& step, double x, double y);
};
// Adds the marks as series, and a key entry for each kind drawn.
void add_step_marks(Chart& chart, ReportContext const& context,
                    std::vector<StepMarks> const& marks);
// Points between two values of sweep v (the first sweep varies slowest).
std::size_t sweep_stride(engine::CaseGrid const& grid, std::size_t v);
// Whether some op has a peak on `hw`: else a chart of its time has nothing to draw.
bool any_supported(ReportContext const& context, model::Hardware const& hw);

// The compute dtypes used on a chip, grouped by equal peak (bf16 and fp16 on
// an H100 share one roof), highest peak first.
struct Roof {
    std::string dtypes;  // "bf16, fp16"
    double peak;
    double ridge;
};

std::vector<Roof> roofs(ReportContext const& context, model::Hardware const& hw);

// A network roof (with a mesh): the cases of communicating ops drawn at
// their network intensity, FLOPs per byte a chip receives (flops /
// net_bytes), meet attainable = min(peak, intensity x rate), rate being the
// bytes per second their collectives receive. The rate is taken from the
// cases, as the largest net_bytes / t_net of the op (ChartData::network_rate):
// the engine's own ring formulas set it (W over an NVLink switch or DCN, 2W
// on an ICI ring, the sum over several ICI axes, ...), with no second copy
// of them here; the latency floor only lowers a case below its roof. A
// network-bound case (t_lower = t_net) lies on its roof; one bound by HBM or
// compute below it. Ops with the same rate share one roof, the highest peak
// of their compute dtypes on the chip. The PNG roofline and the workbook's
// Charts sheet draw them.
struct NetRoof {
    double rate = 0, peak = 0;
    std::string links;  // "NVLink", "ICI, DCN"
};
// The roofs on target t, fastest first; `rate(op)`: the op's rate, 0 for
// an op not drawn.
std::vector<NetRoof> network_roofs(ReportContext const& context, std::size_t t,
                                   std::function<double(std::size_t)> const& rate);
// "network roof (NVLink, 450 GB/s received per chip)"
std::string network_roof_title(NetRoof const& roof);

// The key line of a matmul that a chip has no peak for.
// `dtypes`: the compute dtype the chart shows; "" for every one of the op's.
std::string unsupported_note(ReportContext const& context, model::Op const& m,
                             std::string const& dtypes = "");
// "bf16", or "bf16 or fp8" where a dtype sweep changes the op's compute dtype.
std::string dtypes_text(ReportContext const& context, model::Op const& m);

// roofline-<HW> for target t (roofline_chart.cpp).
Chart roofline_chart(ReportContext const& context, ChartData const& data, std::size_t t);
// sweep-<V>-<HW> for sweep v and target t (sweep_chart.cpp), the other
// sweeps held at their values at point `base` (one of chart_bases), named
// as chart_along says.
// The points of V whose step does not fit or misses the slo are marked in
// a row along the bottom of the plot (the step is the whole model's, not an op's).
Chart sweep_chart(ReportContext const& context, ChartData const& data, Summary const& summary,
                  std::size_t v, std::size_t t, std::size_t base = 0);

// Whether step-<V>-<HW> is drawn: sweep v has more than one value and some
// matmul has a peak on target t (step_chart.cpp).
bool has_step_chart(ReportContext const& context, std::size_t v, std::size_t t);
// step-<V>-<HW>: the step time (sum of count x t_lower) against sweep v, the
// other sweeps at their first value, one stacked band per layer path.
// `base`: the point whose other sweep values the chart holds (chart_bases),
// named as chart_along says. Steps that do not fit or miss the slo marked.
Chart step_chart(ReportContext const& context, Summary const& summary, std::size_t v,
                 std::size_t t, std::size_t base = 0);

// Whether scaling-<V>-<HW> is drawn: the scenario has a mesh whose size
// changes along sweep v (the other sweeps at their first values), and some
// matmul has a peak on target t (scaling_chart.cpp).
bool has_scaling_chart(ReportContext const& context, std::size_t v, std::size_t t);
// scaling-<V>-<HW>: the step per chip and, with `tokens`, tokens/s per chip
// against the chips of the mesh along sweep v, one line per value of a
// handful of the first other sweep of numbers with several values (see
// line_values); `base` as for step_chart (chart_bases of v, line_sweep
// skipped). Steps that do not fit or miss the slo marked.
Chart scaling_chart(ReportContext const& context, Summary const& summary, std::size_t v,
                    std::size_t t, std::size_t base = 0);
// The sweep whose values are the lines of scaling-<V>-<HW>: the first sweep
// of numbers but v with more than one value; no_sweep when there is none.
std::size_t line_sweep(ReportContext const& context, std::size_t v);
// request-<NAME>-<HW>: request r's time per output token against the
// context length on target t, one line per sweep point (at most eight, the
// step points), each keyed with its TTFT and e2e (request_chart.cpp).
Chart request_chart(ReportContext const& context, std::size_t r, std::size_t t);
// serve-<NAME>-latency-<HW>: TTFT and TPOT p50 / p99 against the load on
// target t; serve-<NAME>-front: tokens/s per chip against tokens/s per user
// over every target (serve_chart.cpp). Only with context.has_serve().
Chart serve_latency_chart(ReportContext const& context, std::size_t t);
Chart serve_front_chart(ReportContext const& context);
// At most `most` of a sweep's values, as indices in increasing order of
// value: all when there are no more, else the first, the last and those
// nearest to even steps between them on the axis the sweep chart draws the
// sweep on (log for geometric values or a span of over two decades).
std::vector<std::size_t> line_values(std::vector<double> const& values, std::size_t most);

}  // namespace roofline::report::chart_detail
