#pragma once
// The checked scenario: every name resolved, every unit converted to base
// units (bytes, bytes/s, FLOP/s), every constant evaluated. The engine needs
// nothing else; spans remain so that later errors can point at the text.

#include "roofline/lang/source.hpp"
#include "roofline/model/calibration.hpp"
#include "roofline/model/collectives.hpp"
#include "roofline/model/expr.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace roofline::model {

struct Dtype {
    std::string name;
    double bytes;  // per element
    Span span;     // empty for built-ins
};

struct Peak {
    int dtype;  // index into Scenario::dtypes
    double flops_per_s;
};

struct Hardware {
    std::string id;            // the name in the language, e.g. tpu_v5e
    std::string display_name;  // `name = "TPU v5e"`, defaults to id
    std::string source;
    std::string base;  // `extends` BASE, or empty
    double hbm_bytes_per_s = 0;
    std::optional<double> hbm_capacity_bytes;
    // Interconnects (docs/multichip.md): one-way bytes/s and the time of one
    // step of a collective. ICI: per link; NVLink: per GPU, all links through
    // the switch; DCN: per chip.
    std::optional<double> ici_bytes_per_s;
    std::optional<double> ici_wraparound;  // an ICI axis whose size is a multiple of this (and >= 3) is a ring
    double ici_latency_s = 1e-6;
    std::optional<double> nvlink_bytes_per_s;
    std::optional<double> nvlink_domain;  // the most GPUs one NVLink switch connects
    double nvlink_latency_s = 1e-6;
    std::optional<double> dcn_bytes_per_s;
    double dcn_latency_s = 1e-5;
    // The on-chip level (docs/fusion.md): VMEM on a TPU, shared memory on a
    // GPU, all cores together. Without a bandwidth, on-chip traffic is free.
    std::optional<double> onchip_capacity_bytes;
    std::optional<double> onchip_bytes_per_s;
    std::vector<Peak> peaks;  // in the order written (inherited first)
    // The quantities of the hardware fields table's entries that have no
    // member above (model/hardware_fields.hpp), by the entry's index in the
    // table; nothing where the chip has none.
    std::vector<std::optional<double>> table_values;
    Span span;                // the name in its definition

    std::optional<double> peak_for(int dtype) const {
        for (auto const& p : peaks)
            if (p.dtype == dtype) return p.flops_per_s;
        return std::nullopt;
    }
};

// A named value: a `let` (an expression) or a `sweep` variable. A dtype
// sweep's slot holds, at each point, the index of its dtype in
// Scenario::dtypes.
struct Slot {
    std::string name;
    Span span;
    int sweep = -1;         // index into Scenario::sweeps, or -1 for a let
    Expr expr;              // for a let
    std::uint64_t depends_on = 0;  // bit i: the value depends on sweep i
    double constant = 0;    // the value, when depends_on == 0
};

struct Sweep {
    std::string name;
    int slot;
    std::vector<double> values;  // in sweep order; of a dtype sweep, indices into Scenario::dtypes
    Span span;
    bool of_dtypes = false;      // `sweep wdt = [bf16, fp8]`
};

// The dtype of an operand or of a `compute` clause: one dtype, or the value
// of a dtype sweep at each point.
struct DtypeRef {
    int dtype = -1;  // index into Scenario::dtypes, when not swept
    int slot = -1;   // the slot of a dtype sweep, or -1
    bool swept() const { return slot >= 0; }
    // The dtype at a point whose slot values are `slots`.
    int at(std::span<double const> slots) const {
        return swept() ? static_cast<int>(slots[static_cast<std::size_t>(slot)]) : dtype;
    }
};

// What an operand holds. Weights and caches stay in memory between steps and
// make up the resident bytes; activations are transient. An `expert`
// operand is a weight read in part (the routed experts that receive tokens):
// its bytes are traffic, its memory a `resident` declaration's, and its
// matmul is of the `expert` class (model/calibration.hpp).
enum class Role : std::uint8_t { activation, weight, cache, expert };

// The mesh axes one dimension is split over, in order (`B@(X, Y)`): indices
// into Scenario::mesh. Empty: not split.
using Shards = std::vector<int>;

