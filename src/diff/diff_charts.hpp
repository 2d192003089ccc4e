#pragma once
// The charts of a diff, drawn by gnuplot, each as .svg and .png (1000 x 700),
// for every hardware pair with both sides present:
//   speedup-<V>-<A_HW>-<B_HW>  the speedup t_lower A / t_lower B against sweep
//                              variable V for every matmul (the other sweeps
//                              at their first value), with the HBM bandwidth
//                              ratio and the peak ratio(s) as reference lines:
//                              a memory-bound case sits on the first, a
//                              compute-bound one on the second.
//   roofline-<A_HW>-<B_HW>     both rooflines on one log-log chart (A dashed,
//                              B solid) with the cases of each side (A open,
//                              B filled markers); cases of 0 FLOPs or 0 bytes
//                              named in a note of the key instead.
// The key is below the plot, every entry shown. A pair with more than
// `max_ops_per_chart` matmuls gets its charts in parts of at most that many
// (sizes as equal as can be, matmuls in their order), `-1`, `-2`, ...
// appended to the names; within a chart no two matmuls share a colour.
// The data is collected while the cases stream past, bounded: at most
// `max_points` sampled points per series.

#include "roofline/diff/match.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace roofline::diff {

struct DiffChartData {
    static constexpr std::size_t max_points = 400;
    static constexpr std::size_t max_ops_per_chart = 12;  // at most output::palette_size

    struct Series {
        std::vector<std::pair<double, double>> points;  // sampled (x, y)
        std::size_t seen = 0;
        std::pair<double, double> last{};  // the last point seen (always drawn)
        void add(double x, double y, std::size_t stride);
        std::vector<std::pair<double, double>> all() const;  // points + last
    };
    struct Roof {
        std::uint32_t dtype;
        double peak, ridge;  // FLOP/s, FLOP/byte; bandwidth = peak / ridge
    };

    // The cases of one matmul and pair (either side) that a log intensity
    // axis cannot show: intensity 0 (0 FLOPs) or not finite (0 bytes).
    struct OffLog {
        std::size_t on = 0, off = 0;  // cases with and without a place on it
        bool zero_flops = false, zero_bytes = false;
    };

    explicit DiffChartData(Matcher const& matcher);
    void add(DiffCase const& c);

    Matcher const& matcher;
    std::vector<double> first;              // sweep values of the first matched case
    std::vector<std::size_t> sweep_stride;  // per sweep variable
    std::size_t stride_a = 1, stride_b = 1;
    std::map<std::tuple<std::size_t, std::uint32_t, std::uint32_t>, Series>
        speedup;  // (v, pair, matmul)
    std::map<std::tuple<std::uint32_t, std::uint32_t, int>, Series>
        roofline;                                     // (pair, matmul, side 0|1)
    std::map<std::pair<std::uint32_t, std::uint32_t>, OffLog> off_log;  // (pair, matmul)
    std::vector<std::vector<Roof>> roofs_a, roofs_b;  // per pair
};

// Renders every chart into `folder` (created if missing). Throws
// output::ChartError. Returns the file names written.
std::vector<std::string> render_diff_charts(std::string const& folder, DiffChartData const& data);

}  // namespace roofline::diff
