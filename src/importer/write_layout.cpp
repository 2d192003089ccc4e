// The layout in the scenario's text: the header's lines, the title's words,
// the lets and the mesh (docs/import.md, "Layouts").
#include "layout.hpp"

#include <string>

namespace roofline::model::importer {

namespace {

std::string num(Int v) { return std::to_string(v); }

}  // namespace

std::string layout_header(Layout const& l) {
    if (!l.parallel) return "";
    std::string out = "#\n# Layout: " + num(l.gpus()) + " GPUs per worker = tp " + num(l.tp);
    out += " x attention-dp " + num(l.dp) + " x pp " + num(l.pp);
    if (l.kind == LayoutKind::grid)
        out += ";\n# experts: moe_ep " + num(l.ep) + " x moe_tp " + num(l.etp) +
               " (the mesh dp x tp_ep x tp_etp = " + num(l.dp) + " x " + num(l.tp_ep) + " x " +
               num(l.tp_etp) + ")";
    out += ".\n";
    if (l.pp > 1)
        out += "# The scenario is ONE pipeline stage, the last: L / PP layers and the LM head\n"
               "# (the first stage's embedding, a gather, is left out); stage_send sends its\n"
               "# activations to the next stage.\n";
    out += "# Every figure is per GPU; docs/multichip.md (\"Serving layouts\") says why\n"
           "# each part is split as it is.\n";
    return out;
}

std::string layout_title(Layout const& l) {
    if (!l.parallel) return "";
    std::string out;
    auto part = [&](std::string const& name, Int v) {
        if (v == 1) return;
        out += (out.empty() ? ", " : " x ") + name + " " + num(v);
    };
    part("tp", l.tp);
    part("attention-dp", l.dp);
    if (l.kind == LayoutKind::grid) {
        part("moe_ep", l.ep);
        part("moe_tp", l.etp);
    }
    part("pp", l.pp);
    return out.empty() ? ", one GPU" : out;
}

std::string layout_lets(Layout const& l) {
    if (!l.parallel) return "";
    std::string out;
    std::string mesh;
    auto axis = [&](std::string const& name, std::string const& size) {
        mesh += (mesh.empty() ? "mesh " : ", ") + name + " = " + size + " over nvlink";
    };
    if (l.kind == LayoutKind::tp) {
        out += let_line("TP", l.tp, "--tp: GPUs that split the heads and the widths");
        axis("tp", "TP");
    } else {
        out += let_line("DP", l.dp, "--dp: attention data-parallel GPUs (sequences, their cache)");
        out += let_line("TP_EP", l.tp_ep, "GPUs of a dp rank that split the experts: --ep / --dp");
        out += let_line("TP_ETP", l.tp_etp, "GPUs that split each expert's width: --etp");
        axis("dp", "DP");
        axis("tp_ep", "TP_EP");
        axis("tp_etp", "TP_ETP");
    }
    if (l.pp > 1) {
        out += let_line("PP", l.pp, "--pp: pipeline stages (this scenario is one)");
        axis("pp", "PP");
        mesh += " pipeline";
    }
    return out + mesh + "\n\n";
}

}  // namespace roofline::model::importer
