// The calibration's factors as a linear fit's unknowns (parameters.hpp).
#include "parameters.hpp"

#include <algorithm>

namespace roofline::calibrate {

namespace {

// The classes with a math efficiency per compute dtype (elementwise math is
// never fitted: its FLOPs are few).
bool has_math(model::OpClass c) {
    return c == model::OpClass::gemm || c == model::OpClass::attention || c == model::OpClass::expert;
}

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
std::size_t ParamSpace::admission() { return add("admission_wait", Kind::steps); }
std::size_t ParamSpace::cold_start() { return add("cold_start", Kind::share); }
std::size_t ParamSpace::first_token() { return add("first_token_steps", Kind::steps); }
std::size_t ParamSpace::prompt_token() { return add("prompt_token_overhead", Kind::seconds); }
std::size_t ParamSpace::request_launch() { return add("request_launch", Kind::seconds); }

void ParamSpace::add_all(RowModel const& row) {
    for (auto const* segments : {&row.segments, &row.cold_segments})
        for (auto const& seg : *segments) {
            for (auto const& op : seg.ops) {
                if (has_math(op.op_class)) math(op.op_class, op.dtype);
                if (op.op_class != model::OpClass::collective) hbm(op.op_class);
            }
            for (auto const& c : seg.collectives) {
                network();
                latency(c.kind, c.link);
            }
        }
    launch(), step(), layer(), sequence(), request(), prefill(), stream(), admission(), cold_start();
    first_token(), prompt_token(), request_launch();
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
        if (has_math(m.op_class)) set(space.math(m.op_class, m.dtype), 1 / m.value);
    // Without its own, the expert class takes gemm's factors, as t_expected does.
    for (auto const& m : c.math)
        if (m.op_class == model::OpClass::gemm)
            set(space.math(model::OpClass::expert, m.dtype), 1 / c.e_math(model::OpClass::expert, m.dtype));
    using model::OpClass;
    for (auto cls : {OpClass::gemm, OpClass::attention, OpClass::elementwise, OpClass::expert})
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
    set(space.admission(), c.admission_wait);
    set(space.cold_start(), c.cold_start);
    set(space.first_token(), c.first_token_steps);
    set(space.prompt_token(), c.prompt_token_overhead_s);
    set(space.request_launch(), c.request_launch_s);
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
            return h == "gemm"        ? model::OpClass::gemm
                   : h == "attention" ? model::OpClass::attention
                   : h == "expert"    ? model::OpClass::expert
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
        else if (name == "admission_wait") c.admission_wait = v;
        else if (name == "cold_start") c.cold_start = v;
        else if (name == "first_token_steps") c.first_token_steps = v;
        else if (name == "prompt_token_overhead") c.prompt_token_overhead_s = v;
        else if (name == "request_launch") c.request_launch_s = v;
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

void index_segments(std::vector<Segment> const& segments, ParamSpace& space, std::vector<RowIndices::Op>& ops,
                    std::vector<RowIndices::Collective>& collectives) {
    for (auto const& seg : segments) {
        for (auto const& op : seg.ops) {
            RowIndices::Op o;
            if (has_math(op.op_class)) o.math = space.math(op.op_class, op.dtype);
            if (op.op_class != model::OpClass::collective) o.hbm = space.hbm(op.op_class);
            ops.push_back(o);
        }
        for (auto const& c : seg.collectives) {
            RowIndices::Collective o;
            o.network = space.network();
            if (auto latency = space.find_latency(c.kind, c.link)) o.latency = *latency;
            collectives.push_back(o);
        }
    }
}

}  // namespace

RowIndices index_row(RowModel const& row, ParamSpace& space) {
    RowIndices out;
    index_segments(row.segments, space, out.ops, out.collectives);
    index_segments(row.cold_segments, space, out.cold_ops, out.cold_collectives);
    out.launch = space.launch(), out.step = space.step(), out.layer = space.layer();
    out.sequence = space.sequence(), out.prefill = space.prefill(), out.request = space.request();
    out.stream = space.stream();
    out.admission = space.admission();
    out.cold_start = space.cold_start();
    out.first_token = space.first_token();
    out.prompt_token = space.prompt_token();
    out.request_launch = space.request_launch();
    return out;
}

}  // namespace roofline::calibrate
