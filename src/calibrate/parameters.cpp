// The calibration's factors as a linear fit's unknowns (parameters.hpp).
#include "parameters.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace roofline::calibrate {

namespace {

std::string_view link_name(model::Link link) {
    switch (link) {
    case model::Link::ici: return "ici";
    case model::Link::nvlink: return "nvlink";
    default: return "dcn";
    }
}

}  // namespace

std::size_t ParamSpace::add(std::string const& name, Kind kind) {
    auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    params_.push_back(Param{name, kind});
    index_.emplace(name, params_.size() - 1);
    return params_.size() - 1;
}

std::size_t ParamSpace::math(model::OpClass c, std::string const& dtype) {
    return add(std::string(model::op_class_name(c)) + " " + dtype, Kind::inverse_efficiency);
}
std::size_t ParamSpace::hbm(model::OpClass c) {
    return add(std::string(model::op_class_name(c)) + " hbm", Kind::inverse_efficiency);
}
std::size_t ParamSpace::network() { return add("network", Kind::inverse_efficiency); }
std::size_t ParamSpace::latency(model::CollectiveKind kind, model::Link link) {
    return add("latency " + std::string(model::collective_info(kind).name) + " " + std::string(link_name(link)),
               Kind::seconds);
}
std::optional<std::size_t> ParamSpace::find_latency(model::CollectiveKind kind, model::Link link) const {
    auto it = index_.find("latency " + std::string(model::collective_info(kind).name) + " " +
                          std::string(link_name(link)));
    if (it == index_.end()) return std::nullopt;
    return it->second;
}
std::size_t ParamSpace::launch() { return add("launch", Kind::seconds); }
std::size_t ParamSpace::step() { return add("step_overhead", Kind::seconds); }
std::size_t ParamSpace::layer() { return add("layer_overhead", Kind::seconds); }
std::size_t ParamSpace::sequence() { return add("sequence_overhead", Kind::seconds); }
std::size_t ParamSpace::request() { return add("request_overhead", Kind::seconds); }
std::size_t ParamSpace::prefill() { return add("prefill_overhead", Kind::seconds); }
std::size_t ParamSpace::stream() { return add("stream_overhead", Kind::seconds); }

void ParamSpace::add_all(RowModel const& row) {
    for (auto const& seg : row.segments) {
        for (auto const& op : seg.ops) {
            if (op.op_class == model::OpClass::gemm || op.op_class == model::OpClass::attention)
                math(op.op_class, op.dtype);
            if (op.op_class != model::OpClass::collective) hbm(op.op_class);
        }
        for (auto const& c : seg.collectives) {
            network();
            latency(c.kind, c.link);
        }
    }
    launch(), step(), layer(), sequence(), request(), prefill(), stream();
}

Eigen::VectorXd ParamSpace::lower() const {
    Eigen::VectorXd x(static_cast<Eigen::Index>(params_.size()));
    for (std::size_t i = 0; i < params_.size(); ++i) x(static_cast<Eigen::Index>(i)) = params_[i].lower();
    return x;
}

std::pair<ParamSpace, Eigen::VectorXd> ParamSpace::of(model::Calibration const& c) {
    ParamSpace space;
    std::vector<double> values;
    auto set = [&](std::size_t i, double v) {
        if (values.size() <= i) values.resize(i + 1, 0);
        values[i] = v;
    };
    for (auto const& m : c.math)
        if (m.op_class == model::OpClass::gemm || m.op_class == model::OpClass::attention)
            set(space.math(m.op_class, m.dtype), 1 / m.value);
    for (auto cls : {model::OpClass::gemm, model::OpClass::attention, model::OpClass::elementwise})
        set(space.hbm(cls), 1 / c.e_hbm(cls));
    set(space.network(), 1 / c.e_network());
    for (auto const& l : c.latencies) set(space.latency(l.kind, l.link), l.seconds);
    set(space.launch(), c.launch_s);
    set(space.step(), c.step_overhead_s);
    set(space.layer(), c.layer_overhead_s);
    set(space.sequence(), c.sequence_overhead_s);
    set(space.request(), c.request_overhead_s);
    set(space.prefill(), c.prefill_overhead_s);
    set(space.stream(), c.stream_overhead_s);
    Eigen::VectorXd x = Eigen::Map<Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
    return {std::move(space), x};
}