struct Tensor {
    DtypeRef dtype;
    std::vector<int> axes;  // indices into Op::axes (Resident::axes)
    Span span;
    Role role = Role::activation;
    // Parallel to axes as written; empty when no dimension is sharded.
    std::vector<Shards> shards;
    // The sharding its HBM bytes are counted at, parallel to axes: for an
    // operand of a matmul or an elementwise op, the op's computation
    // (gathered or sliced); for a collective, as written. Empty: unsharded.
    std::vector<Shards> local;
    std::vector<Span> dim_spans;  // of each dimension as written (only when sharded)
    // `onchip`: held in on-chip memory; its bytes are on-chip traffic, not
    // HBM traffic (docs/fusion.md).
    bool onchip = false;
    // `x EXPR`: the slot of EXPR, the number of times its bytes are read; -1: once.
    int reads_slot = -1;
    bool resident() const { return role == Role::weight || role == Role::cache; }
};

// The interconnect a mesh axis runs over (docs/multichip.md).
enum class Link : std::uint8_t { ici, nvlink, dcn };
// An ICI axis is a ring or a line; `automatic` follows ici_wraparound.
enum class Topology : std::uint8_t { automatic, ring, line };

struct MeshAxis {
    std::string name;
    int slot;  // its size: a value like a let's (may depend on sweeps)
    Link link;
    Topology topology = Topology::automatic;
    // `pipeline`: the axis is the stages of a pipeline; the scenario lists
    // one stage's layers (multichip.md, "Pipeline parallelism").
    bool pipeline = false;
    Span span;       // its name in the mesh statement
    Span size_span;  // its size expression
};

// A collective a case performs: implied by a matmul's shardings, or the op
// itself (`collective`). Its volume V (per chip, multichip.md section 4) is
// the bytes of `tensor` (an input's index, or -1 for the output) with each
// dimension split over `volume_shards` of it; an AllToAll's V is N times that.
struct Collective {
    CollectiveKind kind;
    std::vector<int> mesh_axes;
    int tensor = -1;
    std::vector<Shards> volume_shards;  // parallel to that tensor's axes
};

struct Axis {
    std::string name;
    int slot;
    Span span;  // first occurrence
};

enum class OpKind : std::uint8_t { matmul, elementwise, collective, kernel };

// One operation of the scenario: a `matmul` or an `elementwise` op (the name
// is historical; both are cases of the report alike). FLOPs are
// flops_per_point x the product of all distinct axis sizes: 2 for a matmul
// (a multiply and an add per point of the contraction), K for an elementwise
// op, whose every input axis is an output axis.
struct Op {
    std::string name;
    std::string layer;  // "decoder", "model/decoder", or "" at top level
    double count = 1;   // product of the enclosing layer repeat counts
    OpKind kind = OpKind::matmul;
    std::vector<Axis> axes;  // every distinct axis of the operands, first-seen order
    std::vector<Tensor> inputs;  // a matmul: lhs and rhs; elementwise: one or more
    Tensor out;
    double flops_per_point = 2;
    // `flops EXPR` that depends on a sweep: the slot of EXPR, which then
    // multiplies flops_per_point (1) at each point; -1 when constant.
    int flops_slot = -1;
    // `compute DTYPE`, when written; else the rule of language.md 8.3 (the
    // wider input of a matmul, the output of an elementwise op), which
    // compute_dtype_at applies at each point.
    std::optional<DtypeRef> compute_written;
    Span span;  // the name
    // With a mesh: the mesh axes each of `axes` is split over in the
    // computation (the FLOPs per chip divide by their sizes); empty when
    // nothing is split. And the collectives the case performs, in order.
    std::vector<Shards> compute_shards;
    std::vector<Collective> collectives;
    // `overlapped`: the collectives run under the op's compute and memory
    // time; else after it (an input gather before it), in the serial step.
    bool overlapped = false;
    // A kernel (docs/fusion.md): one case whose counts are its members'
    // sums. Its axes are every member's axes (the sizes the case needs), its
    // compute dtype that of its first matmul (else its first member).
    std::vector<Op> members;
    // Split over the mesh or communicating: counted per chip, with a network time.
    bool split() const {
        if (kind == OpKind::kernel) {
            for (auto const& m : members)
                if (m.split()) return true;
            return false;
        }
        return !compute_shards.empty() || !collectives.empty() || kind == OpKind::collective;
    }
    // Some operand (of a member) is on chip.
    bool has_onchip() const;
    // Counted in closed form: no member, no on-chip operand, no read factor,
    // no swept FLOPs per element (critical.cpp solves the others by search).
    bool plain() const;

