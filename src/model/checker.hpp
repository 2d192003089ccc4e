#pragma once
// State shared by the checking passes not yet moved to passes.hpp (the
// check_*.cpp files): the collected statements, the scopes and the values.
// Not a public header.

#include "passes.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/model/check.hpp"

#include <map>
#include <set>
#include <unordered_map>
#include <string>
#include <variant>
#include <vector>

namespace roofline::model {

// `bf16`, `W`, `D`: an expression that is one name and nothing else.
ast::Identifier const* bare_identifier(ast::Expression const& e);

struct Checker {
    explicit Checker(Context const& context)
        : context(context), program(context.program), options(context.options),
          diagnostics(context.diagnostics) {}

    Context const& context;
    Program const& program;
    CheckOptions const& options;
    Diagnostics& diagnostics;
    Scenario scenario;

    // A dtype parameter of a template instance: the dtype named by `name`
    // where the argument (or default) was written. `ok` is false once the
    // argument has been reported as not a dtype, so that its uses stay quiet.
    // A `let wdt = fp8` is an alias too; a dtype sweep is an alias with no
    // name and its slot.
    struct DtypeAlias {
        std::string name;
        int scope;
        bool ok = true;
        int sweep_slot = -1;  // a dtype sweep: its slot
        // A let's or a sweep's, never changed after: another let may copy it.
        // (A template's dtype parameter is checked, and may turn bad, later.)
        bool settled = false;
    };

    // A mesh-axis parameter of a template instance: the mesh axis named by
    // `name` in `scope`, where the argument (or default) was written. `ok` is
    // false once the argument has been reported as not a mesh axis.
    struct MeshAlias {
        std::string name;
        int scope;
        bool ok = true;
    };

    // A name scope: the top level, a layer body or a template instance.
    struct Scope {
        int parent = -1;
        int depth = 0;  // layers and template instances around it (and it)
        std::string path;  // layer path, "" at top level
        double count = 1;  // product of the repeat counts down to here
        std::unordered_map<std::string, int> values;  // let/sweep/parameter name -> slot
        std::unordered_map<std::string, DtypeAlias> dtype_aliases;  // dtype parameters
        std::unordered_map<std::string, MeshAlias> mesh_aliases;  // mesh-axis parameters
        std::map<std::string, Span> ops, layers;  // ops (matmul, elementwise, resident)
        Span use;  // of a template instance: the `use` that made it
        std::string template_name;
        // Inherited by the scopes inside: the kernel (index into kernels)
        // and the request and phase (0 prefill, 1 decode) they are in.
        int kernel = -1;
        int request = -1, phase = -1;
        // Inside the serve's parts: phase is the part (ServeSource::Part).
        bool serve = false;
    };
    // The template instance(s) enclosing `scope`, for Diagnostics::set_context:
    // errors inside them are reported at the outermost `use`; nullopt outside
    // templates.
    std::optional<InstanceContext> instance_context(int scope) const;
    // The same, built only when a diagnostic needs it: set for every op
    // checked, it must cost nothing when all is well.
    Diagnostics::ContextMaker context_of(int scope) const {
        return [this, scope] { return instance_context(scope); };
    }
    // "attention got H = 28, KV = 5, ...": the constant value parameters of
    // the instance `scope`, once check_lets has computed them ("" before).
    std::string instance_values(int scope) const;
    bool constants_known = false;
    std::vector<Scope> scopes;
    Span title_span;  // of the `scenario` statement, once seen
    std::vector<bool> override_used;  // parallel to options.overrides
    // The statement each override replaced (nullptr: none yet), for its messages.
    std::vector<StatementRef> override_replaced;

