#include "roofline/report/chart_writer.hpp"

#include "chart_model.hpp"
#include "output/chart_sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace roofline::report {

bool ChartData::OffLog::add(engine::Metrics const& m) {
    ++supported;
    bool const no_flops = !(m.counts.flops > 0);
    bool const no_bytes = !(m.counts.bytes_read + m.counts.bytes_written > 0);
    if (!no_flops && !no_bytes) return false;
    ++off;
    zero_flops |= no_flops;
    zero_bytes |= no_bytes;
    return true;
}

ChartData::ChartData(ReportContext const& context)
    : context_(context),
      matmuls_(context.grid.op_count),
      targets_(context.grid.target_count),
      roofline_(matmuls_ * targets_),
      network_(matmuls_ * targets_),
      onchip_(matmuls_ * targets_),
      off_log_(matmuls_ * targets_),
      network_rate_(matmuls_ * targets_, 0.0),
      bases_(chart_detail::chart_bases(context, chart_detail::no_sweep)) {
    auto const& grid = context.grid;
    roofline_points_ = output::even_sample(grid.point_count, max_points);
    stride_.assign(grid.sweep_count, 1);
    for (std::size_t v = grid.sweep_count; v-- > 1;)
        stride_[v - 1] = stride_[v] * grid.sweep_sizes[v];
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        sweep_values_.push_back(output::even_sample(grid.sweep_sizes[v], max_points));
    sweep_.resize(grid.sweep_count * bases_.size() * matmuls_ * targets_);
    digits_.resize(grid.sweep_count);
    for (std::size_t v = 0; v < grid.sweep_count; ++v) sets_mesh_.push_back(chart_detail::sets_mesh(context, v));
}

void ChartData::add(engine::Case const& c) {
    auto const& m = c.metrics;
    if (m.bound == engine::Bound::unsupported) return;
    std::size_t const series = c.op * targets_ + c.target;
    off_log_[series].add(m);
    // A case of 0 bytes has no intensity but attains its peak: on the sweep
    // chart, not on the roofline.
    if (!std::isfinite(m.attained)) return;
    bool const communicates = m.net_bytes > 0 && m.t_net > 0;
    if (communicates)
        network_rate_[series] = std::max(network_rate_[series], m.net_bytes / m.t_net);
    if (std::binary_search(roofline_points_.begin(), roofline_points_.end(), c.point)) {
        if (std::isfinite(m.intensity)) roofline_[series].push_back({m.intensity, m.attained});
        if (communicates) network_[series].push_back({m.counts.flops / m.net_bytes, m.attained});
        if (m.counts.bytes_onchip > 0 && m.counts.flops > 0)
            onchip_[series].push_back({m.counts.flops / m.counts.bytes_onchip, m.attained});
    }
    // Sweep v's slices: every other sweep of numbers that sets no mesh size
    // at its first value (its digit 0), one slice per combination of the
    // values of the dtype and mesh sweeps (a base, chart_bases).
    auto const& sweeps = context_.scenario.sweeps;
    std::size_t nonzero = 0, base = c.point;  // base: the point with those digits 0
    for (std::size_t v = 0; v < stride_.size(); ++v) {
        digits_[v] = c.point / stride_[v] % context_.grid.sweep_sizes[v];
        if (sweeps[v].of_dtypes || sets_mesh_[v] || digits_[v] == 0) continue;
        ++nonzero;
        base -= digits_[v] * stride_[v];
    }
    if (nonzero > 1) return;
    for (std::size_t v = 0; v < stride_.size(); ++v) {
        if (sweeps[v].of_dtypes) continue;
        std::size_t at = base;  // the slice's base
        if (sets_mesh_[v]) {
            if (nonzero > 0) continue;  // along a mesh sweep the others are at their first values
            at -= digits_[v] * stride_[v];
        } else if (nonzero == 1 && digits_[v] == 0) {
            continue;
        }
        if (!std::binary_search(sweep_values_[v].begin(), sweep_values_[v].end(), digits_[v]))
            continue;
        sweep_[slice(v, c.op, c.target, at)].push_back({context_.grid.sweep_value(c, v), m.attained});
    }
}

std::size_t ChartData::slice(std::size_t v, std::size_t matmul, std::size_t target,
                             std::size_t base) const {
    auto const b = static_cast<std::size_t>(
        std::lower_bound(bases_.begin(), bases_.end(), base) - bases_.begin());
    return ((v * bases_.size() + b) * matmuls_ + matmul) * targets_ + target;
}

}  // namespace roofline::report
