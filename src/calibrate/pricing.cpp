// A row priced at any x (pricing.hpp).
#include "pricing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::calibrate {

namespace {

constexpr std::size_t none = RowIndices::none;

// Where a segment's time goes: the TTFT features with the segment's share
// of the mean TTFT, the TPOT ones with its share of the mean TPOT.
struct Sink {
    RowFeatures& f;
    double w_ttft, w_tpot;
    void add(std::size_t param, double v) const {
        f.ttft(static_cast<Eigen::Index>(param)) += w_ttft * v;
        f.tpot(static_cast<Eigen::Index>(param)) += w_tpot * v;
    }
    // Into the parameter, or the constant where there is none (x = 1).
    void add_or_constant(std::size_t param, double v) const {
        if (param != none) return add(param, v);
        f.ttft_constant += w_ttft * v;
        f.tpot_constant += w_tpot * v;
    }
};

// A collective's terms at x: its bandwidth time and its count of latencies
// where the latency of its kind and link is fitted, else its roofline time
// (with the roofline's latency in it), both against the network factor. A
// fitted latency never takes a collective below its roofline time
// (engine/expected.cpp): there the roofline's time is a constant (param none).
template <class Each>
void collective_terms(SegmentCollective const& col, RowIndices::Collective const& ci, Eigen::VectorXd const& x,
                      Each&& each) {
    if (ci.latency == none) return each(ci.network, col.roofline_s);
    double const fitted = x(static_cast<Eigen::Index>(ci.network)) * col.bandwidth_s +
                          x(static_cast<Eigen::Index>(ci.latency)) * col.instances;
    if (fitted >= col.roofline_s) each(ci.network, col.bandwidth_s), each(ci.latency, col.instances);
    else each(none, col.roofline_s);
}

// An op's roof at x (the largest of math, HBM, on-chip and its overlapped
// collectives), times its count.
void price_op(Segment const& seg, std::size_t k, RowIndices const& idx, std::size_t op_at, std::size_t col_at,
              Eigen::VectorXd const& x, Sink const& sink) {
    auto at = [&](std::size_t i) { return i != none ? x(static_cast<Eigen::Index>(i)) : 1.0; };  // none: x = 1
    auto const& op = seg.ops[k];
    auto const& o = idx.ops[op_at + k];
    double const c = op.count;
    double hidden = 0;
    bool any_hidden = false;
    for (std::uint32_t j = 0; j < op.collectives; ++j) {
        auto const& col = seg.collectives[op.first + j];
        if (col.serial) continue;
        auto const& ci = idx.collectives[col_at + op.first + j];
        any_hidden = true;
        collective_terms(col, ci, x, [&](std::size_t param, double v) { hidden += at(param) * v; });
    }
    double const math = op.t_math * (o.math != none ? at(o.math) : 1.0);
    double const hbm = op.t_comms * (o.hbm != none ? at(o.hbm) : 1.0);
    double const roof = std::max({math, hbm, op.t_onchip, hidden});
    if (!(roof > 0)) return;
    if (roof == math) {
        sink.add_or_constant(o.math, c * op.t_math);
    } else if (roof == hbm) {
        sink.add_or_constant(o.hbm, c * op.t_comms);
    } else if (roof == op.t_onchip) {
        sink.add_or_constant(none, c * op.t_onchip);
    } else if (any_hidden) {
        for (std::uint32_t j = 0; j < op.collectives; ++j) {
            auto const& col = seg.collectives[op.first + j];
            if (col.serial) continue;
            collective_terms(col, idx.collectives[col_at + op.first + j], x,
                             [&](std::size_t param, double v) { sink.add_or_constant(param, c * v); });
        }
    }
}

// What does not depend on the roofs: the serial collectives without a fitted
// latency and the launches of an op. Those with one are left in `at_x`.
void fixed_op(Segment const& seg, std::size_t k, RowIndices const& idx, std::size_t col_at, Sink const& sink,
              std::vector<SerialAtX>& at_x) {
    auto const& op = seg.ops[k];
    double const c = op.count;
    for (std::uint32_t j = 0; j < op.collectives; ++j) {
        auto const& col = seg.collectives[op.first + j];
        if (!col.serial) continue;
        auto const& ci = idx.collectives[col_at + op.first + j];
        if (ci.latency != none) {
            at_x.push_back(SerialAtX{&col, ci, c, seg.w_ttft, seg.w_tpot});
            continue;
        }
        sink.add(ci.network, c * col.roofline_s);
    }
    sink.add(idx.launch, c * op.launches);
}

// An op whose roof is math or HBM alone (no on-chip time, no overlapped
// collective), weighted into the group of its parameters.
struct Entry {
    double ratio, math_ttft, math_tpot, hbm_ttft, hbm_tpot;
};

bool math_or_hbm_only(Segment const& seg, SegmentOp const& op) {
    if (op.t_onchip > 0) return false;
    for (std::uint32_t j = 0; j < op.collectives; ++j)
        if (!seg.collectives[op.first + j].serial) return false;
    return true;
}

}  // namespace