    template <typename Node>
    using Pending = model::Pending<Node>;
    // A value to compile in `scope`: a let, a value parameter of a template
    // instance (its argument, compiled at the use site, or its default), or
    // the tokens expression. Parallel to let_slots.
    struct LetSource {
        ParsedFile const* file;
        ast::Expression const* value;
        int scope;
    };
    std::vector<LetSource> lets;
    std::vector<int> let_slots;
    std::vector<std::size_t> let_statements;  // the `let`s among lets (indices)
    std::vector<int> dtype_let_slots;  // lets that name a dtype: slots left uncompiled
    std::vector<Pending<ast::SweepStmt>> sweeps;
    std::vector<bool> sweep_of_dtypes;  // parallel to sweeps
    bool too_many_sweeps = false;       // past max_sweeps: reported once, the rest dropped
    std::vector<Pending<ast::DtypeStmt>> dtypes;
    std::vector<Pending<ast::HardwareStmt>> hardware;
    std::vector<Pending<ast::TargetStmt>> targets;
    std::vector<Pending<ast::AliasStmt>> aliases;
    std::vector<Pending<ast::CalibrationStmt>> calibrations;
    // Matmuls and elementwise ops in the order written: the order of the cases.
    struct PendingOp {
        ParsedFile const* file;
        std::variant<ast::MatmulStmt const*, ast::ElementwiseStmt const*,
                     ast::CollectiveStmt const*>
            node;
        int scope;
    };
    std::vector<PendingOp> ops;
    std::vector<Pending<ast::ResidentStmt>> residents;
    // `kernel` blocks in the order written: the scope that holds the block
    // and the scope of its body.
    struct PendingKernel {
        ParsedFile const* file;
        ast::KernelStmt const* node;
        int outer_scope, inner_scope;
    };
    std::vector<PendingKernel> kernels;
    // `request` statements, parallel to scenario.requests.
    std::vector<Pending<ast::RequestStmt>> requests;
    // The hidden slots of `x EXPR` read factors and `flops EXPR`: by the AST
    // node and the scope it is checked in (a template's body is checked once
    // per instance).
    std::map<std::pair<void const*, int>, int> expression_slots;
    // A slot no name can reach, whose value is EXPR compiled in `scope` like a let's.
    int hidden_slot(ParsedFile const& file, ast::Expression const& expr, int scope, std::string name);
    int expression_slot(void const* node, int scope) const {
        auto it = expression_slots.find({node, scope});
        return it == expression_slots.end() ? -1 : it->second;
    }
    Pending<ast::TokensStmt> tokens{nullptr, nullptr, 0};
    Pending<ast::MeshStmt> mesh_statement{nullptr, nullptr, 0};
    Pending<ast::SloStmt> slo_statement{nullptr, nullptr, 0};
    // The serve statement (at most one), what collect_serve found in it, and
    // the serve's slo statements and `fleet`.
    ServeSource serve_source;
    std::vector<Pending<ast::SloStmt>> serve_slo_statements;
    Pending<ast::FleetStmt> fleet_statement{nullptr, nullptr, 0};
    std::unordered_map<std::string, int> mesh_index;  // mesh axis name -> index into scenario.mesh

    // A layer body or a template instance and its repeat count (none: 1),
    // evaluated in the enclosing scope. Parents come before their children.
    struct LayerCount {
        ParsedFile const* file;
        ast::Expression const* count;
        int outer_scope, inner_scope;
    };
    std::vector<LayerCount> layers;

    // Templates by name, collected before anything else so that a use may
    // come before its template. Parameter kinds are inferred on first use.
    enum class ParamKind : char { value, dtype, mesh_axis };
    // Where the inference of a template's parameter kinds stands; a template
    // met again while its kinds are being inferred is used in a cycle.
    enum class KindsState : char { not_inferred, being_inferred, inferred };
    struct Template {
        ParsedFile const* file;
        ast::TemplateStmt const* node;
        std::vector<ParamKind> kinds;
        KindsState kinds_state = KindsState::not_inferred;
        // A parameter the body uses both as a mesh axis and as a value or
        // dtype (reported once, when the kinds are inferred): not expanded.
        bool kinds_conflict = false;
    };
    std::map<std::string, Template> templates;
    std::vector<std::string> instantiating;  // the uses being expanded, outermost first
    std::size_t instance_count = 0;
    static constexpr std::size_t max_instances = 100'000;

