#pragma once
// The charts of a report (reports.md, "charts/"), drawn by gnuplot through
// gnuplot-iostream, each as .svg and .png (1000 x 700):
//   roofline-<HW>   log-log: arithmetic intensity (FLOP/byte) against attained
//                   FLOP/s; one roof per compute dtype used on the chip, its
//                   ridge marked; each matmul's cases as a labelled series.
//                   With a mesh, the cases that communicate once more at
//                   their network intensity (FLOPs per byte received), under
//                   a network roof per effective network bandwidth. With
//                   on-chip traffic and an onchip_bandwidth, those cases
//                   again at their on-chip intensity under an on-chip roof.
//   sweep-<V>-<HW>  attained FLOP/s against sweep variable V for every matmul
//                   (the other sweeps at their first value, but one chart per
//                   value of a sweep that sets a mesh size: sweep-B-<HW>-TP8),
//                   the peak(s) as horizontal lines, each matmul's critical V
//                   marked.
//   step-<V>-<HW>   the step time (sum of count x t_lower over the supported
//                   cases) against sweep variable V (the other sweeps as for
//                   sweep-<V>-<HW>), one filled band per layer path, stacked in
//                   Summary::layers order; for each sweep with more than one
//                   value, on each target that has a peak for some matmul.
//   request-<NAME>-<HW>  a request's time per output token (the decode step)
//                   against the context length prompt + i, one line per sweep
//                   point (at most eight), TTFT and e2e in each line's key.
// <HW> is the hardware id and <V> the sweep name, both identifiers; any other
// byte would become '_'.
//
// Names from the scenario (title, display names, matmul and layer names) are
// data: they reach gnuplot only as single-quoted, noenhanced string literals,
// and the points only as inline data ('-'). The same inputs give the same SVG
// bytes.

#include "roofline/output/errors.hpp"
#include "roofline/output/gnuplot.hpp"
#include "roofline/report/progress.hpp"
#include "roofline/report/report.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::report {

// gnuplot is missing, cannot be started, or fails; or the folder cannot be
// made. The message says which (the caller maps it to exit code 3).
using output::ChartError;

// Collects, while the cases stream past, the points the charts need. Bounded:
// at most `max_points` sweep points per series, sampled evenly (the first and
// last always kept), so memory does not grow with the sweep.
class ChartData {
public:
    static constexpr std::size_t max_points = 500;

    explicit ChartData(ReportContext const& context);
    void add(engine::Case const& c);  // cases arrive in CaseGrid order

    struct Point {
        double x, y;
    };
    // (intensity, attained) of the sampled supported cases of one matmul on
    // one target, in arrival order.
    std::vector<Point> const& roofline(std::size_t matmul, std::size_t target) const {
        return roofline_[matmul * targets_ + target];
    }
    // The supported cases of one matmul on one target that a log intensity
    // axis cannot show, because their FLOPs are 0 (intensity 0) or their
    // bytes are 0 (intensity infinite); over every case, not the sample.
    struct OffLog {
        std::size_t supported = 0, off = 0;  // cases
        bool zero_flops = false, zero_bytes = false;
        bool all() const { return off > 0 && off == supported; }
        // Counts a supported case; true when it is off the log axes.
        bool add(engine::Metrics const& m);
    };
    OffLog const& off_log(std::size_t matmul, std::size_t target) const {
        return off_log_[matmul * targets_ + target];
    }
    // With a mesh, of the same sampled cases those that communicate
    // (net_bytes > 0): (network intensity, attained), the intensity being
    // FLOPs per byte received over the network (flops / net_bytes).
    std::vector<Point> const& network(std::size_t matmul, std::size_t target) const {
        return network_[matmul * targets_ + target];
    }
    // Of the same sampled cases those with on-chip traffic (bytes_onchip >
    // 0 and FLOPs): (on-chip intensity, attained), FLOPs per on-chip byte.
    std::vector<Point> const& onchip(std::size_t matmul, std::size_t target) const {
        return onchip_[matmul * targets_ + target];
    }
    // The largest net_bytes / t_net over every communicating case of one
    // matmul on one target, not only the sample: the bytes per second its
    // collectives receive where their bandwidth, not their latency floor,
    // sets the time. 0 when none communicates.
    double network_rate(std::size_t matmul, std::size_t target) const {
        return network_rate_[matmul * targets_ + target];
    }
    // (value of sweep v, attained) along sweep v with the other sweeps of
    // numbers that set no mesh size at their first value and the dtype and
    // mesh sweeps at their values at point `base` (one of chart_bases along
    // v), in sweep order.
    std::vector<Point> const& sweep(std::size_t v, std::size_t matmul, std::size_t target,
                                    std::size_t base = 0) const {
        return sweep_[slice(v, matmul, target, base)];
    }

private:
    std::size_t slice(std::size_t v, std::size_t matmul, std::size_t target, std::size_t base) const;

    ReportContext const& context_;
    std::size_t matmuls_, targets_;
    std::vector<std::vector<Point>> roofline_, sweep_, network_, onchip_;
    std::vector<OffLog> off_log_;
    std::vector<double> network_rate_;
    std::vector<std::size_t> roofline_points_;  // sampled point indices, sorted
    std::vector<std::size_t> stride_;           // per sweep: points between two of its values
    std::vector<std::size_t> bases_;            // chart_bases: the slices' bases
    std::vector<bool> sets_mesh_;               // per sweep: it sets a mesh size
    std::vector<std::size_t> digits_;           // of the case being added
    std::vector<std::vector<std::size_t>>
        sweep_values_;  // per sweep: sampled value indices, sorted
};

// Renders every chart into `folder` (created if missing): roofline-<HW> for
// each target, sweep-<V>-<HW> for each sweep and target, step-<V>-<HW> and
// scaling-<V>-<HW> (from the complete `summary`) as above, each .svg and .png.
// Runs gnuplot as child processes, on all cores but one at most; changes no
// process-wide state (no chdir, no signal handlers), so it may run on a
// thread of its own beside the other writers. Throws ChartError. Tells
// `progress`, if any, of Phase::charts.
void render_charts(std::string const& folder, ReportContext const& context, ChartData const& data,
                   Summary const& summary, ProgressObserver* progress = nullptr);

using output::gnuplot_available;

}  // namespace roofline::report
