// A kernel case's members, each counted as count_case counts it (the same
// count_member) and timed at the kernel's compute dtype.
#include "roofline/engine/members.hpp"

#include "case_counts.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/engine/network.hpp"

#include <stdexcept>
#include <vector>

namespace roofline::engine {

struct KernelMembers::State {
    model::Scenario const& scenario;
    CaseGrid const& grid;
    PointEvaluator evaluator;
    std::vector<double> mesh_sizes;
    CaseScratch scratch;
    // The counts of the last (point, op), per member, and their volumes.
    std::size_t point = static_cast<std::size_t>(-1), op = 0;
    std::vector<CaseCounts> counts;
    std::vector<std::vector<double>> volumes;
    std::vector<MemberMetrics> out;

    State(model::Scenario const& s, CaseGrid const& g) : scenario(s), grid(g), evaluator(s) {}

    [[noreturn]] static void fail(model::EvalError const& error) {
        throw std::logic_error("KernelMembers: a member failed where its kernel was counted: " +
                               error.message);
    }

    void count(std::size_t p, std::size_t o) {
        if (p == point && o == op) return;
        if (p != point) {
            std::span<double const> values(grid.point_values.data() + p * grid.sweep_count,
                                           grid.sweep_count);
            if (auto error = evaluator.set_point(values)) fail(*error);
            if (!scenario.mesh.empty())
                if (auto error = evaluator.mesh_sizes(mesh_sizes)) fail(*error);
        }
        point = p, op = o;
        auto const& members = scenario.ops[o].members;
        counts.resize(members.size());
        volumes.resize(members.size());
        for (std::size_t i = 0; i < members.size(); ++i) {
            scratch.volumes.clear();
            if (auto error = count_member(scenario, members[i], evaluator.slots(), mesh_sizes,
                                          scratch, counts[i]))
                fail(*error);
            volumes[i] = scratch.member_volumes;
        }
    }
};

KernelMembers::KernelMembers(model::Scenario const& scenario, CaseGrid const& grid)
    : state_(std::make_unique<State>(scenario, grid)) {}

KernelMembers::~KernelMembers() = default;

std::span<MemberMetrics const> KernelMembers::of(Case const& c) {
    auto& s = *state_;
    auto const& kernel = s.scenario.ops[c.op];
    s.out.clear();
    if (kernel.kind != model::OpKind::kernel) return {};
    s.count(c.point, c.op);
    auto const& hw = s.scenario.hardware[static_cast<std::size_t>(s.scenario.targets[c.target])];
    bool const unsupported = c.metrics.bound == Bound::unsupported;
    auto const peak = unsupported ? std::nullopt : hw.peak_for(static_cast<int>(c.compute_dtype));
    bool const on_mesh = !s.scenario.mesh.empty();
    double const kernel_flops = c.metrics.counts.flops;
    // A calibrated target: each member's expected time as if it ran alone
    // (its own class's efficiencies, one launch), as its t_lower is.
    auto const* calibration = unsupported ? nullptr : s.scenario.calibration_of_target(c.target);
    std::optional<model::Hardware> no_latency;
    if (calibration) no_latency = hardware_without_latency(hw);
    ExpectedParts parts;
    for (std::size_t i = 0; i < kernel.members.size(); ++i) {
        auto const& m = kernel.members[i];
        double const repeat = m.count / kernel.count;
        auto const& one = s.counts[i];
        Counts counts{repeat * one.counts.flops, repeat * one.counts.bytes_read,
                      repeat * one.counts.bytes_written, repeat * one.counts.bytes_onchip};
        double t_net = 0;
        if (on_mesh && m.split() && !m.collectives.empty())
            t_net = unsupported ? not_available
                                : repeat * op_net_seconds(s.scenario, m, hw, s.mesh_sizes, s.volumes[i]);
        MemberMetrics result{static_cast<std::uint32_t>(i), repeat,
                             roofline_metrics(counts, peak, hw.hbm_bytes_per_s,
                                              repeat * one.net_bytes, t_net, hw.onchip_bytes_per_s,
                                              serial_in_step(m) ? t_net : 0),
                             kernel_flops > 0 ? counts.flops / kernel_flops : not_available};
        if (calibration && result.metrics.bound != Bound::unsupported) {
            expected_parts(s.scenario, m, hw, *no_latency, static_cast<int>(c.compute_dtype),
                           result.metrics, s.mesh_sizes, s.volumes[i], parts);
            for (auto& collective : parts.collectives) collective.weight *= repeat;
            result.metrics.t_expected = expected_seconds(parts, calibration);
        }
        s.out.push_back(result);
    }
    return s.out;
}

}  // namespace roofline::engine
