#include "roofline/engine/network.hpp"

#include "roofline/engine/metrics.hpp"
#include "roofline/model/expr.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline::engine {

using model::CollectiveKind;
using model::Link;
using model::Traffic;

bool is_ring(model::MeshAxis const& axis, model::Hardware const& hw, double size) {
    if (axis.topology != model::Topology::automatic) return axis.topology == model::Topology::ring;
    return hw.ici_wraparound && size >= 3 && std::fmod(size, *hw.ici_wraparound) == 0;
}

MeshProblem mesh_problem(model::Scenario const& scenario, model::Hardware const& hw,
                         std::span<double const> mesh_sizes) {
    double over_nvlink = 1;
    std::string nvlink_axes;
    std::size_t first_nvlink = 0, nvlink_count = 0;
    for (std::size_t i = 0; i < scenario.mesh.size(); ++i) {
        auto const& axis = scenario.mesh[i];
        double size = mesh_sizes[i];
        if (axis.link == Link::nvlink) {
            over_nvlink *= size;
            if (nvlink_count++ == 0) first_nvlink = i;
            nvlink_axes.append(nvlink_axes.empty() ? "'" : " x '").append(axis.name).append("'");
        }
        if (size <= 1) continue;
        auto missing = [&](char const* field) {
            return MeshProblem{"'" + hw.id + "' has no " + field + " for mesh axis '" + axis.name + "'", i};
        };
        if (axis.link == Link::ici && !hw.ici_bytes_per_s) return missing("ici_bandwidth");
        if (axis.link == Link::nvlink && !hw.nvlink_bytes_per_s) return missing("nvlink_bandwidth");
        if (axis.link == Link::dcn && !hw.dcn_bytes_per_s) return missing("dcn_bandwidth");
    }
    if (hw.nvlink_domain && over_nvlink > *hw.nvlink_domain)
        return {"'" + hw.id + "' connects at most " + model::format_number(*hw.nvlink_domain) +
                    " GPUs over NVLink (nvlink_domain), but mesh " + (nvlink_count > 1 ? "axes " : "axis ") +
                    nvlink_axes + (nvlink_count > 1 ? " put " : " puts ") +
                    model::format_number(over_nvlink) + " on it",
                first_nvlink};
    return {};
}

double collective_net_bytes(CollectiveKind kind, double chips, double volume) {
    auto const& info = model::collective_info(kind);
    double n = chips;
    if (info.traffic == Traffic::point_to_point) return n > 1 ? info.passes * volume : 0;
    double once = info.traffic == Traffic::exchange ? (n - 1) * volume / (n * n) : (n - 1) / n * volume;
    return info.passes * once;
}

