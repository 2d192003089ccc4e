#include "roofline/report/report.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::report {

std::vector<int> ReportContext::compute_dtypes() const {
    std::vector<int> dtypes;
    for (auto const& m : scenario.matmuls)
        if (std::find(dtypes.begin(), dtypes.end(), m.compute_dtype) == dtypes.end())
            dtypes.push_back(m.compute_dtype);
    return dtypes;
}

SummaryBuilder::SummaryBuilder(ReportContext const& context) : context_(context) {
    auto const& grid = context.grid;
    std::size_t targets = grid.target_count;
    summary_.op_targets.resize(grid.matmul_count * targets);
    summary_.t_lower_total.assign(grid.point_count * targets, 0.0);
    summary_.t_upper_total.assign(grid.point_count * targets, 0.0);
    for (auto const& m : context.scenario.matmuls) {
        auto it = std::find(summary_.layers.begin(), summary_.layers.end(), m.layer);
        layer_of_matmul_.push_back(static_cast<std::size_t>(it - summary_.layers.begin()));
        if (it == summary_.layers.end()) summary_.layers.push_back(m.layer);
    }
    summary_.layer_t_lower.assign(summary_.layers.size() * 2 * targets, 0.0);
}

void SummaryBuilder::add(engine::Case const& c) {
    auto const& grid = context_.grid;
    std::size_t targets = grid.target_count;
    auto const& m = c.metrics;
    ++summary_.case_count;
    bool first = c.point == 0, last = c.point + 1 == grid.point_count;
    auto& op = summary_.op_targets[c.matmul * targets + c.target];
    if (first) {
        op.bound_first = m.bound;
        for (std::size_t v = 0; v < grid.sweep_count; ++v)
            op.critical.push_back(grid.critical_value(c, v));
    }
    if (last) op.bound_last = m.bound;
    if (m.bound == engine::Bound::unsupported) {
        ++summary_.unsupported_count;
        return;
    }
    double count = context_.scenario.matmuls[c.matmul].count;
    summary_.t_lower_total[c.point * targets + c.target] += count * m.t_lower;
    summary_.t_upper_total[c.point * targets + c.target] += count * m.t_upper;
    std::size_t layer = layer_of_matmul_[c.matmul];
    if (first) summary_.layer_t_lower[(layer * 2 + 0) * targets + c.target] += count * m.t_lower;
    if (last) summary_.layer_t_lower[(layer * 2 + 1) * targets + c.target] += count * m.t_lower;
}

}  // namespace roofline::report
