// What the diff charts need, collected while the cases stream past: sampled
// points per series and the roofs of each chip.
#include "diff_charts.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace roofline::diff {

namespace {

// Every stride-th case of a series as it streams past, and its last one: the
// diff reads cases.csv row by row and samples without output::even_sample's
// positions; its charts have always been drawn from these points, so the
// formula stays (a change would move them).
std::size_t stride_for(std::size_t n) {
    return std::max<std::size_t>(1,
                                 (n + DiffChartData::max_points - 1) / DiffChartData::max_points);
}

// Cases per matmul and chip in a report: the product of its sweeps' points.
std::size_t cases_per_series(ComparedReport const& report) {
    std::size_t n = 1;
    for (auto const& s : report.sweeps) n *= std::max<std::size_t>(s.points, 1);
    return n;
}

constexpr std::size_t max_roofs = 64;

bool same(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

}  // namespace

void DiffChartData::Series::add(double x, double y, std::size_t stride) {
    if (seen++ % stride == 0) points.push_back({x, y});
    last = {x, y};
}

std::vector<std::pair<double, double>> DiffChartData::Series::all() const {
    auto out = points;
    if (seen > 0 && (out.empty() || out.back() != last)) out.push_back(last);
    return out;
}

DiffChartData::DiffChartData(Matcher const& m)
    : matcher(m),
      stride_a(stride_for(cases_per_series(m.a()))),
      stride_b(stride_for(cases_per_series(m.b()))),
      roofs_a(m.pairing().pairs.size()),
      roofs_b(m.pairing().pairs.size()) {
    std::unordered_map<std::string, std::size_t> points;
    for (auto const* report : {&m.a(), &m.b()})
        for (auto const& s : report->sweeps) points[s.name] = std::max(points[s.name], s.points);
    for (auto const& name : m.sweep_names()) sweep_stride.push_back(stride_for(points[name]));
}

void DiffChartData::add(DiffCase const& c) {
    auto add_side = [&](Side const& side, int index, std::vector<Roof>& roofs, std::size_t stride) {
        if (side.bound == Bound::unsupported) return;
        auto& off = off_log[{c.pair, c.op}];
        // intensity = FLOPs / bytes: 0 without FLOPs, infinite without bytes,
        // NaN without both.
        if (!(side.intensity > 0) || !std::isfinite(side.intensity) || !(side.attained > 0)) {
            ++off.off;
            off.zero_flops |= !(side.intensity > 0) || std::isnan(side.intensity);
            off.zero_bytes |= !std::isfinite(side.intensity);
        } else {
            ++off.on;
            roofline[{c.pair, c.op, index}].add(side.intensity, side.attained, stride);
        }
        auto same_roof = [&](Roof const& r) {
            return r.dtype == side.dtype && r.peak == side.peak;
        };
        // A chip has a roof per compute dtype: a few. More (a forged report)
        // are left out, so that this search stays short.
        if (side.peak > 0 && side.ridge > 0 && roofs.size() < max_roofs &&
            std::none_of(roofs.begin(), roofs.end(), same_roof))
            roofs.push_back({side.dtype, side.peak, side.ridge});
    };
    auto const& pair = matcher.pairing().pairs[c.pair];
    if (pair.a.empty() || pair.b.empty()) return;  // hardware on one side only: nothing to compare
    if (c.status != Status::only_b) add_side(c.a, 0, roofs_a[c.pair], stride_a);
    if (c.status != Status::only_a) add_side(c.b, 1, roofs_b[c.pair], stride_b);
    double s = c.speedup();
    if (c.status != Status::matched || std::isnan(s)) return;
    if (first.empty()) first.assign(c.sweep.begin(), c.sweep.end());
    for (std::size_t v = 0; v < c.sweep.size(); ++v) {
        bool on_slice = !std::isnan(c.sweep[v]);
        for (std::size_t w = 0; on_slice && w < c.sweep.size(); ++w)
            on_slice = w == v || same(c.sweep[w], first[w]);
        if (on_slice) speedup[{v, c.pair, c.op}].add(c.sweep[v], s, sweep_stride[v]);
    }
}

}  // namespace roofline::diff
