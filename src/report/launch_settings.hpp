#pragma once
// The serving engines' launch settings of a serve configuration (serving.md,
// section 4): what to type to run the replica the report simulated, on
// vLLM, TensorRT-LLM and SGLang.
//
// The mesh's axes map to the engines' sizes by name (docs/serving.md,
// "Launch settings"), lower case, as docs/multichip.md's serving layouts
// name them:
//   - the axis marked `pipeline`, or named pp* / pipe*: pipeline stages (PP);
//   - dp* / data*: attention data parallel (DP): the sequences and their KV
//     split, each DP rank a whole copy of the attention; the experts, when
//     there is expert parallelism, spread over these GPUs too;
//   - tp_ep*: tensor parallel for the attention, expert parallel for the
//     experts (layers/parallel_moe.roof's axis);
//   - ep* / expert*: expert parallel, the attention tensor parallel over it;
//   - tp_etp*, tp*, tensor*, model*, and any other name (a TPU's X, Y):
//     tensor parallel (the experts' width split, without expert parallelism).
// So TP = the product of the non-pipeline, non-DP axes, and EP = the
// product of the ep / tp_ep axes, times DP when that product is over 1
// (moe_ep = dp x tp_ep, multichip.md). One replica is TP x DP x PP chips.

#include "roofline/report/report.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline::report {

struct EngineLayout {
    double tp = 1, pp = 1, dp = 1, ep = 1;
    double moe_tp = 1;  // each routed expert's width split (tp / what ep does not cover)
};

struct LaunchSettings {
    EngineLayout layout;
    double max_seqs = 256, max_step_tokens = 8192, memory_utilization = 0.9;
    // TensorRT-LLM's share of the memory left after weights and activations
    // that the KV cache takes: (u x HBM - weights - reserve) / (HBM - weights
    // - reserve) per chip; memory_utilization without an hbm_capacity.
    double kv_free_fraction = 0.9;
    std::string vllm, trtllm, sglang;  // one command line each
};

// The layout of the mesh at `point` (mesh sizes from the scenario's values there).
EngineLayout engine_layout(model::Scenario const& scenario, std::vector<double> const& mesh_sizes);
// The value of every slot at a sweep point (the lets evaluated in order).
std::vector<double> slot_values_at(model::Scenario const& scenario, engine::CaseGrid const& grid,
                                   std::size_t point);

// The settings of the serve configuration at `point` on target `target`;
// `result`: that point's serve result (its weights and reserve), or null.
LaunchSettings launch_settings(ReportContext const& context, std::size_t point, std::size_t target,
                               engine::ServeResult const* result);

}  // namespace roofline::report
