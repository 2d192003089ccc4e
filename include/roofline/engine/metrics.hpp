#pragma once
// The roofline of one case (reports.md, "What is evaluated"). Everything in
// SI base units: FLOPs, bytes, seconds, FLOP/s. This is the one place that
// owns the formulas.

#include "roofline/model/scenario.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

namespace roofline::engine {

// Appended in the order they came (network, then onchip), so that the order
// of the others stays what it was.
enum class Bound : std::uint8_t { memory, compute, unsupported, network, onchip };
std::string_view bound_name(Bound bound);
std::optional<Bound> parse_bound(std::string_view name);  // bound_name's inverse

// HBM traffic in bytes_read and bytes_written; an `onchip` operand's bytes
// in bytes_onchip instead (docs/fusion.md). Each operand counts its bytes
// times its read factor (`x EXPR`).
struct Counts {
    double flops;          // flops_per_point (2 for a matmul) x product of all distinct axis sizes
    double bytes_read;     // sum over inputs in HBM of size(input) * bytes(input dtype)
    double bytes_written;  // size(out) * bytes(out), when the output goes to HBM
    double bytes_onchip = 0;  // read from and written to on-chip memory
};

// `axis_sizes[i]` is the size of matmul.axes[i]; `slots` the values of the
// point, where a dtype sweep's slot gives the dtype of the operands it names.
// Products are formed in long double (64-bit mantissa) and rounded once, so
// counts are exact up to 2^64.
Counts count_op(model::Op const& matmul, std::span<double const> axis_sizes,
                std::span<model::Dtype const> dtypes, std::span<double const> slots);

// Elements of `tensor` x bytes per element; `axis_sizes` indexed like its axes.
long double tensor_bytes(model::Tensor const& tensor, std::span<double const> axis_sizes,
                         std::span<model::Dtype const> dtypes, std::span<double const> slots);

// The same on one chip of a mesh: each dimension divided by the sizes of the
// mesh axes in `split` (parallel to tensor.axes; empty: not split).
// `mesh_sizes[i]` is the size of Scenario::mesh[i]. The sizes divide
// exactly (the engine checks), so the count stays exact.
long double tensor_bytes(model::Tensor const& tensor, std::vector<model::Shards> const& split,
                         std::span<double const> axis_sizes, std::span<double const> mesh_sizes,
                         std::span<model::Dtype const> dtypes, std::span<double const> slots);

// The product of the sizes of `shards`.
double shard_count(model::Shards const& shards, std::span<double const> mesh_sizes);

// Per chip: the FLOPs of the op's computation split (Op::compute_shards) and
// each operand's bytes at its Tensor::local split. `axis_sizes` are the whole
// sizes.
Counts count_op_on_chip(model::Op const& op, std::span<double const> axis_sizes,
                        std::span<double const> mesh_sizes, std::span<model::Dtype const> dtypes,
                        std::span<double const> slots);

struct Metrics {
    Counts counts;
    double intensity;      // flops / (bytes_read + bytes_written)
    double peak;           // FLOP/s for the compute dtype; NaN when unsupported
    double ridge;          // peak / hbm_bandwidth, FLOP/byte
    double t_math;         // flops / peak
    double t_comms;        // (bytes_read + bytes_written) / hbm_bandwidth
    double t_onchip;       // bytes_onchip / onchip_bandwidth; 0 when the chip has none
    double net_bytes;      // bytes each chip receives over the network (0 on one chip)
    double t_net;          // the collectives' time (network.hpp); 0 on one chip
    double t_lower;        // max(t_math, t_comms, t_onchip, t_net)
    double t_upper;        // t_math + t_comms + t_onchip + t_net
    // The op in a serial step (multichip.md 6): its collectives after its
    // compute and memory time (an input gather before it), except those
    // written `overlapped`, which run under it. t_net_serial is the part of
    // t_net that does not overlap: t_step = max(t_math, t_comms, t_onchip,
    // t_net - t_net_serial) + t_net_serial; t_lower when nothing is serial.
    double t_net_serial;
    double t_step;
    // The expected time (docs/calibration.md): with the target's calibration,
    // efficiencies on each roof, collectives serial with their measured small-
    // collective latency, and the op's launch; without one, t_step (the
    // serial roofline). Set by case_metrics; roofline_metrics leaves t_step.
    double t_expected;
    double attained;       // flops / t_lower
    double peak_fraction;  // attained / peak
    Bound bound;
};

inline constexpr double not_available = std::numeric_limits<double>::quiet_NaN();

// The time of on-chip traffic: free on a chip without an onchip_bandwidth.
inline double onchip_seconds(double bytes_onchip, std::optional<double> onchip_bytes_per_s) {
    return onchip_bytes_per_s && bytes_onchip > 0 ? bytes_onchip / *onchip_bytes_per_s : 0;
}

// The largest of the four times names the bound; ties go to compute, then
// memory, then on chip: the rule of one chip, unchanged where t_onchip and
// t_net are 0.
inline Bound bound_of(double t_math, double t_comms, double t_onchip, double t_net) {
    double const onchip_or_net = t_onchip >= t_net ? t_onchip : t_net;
    double const other = t_comms >= onchip_or_net ? t_comms : onchip_or_net;
    return t_math >= other             ? Bound::compute
           : t_comms >= onchip_or_net ? Bound::memory
           : t_onchip >= t_net        ? Bound::onchip
                                      : Bound::network;
}

inline Metrics roofline_metrics(Counts const& c, std::optional<double> peak,
                                double hbm_bytes_per_s, double net_bytes = 0, double t_net = 0,
                                std::optional<double> onchip_bytes_per_s = std::nullopt,
                                double t_net_serial = 0) {
    Metrics m;
    m.counts = c;
    double bytes = c.bytes_read + c.bytes_written;
    m.intensity = c.flops / bytes;
    m.t_comms = bytes / hbm_bytes_per_s;
    m.t_onchip = onchip_seconds(c.bytes_onchip, onchip_bytes_per_s);
    m.net_bytes = net_bytes;
    m.t_net = t_net;
    if (!peak) {
        m.peak = m.ridge = m.t_math = m.t_lower = m.t_upper = m.attained = m.peak_fraction =
            m.t_net_serial = m.t_step = m.t_expected = not_available;
        m.bound = Bound::unsupported;
        return m;
    }
    m.peak = *peak;
    m.ridge = *peak / hbm_bytes_per_s;
    m.t_math = c.flops / *peak;
    // The largest time, as bound_of picks it.
    double onchip_or_net = m.t_onchip >= t_net ? m.t_onchip : t_net;
    double other = m.t_comms >= onchip_or_net ? m.t_comms : onchip_or_net;
    m.t_lower = m.t_math >= other ? m.t_math : other;
    m.t_upper = m.t_math + m.t_comms;
    if (m.t_onchip != 0) m.t_upper += m.t_onchip;
    if (t_net != 0) m.t_upper += t_net;
    m.t_net_serial = t_net_serial;
    if (t_net_serial == 0) {
        m.t_step = m.t_lower;
    } else {
        double const hidden = t_net - t_net_serial;  // 0 unless a kernel mixes both
        double const roof = std::max({m.t_math, m.t_comms, m.t_onchip, hidden});
        m.t_step = roof + t_net_serial;
    }
    m.t_expected = m.t_step;
    m.attained = c.flops / m.t_lower;
    m.peak_fraction = m.attained / *peak;
    m.bound = bound_of(m.t_math, m.t_comms, m.t_onchip, t_net);
    return m;
}

// The predicate behind `bound`, without the other columns.
inline bool is_compute_bound(Counts const& c, double peak, double hbm_bytes_per_s,
                             double t_net = 0,
                             std::optional<double> onchip_bytes_per_s = std::nullopt) {
    double t_math = c.flops / peak;
    return t_math >= (c.bytes_read + c.bytes_written) / hbm_bytes_per_s && t_math >= t_net &&
           t_math >= onchip_seconds(c.bytes_onchip, onchip_bytes_per_s);
}

}  // namespace roofline::engine