    // The dtype whose peak applies at a point with slot values `slots`.
    int compute_dtype_at(std::span<double const> slots, std::span<Dtype const> dtypes) const;
    // Whether that dtype is the same at every point (no dtype sweep reaches it).
    bool compute_dtype_fixed() const;
};

// `resident NAME = weight DTYPE[AXES]`: memory held for the whole step that
// no operand covers in full (the experts of a mixture of experts, of which a
// step reads only those that receive tokens).
struct Resident {
    std::string name;
    std::string layer;
    double count = 1;
    std::vector<Axis> axes;
    Tensor tensor;
    Span span;
};

// `request NAME(prompt = P, output = G, batch = N) { prefill: ... decode: ... }`
// (docs/fusion.md): the prefill's ops are evaluated once, the decode's at
// every step i = 1 .. G, with the step's slot set to i.
struct Request {
    std::string name;
    Span span;
    int prompt_slot = -1, output_slot = -1, batch_slot = -1;
    int step_slot = -1;  // `i`: depends_on has model::step_bit
    std::vector<Op> prefill, decode;
    std::vector<Resident> prefill_residents, decode_residents;
};

// `serve NAME { ... }` (docs/serving.md): continuous batching on one replica
// (the mesh). Every setting is a slot (it may depend on sweeps); -1: the
// default of serving.md. The parts' ops are counted with the engine's names
// set per step: `tokens` (linear), `context` (decode), `chunk` and `start`
// (prefill); those slots' depends_on has model::step_bit.
struct ServeLengths {
    enum class Kind : std::uint8_t { fixed, uniform, trace } kind = Kind::fixed;
    int slot = -1;                 // fixed: the length; uniform: the low end
    int high_slot = -1;            // uniform: the high end (inclusive)
    Span span;
};
// `prefill_pool(replicas = 1, TP = 4)` (disaggregated serving): a pool's
// replicas and the sweeps' values at which its step costs are taken (the
// other sweeps keep the point's values).
struct ServePool {
    double replicas = 1;
    std::vector<std::pair<int /*sweep*/, double>> values;
    Span span;
};
struct Serve {
    std::string name;
    Span span;
    ServeLengths prompt, output;
    // trace "file.csv" (columns prompt, output), read by the checker, for
    // both lengths: one request per row, repeated in order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> trace;
    std::string trace_path;        // the file read, as opened (a report's input); "" without a trace
    std::string trace_text;        // its bytes as read: a report copies and hashes them as an input
    enum class Arrivals : std::uint8_t { poisson, closed } arrivals = Arrivals::poisson;
    int arrivals_slot = -1;        // poisson: R requests/s; closed: C clients
    Span arrivals_span;
    int requests_slot = -1, warmup_slot = -1, max_seqs_slot = -1, max_step_tokens_slot = -1,
        memory_utilization_slot = -1;
    // admission = reserve (prompt + output held from admission, the default)
    // or grow (the cache held now; preemption and recompute when full).
    enum class Admission : std::uint8_t { reserve, grow } admission = Admission::reserve;
    std::uint64_t seed = 1;
    // The engine's step values: the step's tokens (linear), a decoding
    // sequence's context (decode), a prompt chunk's tokens and first position
    // (prefill), the step's sampled sequences (sample: one per decode and
    // one per prompt whose last chunk runs in the step).
    int tokens_slot = -1, context_slot = -1, chunk_slot = -1, start_slot = -1, sampled_slot = -1;
    // The parts: linear once per step at its tokens, decode once per decoding
    // sequence, prefill once per prompt chunk, sample once per step at its
    // sampled sequences (none in a step that samples none; the LM head).
    std::vector<Op> linear, decode, prefill, sample;
    std::vector<Resident> linear_residents, decode_residents, prefill_residents, sample_residents;
    // Disaggregated serving: both pools or neither.
    std::optional<ServePool> prefill_pool, decode_pool;
};
// `slo ttft_p99 <= 1 s`: a bound on a serve figure.
struct ServeSlo {
    enum class Figure : std::uint8_t { ttft, tpot, e2e } figure = Figure::ttft;
    enum class Statistic : std::uint8_t { p50, p90, p99, mean } statistic = Statistic::p99;
    double limit_s = 0;
    std::string text;  // as written: "ttft_p99 <= 1 s"
    Span span;
};