RowPricing::RowPricing(RowModel const& row, RowIndices indices, Eigen::Index parameters, bool sorted)
    : row_(&row), indices_(std::move(indices)) {
    if (!row.cold_segments.empty()) {
        RowIndices cold = indices_;
        cold.ops = std::move(cold.cold_ops), cold.collectives = std::move(cold.cold_collectives);
        cold.cold_ops.clear(), cold.cold_collectives.clear();
        cold_ = std::unique_ptr<RowPricing>(new RowPricing(row.cold_segments, std::move(cold), parameters, sorted));
    }
    lay_out(row.segments, parameters, sorted);
    // Each request's own cost before its first token: once in the mean TTFT.
    fixed_ttft_(static_cast<Eigen::Index>(indices_.request)) += 1;
}

RowPricing::RowPricing(std::vector<Segment> const& segments, RowIndices indices, Eigen::Index parameters, bool sorted)
    : row_(nullptr), indices_(std::move(indices)) {
    lay_out(segments, parameters, sorted);
}

void RowPricing::lay_out(std::vector<Segment> const& segments, Eigen::Index parameters, bool sorted) {
    RowFeatures fixed{Eigen::VectorXd::Zero(parameters), Eigen::VectorXd::Zero(parameters), 0, 0};
    std::vector<std::pair<std::size_t, std::size_t>> keys;  // (math, hbm) of each group
    std::vector<std::vector<Entry>> entries;
    std::size_t op_at = 0, col_at = 0;
    for (auto const& seg : segments) {
        Sink const sink{fixed, seg.w_ttft, seg.w_tpot};
        for (std::size_t k = 0; k < seg.ops.size(); ++k) {
            fixed_op(seg, k, indices_, col_at, sink, serial_at_x_);
            auto const& op = seg.ops[k];
            if (!sorted || !math_or_hbm_only(seg, op)) {
                one_by_one_.push_back(OneByOne{&seg, k, op_at, col_at});
                continue;
            }
            if (!(op.t_math > 0) && !(op.t_comms > 0)) continue;
            auto const& o = indices_.ops[op_at + k];
            std::pair<std::size_t, std::size_t> const key{o.math, o.hbm};
            auto it = std::find(keys.begin(), keys.end(), key);
            if (it == keys.end()) keys.push_back(key), entries.emplace_back(), it = keys.end() - 1;
            double const c = op.count;
            // On the math roof when t_math x_math >= t_comms x_hbm: when the
            // ratio is at least x_hbm / x_math (always, without HBM time).
            double const ratio = op.t_comms > 0 ? op.t_math / op.t_comms : std::numeric_limits<double>::infinity();
            entries[static_cast<std::size_t>(it - keys.begin())].push_back(
                Entry{ratio, seg.w_ttft * c * op.t_math, seg.w_tpot * c * op.t_math, seg.w_ttft * c * op.t_comms,
                      seg.w_tpot * c * op.t_comms});
        }
        sink.add(indices_.step, seg.steps);
        sink.add(indices_.layer, seg.layer_steps);
        sink.add(indices_.sequence, seg.sequences);
        sink.add(indices_.prefill, seg.chunk_steps);
        op_at += seg.ops.size();
        col_at += seg.collectives.size();
    }
    fixed_ttft_ = std::move(fixed.ttft);
    fixed_tpot_ = std::move(fixed.tpot);

    for (std::size_t g = 0; g < keys.size(); ++g) {
        auto& list = entries[g];
        std::sort(list.begin(), list.end(), [](Entry const& a, Entry const& b) { return a.ratio < b.ratio; });
        Group group;
        group.math = keys[g].first, group.hbm = keys[g].second;
        std::vector<Entry> merged;
        for (auto const& e : list) {
            if (!merged.empty() && merged.back().ratio == e.ratio) {
                auto& m = merged.back();
                m.math_ttft += e.math_ttft, m.math_tpot += e.math_tpot;
                m.hbm_ttft += e.hbm_ttft, m.hbm_tpot += e.hbm_tpot;
            } else {
                merged.push_back(e);
            }
        }
        std::size_t const n = merged.size();
        group.ratio.resize(n);
        group.math_ttft.assign(n + 1, 0), group.math_tpot.assign(n + 1, 0);
        group.hbm_ttft.assign(n + 1, 0), group.hbm_tpot.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            group.ratio[i] = merged[i].ratio;
            group.hbm_ttft[i + 1] = group.hbm_ttft[i] + merged[i].hbm_ttft;
            group.hbm_tpot[i + 1] = group.hbm_tpot[i] + merged[i].hbm_tpot;
        }
        for (std::size_t i = n; i-- > 0;) {
            group.math_ttft[i] = group.math_ttft[i + 1] + merged[i].math_ttft;
            group.math_tpot[i] = group.math_tpot[i + 1] + merged[i].math_tpot;
        }
        groups_.push_back(std::move(group));
    }
}