namespace {

// The axes of one kind of link in a collective, and what one pass over them costs.
// Without allocation: this runs for every case and target of a mesh.
struct Stage {
    Link link;
    std::span<int const> axes;  // the collective's axes: those over `link` of more than one chip count
    double chips = 1;           // the product of their sizes
    double bandwidth = 0;       // per chip, all the stage's links together (for ordering)
};

bool in_stage(model::Scenario const& scenario, Stage const& stage, std::span<double const> mesh_sizes,
              int m) {
    return scenario.mesh[static_cast<std::size_t>(m)].link == stage.link &&
           mesh_sizes[static_cast<std::size_t>(m)] > 1;
}

// One AllGather (or ReduceScatter, the same traffic reversed) or AllToAll
// over the axes of one stage, on `volume` bytes.
double stage_seconds(model::Scenario const& scenario, model::Hardware const& hw, Stage const& stage,
                     bool all_to_all, std::span<double const> mesh_sizes, double volume) {
    double n = stage.chips;
    if (stage.link != Link::ici) {
        double w = stage.link == Link::nvlink ? *hw.nvlink_bytes_per_s : *hw.dcn_bytes_per_s;
        double latency = stage.link == Link::nvlink ? hw.nvlink_latency_s : hw.dcn_latency_s;
        // Through a switch (or the data-center network) every chip reaches
        // every other directly: N - 1 steps to gather, one to exchange.
        if (all_to_all) return std::max((n - 1) * volume / (n * n * w), latency);
        return std::max((n - 1) / n * volume / w, (n - 1) * latency);
    }
    double w = *hw.ici_bytes_per_s;
    if (all_to_all) {
        // Axis by axis, each an exchange along one ring or line of the
        // array over that axis: its k chips' shards, k x volume / n.
        double seconds = 0;
        for (int m : stage.axes) {
            if (!in_stage(scenario, stage, mesh_sizes, m)) continue;
            double k = mesh_sizes[static_cast<std::size_t>(m)];
            bool ring = is_ring(scenario.mesh[static_cast<std::size_t>(m)], hw, k);
            double pairs = std::floor(k * k / 4);
            double axis_volume = k * volume / n;
            double bandwidth_term = pairs * axis_volume / ((ring ? 2 : 1) * k * k * w);
            double hops = ring ? std::floor(k / 2) : k - 1;
            seconds += std::max(bandwidth_term, hops * hw.ici_latency_s);
        }
        return seconds;
    }
    // All the stage's axes at once: (N - 1)/N V over the sum of their links
    // (a ring uses both directions); the hops of each axis add.
    double links = 0, hops = 0;
    for (int m : stage.axes) {
        if (!in_stage(scenario, stage, mesh_sizes, m)) continue;
        double k = mesh_sizes[static_cast<std::size_t>(m)];
        bool ring = is_ring(scenario.mesh[static_cast<std::size_t>(m)], hw, k);
        links += ring ? 2 * w : w;
        hops += ring ? std::ceil(k / 2) : k - 1;
    }
    return std::max((n - 1) / n * volume / links, hops * hw.ici_latency_s);
}

}  // namespace

namespace {

// One hop to the neighbour on one axis (the checker allows one): V over one
// link (one ICI link, the GPU's NVLink or its DCN share), at least one
// latency of that link; nothing on an axis of one chip.
double point_to_point_seconds(model::Scenario const& scenario, model::Hardware const& hw,
                              std::span<int const> axes, std::span<double const> mesh_sizes, double volume) {
    double seconds = 0;
    for (int m : axes) {
        auto const i = static_cast<std::size_t>(m);
        if (mesh_sizes[i] <= 1) continue;
        Link link = scenario.mesh[i].link;
        double w = link == Link::ici      ? *hw.ici_bytes_per_s
                   : link == Link::nvlink ? *hw.nvlink_bytes_per_s
                                          : *hw.dcn_bytes_per_s;
        double latency = link == Link::ici      ? hw.ici_latency_s
                         : link == Link::nvlink ? hw.nvlink_latency_s
                                                : hw.dcn_latency_s;
        seconds += std::max(volume / w, latency);
    }
    return seconds;
}

}  // namespace

double collective_seconds(model::Scenario const& scenario, model::Hardware const& hw,
                          CollectiveKind kind, std::span<int const> axes,
                          std::span<double const> mesh_sizes, double volume) {
    auto const& info = model::collective_info(kind);
    if (info.traffic == Traffic::point_to_point)
        return info.passes * point_to_point_seconds(scenario, hw, axes, mesh_sizes, volume);
    Stage stages[3] = {{Link::ici, axes}, {Link::nvlink, axes}, {Link::dcn, axes}};
    std::size_t used = 0;
    for (auto& stage : stages) {
        for (int m : axes) {
            if (!in_stage(scenario, stage, mesh_sizes, m)) continue;
            double size = mesh_sizes[static_cast<std::size_t>(m)];
            stage.chips *= size;
            if (stage.link == Link::ici)
                stage.bandwidth += (is_ring(scenario.mesh[static_cast<std::size_t>(m)], hw, size) ? 2 : 1) *
                                   *hw.ici_bytes_per_s;
            else
                stage.bandwidth = stage.link == Link::nvlink ? *hw.nvlink_bytes_per_s : *hw.dcn_bytes_per_s;
        }
        if (stage.chips > 1) stages[used++] = stage;
    }
    // The slowest kind of link first, on the volume divided by the chips of
    // the faster ones (a hierarchical collective).
    std::stable_sort(stages, stages + used,
                     [](Stage const& a, Stage const& b) { return a.bandwidth < b.bandwidth; });
    bool all_to_all = info.traffic == Traffic::exchange;
    double all_chips = 1;
    for (std::size_t s = 0; s < used; ++s) all_chips *= stages[s].chips;
    double seconds = 0;
    for (std::size_t s = 0; s < used; ++s) {
        // A gather or a scatter: the volume less the faster stages' share.
        // An exchange keeps each chip's shard (volume / all chips): a stage
        // exchanges the array over its own chips.
        double faster = 1;
        for (std::size_t f = s + 1; f < used; ++f) faster *= stages[f].chips;
        double stage_volume = all_to_all ? stages[s].chips * volume / all_chips : volume / faster;
        seconds += stage_seconds(scenario, hw, stages[s], all_to_all, mesh_sizes, stage_volume);
    }
    return info.passes * seconds;
}

