// The counts of one case at a point: an op, or a kernel whose counts are its
// members' sums (docs/fusion.md), each with its read factors, its on-chip
// operands and, on a mesh, per chip with its collectives. One function, so
// that the cases, the critical values and the requests count alike.
#include "case_counts.hpp"
#include "divisible.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/engine/network.hpp"
#include "roofline/model/limits.hpp"

namespace roofline::engine {

namespace {

// A read factor must be a positive integer at every point, so that counts
// stay exact; FLOPs per element 0 or more and at most 2^20, as when constant.
std::optional<model::EvalError> check_multiplier(model::Scenario const& scenario, int slot,
                                                 std::span<double const> slots, Span span,
                                                 bool is_flops) {
    if (slot < 0) return std::nullopt;
    double v = slots[static_cast<std::size_t>(slot)];
    std::optional<std::string> problem;
    if (!is_flops) problem = model::whole_number_problem(v);
    else if (!(v >= 0 && v <= model::max_flops_per_element)) problem = "0 or more and at most 1048576 (2^20)";
    if (!problem) return std::nullopt;
    auto const& s = scenario.slots[static_cast<std::size_t>(slot)];
    return model::EvalError{s.span.file ? s.span : span,
                            std::string(is_flops ? "the FLOPs per element" : "a read factor") +
                                " must be " + *problem + ", but it is " + model::format_number(v)};
}

}  // namespace

std::optional<model::EvalError> count_one(model::Scenario const& scenario, model::Op const& op,
                                          std::span<double const> sizes, std::span<double const> slots,
                                          std::span<double const> mesh_sizes, CaseScratch& scratch,
                                          CaseCounts& out) {
    for (auto const& input : op.inputs)
        if (auto error = check_multiplier(scenario, input.reads_slot, slots, input.span, false))
            return error;
    if (auto error = check_multiplier(scenario, op.flops_slot, slots, op.span, true)) return error;
    bool split = !mesh_sizes.empty() && op.split();
    if (split)
        if (auto error = check_divisible(scenario, op, sizes, mesh_sizes)) return error;
    out.counts = split ? count_op_on_chip(op, sizes, mesh_sizes, scenario.dtypes, slots)
                       : count_op(op, sizes, scenario.dtypes, slots);
    out.net_bytes = 0;
    scratch.member_volumes.clear();
    if (split && !op.collectives.empty()) {
        op_volumes(scenario, op, sizes, mesh_sizes, slots, scratch.member_volumes);
        out.net_bytes = op_net_bytes(op, mesh_sizes, scratch.member_volumes);
    }
    scratch.volumes.insert(scratch.volumes.end(), scratch.member_volumes.begin(),
                           scratch.member_volumes.end());
    return std::nullopt;
}

std::optional<model::EvalError> count_member(model::Scenario const& scenario, model::Op const& member,
                                             std::span<double const> slots,
                                             std::span<double const> mesh_sizes, CaseScratch& scratch,
                                             CaseCounts& out) {
    // The kernel's axes are checked; a member's sizes are their slots' values.
    scratch.member_sizes.clear();
    for (auto const& axis : member.axes)
        scratch.member_sizes.push_back(slots[static_cast<std::size_t>(axis.slot)]);
    return count_one(scenario, member, scratch.member_sizes, slots, mesh_sizes, scratch, out);
}

std::optional<model::EvalError> count_case(model::Scenario const& scenario, model::Op const& op,
                                           PointEvaluator const& evaluator,
                                           std::span<double const> mesh_sizes, CaseScratch& scratch,
                                           CaseCounts& out) {
    if (auto error = evaluator.axis_sizes(op, scratch.sizes)) return error;
    scratch.volumes.clear();
    auto slots = evaluator.slots();
    if (op.kind != model::OpKind::kernel)
        return count_one(scenario, op, scratch.sizes, slots, mesh_sizes, scratch, out);
    long double flops = 0, read = 0, written = 0, onchip = 0, net = 0;
    CaseCounts member;
    for (auto const& m : op.members) {
        if (auto error = count_member(scenario, m, slots, mesh_sizes, scratch, member)) return error;
        // A member repeated inside the kernel (a `use ... x N` in its body).
        long double repeat = m.count / op.count;
        flops += repeat * member.counts.flops;
        read += repeat * member.counts.bytes_read;
        written += repeat * member.counts.bytes_written;
        onchip += repeat * member.counts.bytes_onchip;
        net += repeat * member.net_bytes;
    }
    out.counts = Counts{static_cast<double>(flops), static_cast<double>(read),
                        static_cast<double>(written), static_cast<double>(onchip)};
    out.net_bytes = static_cast<double>(net);
    return std::nullopt;
}

bool serial_in_step(model::Op const& op) {
    return !op.overlapped && op.kind != model::OpKind::collective;
}

NetSeconds case_net_seconds(model::Scenario const& scenario, model::Op const& op,
                            model::Hardware const& hw, std::span<double const> mesh_sizes,
                            CaseScratch const& scratch) {
    NetSeconds seconds;
    if (mesh_sizes.empty() || !op.split()) return seconds;
    if (op.kind != model::OpKind::kernel) {
        if (op.collectives.empty()) return seconds;
        seconds.total = op_net_seconds(scenario, op, hw, mesh_sizes, scratch.volumes);
        if (serial_in_step(op)) seconds.serial = seconds.total;
        return seconds;
    }
    std::size_t at = 0;
    for (auto const& m : op.members) {
        if (!m.split() || m.collectives.empty()) continue;
        std::span<double const> volumes(scratch.volumes.data() + at, m.collectives.size());
        double const t = m.count / op.count * op_net_seconds(scenario, m, hw, mesh_sizes, volumes);
        seconds.total += t;
        if (serial_in_step(m)) seconds.serial += t;
        at += m.collectives.size();
    }
    return seconds;
}

namespace {

Metrics roofline_case_metrics(model::Scenario const& scenario, model::Op const& op,
                              model::Hardware const& hw, int compute, CaseCounts const& counts,
                              std::span<double const> mesh_sizes, CaseScratch const& scratch,
                              bool unsupported) {
    if (scenario.mesh.empty())
        return roofline_metrics(counts.counts, hw.peak_for(compute), hw.hbm_bytes_per_s, 0, 0,
                                hw.onchip_bytes_per_s);
    if (unsupported)
        return roofline_metrics(counts.counts, std::nullopt, hw.hbm_bytes_per_s, counts.net_bytes,
                                not_available, hw.onchip_bytes_per_s);
    NetSeconds const net = case_net_seconds(scenario, op, hw, mesh_sizes, scratch);
    return roofline_metrics(counts.counts, hw.peak_for(compute), hw.hbm_bytes_per_s, counts.net_bytes,
                            net.total, hw.onchip_bytes_per_s, net.serial);
}

}  // namespace

Metrics case_metrics(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                     int compute, CaseCounts const& counts, std::span<double const> mesh_sizes,
                     CaseScratch const& scratch, bool unsupported, model::Calibration const* calibration) {
    Metrics m = roofline_case_metrics(scenario, op, hw, compute, counts, mesh_sizes, scratch, unsupported);
    if (!calibration || m.bound == Bound::unsupported) return m;
    // The latency-free copy of the chip, once per thread and chip (the
    // collectives' bandwidth terms, under a calibrated latency).
    thread_local std::string no_latency_id;
    thread_local model::Hardware no_latency;
    if (no_latency_id != hw.id || no_latency.span.file != hw.span.file ||
        no_latency.span.offset != hw.span.offset || no_latency.nvlink_bytes_per_s != hw.nvlink_bytes_per_s) {
        no_latency = hardware_without_latency(hw);
        no_latency_id = hw.id;
    }
    thread_local ExpectedParts parts;
    expected_parts(scenario, op, hw, no_latency, compute, m, mesh_sizes, scratch.volumes, parts);
    m.t_expected = expected_seconds(parts, calibration);
    return m;
}

}  // namespace roofline::engine