// `alias NAME = HW`: NAME -> the id of the hardware entry it names.
using HardwareAliases = std::map<std::string, std::string, std::less<>>;

struct Scenario {
    std::string title;
    std::vector<Dtype> dtypes;  // built-ins first
    std::vector<Hardware> hardware;
    // `alias NAME = HW`: NAME -> the id of the hardware entry it names (an
    // alias of an alias followed to the entry). Not a chip: a scenario
    // evaluates each entry once, under its own id.
    HardwareAliases hardware_aliases;
    std::vector<int> targets;   // indices into hardware, in order
    // `calibration NAME for HW { ... }` (docs/calibration.md), in the order
    // written, and per target (parallel to `targets`) the index of the one
    // `target HW with NAME` gives it, or -1: uncalibrated.
    std::vector<Calibration> calibrations;
    std::vector<int> target_calibrations;
    // The calibration of target t, or nullptr.
    Calibration const* calibration_of_target(std::size_t t) const {
        if (t >= target_calibrations.size() || target_calibrations[t] < 0) return nullptr;
        return &calibrations[static_cast<std::size_t>(target_calibrations[t])];
    }
    std::vector<Slot> slots;
    std::vector<int> let_order;  // lets in dependency order (sweep-dependent ones only)
    std::vector<Sweep> sweeps;   // cartesian product in this order, the last varying fastest
    std::vector<Op> ops;
    std::vector<Resident> residents;
    std::vector<MeshAxis> mesh;  // `mesh`: none for one chip
    std::optional<double> slo_step_s;  // `slo step <= Q` (or t_upper), in seconds
    // What the slo bounds: the step, or t_upper (the step with nothing overlapped).
    enum class SloMeasure : std::uint8_t { step, t_upper } slo_measure = SloMeasure::step;
    std::vector<Request> requests;
    std::optional<Serve> serve;          // at most one serve statement
    std::vector<ServeSlo> serve_slos;    // in the order written
    std::optional<double> fleet_rate;    // `fleet rate = L /s`: requests/s
    Span fleet_span;
    int tokens_slot = -1;  // `tokens = EXPR`: a slot that cannot be named, or -1
    // The mesh axis marked `pipeline` (index into mesh), or -1; and the slot
    // of the top-level value `microbatches` on such a scenario (a batch run
    // through the stages in that many micro-batches), or -1: a stream.
    int pipeline_axis = -1;
    int microbatches_slot = -1;
    std::size_t template_count = 0;  // defined, used or not (for `roofline check`)

    std::size_t point_count() const;
    // The compute dtypes `op` can have, each once, in the order of the dtype
    // sweeps' values (one, unless a dtype sweep reaches it).
    std::vector<int> compute_dtypes_of(Op const& op) const;
    // The name of the dtype a dtype sweep takes as `value`; nullptr for a
    // sweep of numbers.
    std::string const* sweep_dtype_name(std::size_t sweep, double value) const {
        if (!sweeps[sweep].of_dtypes) return nullptr;
        return &dtypes[static_cast<std::size_t>(value)].name;
    }
    // The index of the hardware entry `name` is the id of, or an alias of; -1: none.
    int find_hardware(std::string_view name) const;
    // The entries' ids, then the aliases: the names a "did you mean" offers.
    std::vector<std::string_view> hardware_names() const;
    // Some mesh axis's size depends on sweep `sweep`: a mesh sweep (the
    // Plan's rows, the step table's whole sweeps, a chart per mesh size).
    bool mesh_depends_on(std::size_t sweep) const;
    // Some op of the cases has an on-chip operand: the report has the
    // bytes_onchip and t_onchip columns.
    bool has_onchip() const;
};

// The bit of Slot::depends_on that says a value depends on a request's step
// `i` (sweeps use bits 0 .. max_sweeps - 1).
inline constexpr std::uint64_t step_bit = std::uint64_t{1} << 63;

}  // namespace roofline::model