namespace {

double volume_of(model::Op const& op, model::Collective const& c, std::span<double const> axis_sizes,
                 std::span<double const> mesh_sizes, std::span<model::Dtype const> dtypes,
                 std::span<double const> slots) {
    auto const& t = c.tensor < 0 ? op.out : op.inputs[static_cast<std::size_t>(c.tensor)];
    auto v = static_cast<double>(tensor_bytes(t, c.volume_shards, axis_sizes, mesh_sizes, dtypes, slots));
    // An exchange's volume is the whole array over its axes.
    bool exchange = model::collective_info(c.kind).traffic == Traffic::exchange;
    return exchange ? v * shard_count(c.mesh_axes, mesh_sizes) : v;
}

}  // namespace

void op_volumes(model::Scenario const& scenario, model::Op const& op,
                std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                std::span<double const> slots, std::vector<double>& volumes) {
    volumes.clear();
    for (auto const& c : op.collectives)
        volumes.push_back(volume_of(op, c, axis_sizes, mesh_sizes, scenario.dtypes, slots));
}

double op_net_bytes(model::Op const& op, std::span<double const> mesh_sizes,
                    std::span<double const> volumes) {
    double bytes = 0;
    for (std::size_t i = 0; i < op.collectives.size(); ++i) {
        auto const& c = op.collectives[i];
        bytes += collective_net_bytes(c.kind, shard_count(c.mesh_axes, mesh_sizes), volumes[i]);
    }
    return bytes;
}

double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> mesh_sizes, std::span<double const> volumes) {
    double seconds = 0;
    for (std::size_t i = 0; i < op.collectives.size(); ++i) {
        auto const& c = op.collectives[i];
        seconds += collective_seconds(scenario, hw, c.kind, c.mesh_axes, mesh_sizes, volumes[i]);
    }
    return seconds;
}

double op_net_seconds(model::Scenario const& scenario, model::Op const& op, model::Hardware const& hw,
                      std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                      std::span<double const> slots) {
    std::vector<double> volumes;
    op_volumes(scenario, op, axis_sizes, mesh_sizes, slots, volumes);
    return op_net_seconds(scenario, op, hw, mesh_sizes, volumes);
}

std::string collective_text(model::Scenario const& scenario, model::Op const& op) {
    std::string text;
    if (op.kind == model::OpKind::kernel) {
        for (auto const& m : op.members) {
            auto member = collective_text(scenario, m);
            if (!member.empty()) text.append(text.empty() ? "" : ", ").append(member);
        }
        return text;
    }
    for (auto const& c : op.collectives) {
        text.append(text.empty() ? "" : " + ").append(model::collective_info(c.kind).name).append("(");
        for (std::size_t i = 0; i < c.mesh_axes.size(); ++i)
            text.append(i ? "," : "").append(scenario.mesh[static_cast<std::size_t>(c.mesh_axes[i])].name);
        text.append(")");
    }
    return text;
}

}  // namespace roofline::engine