void RowPricing::price(Eigen::VectorXd const& x, RowFeatures& out) const {
    out.ttft = fixed_ttft_;
    out.tpot = fixed_tpot_;
    out.ttft_constant = out.tpot_constant = 0;
    auto at = [&](std::size_t i) { return i != none ? x(static_cast<Eigen::Index>(i)) : 1.0; };
    for (auto const& g : groups_) {
        // The ops from i on are on the math roof, those before on HBM.
        double const threshold = at(g.hbm) / at(g.math);
        auto const i = static_cast<std::size_t>(std::lower_bound(g.ratio.begin(), g.ratio.end(), threshold) -
                                                g.ratio.begin());
        Sink{out, g.math_ttft[i], g.math_tpot[i]}.add_or_constant(g.math, 1);
        Sink{out, g.hbm_ttft[i], g.hbm_tpot[i]}.add_or_constant(g.hbm, 1);
    }
    for (auto const& one : one_by_one_)
        price_op(*one.segment, one.op, indices_, one.op_at, one.col_at, x,
                 Sink{out, one.segment->w_ttft, one.segment->w_tpot});
    for (auto const& s : serial_at_x_) {
        Sink const sink{out, s.w_ttft, s.w_tpot};
        collective_terms(*s.col, s.ci, x,
                         [&](std::size_t param, double v) { sink.add_or_constant(param, s.count * v); });
    }
}

void RowPricing::features(Eigen::VectorXd const& x, RowFeatures& out) const {
    price(x, out);
    // The cold first wave: the share cold_start of the requests take the
    // wave's TTFT in place of the steady state's; both at x, as the roofs
    // are (the steps' parts only: the per-request terms are alike).
    if (cold_) {
        RowFeatures wave;
        cold_->price(x, wave);
        auto const request = static_cast<Eigen::Index>(indices_.request);
        double const cold = wave.ttft.dot(x) + wave.ttft_constant;
        double const steady = out.ttft.dot(x) + out.ttft_constant - x(request) * out.ttft(request);
        if (std::isfinite(cold - steady)) out.ttft(static_cast<Eigen::Index>(indices_.cold_start)) += cold - steady;
    }
    // The stream term: the replica's output tokens/s at x, C x output / the
    // cycle (TTFT + (output - 1) x TPOT), as serve's rate is, before the
    // term itself. Its value moves with x, as the roofs do: each iterate of
    // the fit takes it anew.
    double const tpot = out.tpot.dot(x) + out.tpot_constant;
    double const cycle = out.ttft.dot(x) + out.ttft_constant + (row_->output_tokens - 1) * tpot;
    if (cycle > 0 && std::isfinite(cycle))
        out.ttft(static_cast<Eigen::Index>(indices_.stream)) += row_->clients * row_->output_tokens / cycle;
    // The admission wait: steps per sequence in flight (the C clients of
    // the closed loop), each the mean TPOT at x, as serve's is.
    if (std::isfinite(tpot)) out.ttft(static_cast<Eigen::Index>(indices_.admission)) += row_->clients * tpot;
    // The first token's steps after its own (each the mean TPOT at x, as
    // serve's); the per-request terms: per prompt token, per kernel of a
    // prompt's forward.
    if (std::isfinite(tpot)) out.ttft(static_cast<Eigen::Index>(indices_.first_token)) += tpot;
    out.ttft(static_cast<Eigen::Index>(indices_.prompt_token)) += row_->prompt_tokens;
    out.ttft(static_cast<Eigen::Index>(indices_.request_launch)) += row_->forward_launches;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        if (!std::isfinite(out.ttft(j))) out.ttft(j) = 0;
        if (!std::isfinite(out.tpot(j))) out.tpot(j) = 0;
    }
}

void row_features(RowModel const& row, ParamSpace& space, Eigen::VectorXd& x, RowFeatures& out) {
    RowIndices idx = index_row(row, space);
    Eigen::Index const old = x.size();
    x.conservativeResize(static_cast<Eigen::Index>(space.size()));
    for (Eigen::Index j = old; j < x.size(); ++j) x(j) = space.params()[static_cast<std::size_t>(j)].lower();
    RowPricing(row, std::move(idx), x.size()).features(x, out);
}

std::pair<double, double> predict_row(RowModel const& row, model::Calibration const* calibration) {
    if (!calibration) {
        // The serial roofline keeps the roofline's collective latencies.
        ParamSpace plain;
        Eigen::VectorXd px(0);
        RowFeatures f;
        row_features(row, plain, px, f);
        return {f.ttft.dot(px) + f.ttft_constant, f.tpot.dot(px) + f.tpot_constant};
    }
    auto [space, x] = ParamSpace::of(*calibration);
    RowFeatures f;
    row_features(row, space, x, f);
    return {f.ttft.dot(x) + f.ttft_constant, f.tpot.dot(x) + f.tpot_constant};
}

}  // namespace roofline::calibrate
