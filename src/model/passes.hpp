#pragma once
// The checker's passes with explicit inputs and outputs (docs/architecture.md,
// "The checker's passes"). Each takes the Context, `const&` of what it reads
// and returns, or fills a `&` to, only what it produces; check.cpp calls them
// in order. The passes not yet moved here are Checker members (checker.hpp).
// Not a public header.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"
#include "roofline/model/scenario.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofline::model {

// What every pass reads, and where it reports: never changed by a pass
// (the diagnostics are its output channel, in the order the passes run).
struct Context {
    Program const& program;
    CheckOptions const& options;
    Diagnostics& diagnostics;
};

// A statement the collection pass kept for a later pass: its file, its node
// and the scope it was written in.
template <typename Node>
struct Pending {
    ParsedFile const* file;
    Node const* node;
    int scope;
};

// Whether `text` is at most `limit` bytes (max_text_bytes, max_name_bytes);
// else an error at `span` that gives the length (not the text).
bool within_limit(Diagnostics& diagnostics, std::string const& text, std::size_t limit, Span span,
                  char const* what);

// The values computed by check_lets, as the later passes read them: every
// slot, and which could not be computed.
struct SlotValues {
    std::vector<Slot> const& slots;
    std::vector<bool> const& bad;
    // A slot whose value is known here: computed and the same at every point.
    bool is_constant(int slot) const {
        auto i = static_cast<std::size_t>(slot);
        return !bad[i] && slots[i].depends_on == 0;
    }
};

struct Checker;
// Constant expressions at the top level, as a pass may evaluate them: a
// narrow view of the checker's expression compiler (check_expressions.cpp).
// The names it sees are the top-level values and the dtypes defined so far.
class Constants {
public:
    explicit Constants(Checker& checker) : checker_(checker) {}
    std::optional<double> operator()(ParsedFile const& file, ast::Expression const& expr,
                                     char const* what) const;
    // A note at each --set that sets a value `expr` depends on.
    void note_set_by_option(Diagnostic& d, ParsedFile const& file, ast::Expression const& expr) const;

private:
    Checker& checker_;
};

// pass_dtypes.cpp: the built-in dtypes, then each `dtype` statement, into
// `dtypes` (a size expression sees those defined before it).
void check_dtypes(Context const& context, std::vector<Pending<ast::DtypeStmt>> const& statements,
                  Constants const& constant, std::vector<Dtype>& dtypes);

// pass_aliases.cpp: each `alias NAME = HW` to the hardware entry it names
// (an alias of an alias followed): none for an unknown name, a name that is
// already a hardware or an alias, or a cycle, each reported.
HardwareAliases check_aliases(Context const& context,
                              std::vector<Pending<ast::HardwareStmt>> const& definitions,
                              std::vector<Pending<ast::AliasStmt>> const& aliases);

// pass_targets.cpp: the chips to evaluate (indices into `chips`): --target,
// else the `target` statements, else every chip. `definitions` are all the
// `hardware` statements and `alias_statements` the `alias` statements: a chip
// whose definition failed, or an alias that failed, is reported there. A name
// is an entry's id or one of `aliases`; each entry is a target once.
std::vector<int> check_targets(Context const& context,
                               std::vector<Pending<ast::HardwareStmt>> const& definitions,
                               std::vector<Pending<ast::AliasStmt>> const& alias_statements,
                               std::vector<Pending<ast::TargetStmt>> const& statements,
                               std::vector<Hardware> const& chips, HardwareAliases const& aliases);

// pass_calibrations.cpp: each `calibration NAME for HW { ... }` into
// scenario.calibrations (in the order written, includes in place; values in
// seconds and plain fractions), and per target the calibration its `target
// HW with NAME` names into scenario.target_calibrations (parallel to
// scenario.targets; -1: uncalibrated). Reads the scenario's hardware, aliases,
// dtypes and targets; `definitions` and `alias_statements` as check_targets'.
void check_calibrations(Context const& context, std::vector<Pending<ast::CalibrationStmt>> const& statements,
                        std::vector<Pending<ast::TargetStmt>> const& target_statements,
                        std::vector<Pending<ast::HardwareStmt>> const& definitions,
                        std::vector<Pending<ast::AliasStmt>> const& alias_statements,
                        Constants const& constant, Scenario& scenario);
// pass_calibration_settings.cpp: one block's settings into `cal`, each error
// at its word (the scenario's dtypes name `efficiency CLASS DTYPE`'s).
void check_calibration_settings(Context const& context, Constants const& constant, Scenario const& scenario,
                                ParsedFile const& file, std::vector<ast::CalibrationSetting> const& settings,
                                Calibration& cal);

