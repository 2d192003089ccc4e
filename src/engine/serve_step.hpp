#pragma once
// The seconds of one engine step (docs/serving.md, section 2) on the targets
// of one sweep point: the serve statement's `linear` ops once at the step's
// tokens, its `decode` ops once per decoding sequence at its context, its
// `prefill` ops once per chunk at its chunk and start, its `sample` ops once
// at the step's sampled sequences (not at all in a step that samples none:
// a prompt chunk that does not finish its prompt); each op's counts
// (FLOPs, bytes, on-chip bytes, collective volumes) summed over the sequences
// and chunks first, then timed as one op with case_metrics, and the step the
// sum of count x t_step as a request's phase (requests.cpp).
//
// Memoized, so that a simulation never evaluates lets per sequence per step:
// the linear part's seconds per token count and target (the sample part's
// per sampled count), the decode part's
// per-op counts per context, the prefill part's per (chunk, start). Summing
// the cached counts of each context is exact whether or not an op's counts
// are affine in the context (gpt-oss's min(S, W)). And fast: a decode op
// whose counts at every context seen so far lie on one line (checked at
// each new context) sums as n x its counts at one context plus the slope x
// the contexts' sum, in O(1) per step; any other op adds each context's.

#include "case_counts.hpp"

#include "roofline/engine/expected.hpp"
#include "roofline/engine/serve.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace roofline::engine::serving {

// Sets the step slots of the serve (those it has; StepSlots{} the neutral
// step) and evaluates the point's lets.
std::optional<model::EvalError> set_step(PointEvaluator& evaluator, std::span<double const> point,
                                         StepSlots const& step);

class StepModel {
public:
    // At the sweep point `point` (its values, one per sweep) with the mesh's
    // sizes there (empty without a mesh); `unsupported[t]`: target t cannot
    // build the mesh (its times are NaN).
    StepModel(model::Scenario const& scenario, std::span<double const> point,
              std::span<double const> mesh_sizes, std::span<std::uint8_t const> unsupported);

    // The seconds of a step on target t: with the target's calibration its
    // expected time (each op's t_expected and the step's overheads), else
    // the serial roofline (t_step). The first error (an axis that is no
    // positive integer at some context) is kept, and the step then costs 0,
    // so that the simulation ends; the caller reports it after.
    double seconds(StepWork const& work, std::size_t target);
    // The parts of a step's expected time on target t (for `roofline
    // calibrate`, which fits the factors on them): each op of the step with
    // its count, counts summed over the step's sequences and chunks as
    // `seconds` sums them; `layers` the layers the step runs. False after
    // an error.
    struct OpParts {
        double count = 1;
        ExpectedParts parts;
    };
    bool step_parts(StepWork const& work, std::size_t target, std::vector<OpParts>& out);
    double layers() const { return layers_; }
    // The kernels one prompt's forward launches: the per-token ops', the
    // prefill part's and the sampling's (each op's `x L` count).
    double forward_launches() const { return linear_.launches + prefill_.launches + sample_.launches; }
    std::optional<model::EvalError> const& error() const { return error_; }
    // The step slot values of the error: "context = 12" etc.
    std::string const& error_where() const { return error_where_; }

private:
    // One part's ops and the memo of their counts: each entry is, per op,
    // flops, bytes read, written, on chip, network bytes, then its volumes.
    struct Part {
        std::vector<model::Op> const* ops = nullptr;
        double launches = 0;                // the sum of its ops' counts: the kernels a step launches
        std::vector<int> compute;           // per op: the dtype whose peak applies
        std::vector<std::size_t> offsets;   // per op: where its fields start in an entry
        std::size_t stride = 0;             // doubles per entry; 0: not laid out yet
        std::vector<double> entries;        // entry after entry
        std::vector<long double> sum;       // a step's sums, per field
        // The decode part: per op, whether its counts are affine in the
        // context so far, and the two contexts (and entries) that give the line.
        std::vector<std::uint8_t> affine;
        std::vector<std::uint32_t> c0, c1, e0, e1;  // c: 0 none yet
    };
    void note_context(Part& part, std::uint32_t context, std::size_t entry);
    void sum_decode(std::span<std::uint32_t const> contexts);
    bool count_part(Part& part, StepSlots const& step, std::size_t& entry);
    void clear_sum(Part& part) const;
    void add_entry(Part& part, std::size_t entry) const;
    // Sum of count x t_step of the part's summed counts on target t.
    long double time_part(Part& part, std::size_t target);
    // The summed counts of each op of the part as case_metrics sees them.
    Metrics part_op_metrics(Part& part, std::size_t k, std::size_t target, bool with_calibration);
    void collect_parts(Part& part, std::size_t target, std::vector<OpParts>& out);
    // Sums the step's counts into the parts' sums: false after an error.
    bool sum_step(StepWork const& work, bool& has_decode, bool& has_prefill);
    // A part counted once per step at n (linear: its tokens; sample: its
    // sampled sequences), memoized per n: its seconds, and its ops' parts.
    struct OncePerStep {
        Part* part = nullptr;
        std::vector<double> seconds;  // [n * targets + t]; NaN: not yet
        std::unordered_map<std::uint64_t, std::vector<OpParts>> parts;  // n * targets + t
    };
    StepSlots once_slots(OncePerStep const& once, std::uint64_t n) const;
    // The part counted at n into its sums: false after an error.
    bool sum_once(OncePerStep& once, std::uint64_t n);
    double once_seconds(OncePerStep& once, std::uint64_t n, std::size_t target);
    bool once_parts(OncePerStep& once, std::uint64_t n, std::size_t target, std::vector<OpParts>& out);

    model::Scenario const& scenario_;
    std::vector<double> point_, mesh_sizes_;
    std::vector<std::uint8_t> unsupported_;
    PointEvaluator evaluator_;
    CaseScratch scratch_;
    CaseCounts counts_;
    Part linear_, decode_, prefill_, sample_;
    OncePerStep linear_once_, sample_once_;
    double layers_ = 0;                            // layer_count of the linear part (else the decode part)
    std::vector<model::Hardware> no_latency_;      // per target: hardware_without_latency
    std::vector<std::uint32_t> decode_index_;      // per context: entry + 1; 0: not yet
    std::unordered_map<std::uint64_t, std::uint32_t> prefill_index_;  // chunk << 32 | start
    std::optional<model::EvalError> error_;
    std::string error_where_;
};

}  // namespace roofline::engine::serving
