// A measured row simulated as `serve` simulates it, and its step parts kept
// by segment (row_features.hpp).
#include "row_features.hpp"

#include "engine/serve_point.hpp"
#include "engine/serve_step.hpp"
#include "roofline/engine/network.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::calibrate {

namespace {

using engine::serving::StepModel;
using engine::serving::StepWork;

// The step index whose start is at `time` (step k starts at starts[k]; the
// last entry is the end of the last step): the nearest.
std::size_t step_at(std::vector<double> const& starts, double time) {
    auto it = std::lower_bound(starts.begin(), starts.end(), time);
    std::size_t k = static_cast<std::size_t>(it - starts.begin());
    if (k > 0 && (k == starts.size() || std::abs(starts[k - 1] - time) < std::abs(starts[k] - time))) --k;
    return std::min(k, starts.size() - 1);
}

// A step's parts added to a segment, each time times `scale` (fresh: the
// segment's first step, which lays out its ops).
void add_step(Segment& seg, std::vector<StepModel::OpParts> const& parts, double layers, double sequences,
              bool chunks, bool fresh, double scale = 1) {
    seg.steps += scale;
    if (chunks) seg.chunk_steps += scale;
    seg.layer_steps += scale * layers;
    seg.sequences += scale * sequences;
    if (fresh) {
        for (auto const& p : parts) {
            SegmentOp op;
            op.count = p.count;
            op.op_class = p.parts.op_class;
            op.dtype = std::string(p.parts.compute_dtype);
            op.first = static_cast<std::uint32_t>(seg.collectives.size());
            op.collectives = static_cast<std::uint32_t>(p.parts.collectives.size());
            for (auto const& c : p.parts.collectives)
                seg.collectives.push_back(SegmentCollective{c.kind, c.link, c.serial, 0, 0, 0});
            seg.ops.push_back(std::move(op));
        }
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {
        auto const& p = parts[k].parts;
        SegmentOp& op = seg.ops[k];
        op.t_math += scale * p.t_math;
        op.t_comms += scale * p.t_comms;
        op.t_onchip += scale * p.t_onchip;
        // Only a step with a prompt chunk launches its ops: the others replay
        // a CUDA graph (StepModel::seconds).
        if (chunks) op.launches += scale * p.launches;
        for (std::size_t c = 0; c < p.collectives.size(); ++c) {
            auto& sc = seg.collectives[op.first + c];
            double const w = scale * p.collectives[c].weight;
            sc.bandwidth_s += w * p.collectives[c].bandwidth_s;
            sc.roofline_s += w * p.collectives[c].roofline_s;
            sc.instances += w;
        }
    }
}

// One step of the first wave, kept (StepWork's spans view the scheduler's
// buffers, which the next step reuses).
struct KeptStep {
    std::vector<std::uint32_t> contexts;
    std::vector<engine::serving::Chunk> chunks;
    std::uint64_t tokens = 0, sampled = 0;
    explicit KeptStep(StepWork const& w)
        : contexts(w.contexts.begin(), w.contexts.end()), chunks(w.chunks.begin(), w.chunks.end()),
          tokens(w.tokens), sampled(w.sampled) {}
    StepWork work() const { return StepWork{contexts, chunks, tokens, sampled}; }
};

// The first wave's mean TTFT by segment: every client's request at time 0,
// each step weighed by the share of the wave still waiting for its first
// token.
std::vector<Segment> cold_wave(std::vector<KeptStep> const& steps, StepModel& model,
                               engine::serving::Simulation const& wave, std::vector<double> const& times) {
    std::vector<double> starts(times.size() + 1, 0);
    for (std::size_t k = 0; k < times.size(); ++k) starts[k + 1] = starts[k] + times[k];
    std::vector<double> delta(times.size() + 1, 0);
    double const n = static_cast<double>(wave.requests.size());
    for (auto const& r : wave.requests) {
        delta[step_at(starts, r.arrival)] += 1 / n;
        delta[step_at(starts, r.first_token)] -= 1 / n;
    }
    // Steps whose ops line up (the same ops, counts and collectives) share a
    // segment, each weighed by its share: the wave's TTFT is one sum.
    auto lines_up = [](Segment const& seg, std::vector<StepModel::OpParts> const& parts) {
        if (seg.ops.size() != parts.size()) return false;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            auto const& op = seg.ops[k];
            auto const& p = parts[k];
            if (op.count != p.count || op.op_class != p.parts.op_class || op.dtype != p.parts.compute_dtype ||
                op.collectives != p.parts.collectives.size())
                return false;
            for (std::uint32_t c = 0; c < op.collectives; ++c) {
                auto const& sc = seg.collectives[op.first + c];
                auto const& pc = p.parts.collectives[c];
                if (sc.kind != pc.kind || sc.link != pc.link || sc.serial != pc.serial) return false;
            }
        }
        return true;
    };
    std::vector<Segment> segments;
    std::vector<StepModel::OpParts> parts;
    double w = 0;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        w += delta[std::min(k, times.size())];
        if (std::abs(w) <= 1e-12) continue;
        StepWork const work = steps[k].work();
        if (!model.step_parts(work, 0, parts)) continue;
        bool const fresh = segments.empty() || !lines_up(segments.back(), parts);
        if (fresh) {
            segments.emplace_back();
            segments.back().w_ttft = 1;
        }
        add_step(segments.back(), parts, model.layers(),
                 static_cast<double>(work.contexts.size() + work.chunks.size()), !work.chunks.empty(), fresh, w);
    }
    return segments;
}

}  // namespace

