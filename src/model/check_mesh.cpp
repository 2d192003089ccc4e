// The names of sharded dimensions (docs/multichip.md): mesh axes through
// template instances, and `D@X` resolved to mesh axes (the mesh statement
// itself is pass_mesh.cpp's). How a matmul's computation is then split is
// check_shard_plans.cpp.
#include "checker.hpp"

#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::model {

Checker::MeshLookup Checker::lookup_mesh(int scope, std::string const& name) const {
    // A default like `X = Y, Y = X` would chase itself; no real chain is this deep.
    std::string current = name;
    for (int depth = 0; depth < 10'000; ++depth) {
        bool found = false;
        for (int s = scope; s >= 0 && !found; s = scopes[static_cast<std::size_t>(s)].parent) {
            auto const& aliases = scopes[static_cast<std::size_t>(s)].mesh_aliases;
            auto it = aliases.find(current);
            if (it == aliases.end()) continue;
            if (!it->second.ok) return {MeshLookup::Status::wrong_argument, -1};
            scope = it->second.scope;
            current = it->second.name;
            found = true;
        }
        if (found) continue;
        auto it = mesh_index.find(current);
        if (it == mesh_index.end()) return {};
        return {MeshLookup::Status::found, it->second};
    }
    return {MeshLookup::Status::cycle, -1};
}

bool Checker::is_mesh_name(int scope, std::string const& name) const {
    if (mesh_index.count(name)) return true;
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent)
        if (scopes[static_cast<std::size_t>(s)].mesh_aliases.count(name)) return true;
    return false;
}

std::vector<std::string_view> Checker::mesh_names(int scope) const {
    std::vector<std::string_view> names;
    for (auto const& m : scenario.mesh) names.push_back(m.name);
    // A scope's mesh parameters come from a hash map: alphabetically, so
    // that a suggestion does not depend on the map's order.
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent) {
        auto first = names.size();
        for (auto const& [name, alias] : scopes[static_cast<std::size_t>(s)].mesh_aliases)
            names.push_back(name);
        std::sort(names.begin() + static_cast<std::ptrdiff_t>(first), names.end());
    }
    return names;
}

std::string Checker::unknown_mesh_axis(int scope, std::string const& name) const {
    if (!mesh_statement.node)
        return std::string("'").append(name).append(
            "' is not a mesh axis: the scenario has no mesh (declare one, e.g. 'mesh " + name +
            " = 8 over nvlink')");
    return std::string("unknown mesh axis '").append(name).append("'") +
           did_you_mean(name, mesh_names(scope));
}

bool Checker::resolve_shards(ParsedFile const& file, int scope, ast::Tensor const& t, Tensor& out) {
    bool any = std::any_of(t.axes.begin(), t.axes.end(),
                           [](ast::Dim const& d) { return !d.shards.empty(); });
    if (!any) return true;
    bool ok = true;
    out.shards.assign(t.axes.size(), {});
    std::vector<std::pair<int, std::string const*>> used;  // mesh axis, the dimension it splits
    for (std::size_t i = 0; i < t.axes.size(); ++i) {
        auto const& dim = t.axes[i];
        out.dim_spans.push_back(file.span_of(dim));
        for (auto const& id : dim.shards) {
            Span span = file.span_of(id);
            auto found = lookup_mesh(scope, id.name);
            if (found.status != MeshLookup::Status::found) {
                // A mesh-axis argument reported as wrong: quiet here.
                if (found.status == MeshLookup::Status::unknown)
                    diagnostics.error(span, unknown_mesh_axis(scope, id.name));
                ok = false;
                continue;
            }
            int const axis = found.axis;
            // The axis's own name: `F@ax` of a template may split over `tp`.
            auto const& name = scenario.mesh[static_cast<std::size_t>(axis)].name;
            if (scenario.mesh[static_cast<std::size_t>(axis)].pipeline) {
                diagnostics.error(span, "'" + dim.axis.name + "' cannot be split over the pipeline axis '" +
                                            name + "': each stage holds its own layers, and the scenario "
                                            "lists one stage's; split over another axis, or write it whole");
                ok = false;
                continue;
            }
            auto previous = std::find_if(used.begin(), used.end(),
                                         [&](auto const& u) { return u.first == axis; });
            if (previous != used.end()) {
                diagnostics.error(span, *previous->second == dim.axis.name
                                            ? "mesh axis '" + name + "' appears twice in '" +
                                                  dim.axis.name + "'"
                                            : "mesh axis '" + name + "' splits both '" +
                                                  *previous->second + "' and '" + dim.axis.name +
                                                  "'; a mesh axis splits at most one dimension of "
                                                  "an operand");
                ok = false;
                continue;
            }
            used.emplace_back(axis, &dim.axis.name);
            out.shards[i].push_back(axis);
        }
    }
    return ok;
}

}  // namespace roofline::model