model::Calibration ParamSpace::calibration(Eigen::VectorXd const& x) const {
    model::Calibration c;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        std::string const& name = params_[i].name;
        double const v = x(static_cast<Eigen::Index>(i));
        auto space = name.find(' ');
        std::string const head = name.substr(0, space);
        std::string const tail = space == std::string::npos ? "" : name.substr(space + 1);
        auto cls = [](std::string const& h) {
            return h == "gemm" ? model::OpClass::gemm : h == "attention" ? model::OpClass::attention
                                                                         : model::OpClass::elementwise;
        };
        if (name == "network") c.network = 1 / v;
        else if (name == "launch") c.launch_s = v;
        else if (name == "step_overhead") c.step_overhead_s = v;
        else if (name == "layer_overhead") c.layer_overhead_s = v;
        else if (name == "sequence_overhead") c.sequence_overhead_s = v;
        else if (name == "request_overhead") c.request_overhead_s = v;
        else if (name == "prefill_overhead") c.prefill_overhead_s = v;
        else if (name == "stream_overhead") c.stream_overhead_s = v;
        else if (head == "latency") {
            auto second = tail.find(' ');
            auto const* info = model::find_collective(tail.substr(0, second));
            std::string const link = tail.substr(second + 1);
            model::CollectiveLatency l;
            l.kind = info ? info->kind : model::CollectiveKind::allreduce;
            l.link = link == "ici" ? model::Link::ici : link == "nvlink" ? model::Link::nvlink : model::Link::dcn;
            l.seconds = v;
            c.latencies.push_back(l);
        } else if (tail == "hbm") {
            c.hbm_by_class.push_back(model::HbmEfficiency{cls(head), 1 / v, {}});
        } else {
            c.math.push_back(model::MathEfficiency{cls(head), tail, 1 / v, {}});
        }
    }
    return c;
}

RowIndices index_row(RowModel const& row, ParamSpace& space) {
    RowIndices out;
    for (auto const& seg : row.segments) {
        for (auto const& op : seg.ops) {
            RowIndices::Op o;
            if (op.op_class == model::OpClass::gemm || op.op_class == model::OpClass::attention)
                o.math = space.math(op.op_class, op.dtype);
            if (op.op_class != model::OpClass::collective) o.hbm = space.hbm(op.op_class);
            out.ops.push_back(o);
        }
        for (auto const& c : seg.collectives) {
            RowIndices::Collective o;
            o.network = space.network();
            if (auto latency = space.find_latency(c.kind, c.link)) o.latency = *latency;
            out.collectives.push_back(o);
        }
    }
    out.launch = space.launch(), out.step = space.step(), out.layer = space.layer();
    out.sequence = space.sequence(), out.prefill = space.prefill(), out.request = space.request();
    out.stream = space.stream();
    return out;
}

namespace {

constexpr std::size_t none = RowIndices::none;

// A segment's time as features . x + constant, into `f` scaled by `w`;
// `op_at` and `col_at`: where its ops and collectives start in `idx`.
void segment_features(Segment const& seg, RowIndices const& idx, std::size_t op_at, std::size_t col_at,
                      Eigen::VectorXd const& x, double w, Eigen::VectorXd& f, double& constant) {
    auto add = [&](std::size_t i, double v) { f(static_cast<Eigen::Index>(i)) += w * v; };
    auto at = [&](std::size_t i) { return x(static_cast<Eigen::Index>(i)); };
    struct Term {
        std::size_t param;
        double value;
    };
    std::array<Term, 2> terms{};
    for (std::size_t k = 0; k < seg.ops.size(); ++k) {
        auto const& op = seg.ops[k];
        auto const& o = idx.ops[op_at + k];
        double const c = op.count;
        // The collectives: serial ones add, overlapped ones join the max.
        double hidden = 0;
        bool any_hidden = false;
        for (std::uint32_t j = 0; j < op.collectives; ++j) {
            auto const& col = seg.collectives[op.first + j];
            auto const& ci = idx.collectives[col_at + op.first + j];
            std::size_t n = 0;
            if (ci.latency != none) terms[n++] = {ci.network, col.bandwidth_s}, terms[n++] = {ci.latency, col.instances};
            else terms[n++] = {ci.network, col.roofline_s};
            for (std::size_t t = 0; t < n; ++t) {
                if (col.serial) add(terms[t].param, c * terms[t].value);
                else hidden += at(terms[t].param) * terms[t].value, any_hidden = true;
            }
        }
        // The roof: the largest of math, HBM, on-chip and the hidden collectives at x.
        double const math = op.t_math * (o.math != none ? at(o.math) : 1.0);
        double const hbm = op.t_comms * (o.hbm != none ? at(o.hbm) : 1.0);
        double const onchip = op.t_onchip;
        double const roof = std::max({math, hbm, onchip, hidden});
        if (roof > 0) {
            if (roof == math) {
                if (o.math != none) add(o.math, c * op.t_math);
                else constant += w * c * op.t_math;
            } else if (roof == hbm) {
                if (o.hbm != none) add(o.hbm, c * op.t_comms);
                else constant += w * c * op.t_comms;
            } else if (roof == onchip) {
                constant += w * c * onchip;
            } else if (any_hidden) {
                for (std::uint32_t j = 0; j < op.collectives; ++j) {
                    auto const& col = seg.collectives[op.first + j];
                    if (col.serial) continue;
                    auto const& ci = idx.collectives[col_at + op.first + j];
                    if (ci.latency != none) add(ci.network, c * col.bandwidth_s), add(ci.latency, c * col.instances);
                    else add(ci.network, c * col.roofline_s);
                }
            }
        }
        add(idx.launch, c * op.launches);
    }
    add(idx.step, seg.steps);
    add(idx.layer, seg.layer_steps);
    add(idx.sequence, seg.sequences);
    add(idx.prefill, seg.chunk_steps);
}

}  // namespace

