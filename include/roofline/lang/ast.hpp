#pragma once
// The syntax tree of a .roof file, exactly as written: names are not resolved,
// numbers are kept as text and units are not checked (that is model/check).
// Every node that an error may point at derives from x3::position_tagged; the
// parser records its source range in ParsedFile::positions.

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>

#include <optional>
#include <string>
#include <vector>

namespace roofline::ast {
namespace x3 = boost::spirit::x3;

struct Identifier : x3::position_tagged {
    std::string name;
};

struct String : x3::position_tagged {
    std::string value;  // escapes already resolved
};

struct Number : x3::position_tagged {
    std::string text;  // as written, underscores included
};

struct Unary;
struct Call;
struct Expression;

struct Operand
    : x3::variant<Number, Identifier, x3::forward_ast<Call>, x3::forward_ast<Unary>,
                  x3::forward_ast<Expression>> {
    using base_type::base_type;
    using base_type::operator=;
};

struct Unary : x3::position_tagged {
    char op = '-';
    Operand operand;
};

struct Operation : x3::position_tagged {
    char op = '+';  // + - * / ^
    Operand operand;
};

// first op rest[0] op rest[1] ... as written, all binary operators in one
// list; precedence is applied when the expression is compiled.
struct Expression : x3::position_tagged {
    Operand first;
    std::vector<Operation> rest;
};

struct Call : x3::position_tagged {
    Identifier function;
    std::vector<Expression> arguments;
};

// `8.2e11 B/s`, `16 GiB`, or a bare number.
struct Unit : x3::position_tagged {
    std::string text;
};

struct Quantity : x3::position_tagged {
    Expression value;
    std::optional<Unit> unit;
};

struct FieldValue : x3::variant<String, Quantity> {
    using base_type::base_type;
    using base_type::operator=;
};

// `hbm_bandwidth = 8.2e11 B/s`, `peak bf16 = 1.97e14 FLOP/s`, `name = "TPU v5e"`.
struct Field : x3::position_tagged {
    Identifier key;
    std::optional<Identifier> qualifier;
    FieldValue value;
};

struct ScenarioStmt : x3::position_tagged {
    String title;
};

struct IncludeStmt : x3::position_tagged {
    String path;
};

struct DtypeStmt : x3::position_tagged {
    Identifier name;
    Expression size;
    std::string unit;  // "bits" or "bytes"
};

struct HardwareStmt : x3::position_tagged {
    Identifier name;
    std::optional<Identifier> base;
    std::vector<Field> fields;
};

// One name of a `target` statement: `h100_sxm`, or `h100_sxm with trtllm_h100`,
// the calibration its expected times use (docs/language.md, 9.8).
struct TargetName : x3::position_tagged {
    Identifier name;
    std::optional<Identifier> calibration;
};

struct TargetStmt : x3::position_tagged {
    std::vector<TargetName> names;
};

// `alias b200_sxm = b200`: another name for a hardware entry (or an alias).
struct AliasStmt : x3::position_tagged {
    Identifier name;
    Identifier hardware;
};

struct LetStmt : x3::position_tagged {
    Identifier name;
    Expression value;
};

struct SweepStep : x3::position_tagged {
    std::string kind;  // "step" or "times"
    Expression value;
};

struct SweepRange : x3::position_tagged {
    Expression low;
    Expression high;
    std::optional<SweepStep> step;
};

struct SweepList : x3::position_tagged {
    std::vector<Expression> items;
};

struct SweepSpec : x3::variant<SweepRange, SweepList> {
    using base_type::base_type;
    using base_type::operator=;
};

struct SweepStmt : x3::position_tagged {
    Identifier name;
    SweepSpec spec;
};

// One dimension of an operand: `D`, or sharded over mesh axes, `D@tp`,
// `B@(X, Y)` (docs/multichip.md).
struct Dim : x3::position_tagged {
    Identifier axis;
    std::vector<Identifier> shards;
};

// `bf16[B, D]`, `weight int8[D, F@tp]`, `cache bf16[B, S, K, H]`,
// `weight onchip int8[D, F]`, `cache bf16[B, S, KV, H] x ceil(T / 128)`
// (docs/fusion.md).
struct Tensor : x3::position_tagged {
    std::optional<std::string> role;  // "weight" or "cache"; none: an activation
    bool onchip = false;              // `onchip`: in on-chip memory, not HBM
    Identifier dtype;
    std::vector<Dim> axes;
    std::optional<Expression> reads;  // `x EXPR`: its bytes are read EXPR times
};

struct MatmulStmt : x3::position_tagged {
    Identifier name;
    Tensor lhs;
    Tensor rhs;
    Tensor out;
    std::optional<Expression> flops;  // per point of the contraction; default 2
    std::optional<Identifier> compute;
    // `overlapped`: the op's collectives run under its compute and memory
    // time (a fused collective matmul) instead of after it (multichip.md 6).
    bool overlapped = false;
};

// `elementwise act = bf16[T, F], bf16[T, F] -> bf16[T, F] flops 4`
struct ElementwiseStmt : x3::position_tagged {
    Identifier name;
    std::vector<Tensor> inputs;
    Tensor out;
    std::optional<Expression> flops;  // per output element; default 1
    std::optional<Identifier> compute;
    bool overlapped = false;  // as a matmul's
};

// `resident experts = weight bf16[E, D, F]`
struct ResidentStmt : x3::position_tagged {
    Identifier name;
    Tensor tensor;
};

// `mesh tp = TP over nvlink, dp = 2 over dcn`, `mesh X = 16 over ici ring`,
// `mesh tp = 4 over nvlink, pp = 2 over nvlink pipeline`
struct MeshAxisDecl : x3::position_tagged {
    Identifier name;
    Expression size;
    std::string link;                     // "ici", "nvlink" or "dcn"
    std::optional<std::string> topology;  // "ring" or "line" (ICI only)
    bool pipeline = false;                // `pipeline`: the axis is the pipeline's stages
};

struct MeshStmt : x3::position_tagged {
    std::vector<MeshAxisDecl> axes;
};

// `collective gather = allgather(X) bf16[B@X, D] -> bf16[B, D]`
struct CollectiveStmt : x3::position_tagged {
    Identifier name;
    Identifier kind;  // allgather, reducescatter, allreduce, alltoall (checked by the checker)
    std::vector<Identifier> axes;
    Tensor in;
    Tensor out;
};

// `slo step <= 50 ms`: the Plan table considers only the points whose step
// meets it. The measure: `step` (the serial step), `t_upper` (the step with
// nothing overlapped), `expected` (calibrated, not yet).
struct SloStmt : x3::position_tagged {
    Identifier measure;
    Quantity limit;
};

// `tokens = B * S`
struct TokensStmt : x3::position_tagged {
    Expression value;
};

// `use decoder(D = 4096, W = int8) as block x 32`
struct Argument : x3::position_tagged {
    Identifier name;
    Expression value;
};

struct UseStmt : x3::position_tagged {
    Identifier name;
    std::vector<Argument> arguments;
    std::optional<Identifier> alias;
    std::optional<Expression> count;
};

// `fleet rate = 500 /s`: the whole traffic, in requests/s, to size a fleet for.
struct FleetStmt : x3::position_tagged {
    Expression rate;
};

// One line of a calibration: `source = "..."`, `efficiency gemm bf16 = 0.78`,
// `latency allreduce nvlink = 14 us`, `launch = 4 us`: the key, the words
// between it and '=' (checked by the checker) and the value.
struct CalibrationSetting : x3::position_tagged {
    Identifier key;
    std::vector<Identifier> qualifiers;
    FieldValue value;
};

// `calibration trtllm_h100 for h100_sxm { ... }` (docs/language.md, 9.8).
struct CalibrationStmt : x3::position_tagged {
    Identifier name;
    Identifier hardware;
    std::vector<CalibrationSetting> settings;
};

struct LayerStmt;
struct TemplateStmt;
struct KernelStmt;
struct RequestStmt;
struct WorkloadStmt;

struct Statement
    : x3::variant<ScenarioStmt, IncludeStmt, DtypeStmt, HardwareStmt, TargetStmt, AliasStmt, LetStmt,
                  SweepStmt, MatmulStmt, ElementwiseStmt, ResidentStmt, TokensStmt, UseStmt,
                  MeshStmt, CollectiveStmt, SloStmt, x3::forward_ast<LayerStmt>, x3::forward_ast<TemplateStmt>,
                  x3::forward_ast<KernelStmt>, x3::forward_ast<WorkloadStmt>> {
    using base_type::base_type;
    using base_type::operator=;
};

struct LayerStmt : x3::position_tagged {
    Identifier name;
    std::optional<Expression> count;
    std::vector<Statement> body;
};

// `kernel flash x 32 { matmul ...  elementwise ...  matmul ... }`: one fused
// kernel, one case (docs/fusion.md).
struct KernelStmt : x3::position_tagged {
    Identifier name;
    std::optional<Expression> count;
    std::vector<Statement> body;
};

// `request chat(prompt = 2048, output = 256) { prefill: ...  decode: ... }`
struct RequestStmt : x3::position_tagged {
    Identifier name;
    std::vector<Argument> arguments;
    std::vector<Statement> prefill;
    std::vector<Statement> decode;
};

// `trace "chat.csv"`: a serve's lengths read from a file (columns prompt, output).
struct ServeTrace : x3::position_tagged {
    String path;
};

struct ServeValue : x3::variant<ServeTrace, Expression> {
    using base_type::base_type;
    using base_type::operator=;
};

// `requests = 2000`, `prompt = uniform(128, 4096)`, `arrivals = poisson(R)`:
// the checker knows the names and the forms each takes.
struct ServeSetting : x3::position_tagged {
    Identifier key;
    ServeValue value;
};

// `decode: use ... as decoder x L`: the statements up to the next part,
// setting or the closing brace.
struct ServePart : x3::position_tagged {
    Identifier name;  // linear, decode or prefill (checked by the checker)
    std::vector<Statement> body;
};

// `prefill_pool(replicas = 1, TP = 4)`: a pool of disaggregated serving, its
// replica count and the sweeps' values of its mesh (checked by the checker).
struct ServePool : x3::position_tagged {
    Identifier name;  // prefill_pool or decode_pool
    std::vector<Argument> arguments;
};

struct ServeItem : x3::variant<ServeSetting, ServePart, ServePool> {
    using base_type::base_type;
    using base_type::operator=;
};

// `serve chat { prompt = 2048  ...  linear: ...  decode: ...  prefill: ... }`
// (docs/serving.md): settings and parts in any order.
struct ServeStmt : x3::position_tagged {
    Identifier name;
    std::vector<ServeItem> items;
};

// The statements of requests and serving, and the calibration of their
// expected times: one alternative of Statement (whose variant holds at most
// 20 kinds).
struct WorkloadStmt : x3::variant<RequestStmt, ServeStmt, FleetStmt, CalibrationStmt> {
    using base_type::base_type;
    using base_type::operator=;
};

// `template decoder(D, F, W = bf16) { ... }`: a parameter's default is an
// expression, or a dtype name for a dtype parameter.
struct Parameter : x3::position_tagged {
    Identifier name;
    std::optional<Expression> default_value;
};

struct TemplateStmt : x3::position_tagged {
    Identifier name;
    std::vector<Parameter> parameters;
    std::vector<Statement> body;
};

}  // namespace roofline::ast
