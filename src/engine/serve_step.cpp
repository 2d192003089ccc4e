// The seconds of one engine step: counts per op summed over the step's
// sequences and chunks, then timed once (serve_step.hpp).
#include "serve_step.hpp"

#include "roofline/model/expr.hpp"

#include <cmath>
#include <limits>

namespace roofline::engine::serving {

namespace {

constexpr std::size_t fields = 5;  // flops, read, written, onchip, net bytes

}  // namespace

std::optional<model::EvalError> set_step(PointEvaluator& evaluator, std::span<double const> point,
                                         StepSlots const& step) {
    evaluator.set_step_slots(step);
    return evaluator.set_point(point);
}

StepModel::StepModel(model::Scenario const& scenario, std::span<double const> point,
                     std::span<double const> mesh_sizes, std::span<std::uint8_t const> unsupported)
    : scenario_(scenario), point_(point.begin(), point.end()),
      mesh_sizes_(mesh_sizes.begin(), mesh_sizes.end()),
      unsupported_(unsupported.begin(), unsupported.end()), evaluator_(scenario) {
    auto const& serve = *scenario.serve;
    linear_.ops = &serve.linear;
    decode_.ops = &serve.decode;
    prefill_.ops = &serve.prefill;
    sample_.ops = &serve.sample;
    linear_once_.part = &linear_;
    sample_once_.part = &sample_;
    unsupported_.resize(scenario.targets.size(), 0);
    layers_ = layer_count(serve.linear.empty() ? serve.decode : serve.linear);
    for (Part* part : {&linear_, &decode_, &prefill_, &sample_})
        for (auto const& op : *part->ops) part->launches += op.count;
    for (int t : scenario.targets)
        no_latency_.push_back(hardware_without_latency(scenario.hardware[static_cast<std::size_t>(t)]));
}

bool StepModel::count_part(Part& part, StepSlots const& step, std::size_t& entry) {
    if (error_) return false;
    auto fail = [&](model::EvalError const& error) {
        error_ = error;
        auto const& serve = *scenario_.serve;
        auto name = [&](int slot) { return scenario_.slots[static_cast<std::size_t>(slot)].name; };
        if (&part == &linear_ && serve.tokens_slot >= 0)
            error_where_ = name(serve.tokens_slot) + " = " + model::format_number(step.tokens);
        else if (&part == &decode_ && serve.context_slot >= 0)
            error_where_ = name(serve.context_slot) + " = " + model::format_number(step.context);
        else if (&part == &prefill_ && serve.chunk_slot >= 0)
            error_where_ = name(serve.chunk_slot) + " = " + model::format_number(step.chunk) +
                           (serve.start_slot >= 0
                                ? ", " + name(serve.start_slot) + " = " + model::format_number(step.start)
                                : std::string());
        else if (&part == &sample_ && serve.sampled_slot >= 0)
            error_where_ = name(serve.sampled_slot) + " = " + model::format_number(step.sampled);
        return false;
    };
    if (auto e = set_step(evaluator_, point_, step)) return fail(*e);
    // The compute dtypes depend on the point only (a dtype sweep), never on a step slot.
    if (part.compute.size() != part.ops->size()) {
        part.compute.clear();
        for (auto const& op : *part.ops)
            part.compute.push_back(op.compute_dtype_at(evaluator_.slots(), scenario_.dtypes));
    }
    std::vector<double> values;
    std::vector<std::size_t> offsets;
    for (auto const& op : *part.ops) {
        if (auto e = count_case(scenario_, op, evaluator_, mesh_sizes_, scratch_, counts_)) return fail(*e);
        offsets.push_back(values.size());
        values.insert(values.end(), {counts_.counts.flops, counts_.counts.bytes_read,
                                     counts_.counts.bytes_written, counts_.counts.bytes_onchip,
                                     counts_.net_bytes});
        values.insert(values.end(), scratch_.volumes.begin(), scratch_.volumes.end());
    }
    if (part.stride == 0) {
        part.stride = values.size();
        part.offsets = std::move(offsets);
        offsets.clear();
        part.sum.assign(part.stride, 0);
    } else if (values.size() != part.stride || offsets != part.offsets) {
        // The volumes of an op are one per collective, at every step: a
        // different layout would be an engine bug, not the user's.
        return fail({scenario_.serve->span, "internal error: a serve part's counts changed shape"});
    }
    entry = part.entries.size() / std::max<std::size_t>(1, part.stride);
    part.entries.insert(part.entries.end(), values.begin(), values.end());
    return true;
}

void StepModel::clear_sum(Part& part) const { std::fill(part.sum.begin(), part.sum.end(), 0.0L); }

void StepModel::add_entry(Part& part, std::size_t entry) const {
    double const* e = part.entries.data() + entry * part.stride;
    for (std::size_t i = 0; i < part.stride; ++i) part.sum[i] += e[i];
}

Metrics StepModel::part_op_metrics(Part& part, std::size_t k, std::size_t target, bool with_calibration) {
    auto const& hw = scenario_.hardware[static_cast<std::size_t>(scenario_.targets[target])];
    auto const& op = (*part.ops)[k];
    std::size_t const at = part.offsets[k];
    std::size_t const end = k + 1 < part.offsets.size() ? part.offsets[k + 1] : part.stride;
    long double const* s = part.sum.data() + at;
    counts_.counts = Counts{static_cast<double>(s[0]), static_cast<double>(s[1]),
                            static_cast<double>(s[2]), static_cast<double>(s[3])};
    counts_.net_bytes = static_cast<double>(s[4]);
    scratch_.volumes.clear();
    for (std::size_t i = at + fields; i < end; ++i)
        scratch_.volumes.push_back(static_cast<double>(part.sum[i]));
    return case_metrics(scenario_, op, hw, part.compute[k], counts_, mesh_sizes_, scratch_,
                        unsupported_[target] != 0,
                        with_calibration ? scenario_.calibration_of_target(target) : nullptr);
}

long double StepModel::time_part(Part& part, std::size_t target) {
    long double total = 0;
    for (std::size_t k = 0; k < part.ops->size(); ++k) {
        Metrics m = part_op_metrics(part, k, target, true);
        total += static_cast<long double>((*part.ops)[k].count) * m.t_expected;
    }
    return total;
}

void StepModel::collect_parts(Part& part, std::size_t target, std::vector<OpParts>& out) {
    auto const& hw = scenario_.hardware[static_cast<std::size_t>(scenario_.targets[target])];
    for (std::size_t k = 0; k < part.ops->size(); ++k) {
        Metrics m = part_op_metrics(part, k, target, false);
        OpParts p;
        p.count = (*part.ops)[k].count;
        expected_parts(scenario_, (*part.ops)[k], hw, no_latency_[target], part.compute[k], m, mesh_sizes_,
                       scratch_.volumes, p.parts);
        out.push_back(std::move(p));
    }
}

StepSlots StepModel::once_slots(OncePerStep const& once, std::uint64_t n) const {
    StepSlots step;
    (once.part == &linear_ ? step.tokens : step.sampled) = static_cast<double>(n);
    return step;
}

bool StepModel::sum_once(OncePerStep& once, std::uint64_t n) {
    Part& part = *once.part;
    std::size_t entry = 0;
    part.entries.clear();
    if (!count_part(part, once_slots(once, n), entry)) return false;
    clear_sum(part);
    add_entry(part, entry);
    return true;
}

double StepModel::once_seconds(OncePerStep& once, std::uint64_t n, std::size_t target) {
    std::size_t const targets = scenario_.targets.size();
    std::size_t const at = static_cast<std::size_t>(n) * targets;
    if (at + targets > once.seconds.size())
        once.seconds.resize(at + targets, std::numeric_limits<double>::quiet_NaN());
    if (std::isnan(once.seconds[at + target])) {
        if (!sum_once(once, n)) return 0;
        // Counted once, timed on every target; NaN stays for an unsupported one.
        for (std::size_t t = 0; t < targets; ++t)
            once.seconds[at + t] = static_cast<double>(time_part(*once.part, t));
    }
    return once.seconds[at + target];
}

bool StepModel::once_parts(OncePerStep& once, std::uint64_t n, std::size_t target, std::vector<OpParts>& out) {
    std::uint64_t const key = n * scenario_.targets.size() + target;
    auto found = once.parts.find(key);
    if (found == once.parts.end()) {
        if (!sum_once(once, n)) return false;
        std::vector<OpParts> parts;
        collect_parts(*once.part, target, parts);
        found = once.parts.emplace(key, std::move(parts)).first;
    }
    out.insert(out.end(), found->second.begin(), found->second.end());
    return true;
}

void StepModel::note_context(Part& part, std::uint32_t context, std::size_t entry) {
    std::size_t const ops = part.ops->size();
    if (part.affine.size() != ops) {
        part.affine.assign(ops, 1);
        part.c0.assign(ops, 0), part.c1.assign(ops, 0), part.e0.assign(ops, 0), part.e1.assign(ops, 0);
    }
    double const* e = part.entries.data() + entry * part.stride;
    for (std::size_t k = 0; k < ops; ++k) {
        if (!part.affine[k]) continue;
        if (part.c0[k] == 0) {
            part.c0[k] = context, part.e0[k] = static_cast<std::uint32_t>(entry);
            continue;
        }
        if (part.c1[k] == 0) {
            part.c1[k] = context, part.e1[k] = static_cast<std::uint32_t>(entry);
            continue;
        }
        // On the line through the first two: (v - v0)(c1 - c0) = (v1 - v0)(c - c0).
        double const* v0 = part.entries.data() + std::size_t{part.e0[k]} * part.stride;
        double const* v1 = part.entries.data() + std::size_t{part.e1[k]} * part.stride;
        long double const run = static_cast<long double>(part.c1[k]) - part.c0[k];
        long double const at = static_cast<long double>(context) - part.c0[k];
        std::size_t const end = k + 1 < ops ? part.offsets[k + 1] : part.stride;
        for (std::size_t i = part.offsets[k]; i < end; ++i)
            if ((static_cast<long double>(e[i]) - v0[i]) * run !=
                (static_cast<long double>(v1[i]) - v0[i]) * at) {
                part.affine[k] = 0;
                break;
            }
    }
}

void StepModel::sum_decode(std::span<std::uint32_t const> contexts) {
    Part& part = decode_;
    std::size_t const ops = part.ops->size();
    long double const n = static_cast<long double>(contexts.size());
    long double contexts_sum = 0;
    for (std::uint32_t c : contexts) contexts_sum += c;
    bool any_other = false;
    for (std::size_t k = 0; k < ops; ++k) {
        std::size_t const end = k + 1 < ops ? part.offsets[k + 1] : part.stride;
        if (!part.affine[k]) {
            any_other = true;
            for (std::size_t i = part.offsets[k]; i < end; ++i) part.sum[i] = 0;
            continue;
        }
        // n v0 + (v1 - v0) (sum of c - n c0) / (c1 - c0); one context seen: n v0.
        double const* v0 = part.entries.data() + std::size_t{part.e0[k]} * part.stride;
        double const* v1 = part.entries.data() + std::size_t{part.e1[k]} * part.stride;
        long double const shift = contexts_sum - n * part.c0[k];
        long double const run = static_cast<long double>(part.c1[k]) - part.c0[k];
        for (std::size_t i = part.offsets[k]; i < end; ++i)
            part.sum[i] = n * v0[i] + (part.c1[k] == 0 ? 0.0L : (static_cast<long double>(v1[i]) - v0[i]) * shift / run);
    }
    if (!any_other) return;
    for (std::uint32_t c : contexts) {
        double const* e = part.entries.data() + std::size_t{decode_index_[c] - 1} * part.stride;
        for (std::size_t k = 0; k < ops; ++k) {
            if (part.affine[k]) continue;
            std::size_t const end = k + 1 < ops ? part.offsets[k + 1] : part.stride;
            for (std::size_t i = part.offsets[k]; i < end; ++i) part.sum[i] += e[i];
        }
    }
}

bool StepModel::sum_step(StepWork const& work, bool& has_decode, bool& has_prefill) {
    has_decode = !work.contexts.empty() && !decode_.ops->empty();
    has_prefill = !work.chunks.empty() && !prefill_.ops->empty();
    if (has_decode) {
        for (std::uint32_t c : work.contexts) {
            if (c >= decode_index_.size()) decode_index_.resize(std::size_t{c} + 1, 0);
            if (decode_index_[c] != 0) continue;
            std::size_t entry = 0;
            if (!count_part(decode_, StepSlots{.context = static_cast<double>(c)}, entry)) return false;
            decode_index_[c] = static_cast<std::uint32_t>(entry + 1);
            note_context(decode_, c, entry);
        }
        sum_decode(work.contexts);
    }
    if (has_prefill) {
        bool first = true;
        for (Chunk const& chunk : work.chunks) {
            std::uint64_t const key = std::uint64_t{chunk.tokens} << 32 | chunk.start;
            auto found = prefill_index_.find(key);
            if (found == prefill_index_.end()) {
                std::size_t entry = 0;
                StepSlots const step{.chunk = static_cast<double>(chunk.tokens),
                                     .start = static_cast<double>(chunk.start)};
                if (!count_part(prefill_, step, entry)) return false;
                found = prefill_index_.emplace(key, static_cast<std::uint32_t>(entry)).first;
            }
            if (first) clear_sum(prefill_), first = false;
            add_entry(prefill_, found->second);
        }
    }
    return true;
}

double StepModel::seconds(StepWork const& work, std::size_t target) {
    if (error_) return 0;
    long double total = linear_.ops->empty() ? 0 : once_seconds(linear_once_, work.tokens, target);
    if (work.sampled > 0 && !sample_.ops->empty()) total += once_seconds(sample_once_, work.sampled, target);
    bool has_decode = false, has_prefill = false;
    if (!sum_step(work, has_decode, has_prefill)) return 0;
    if (has_decode) total += time_part(decode_, target);
    if (has_prefill) total += time_part(prefill_, target);
    auto const* calibration = scenario_.calibration_of_target(target);
    total += step_overhead_seconds(calibration, layers_,
                                   static_cast<double>(work.contexts.size() + work.chunks.size()),
                                   !work.chunks.empty());
    // A step without a prompt chunk replays a CUDA graph, as vLLM, SGLang and
    // TensorRT-LLM run their decode steps: its ops' launch cost, in every
    // t_expected above, is not paid (docs/calibration.md, section 1).
    if (calibration && calibration->launch_s != 0 && work.chunks.empty())
        total -= calibration->launch_s * (linear_.launches + (work.sampled > 0 ? sample_.launches : 0) +
                                          (has_decode ? decode_.launches : 0));
    return static_cast<double>(total);
}

bool StepModel::step_parts(StepWork const& work, std::size_t target, std::vector<OpParts>& out) {
    out.clear();
    if (error_) return false;
    if (!linear_.ops->empty() && !once_parts(linear_once_, work.tokens, target, out)) return false;
    if (work.sampled > 0 && !sample_.ops->empty() && !once_parts(sample_once_, work.sampled, target, out))
        return false;
    bool has_decode = false, has_prefill = false;
    if (!sum_step(work, has_decode, has_prefill)) return false;
    if (has_decode) collect_parts(decode_, target, out);
    if (has_prefill) collect_parts(prefill_, target, out);
    return true;
}

}  // namespace roofline::engine::serving
