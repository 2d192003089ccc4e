#pragma once
// A worker's parallel layout for `roofline import` (docs/import.md,
// "Layouts"; docs/multichip.md, "Serving layouts"): the sizes given, the ones
// derived, the mesh axes they become, and the checks that the model can take
// them. Private to src/importer:
//   layout.cpp        each family's parallel templates (the convention);
//                     resolve_layout: the sizes, the mesh axes, the errors
//   write_layout.cpp  the layout's header lines, lets and mesh
//   write_uses.cpp    the uses of one phase, on one chip or on the layout

#include "importer.hpp"

#include <optional>
#include <string>
#include <utility>

namespace roofline::model::importer {

// tp: one tensor-parallel axis `tp` (dense families, layers/parallel_dense.roof).
// grid: the axes dp x tp_ep x tp_etp (MoE families, layers/parallel_moe.roof):
// attention_dp = dp, tp = tp_ep x tp_etp, moe_ep = dp x tp_ep, moe_tp = tp_etp.
enum class LayoutKind { tp, grid };

// A family's parallel templates: the file, and how its layers take the mesh.
// A family without them has no entry (its layouts are an error).
struct ParallelTemplates {
    char const* file;
    LayoutKind kind;
};
std::optional<ParallelTemplates> parallel_templates(Family family);
// Whether the family has flash-attention forms of its layer templates
// (one chip, or on its parallel layout).
bool has_flash(Family family, bool parallel, bool serve);
// Whether the scenario's attention is written in its flash forms: with
// --flash, and with --serve wherever the family has them (the kernels every
// serving engine runs; the eager parts' score matrix in HBM is time no
// engine spends, and their step would be no lower bound).
bool writes_flash(ImportOptions const& o, Family family);

struct Layout {
    bool parallel = false;  // any of --tp --dp --ep --etp --pp given
    LayoutKind kind = LayoutKind::tp;
    char const* file = "";  // the parallel templates' file
    Int tp = 1, dp = 1, pp = 1, ep = 1, etp = 1;
    Int tp_ep = 1, tp_etp = 1;  // the grid's tp axes: ep = dp x tp_ep, etp = tp_etp
    Int gpus() const { return tp * dp * pp; }
};

// The layout the options give, checked against the shapes: an error names the
// dimension (the config field) and both numbers. Not parallel without options.
Layout resolve_layout(Config const& c, Shapes const& s, ImportOptions const& o);

// "let NAME = VALUE   # comment", aligned as the scenario's other lets
// (write_scenario.cpp).
std::string let_line(std::string const& name, Int value, std::string const& comment);

// The one-chip template file and decoder layer template (without _decode or
// _prefill) of each family (write_scenario.cpp).
std::pair<char const*, char const*> layer_templates(Family family);

// The header's lines about the layout ("# Layout: ..."), empty on one chip.
std::string layout_header(Layout const& l);
// ", tp 8", ", attention-dp 8 x ep 8": the title's words for it.
std::string layout_title(Layout const& l);
// The layout's lets and its mesh statement (then a blank line).
std::string layout_lets(Layout const& l);

// One phase of the uses: the top level of a decode or prefill scenario, or
// one phase of a request.
struct Phase {
    bool decode = true;
    std::string tokens;       // the embedding's N: "B", "B * T", "B * prompt"
    std::string span;         // the layers' context: "S = S", "T = T", "S = prompt + i"
    std::string window_span;  // the windowed one ("S = min(S, W)"); empty: none
    std::string tensor_dims;  // the stage's activations but D: "B", "B, T"
    std::string indent;       // before each line
};

// The embedding, the decoder layers and the LM head of one phase; on a
// pipeline, one stage's layers, the LM head and the activations it sends on.
std::string write_uses(Shapes const& s, Layout const& l, bool flash, Phase const& phase);

// --serve (write_serve.cpp): the checks that the family has serve templates
// and the layout is one they take (failing through `c`); the templates'
// file; the request's lengths (--request, else 2048 and 256); the serve
// statement and the example SLOs.
void check_serve(Config const& c, Shapes const& s, Layout const& l);
char const* serve_templates(Family family);
Int serve_prompt(ImportOptions const& o);
Int serve_output(ImportOptions const& o);
std::string write_serve(Shapes const& s, Layout const& l, ImportOptions const& o);

}  // namespace roofline::model::importer
