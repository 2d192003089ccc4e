// The calibration's factors as a linear fit's unknowns (parameters.hpp).
#include "parameters.hpp"

#include <algorithm>
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
    launch(), step(), layer(), sequence(), request(), prefill();
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

namespace {

// A segment's time as features . x + constant, into `f` scaled by `w`.
void segment_features(Segment const& seg, ParamSpace& space, Eigen::VectorXd& x, double w, Eigen::VectorXd& f,
                      double& constant) {
    auto at = [&](std::size_t i) -> double {
        if (static_cast<Eigen::Index>(i) >= x.size()) {
            Eigen::Index const old = x.size();
            x.conservativeResize(static_cast<Eigen::Index>(space.size()));
            for (Eigen::Index j = old; j < x.size(); ++j) x(j) = space.params()[static_cast<std::size_t>(j)].lower();
        }
        if (f.size() < x.size()) {
            Eigen::Index const old = f.size();
            f.conservativeResize(x.size());
            for (Eigen::Index j = old; j < f.size(); ++j) f(j) = 0;
        }
        return x(static_cast<Eigen::Index>(i));
    };
    auto add = [&](std::size_t i, double v) {
        at(i);
        f(static_cast<Eigen::Index>(i)) += w * v;
    };
    for (auto const& op : seg.ops) {
        double const c = op.count;
        // The collectives: serial ones add, overlapped ones join the max.
        double hidden = 0;
        struct Term {
            std::size_t param;
            double value;
        };
        std::vector<Term> hidden_terms;
        for (std::uint32_t k = 0; k < op.collectives; ++k) {
            auto const& col = seg.collectives[op.first + k];
            auto latency = space.find_latency(col.kind, col.link);
            std::size_t const net = space.network();
            std::vector<Term> terms;
            if (latency) terms = {{net, col.bandwidth_s}, {*latency, col.instances}};
            else terms = {{net, col.roofline_s}};
            if (col.serial) {
                for (auto const& t : terms) add(t.param, c * t.value);
            } else {
                for (auto const& t : terms) hidden += at(t.param) * t.value, hidden_terms.push_back(t);
            }
        }
        // The roof: the largest of math, HBM, on-chip and the hidden collectives at x.
        bool const math_fitted = op.op_class == model::OpClass::gemm || op.op_class == model::OpClass::attention;
        bool const hbm_fitted = op.op_class != model::OpClass::collective;
        std::size_t const mi = math_fitted ? space.math(op.op_class, op.dtype) : 0;
        std::size_t const hi = hbm_fitted ? space.hbm(op.op_class) : 0;
        double const math = op.t_math * (math_fitted ? at(mi) : 1.0);
        double const hbm = op.t_comms * (hbm_fitted ? at(hi) : 1.0);
        double const onchip = op.t_onchip;
        double const roof = std::max({math, hbm, onchip, hidden});
        if (roof > 0) {
            if (roof == math) {
                if (math_fitted) add(mi, c * op.t_math);
                else constant += w * c * op.t_math;
            } else if (roof == hbm) {
                if (hbm_fitted) add(hi, c * op.t_comms);
                else constant += w * c * op.t_comms;
            } else if (roof == onchip) {
                constant += w * c * onchip;
            } else {
                for (auto const& t : hidden_terms) add(t.param, c * t.value);
            }
        }
        add(space.launch(), c * op.launches);
    }
    add(space.step(), seg.steps);
    add(space.layer(), seg.layer_steps);
    add(space.sequence(), seg.sequences);
    add(space.prefill(), seg.chunk_steps);
}

}  // namespace

void row_features(RowModel const& row, ParamSpace& space, Eigen::VectorXd& x, RowFeatures& out) {
    out.ttft = Eigen::VectorXd::Zero(x.size());
    out.tpot = Eigen::VectorXd::Zero(x.size());
    out.ttft_constant = out.tpot_constant = 0;
    for (auto const& seg : row.segments) {
        if (seg.w_ttft != 0) segment_features(seg, space, x, seg.w_ttft, out.ttft, out.ttft_constant);
        if (seg.w_tpot != 0) segment_features(seg, space, x, seg.w_tpot, out.tpot, out.tpot_constant);
    }
    // Each request's own cost before its first token: once in the mean TTFT.
    std::size_t const request = space.request();
    if (static_cast<Eigen::Index>(request) >= x.size()) {
        Eigen::Index const old = x.size();
        x.conservativeResize(static_cast<Eigen::Index>(space.size()));
        for (Eigen::Index j = old; j < x.size(); ++j) x(j) = space.params()[static_cast<std::size_t>(j)].lower();
    }
    for (Eigen::VectorXd* v : {&out.ttft, &out.tpot}) {
        Eigen::Index const old = v->size();
        v->conservativeResize(x.size());
        for (Eigen::Index j = old; j < x.size(); ++j) (*v)(j) = 0;
    }
    out.ttft(static_cast<Eigen::Index>(request)) += 1;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        if (!std::isfinite(out.ttft(j))) out.ttft(j) = 0;
        if (!std::isfinite(out.tpot(j))) out.tpot(j) = 0;
    }
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
