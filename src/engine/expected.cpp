// The expected time of a case and of a step (expected.hpp).
#include "roofline/engine/expected.hpp"

#include "roofline/engine/network.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace roofline::engine {

namespace {

// A cache operand of any op; a weight or an expert operand of a matmul.
bool has_role(model::Op const& op, model::Role role) {
    for (auto const& t : op.inputs)
        if (t.role == role && (role == model::Role::cache || op.kind == model::OpKind::matmul)) return true;
    return false;
}

}  // namespace

model::OpClass op_class(model::Op const& op) {
    if (op.kind == model::OpKind::collective) return model::OpClass::collective;
    auto any = [&](model::Role role) {
        if (has_role(op, role)) return true;
        for (auto const& m : op.members)
            if (has_role(m, role)) return true;
        return false;
    };
    if (any(model::Role::cache)) return model::OpClass::attention;
    if (any(model::Role::expert)) return model::OpClass::expert;
    if (any(model::Role::weight)) return model::OpClass::gemm;
    return model::OpClass::elementwise;
}

model::Link collective_link(model::Scenario const& scenario, model::Collective const& collective,
                            std::span<double const> mesh_sizes) {
    auto rank = [](model::Link l) { return l == model::Link::dcn ? 2 : l == model::Link::ici ? 1 : 0; };
    model::Link link = model::Link::nvlink;
    bool any = false;
    for (int axis : collective.mesh_axes) {
        auto const a = static_cast<std::size_t>(axis);
        if (a < mesh_sizes.size() && mesh_sizes[a] <= 1) continue;
        model::Link l = scenario.mesh[a].link;
        if (!any || rank(l) > rank(link)) link = l;
        any = true;
    }
    if (!any && !collective.mesh_axes.empty())
        link = scenario.mesh[static_cast<std::size_t>(collective.mesh_axes.front())].link;
    return link;
}

model::Hardware hardware_without_latency(model::Hardware const& hw) {
    model::Hardware h = hw;
    h.ici_latency_s = h.nvlink_latency_s = h.dcn_latency_s = 0;
    return h;
}

namespace {

void add_collectives(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                     model::Hardware const& no_latency, std::span<double const> mesh_sizes,
                     std::span<double const> volumes, double weight, ExpectedParts& out) {
    bool const serial = !op.overlapped && op.kind != model::OpKind::collective;
    for (std::size_t i = 0; i < op.collectives.size() && i < volumes.size(); ++i) {
        auto const& c = op.collectives[i];
        CollectiveTime t;
        t.kind = c.kind;
        t.link = collective_link(scenario, c, mesh_sizes);
        t.roofline_s = collective_seconds(scenario, hw, c.kind, c.mesh_axes, mesh_sizes, volumes[i]);
        t.bandwidth_s = collective_seconds(scenario, no_latency, c.kind, c.mesh_axes, mesh_sizes, volumes[i]);
        t.serial = serial;
        t.weight = weight;
        out.collectives.push_back(t);
    }
}

}  // namespace

void expected_parts(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                    model::Hardware const& no_latency, int compute, Metrics const& m,
                    std::span<double const> mesh_sizes, std::span<double const> volumes,
                    ExpectedParts& out) {
    out.op_class = op_class(op);
    out.compute_dtype = scenario.dtypes[static_cast<std::size_t>(compute)].name;
    out.t_math = m.t_math;
    out.t_comms = m.t_comms;
    out.t_onchip = m.t_onchip;
    out.collectives.clear();
    out.launches = 1;
    out.unsupported = m.bound == Bound::unsupported;
    if (out.unsupported || mesh_sizes.empty() || !op.split()) return;
    if (op.kind != model::OpKind::kernel) {
        add_collectives(scenario, op, hw, no_latency, mesh_sizes, volumes, 1, out);
        return;
    }
    // As case_net_seconds walks them: the members with collectives, in order.
    std::size_t at = 0;
    for (auto const& member : op.members) {
        if (!member.split() || member.collectives.empty()) continue;
        std::size_t const n = std::min(member.collectives.size(), volumes.size() - std::min(at, volumes.size()));
        add_collectives(scenario, member, hw, no_latency, mesh_sizes, volumes.subspan(at, n),
                        member.count / op.count, out);
        at += member.collectives.size();
    }
}

double expected_collective_seconds(CollectiveTime const& c, model::Calibration const* calibration) {
    if (!calibration) return c.weight * c.roofline_s;
    double const e = calibration->e_network();
    // A measured latency replaces the ring's latency floors, but the time
    // stays at least the roofline's: no fit makes a collective beat its bound.
    if (auto latency = calibration->latency(c.kind, c.link))
        return c.weight * std::max(c.bandwidth_s / e + *latency, c.roofline_s);
    return c.weight * c.roofline_s / e;
}

double expected_seconds(ExpectedParts const& p, model::Calibration const* calibration) {
    if (p.unsupported) return not_available;
    double roof = 0, hidden = 0, serial = 0;
    for (auto const& c : p.collectives) (c.serial ? serial : hidden) += expected_collective_seconds(c, calibration);
    if (!calibration) {
        roof = std::max({p.t_math, p.t_comms, p.t_onchip, hidden});
        return roof + serial;
    }
    auto const& cal = *calibration;
    double const math = p.t_math / cal.e_math(p.op_class, p.compute_dtype);
    double const hbm = p.t_comms / cal.e_hbm(p.op_class);
    double const onchip = p.t_onchip / cal.e_onchip();
    roof = std::max({math, hbm, onchip, hidden});
    return roof + serial + cal.launch_s * p.launches;
}

double layer_count(std::span<model::Op const> ops) {
    std::map<std::string, double, std::less<>> largest;
    for (auto const& op : ops) {
        if (op.layer.empty()) continue;
        std::string top = op.layer.substr(0, op.layer.find('/'));
        double& n = largest[top];
        n = std::max(n, op.count);
    }
    double layers = 0;
    for (auto const& [name, n] : largest) layers += n;
    return layers;
}

double step_overhead_seconds(model::Calibration const* calibration, double layers, double sequences,
                             bool prefill) {
    if (!calibration) return 0;
    return calibration->step_overhead_s + calibration->layer_overhead_s * layers +
           calibration->sequence_overhead_s * sequences + (prefill ? calibration->prefill_overhead_s : 0);
}

double request_front_seconds(model::Calibration const* calibration, double prompt_tokens,
                             double forward_kernels) {
    if (!calibration) return 0;
    return calibration->request_overhead_s + calibration->prompt_token_overhead_s * prompt_tokens +
           calibration->request_launch_s * forward_kernels;
}

}  // namespace roofline::engine
