#include "roofline/report/report.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/output/terminal_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>

namespace roofline::report {

std::vector<int> ReportContext::compute_dtypes() const {
    std::vector<int> dtypes;
    for (auto const& m : scenario.ops)
        for (int d : scenario.compute_dtypes_of(m))
            if (std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end()) dtypes.push_back(d);
    return dtypes;
}

int ReportContext::compute_dtype_at(model::Op const& op, std::size_t point) const {
    std::vector<double> slots(scenario.slots.size(), 0.0);
    for (std::size_t v = 0; v < scenario.sweeps.size(); ++v)
        slots[static_cast<std::size_t>(scenario.sweeps[v].slot)] = grid.sweep_value(point, v);
    return op.compute_dtype_at(slots, scenario.dtypes);
}

std::vector<std::size_t> ReportContext::dtype_bases() const {
    std::vector<std::size_t> bases = {0};
    std::size_t stride = 1;  // of sweep v: the points between two of its values
    for (std::size_t v = grid.sweep_count; v-- > 0;) {
        if (scenario.sweeps[v].of_dtypes) {
            std::vector<std::size_t> more;
            for (std::size_t base : bases)
                for (std::size_t k = 0; k < grid.sweep_sizes[v]; ++k) more.push_back(base + k * stride);
            bases = std::move(more);
        }
        stride *= grid.sweep_sizes[v];
    }
    std::sort(bases.begin(), bases.end());
    return bases;
}

bool ReportContext::supported_on(model::Op const& op, model::Hardware const& hw) const {
    auto dtypes = scenario.compute_dtypes_of(op);
    return std::any_of(dtypes.begin(), dtypes.end(), [&](int d) { return hw.peak_for(d).has_value(); });
}

SummaryBuilder::SummaryBuilder(ReportContext const& context) : context_(context) {
    auto const& grid = context.grid;
    std::size_t targets = grid.target_count;
    std::size_t const cells = grid.point_count * targets;
    summary_.op_targets.resize(grid.op_count * targets);
    for (auto* total : {&summary_.t_step_total, &summary_.t_lower_total, &summary_.t_upper_total,
                        &summary_.memory_step_total, &summary_.network_step_total,
                        &summary_.onchip_step_total, &summary_.t_expected_total})
        total->assign(cells, 0.0);
    summary_.unsupported_cases.assign(cells, 0);
    summary_.unsupported_dtype.assign(cells, -1);
    for (auto const& m : context.scenario.ops) {
        auto it = std::find(summary_.layers.begin(), summary_.layers.end(), m.layer);
        layer_of_op_.push_back(static_cast<std::size_t>(it - summary_.layers.begin()));
        if (it == summary_.layers.end()) summary_.layers.push_back(m.layer);
    }
    summary_.layer_t_lower.assign(grid.point_count * summary_.layers.size() * targets, 0.0);
}

namespace {

// Which roof the part of t_step before the serial collectives sits at: the
// largest of t_math, t_comms, t_onchip and the overlapped network time. The
// case's bound when nothing is serial.
engine::Bound roof_in_step(engine::Metrics const& m) {
    if (m.t_net_serial == 0) return m.bound;
    return engine::bound_of(m.t_math, m.t_comms, m.t_onchip, m.t_net - m.t_net_serial);
}

}  // namespace

void SummaryBuilder::add(engine::Case const& c) {
    auto const& grid = context_.grid;
    std::size_t targets = grid.target_count;
    auto const& m = c.metrics;
    ++summary_.case_count;
    bool first = c.point == 0, last = c.point + 1 == grid.point_count;
    auto& op = summary_.op_targets[c.op * targets + c.target];
    if (first) {
        op.bound_first = m.bound;
        for (std::size_t v = 0; v < grid.sweep_count; ++v)
            op.critical.push_back(grid.critical_value(c, v));
    }
    if (last) op.bound_last = m.bound;
    std::size_t at = c.point * targets + c.target;
    if (m.bound == engine::Bound::unsupported) {
        ++summary_.unsupported_count;
        if (summary_.unsupported_cases[at]++ == 0) {
            bool const mesh = !grid.mesh_unsupported.empty() && grid.mesh_unsupported[at];
            summary_.unsupported_dtype[at] = mesh ? -1 : static_cast<int>(c.compute_dtype);
        }
        return;
    }
    if (first) op.t_lower_first = m.t_lower;
    if (last) op.t_lower_last = m.t_lower;
    double count = context_.scenario.ops[c.op].count;
    summary_.t_step_total[at] += count * m.t_step;
    summary_.t_lower_total[at] += count * m.t_lower;
    summary_.t_upper_total[at] += count * m.t_upper;
    summary_.t_expected_total[at] += count * m.t_expected;
    double const roof = count * (m.t_step - m.t_net_serial);
    summary_.network_step_total[at] += count * m.t_net_serial;
    switch (roof_in_step(m)) {
        case engine::Bound::memory: summary_.memory_step_total[at] += roof; break;
        case engine::Bound::network: summary_.network_step_total[at] += roof; break;
        case engine::Bound::onchip: summary_.onchip_step_total[at] += roof; break;
        default: break;
    }
    std::size_t layer = layer_of_op_[c.op];
    summary_.layer_t_lower[(c.point * summary_.layers.size() + layer) * targets + c.target] +=
        count * m.t_step;
}

StepTotals step_totals(ReportContext const& context, Summary const& summary, std::size_t point,
                       std::size_t target) {
    auto const& grid = context.grid;
    std::size_t at = point * grid.target_count + target;
    StepTotals s;
    s.unsupported_cases = summary.unsupported_cases[at];
    s.unsupported = s.unsupported_cases > 0;
    s.unsupported_dtype = summary.unsupported_dtype[at];
    auto const& facts = grid.point_facts[point];
    if (s.unsupported) {
        s.t_lower = s.t_overlapped = s.t_upper = s.t_expected = s.overhead = engine::not_available;
    } else {
        s.t_lower = summary.t_step_total[at];
        s.t_expected = summary.t_expected_total[at];
        if (auto const* calibration = context.scenario.calibration_of_target(target)) {
            s.overhead = engine::step_overhead_seconds(
                calibration, engine::layer_count(context.scenario.ops),
                grid.has_tokens ? step_sequences(context.scenario, facts.tokens) : 0);
            s.t_expected += s.overhead;
        }
        s.t_overlapped = summary.t_lower_total[at];
        s.t_upper = summary.t_upper_total[at];
        if (s.t_lower > 0) {
            s.memory_share = summary.memory_step_total[at] / s.t_lower;
            s.network_share = summary.network_step_total[at] / s.t_lower;
            s.onchip_share = summary.onchip_step_total[at] / s.t_lower;
        }
    }
    s.chips = grid.chips_at(point);
    s.weight_bytes = facts.weight_bytes;
    s.cache_bytes = facts.cache_bytes;
    double in_flight = 1;  // micro-batches whose KV cache each stage holds
    if (context.scenario.pipeline_axis >= 0) {
        s.pipeline = true;
        s.stages = facts.stages;
        s.microbatches = facts.microbatches;
        bool const batch = !std::isnan(s.microbatches);
        in_flight = batch ? s.microbatches : s.stages;
        s.latency_factor = batch ? s.microbatches + s.stages - 1 : s.stages;
        s.latency = s.latency_factor * s.t_expected;
        s.cache_bytes *= in_flight;
    }
    s.resident_bytes = s.weight_bytes + s.cache_bytes;
    if (auto capacity = context.target(target).hbm_capacity_bytes) {
        s.capacity = *capacity;
        if (s.resident_bytes > 0) s.min_chips = std::ceil(s.resident_bytes / *capacity);
    }
    if (grid.has_tokens) {
        s.tokens = facts.tokens;
        // A batch of M micro-batches gives M x tokens in its latency; a
        // stream (or no pipeline) its tokens every step.
        double const per_step =
            s.pipeline && !std::isnan(s.microbatches) ? s.microbatches / s.latency_factor : 1;
        if (s.t_expected > 0) s.tokens_per_s = per_step * s.tokens / s.t_expected;
        if (s.t_upper > 0) s.tokens_per_s_upper = per_step * s.tokens / s.t_upper;
    }
    return s;
}

std::string_view calibration_label(model::Scenario const& scenario, std::size_t target) {
    auto const* calibration = scenario.calibration_of_target(target);
    return calibration ? std::string_view(calibration->name) : std::string_view("uncalibrated");
}

std::string calibration_lines(model::Scenario const& scenario) {
    // Each calibrated target on a line; the uncalibrated together on one.
    std::string out, uncalibrated;
    for (std::size_t t = 0; t < scenario.targets.size(); ++t) {
        auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
        if (auto const* calibration = scenario.calibration_of_target(t))
            out.append("calibration: ")
                .append(output::terminal_safe(hw.id))
                .append(" with ")
                .append(output::terminal_safe(calibration->name))
                .append(" (expected times)\n");
        else
            uncalibrated.append(uncalibrated.empty() ? "" : ", ").append(output::terminal_safe(hw.id));
    }
    if (!uncalibrated.empty())
        out.append("calibration: ")
            .append(uncalibrated)
            .append(" uncalibrated (expected = the serial roofline, a lower bound of what an engine takes)\n");
    return out;
}

double step_sequences(model::Scenario const& scenario, double tokens) {
    if (scenario.tokens_slot < 0) return 0;
    // `tokens = B`, `tokens = 1`, or a let that is one of them.
    int slot = scenario.tokens_slot;
    for (int depth = 0; depth < 64; ++depth) {
        auto const& s = scenario.slots[static_cast<std::size_t>(slot)];
        if (s.sweep >= 0) return tokens;
        auto const& code = s.expr.code;
        if (code.size() != 1) return 0;
        if (code[0].op == model::OpCode::number) return tokens;
        if (code[0].op != model::OpCode::slot || code[0].slot < 0) return 0;
        slot = code[0].slot;
    }
    return 0;
}

std::vector<std::size_t> step_points(std::size_t point_count, std::size_t between) {
    std::vector<std::size_t> points;
    // A dozen rows still read at a glance (B = 1 .. 2048 times 2 is 12
    // points): show them all rather than drop some of a short sweep.
    if (point_count <= std::max<std::size_t>(between + 2, 12)) {
        for (std::size_t p = 0; p < point_count; ++p) points.push_back(p);
        return points;
    }
    points.push_back(0);
    double const n = static_cast<double>(point_count);
    for (std::size_t k = 1; k <= between; ++k) {
        double at = std::pow(n, static_cast<double>(k) / static_cast<double>(between + 1));
        auto p = static_cast<std::size_t>(std::llround(at)) - 1;
        p = std::min(p, point_count - 1);
        if (p > points.back()) points.push_back(p);
    }
    if (points.back() != point_count - 1) points.push_back(point_count - 1);
    return points;
}

std::vector<std::size_t> step_points(model::Scenario const& scenario,
                                     engine::CaseGrid const& grid) {
    if (grid.point_count == 0) return {};
    // The sweeps of numbers are sampled; at each point kept, every dtype of
    // the dtype sweeps, so that bf16 and fp8 stand side by side, and every
    // size of the mesh, so that 1, 2, 4 and 8 chips do.
    auto whole = [&](std::size_t v) { return scenario.sweeps[v].of_dtypes || scenario.mesh_depends_on(v); };
    std::size_t numeric_points = 1;
    for (std::size_t v = 0; v < grid.sweep_count; ++v)
        if (!whole(v)) numeric_points *= grid.sweep_sizes[v];
    if (numeric_points == grid.point_count) return step_points(grid.point_count);
    std::size_t dtype_points = grid.point_count / std::max<std::size_t>(numeric_points, 1);
    std::vector<std::size_t> points, digits(grid.sweep_count);
    for (std::size_t q : step_points(numeric_points)) {
        for (std::size_t d = 0; d < dtype_points; ++d) {
            std::size_t nq = q, nd = d;
            for (std::size_t v = grid.sweep_count; v-- > 0;) {
                auto& rest = whole(v) ? nd : nq;
                digits[v] = rest % grid.sweep_sizes[v];
                rest /= grid.sweep_sizes[v];
            }
            std::size_t p = 0;
            for (std::size_t v = 0; v < grid.sweep_count; ++v) p = p * grid.sweep_sizes[v] + digits[v];
            points.push_back(p);
        }
    }
    std::sort(points.begin(), points.end());
    return points;
}

}  // namespace roofline::report