    // A dtype or mesh-axis argument (or default), validated once the dtypes
    // (the mesh axes) are known.
    struct AliasArgument {
        ParsedFile const* file;  // of the argument or default
        ast::Expression const* value;
        int scope;               // where the name is resolved
        Template const* templ;
        std::size_t parameter;
        int instance_scope;      // whose dtype_aliases (mesh_aliases) hold the parameter
    };
    std::vector<AliasArgument> dtype_arguments;
    std::vector<AliasArgument> mesh_arguments;
    std::set<std::string> declared_dtypes;  // names of every `dtype` statement
    // A value argument that is a single name, checked for being a dtype.
    struct ValueArgument {
        ParsedFile const* file;
        ast::Identifier const* id;
        int scope;
        Template const* templ;
        std::size_t parameter;
        int slot;
    };
    std::vector<ValueArgument> value_arguments;
    // Value parameters given a dtype, and sizes given a dtype by --set: slots left uncompiled.
    std::vector<int> bad_arguments;
    std::vector<bool> bad_slot;  // a slot whose value could not be computed
    std::vector<double> constant_values;  // per slot: the constant, once check_lets has run

    // check_collect.cpp
    void collect(std::vector<StatementRef> const& statements);
    void collect_in_layer(ParsedFile const& file, std::vector<ast::Statement> const& body,
                          int scope);
    void collect_statement(ParsedFile const& file, ast::Statement const& statement, int scope);
    // check_symbols.cpp
    void define(std::map<std::string, Span>& names, ast::Identifier const& id, Span span,
                char const* what);
    bool define_value(int scope, std::string const& name, Span span);
    // model::within_limit (passes.hpp), reporting to this checker's diagnostics.
    bool within_limit(std::string const& text, std::size_t limit, Span span, char const* what);
    // A scope inside `outer` (a layer, a template instance, a kernel, a
    // request or one of its phases): it inherits the kernel, request and phase.
    int open_scope(int outer, std::string path);
    // Layers and template instances nest at most this deep: collecting them
    // is recursive (collect_in_layer, instantiate), and no real model needs
    // more than a few levels.
    static constexpr int max_scope_depth = 64;
    // Whether a layer or instance may open inside `scope`; else an error at
    // `span` about `what` ("layer 'a'").
    bool nesting_allowed(int scope, Span span, std::string const& what);

    // check_templates.cpp (parameter_kinds: check_template_kinds.cpp; the
    // argument checks: check_template_arguments.cpp)
    void collect_templates(std::vector<StatementRef> const& statements);
    void instantiate(ParsedFile const& file, ast::UseStmt const& use, int scope);
    std::vector<ParamKind> const& parameter_kinds(Template& templ);
    void check_value_arguments();
    void check_dtype_arguments();
    void check_mesh_arguments();
    Diagnostic note_at_parameter(Template const& templ, std::size_t parameter) const;
    bool is_dtype_name(std::string const& name) const;  // built in or declared, before check_dtypes
    bool is_dtype_parameter(int scope, std::string const& name) const;
    // A mesh axis of the scenario, or a mesh-axis parameter seen from `scope`.
    bool is_mesh_name(int scope, std::string const& name) const;

    // check_expressions.cpp
    bool compile(ParsedFile const& file, ast::Expression const& expr, int scope, Expr& out);
    std::optional<double> constant(ParsedFile const& file, ast::Expression const& expr,
                                   int scope, char const* what);
    // A value given on the command line: the error about it says so, with a
    // note at the --set.
    static void note_set_by_option(Diagnostic& d, Slot const& value);
    // The same for each value a constant expression depends on (a hardware
    // field's `bw TB/s`, where `let bw` is set by --set).
    void note_set_by_option(Diagnostic& d, ParsedFile const& file, ast::Expression const& expr,
                            int scope);
    int lookup_value(int scope, std::string const& name) const;
    std::vector<std::string_view> visible_values(int scope) const;
    // "; the names that can be set are A, B" for an unknown --set NAME.
    std::string settable_names() const;
    // check_values.cpp
    // Lets and sweeps whose values are dtypes become dtype names (aliases),
    // no longer values: `let wdt = fp8`, `sweep wdt = [bf16, fp8]`.
    void classify_dtype_names();
    void check_override_kinds();
    void check_lets();
    void check_sweeps();
    // A value of a dtype sweep: its dtype's index, or -1 after an error.
    int sweep_dtype(ParsedFile const& file, std::string const& sweep, ast::Expression const& item);
    void check_layer_counts();