void row_features(RowModel const& row, RowIndices const& idx, Eigen::VectorXd const& x, RowFeatures& out) {
    out.ttft = Eigen::VectorXd::Zero(x.size());
    out.tpot = Eigen::VectorXd::Zero(x.size());
    out.ttft_constant = out.tpot_constant = 0;
    std::size_t op_at = 0, col_at = 0;
    Eigen::VectorXd both(x.size());
    for (auto const& seg : row.segments) {
        if (seg.w_ttft != 0 && seg.w_tpot != 0) {
            // In both means: priced once.
            both.setZero();
            double constant = 0;
            segment_features(seg, idx, op_at, col_at, x, 1, both, constant);
            out.ttft += seg.w_ttft * both, out.ttft_constant += seg.w_ttft * constant;
            out.tpot += seg.w_tpot * both, out.tpot_constant += seg.w_tpot * constant;
        } else if (seg.w_ttft != 0) {
            segment_features(seg, idx, op_at, col_at, x, seg.w_ttft, out.ttft, out.ttft_constant);
        } else if (seg.w_tpot != 0) {
            segment_features(seg, idx, op_at, col_at, x, seg.w_tpot, out.tpot, out.tpot_constant);
        }
        op_at += seg.ops.size();
        col_at += seg.collectives.size();
    }
    // Each request's own cost before its first token: once in the mean TTFT.
    out.ttft(static_cast<Eigen::Index>(idx.request)) += 1;
    // The stream term: the replica's output tokens/s at x, C x output / the
    // cycle (TTFT + (output - 1) x TPOT), as serve's rate is, before the
    // term itself. Its value moves with x, as the roofs do: each iterate of
    // the fit takes it anew.
    double const cycle = out.ttft.dot(x) + out.ttft_constant +
                         (row.output_tokens - 1) * (out.tpot.dot(x) + out.tpot_constant);
    if (cycle > 0 && std::isfinite(cycle))
        out.ttft(static_cast<Eigen::Index>(idx.stream)) += row.clients * row.output_tokens / cycle;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        if (!std::isfinite(out.ttft(j))) out.ttft(j) = 0;
        if (!std::isfinite(out.tpot(j))) out.tpot(j) = 0;
    }
}

void row_features(RowModel const& row, ParamSpace& space, Eigen::VectorXd& x, RowFeatures& out) {
    RowIndices const idx = index_row(row, space);
    Eigen::Index const old = x.size();
    x.conservativeResize(static_cast<Eigen::Index>(space.size()));
    for (Eigen::Index j = old; j < x.size(); ++j) x(j) = space.params()[static_cast<std::size_t>(j)].lower();
    row_features(row, idx, x, out);
}

std::pair<double, double> predict_row(RowModel const& row, model::Calibration const* calibration) {
    model::Calibration const none;
    auto [space, x] = ParamSpace::of(calibration ? *calibration : none);
    if (!calibration) {
        // The serial roofline keeps the roofline's collective latencies.
        ParamSpace plain;
        Eigen::VectorXd px(0);
        RowFeatures f;
        row_features(row, plain, px, f);
        return {f.ttft.dot(px) + f.ttft_constant, f.tpot.dot(px) + f.tpot_constant};
    }
    RowFeatures f;
    row_features(row, space, x, f);
    return {f.ttft.dot(x) + f.ttft_constant, f.tpot.dot(x) + f.tpot_constant};
}

}  // namespace roofline::calibrate
