#include "roofline/engine/metrics.hpp"

#include <array>
#include <cmath>

namespace roofline::engine {

namespace {

constexpr std::array<std::string_view, 5> bound_names = {"memory", "compute", "unsupported",
                                                         "network", "onchip"};

}  // namespace

std::string_view bound_name(Bound bound) { return bound_names.at(static_cast<std::size_t>(bound)); }

std::optional<Bound> parse_bound(std::string_view name) {
    for (std::size_t i = 0; i < bound_names.size(); ++i)
        if (bound_names[i] == name) return static_cast<Bound>(i);
    return std::nullopt;
}

namespace {

long double elements(model::Tensor const& tensor, std::span<double const> axis_sizes) {
    long double n = 1;
    for (int axis : tensor.axes) n *= static_cast<long double>(axis_sizes[static_cast<std::size_t>(axis)]);
    return n;
}

}  // namespace

long double tensor_bytes(model::Tensor const& tensor, std::span<double const> axis_sizes,
                         std::span<model::Dtype const> dtypes, std::span<double const> slots) {
    auto dtype = static_cast<std::size_t>(tensor.dtype.at(slots));
    return elements(tensor, axis_sizes) * static_cast<long double>(dtypes[dtype].bytes);
}

namespace {

// An operand's bytes times its read factor (`x EXPR`), into HBM or on-chip traffic.
void add_operand(long double bytes, model::Tensor const& t, std::span<double const> slots,
                 long double& hbm, long double& onchip) {
    if (t.reads_slot >= 0) bytes *= static_cast<long double>(slots[static_cast<std::size_t>(t.reads_slot)]);
    (t.onchip ? onchip : hbm) += bytes;
}

long double flops_per_point(model::Op const& op, std::span<double const> slots) {
    long double k = op.flops_per_point;
    if (op.flops_slot >= 0) k *= static_cast<long double>(slots[static_cast<std::size_t>(op.flops_slot)]);
    return k;
}

// FLOPs are whole: a fractional factor per point (a causal mask's
// (T + 1) / T, rounded once to a double) gives the nearest whole count, which
// is the exact one while the product is below 2^52.
long double whole_flops(long double flops, long double per_point) {
    return per_point == std::floor(per_point) ? flops : std::nearbyint(flops);
}

}  // namespace

Counts count_op(model::Op const& matmul, std::span<double const> axis_sizes,
                std::span<model::Dtype const> dtypes, std::span<double const> slots) {
    long double k = flops_per_point(matmul, slots), all = k;
    for (double size : axis_sizes) all *= static_cast<long double>(size);
    all = whole_flops(all, k);
    long double read = 0, written = 0, onchip = 0;
    for (auto const& input : matmul.inputs)
        add_operand(tensor_bytes(input, axis_sizes, dtypes, slots), input, slots, read, onchip);
    add_operand(tensor_bytes(matmul.out, axis_sizes, dtypes, slots), matmul.out, slots, written, onchip);
    return Counts{static_cast<double>(all), static_cast<double>(read), static_cast<double>(written),
                  static_cast<double>(onchip)};
}

}  // namespace roofline::engine

namespace roofline::engine {

double shard_count(model::Shards const& shards, std::span<double const> mesh_sizes) {
    double n = 1;
    for (int m : shards) n *= mesh_sizes[static_cast<std::size_t>(m)];
    return n;
}

long double tensor_bytes(model::Tensor const& tensor, std::vector<model::Shards> const& split,
                         std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                         std::span<model::Dtype const> dtypes, std::span<double const> slots) {
    long double n = 1;
    for (std::size_t i = 0; i < tensor.axes.size(); ++i) {
        double size = axis_sizes[static_cast<std::size_t>(tensor.axes[i])];
        if (i < split.size()) size /= shard_count(split[i], mesh_sizes);
        n *= static_cast<long double>(size);
    }
    auto dtype = static_cast<std::size_t>(tensor.dtype.at(slots));
    return n * static_cast<long double>(dtypes[dtype].bytes);
}

Counts count_op_on_chip(model::Op const& op, std::span<double const> axis_sizes,
                        std::span<double const> mesh_sizes, std::span<model::Dtype const> dtypes,
                        std::span<double const> slots) {
    long double k = flops_per_point(op, slots), all = k;
    for (std::size_t a = 0; a < axis_sizes.size(); ++a) {
        double size = axis_sizes[a];
        if (a < op.compute_shards.size()) size /= shard_count(op.compute_shards[a], mesh_sizes);
        all *= static_cast<long double>(size);
    }
    all = whole_flops(all, k);
    long double read = 0, written = 0, onchip = 0;
    for (auto const& input : op.inputs)
        add_operand(tensor_bytes(input, input.local, axis_sizes, mesh_sizes, dtypes, slots), input,
                    slots, read, onchip);
    add_operand(tensor_bytes(op.out, op.out.local, axis_sizes, mesh_sizes, dtypes, slots), op.out,
                slots, written, onchip);
    return Counts{static_cast<double>(all), static_cast<double>(read), static_cast<double>(written),
                  static_cast<double>(onchip)};
}

}  // namespace roofline::engine