// pass_mesh.cpp: each mesh axis named apart from the top-level values and
// of a whole-number size; reports only.
void check_mesh(Context const& context, std::unordered_map<std::string, int> const& top_level_values,
                std::vector<MeshAxis> const& mesh, SlotValues const& values);
// pass_mesh.cpp: at most one `pipeline` axis (its index, or -1), and the
// slot of the top-level value `microbatches` (only with one; a constant
// whole number), into the scenario's pipeline_axis and microbatches_slot.
void check_pipeline(Context const& context, std::unordered_map<std::string, int> const& top_level_values,
                    SlotValues const& values, Scenario& scenario);
// `slo step <= 50 ms` (or `slo t_upper <= ...`): the limit in seconds, or
// nullopt after an error; `measure` what it bounds.
std::optional<double> check_slo(Context const& context, Pending<ast::SloStmt> const& statement,
                                Constants const& constant, bool has_mesh, bool has_tokens,
                                Scenario::SloMeasure& measure);

// pass_tokens.cpp: a constant `tokens` value positive and in range; reports only.
void check_tokens(Context const& context, Pending<ast::TokensStmt> const& statement, int tokens_slot,
                  SlotValues const& values, Constants const& constant);

// pass_kernels.cpp: a kernel assembled from its members: its axes and
// collectives, and the rules of its on-chip tensors (not when a member
// failed: what it would have read or written is unknown).
void check_kernel(Context const& context, Op& kernel, bool complete);

// pass_requests.cpp: each request's constant arguments, and that it has a decode.
void check_requests(Context const& context, std::vector<Pending<ast::RequestStmt>> const& statements,
                    std::vector<Request> const& requests, SlotValues const& values);

// What the collection pass found in the serve statement (check_kernels.cpp,
// collect_serve), for check_serve. The settings' values are hidden slots,
// already in the Serve.
struct ServeSource {
    enum Part : int { linear = 0, decode = 1, prefill = 2, sample = 3 };
    ParsedFile const* file = nullptr;
    ast::ServeStmt const* node = nullptr;  // nullptr: no serve statement
    Span close;                            // its closing brace
    ast::ServePart const* parts[4] = {nullptr, nullptr, nullptr, nullptr};
    int seed_slot = -1;
    ast::String const* trace = nullptr;  // `trace "file.csv"`, in `file`
    // prefill_pool(...), decode_pool(...): disaggregated serving, or nullptr.
    ast::ServePool const* pools[2] = {nullptr, nullptr};
};

// pass_serve.cpp: the serve's constant settings in range (a swept one is the
// engine's, at each point), its decode and prefill parts there, its seed and
// its trace file read (through `files`, relative to the serve's file).
void check_serve(Context const& context, ServeSource const& source, SlotValues const& values,
                 FileSystem& files, Serve& serve);
// pass_serve_pools.cpp: the serve's prefill_pool and decode_pool, both or
// neither, into serve.prefill_pool / decode_pool: replicas a positive whole
// constant, every other argument a sweep and one of its values.
void check_serve_pools(Context const& context, ServeSource const& source, Constants const& constant,
                       Scenario const& scenario, Serve& serve);
// pass_serve.cpp: `slo ttft_p99 <= 1 s` and the like, in the order written;
// each figure at most once, and only with a serve.
std::vector<ServeSlo> check_serve_slos(Context const& context,
                                       std::vector<Pending<ast::SloStmt>> const& statements,
                                       Constants const& constant, bool has_serve);
// pass_serve.cpp: `fleet rate = L /s`, a constant positive rate, with a serve.
std::optional<double> check_fleet(Context const& context, Pending<ast::FleetStmt> const& statement,
                                  Constants const& constant, bool has_serve);
// The serve figures an slo may bound ("ttft_p99"): whether `measure` names
// one of ttft, tpot, e2e (the slo is then the serve's, not the step's).
bool is_serve_measure(std::string_view measure);
// Where the engine sets `name` when it is one of a serve's step names
// (tokens, context, chunk, start), for the error at it elsewhere; nullptr
// for any other name.
char const* serve_name_place(std::string_view name);

// pass_mesh_sweep.cpp: from each sweep that sets a mesh axis's size, the
// values at which a split dimension does not divide, with one warning (an
// error when none is left).
void skip_indivisible_mesh_sizes(Context const& context, Scenario& scenario);

// pass_warnings.cpp: a warning per (compute dtype, target) that has no peak.
void warn_unsupported(Context const& context, Scenario const& scenario);

}  // namespace roofline::model