    // check_hardware.cpp
    // A chip extends at most this many definitions (its base, the base's
    // base, ...); real catalogs use one or two.
    static constexpr int max_extends = 64;
    void check_hardware();
    static constexpr int unknown_dtype = -1;
    int lookup_dtype(std::string const& name) const;  // an index, or unknown_dtype
    // In a scope: through dtype lets, dtype sweeps and the dtype parameters
    // of enclosing instances.
    struct DtypeLookup {
        enum class Status : char {
            found,
            unknown,         // no dtype of that name
            wrong_argument,  // a dtype parameter whose argument was already reported as wrong
        } status = Status::unknown;
        DtypeRef ref;
    };
    DtypeLookup lookup_dtype(int scope, std::string const& name) const;
    std::vector<std::string_view> dtype_names() const;

    // check_matmuls.cpp
    void check_ops();
    void check_matmul(PendingOp const& pending, ast::MatmulStmt const& stmt);
    void warn_nothing_overlapped(Op const& op);
    bool flops_clause(ParsedFile const& file, void const* stmt, ast::Expression const& expr, int scope,
                      Op& op);
    void check_elementwise(PendingOp const& pending, ast::ElementwiseStmt const& stmt);
    void check_collective(PendingOp const& pending, ast::CollectiveStmt const& stmt);
    void check_residents();
    // check_kernels.cpp: the ops built by check_ops, with the scope of each,
    // grouped into kernels (each checked by check_kernel, passes.hpp) and
    // routed to the cases or a request's phases.
    // incomplete[k]: a member of kernel k failed (its error is out).
    void assemble_ops(std::vector<Op>& built, std::vector<int> const& scope_of,
                      std::vector<bool> const& incomplete);
    // `request NAME(...) { prefill: ... decode: ... }` at the top level: its
    // arguments are values of its scope, `i` a value of the decode's whose
    // every dependent is evaluated again at each step.
    void collect_request(ParsedFile const& file, ast::RequestStmt const& r);
    // `serve NAME { ... }` at the top level (check_kernels.cpp): each
    // setting a hidden value of the top level, each part a scope where the
    // engine's names (tokens; context; chunk, start) are values set per step.
    void collect_serve(ParsedFile const& file, ast::ServeStmt const& s);
    void collect_serve_setting(ParsedFile const& file, ast::ServeSetting const& setting);
    // `prefill_pool(...)` / `decode_pool(...)`: known and once each (`seen` has
    // the serve's settings, parts and pools written); checked by check_serve_pools.
    void collect_serve_pool(ParsedFile const& file, ast::ServePool const& pool,
                            std::map<std::string, Span, std::less<>>& seen);
    // The list an op (a resident) checked in `scope` belongs to: the cases,
    // a request's phase or a serve's part.
    std::vector<Op>& ops_of_scope(int scope);
    std::vector<Resident>& residents_of_scope(int scope);

    // check_mesh.cpp
    // A mesh axis named in `scope`: through the mesh-axis parameters of
    // enclosing instances to an axis of the mesh.
    struct MeshLookup {
        enum class Status : char {
            found,
            unknown,         // no mesh axis of that name
            wrong_argument,  // a mesh-axis parameter whose argument was already reported as wrong
            cycle,           // defaults that name one another: `X = Y, Y = X`
        } status = Status::unknown;
        int axis = -1;  // index into scenario.mesh
    };
    MeshLookup lookup_mesh(int scope, std::string const& name) const;
    // The mesh axes and the mesh-axis parameters seen from `scope` (did you mean).
    std::vector<std::string_view> mesh_names(int scope) const;
    // "unknown mesh axis 'tq'; did you mean 'tp'?", or that there is no mesh.
    std::string unknown_mesh_axis(int scope, std::string const& name) const;
    // `D@X`, `B@(X, Y)`: the mesh axes of each dimension of `t`, named in
    // `scope`, into `out` (shards, dim_spans); false after an error.
    bool resolve_shards(ParsedFile const& file, int scope, ast::Tensor const& t, Tensor& out);
    // The computation's sharding and the implied collectives (multichip.md
    // section 3); false after an error.
    bool plan_matmul(Op& op);
    bool plan_elementwise(Op& op);
    bool plan_collective(Op& op, ast::CollectiveStmt const& stmt, ParsedFile const& file,
                         int scope);
};

}  // namespace roofline::model