namespace roofline::engine {

void warn_onchip(model::Scenario const& scenario, CaseGrid const& grid, Diagnostics& diagnostics) {
    model::Op const* first = nullptr;            // the first case with on-chip traffic
    model::Tensor const* resident = nullptr;     // the first operand resident on chip
    for (auto const& op : scenario.ops) {
        if (!first && op.has_onchip()) first = &op;
        for (auto const* o : leaf_ops(op))
            for (auto const& t : o->inputs)
                if (!resident && t.onchip && t.resident()) resident = &t;
    }
    for (auto const& r : scenario.residents)
        if (!resident && r.tensor.onchip) resident = &r.tensor;
    if (!first && !resident) return;
    for (std::size_t t = 0; t < grid.target_count; ++t) {
        auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[t])];
        if (first && !hw.onchip_bytes_per_s)
            diagnostics.warning(first->span, "hardware '" + hw.id +
                                                 "' has no onchip_bandwidth: its on-chip traffic "
                                                 "is counted as free (t_onchip = 0)");
        if (!resident || !hw.onchip_capacity_bytes) continue;
        for (std::size_t p = 0; p < grid.point_count; ++p) {
            double bytes = grid.point_facts[p].onchip_resident_bytes;
            if (!(bytes > *hw.onchip_capacity_bytes)) continue;
            std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                           grid.sweep_count);
            diagnostics.warning(resident->span,
                                "the operands resident on chip take " + model::format_number(bytes) +
                                    " B" + at_point(scenario, values) + ", more than hardware '" +
                                    hw.id + "' holds (onchip_capacity = " +
                                    model::format_number(*hw.onchip_capacity_bytes) +
                                    " B); the cases are evaluated as if they fit");
            break;
        }
    }
}

}  // namespace roofline::engine
