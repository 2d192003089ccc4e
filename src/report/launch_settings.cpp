#include "launch_settings.hpp"

#include "roofline/model/expr.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>
#include <variant>

namespace roofline::report {

namespace {

bool starts_with(std::string const& name, std::string_view prefix) {
    return name.size() >= prefix.size() && name.compare(0, prefix.size(), prefix) == 0;
}

std::string lower(std::string text) {
    for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return text;
}

// The shortest text that reads back: "4", "0.9".
std::string number(double value) {
    char buffer[32];
    auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

// A memory share rounded down to a hundredth: an engine given more than
// the simulation assumed would take KV room the activations need.
double share_down(double share) { return std::floor(share * 100 + 1e-9) / 100; }

double slot_or(std::vector<double> const& values, int slot, double fallback) {
    return slot < 0 ? fallback : values[static_cast<std::size_t>(slot)];
}

}  // namespace

std::vector<double> slot_values_at(model::Scenario const& scenario, engine::CaseGrid const& grid,
                                   std::size_t point) {
    std::vector<double> values;
    values.reserve(scenario.slots.size());
    for (auto const& slot : scenario.slots) values.push_back(slot.constant);
    for (std::size_t v = 0; v < scenario.sweeps.size(); ++v)
        values[static_cast<std::size_t>(scenario.sweeps[v].slot)] = grid.sweep_value(point, v);
    // The engine evaluated every point already: an error cannot come back
    // here; a value it would have refused stays the slot's constant.
    for (int s : scenario.let_order) {
        auto const slot = static_cast<std::size_t>(s);
        auto result = model::evaluate(scenario.slots[slot].expr, values);
        if (auto const* value = std::get_if<double>(&result)) values[slot] = *value;
    }
    return values;
}

EngineLayout engine_layout(model::Scenario const& scenario, std::vector<double> const& mesh_sizes) {
    EngineLayout layout;
    double expert_axes = 1;  // ep / tp_ep axes
    for (std::size_t a = 0; a < scenario.mesh.size() && a < mesh_sizes.size(); ++a) {
        auto const& axis = scenario.mesh[a];
        std::string const name = lower(axis.name);
        double const size = mesh_sizes[a];
        if (axis.pipeline || static_cast<int>(a) == scenario.pipeline_axis || starts_with(name, "pp") ||
            starts_with(name, "pipe"))
            layout.pp *= size;
        else if (starts_with(name, "dp") || starts_with(name, "data"))
            layout.dp *= size;
        else if (starts_with(name, "tp_ep") || starts_with(name, "ep") || starts_with(name, "expert"))
            layout.tp *= size, expert_axes *= size;
        else
            layout.tp *= size, layout.moe_tp *= size;
    }
    // moe_ep = dp x tp_ep: with expert parallelism the experts spread over
    // the DP ranks too (multichip.md, "Serving layouts").
    layout.ep = expert_axes > 1 ? expert_axes * layout.dp : 1;
    return layout;
}

LaunchSettings launch_settings(ReportContext const& context, std::size_t point, std::size_t target,
                               engine::ServeResult const* result) {
    auto const& scenario = context.scenario;
    auto const values = slot_values_at(scenario, context.grid, point);
    std::vector<double> mesh_sizes;
    for (auto const& axis : scenario.mesh) mesh_sizes.push_back(values[static_cast<std::size_t>(axis.slot)]);

    LaunchSettings s;
    s.layout = engine_layout(scenario, mesh_sizes);
    if (scenario.serve) {
        auto const& serve = *scenario.serve;
        s.max_seqs = slot_or(values, serve.max_seqs_slot, 256);
        s.max_step_tokens = slot_or(values, serve.max_step_tokens_slot, 8192);
        s.memory_utilization = slot_or(values, serve.memory_utilization_slot, 0.9);
    }
    // What the engines' own memory options mean, from the simulated replica's bytes.
    double const u = s.memory_utilization;
    s.kv_free_fraction = u;
    double static_share = u;
    auto const& capacity = context.target(target).hbm_capacity_bytes;
    if (capacity && *capacity > 0 && result) {
        double const used = result->weight_bytes + result->reserve_bytes;
        if (*capacity > used) s.kv_free_fraction = share_down((u * *capacity - used) / (*capacity - used));
        // SGLang's static share holds the weights and the KV pool, not the activations.
        static_share = share_down((u * *capacity - result->reserve_bytes) / *capacity);
    }
    s.kv_free_fraction = std::max(0.0, s.kv_free_fraction);

    auto const& l = s.layout;
    std::string const seqs = number(s.max_seqs), tokens = number(s.max_step_tokens);
    // vLLM: TP x DP GPUs per pipeline stage; with expert parallelism enabled
    // the experts spread over all of them.
    s.vllm = "vllm serve MODEL --tensor-parallel-size " + number(l.tp);
    if (l.pp > 1) s.vllm += " --pipeline-parallel-size " + number(l.pp);
    if (l.dp > 1) s.vllm += " --data-parallel-size " + number(l.dp);
    if (l.ep > 1) s.vllm += " --enable-expert-parallel";
    s.vllm += " --max-num-seqs " + seqs + " --max-num-batched-tokens " + tokens +
              " --gpu-memory-utilization " + number(u);
    // TensorRT-LLM and SGLang: tp_size counts the attention-DP GPUs as well.
    s.trtllm = "trtllm-serve MODEL --tp_size " + number(l.tp * l.dp) + " --pp_size " + number(l.pp) +
               " --ep_size " + number(l.ep) + " --max_batch_size " + seqs + " --max_num_tokens " +
               tokens + " --kv_cache_free_gpu_memory_fraction " + number(s.kv_free_fraction);
    if (l.dp > 1) s.trtllm += "  # enable_attention_dp: true in --extra_llm_api_options";
    s.sglang = "python -m sglang.launch_server --model-path MODEL --tp-size " + number(l.tp * l.dp) +
               " --dp-size " + number(l.dp) + " --ep-size " + number(l.ep);
    if (l.dp > 1) s.sglang += " --enable-dp-attention";
    if (l.pp > 1) s.sglang += " --pp-size " + number(l.pp);
    s.sglang += " --max-running-requests " + seqs + " --chunked-prefill-size " + tokens +
                " --mem-fraction-static " + number(static_share);
    return s;
}

}  // namespace roofline::report