RowModel model_row(model::Scenario const& scenario, std::span<double const> point) {
    using namespace engine::serving;
    RowModel row;
    engine::PointEvaluator evaluator(scenario);
    PointSettings settings;
    ReplicaMemory bytes;
    std::vector<double> mesh_sizes;
    if (auto e = prepare_point(scenario, evaluator, point, mesh_sizes, settings, bytes)) {
        row.problem = e->message;
        return row;
    }
    auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[0])];
    bool unsupported = false;
    if (!scenario.mesh.empty()) {
        auto problem = engine::mesh_problem(scenario, hw, mesh_sizes);
        if (!problem.message.empty()) {
            row.problem = "the layout cannot be built on " + hw.id + ": " + problem.message;
            return row;
        }
    }
    auto const memory = replica_on(scenario, bytes, 0, point, unsupported, settings);
    if (!memory.problem.empty()) {
        row.problem = memory.problem;
        return row;
    }
    row.kv_capacity_tokens = memory.capacity_tokens;
    row.clients = settings.clients;
    row.output_tokens = static_cast<double>(settings.output_high);
    row.prompt_tokens = static_cast<double>(settings.prompt_high);
    double const request_tokens = static_cast<double>(settings.prompt_high) + settings.output_high;
    row.fits_memory = memory.capacity_tokens >= settings.clients * request_tokens;
    if (memory.capacity_tokens < request_tokens) {
        row.problem = "the model's KV cache holds " + model::format_number(std::floor(memory.capacity_tokens)) +
                      " tokens on " + hw.id + ", less than one request's " + model::format_number(request_tokens);
        row.fits_memory = false;
        return row;
    }
    auto requests = make_requests(settings.requests, 0, scenario.serve->seed, settings.prompt(), settings.output());
    SchedulerSettings scheduler;
    scheduler.max_seqs = settings.max_seqs;
    scheduler.max_step_tokens = settings.max_step_tokens;
    scheduler.kv_capacity_tokens = memory.capacity_tokens;
    scheduler.clients = settings.clients;
    scheduler.admission = settings.admission;
    std::vector<std::uint8_t> no_problem(scenario.targets.size(), 0);
    StepModel model(scenario, point, mesh_sizes, no_problem);
    row.forward_launches = model.forward_launches();

    // Pass 0: all clients at once, for the length of a client's cycle (its
    // request's e2e). A benchmark's clients drift apart over its run, so the
    // counted requests are those of clients started a cycle / C apart: the
    // first C spread over one cycle, the third cycle counted. The schedule
    // in steps does not depend on the step times.
    {
        requests.resize(std::min<std::size_t>(requests.size(), settings.clients));
        std::vector<double> wave_times;
        std::vector<KeptStep> wave_steps;
        Simulation wave = simulate(requests, scheduler, [&](StepWork const& work) {
            double const t = model.seconds(work, 0);
            wave_times.push_back(t);
            wave_steps.emplace_back(work);
            return t;
        });
        if (model.error() || !wave.problem.empty()) {
            row.problem = model.error() ? model.error()->message : wave.problem;
            return row;
        }
        row.cold_segments = cold_wave(wave_steps, model, wave, wave_times);
        double cycle = 0;
        std::size_t n = 0;
        for (std::size_t i = 0; i < wave.requests.size(); ++i, ++n)
            cycle += wave.requests[i].finish - wave.requests[i].arrival;
        cycle = n ? cycle / static_cast<double>(n) : 0;
        std::size_t const clients = settings.clients;
        requests = make_requests(3 * clients, 0, scenario.serve->seed, settings.prompt(), settings.output());
        for (std::size_t i = 0; i < clients; ++i)
            requests[i].arrival = cycle * static_cast<double>(i) / static_cast<double>(clients);
        settings.warmup = 2 * clients;
        scheduler.staggered = true;
    }
    // Pass 1: the schedule and each step's time (the serial roofline's).
    std::vector<double> times;
    Simulation sim = simulate(requests, scheduler, [&](StepWork const& work) {
        double t = model.seconds(work, 0);
        times.push_back(t);
        return t;
    });
    if (model.error()) {
        row.problem = model.error()->message;
        return row;
    }
    if (!sim.problem.empty()) {
        row.problem = sim.problem;
        return row;
    }
    std::vector<double> starts(times.size() + 1, 0);
    for (std::size_t k = 0; k < times.size(); ++k) starts[k + 1] = starts[k] + times[k];
    // Each counted request's windows, as step indices; their ends cut segments.
    std::size_t const steps = times.size();
    std::vector<std::uint8_t> cut(steps + 1, 0);
    std::vector<double> ttft_delta(steps + 1, 0), tpot_delta(steps + 1, 0);
    std::size_t counted = 0, counted_tpot = 0;
    for (std::size_t i = settings.warmup; i < sim.requests.size(); ++i) {
        ++counted;
        if (sim.requests[i].output > 1) ++counted_tpot;
    }
    if (counted == 0) {
        row.problem = "no request counted after the warm-up";
        return row;
    }
    for (std::size_t i = settings.warmup; i < sim.requests.size(); ++i) {
        auto const& r = sim.requests[i];
        std::size_t const k0 = step_at(starts, r.arrival), k1 = step_at(starts, r.first_token),
                          k2 = step_at(starts, r.finish);
        cut[k0] = cut[k1] = cut[k2] = 1;
        ttft_delta[k0] += 1.0 / static_cast<double>(counted);
        ttft_delta[k1] -= 1.0 / static_cast<double>(counted);
        if (r.output > 1) {
            double const w = 1.0 / (static_cast<double>(counted_tpot) * (r.output - 1));
            tpot_delta[k1] += w;
            tpot_delta[k2] -= w;
        }
    }
    // Pass 2: the same schedule (the same times), each step's parts merged.
    std::vector<StepModel::OpParts> parts;
    std::size_t s = 0;
    std::uint64_t last_shape = ~std::uint64_t{0};
    double w_ttft = 0, w_tpot = 0;
    std::vector<Segment> segments;
    simulate(requests, scheduler, [&](StepWork const& work) {
        double const t = s < times.size() ? times[s] : 0;
        w_ttft += ttft_delta[std::min(s, steps)];
        w_tpot += tpot_delta[std::min(s, steps)];
        std::uint64_t const shape = work.chunks.empty() ? work.contexts.size() : ~std::uint64_t{0};
        bool const fresh = segments.empty() || cut[s] || shape != last_shape || shape == ~std::uint64_t{0};
        last_shape = shape;
        if (model.step_parts(work, 0, parts)) {
            if (fresh) {
                segments.emplace_back();
                segments.back().w_ttft = w_ttft;
                segments.back().w_tpot = w_tpot;
            }
            add_step(segments.back(), parts, model.layers(),
                     static_cast<double>(work.contexts.size() + work.chunks.size()), !work.chunks.empty(), fresh);
        }
        ++s;
        return t;
    });
    if (model.error()) {
        row.problem = model.error()->message;
        return row;
    }
    for (auto& seg : segments) {
        if (std::abs(seg.w_ttft) < 1e-12) seg.w_ttft = 0;
        if (std::abs(seg.w_tpot) < 1e-15) seg.w_tpot = 0;
        if (seg.w_ttft != 0 || seg.w_tpot != 0) row.segments.push_back(std::move(seg));
    }
    return row;
}

}  // namespace roofline::calibrate
