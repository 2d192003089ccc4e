// The arguments of template uses, checked once every name is known: a value
// argument that names a dtype or a mesh axis, dtype arguments, mesh-axis
// arguments; and dtype names looked up through the instances' aliases.
// Expanding the uses is check_templates.cpp.
#include "checker.hpp"

#include "dtypes.hpp"

#include <algorithm>

namespace roofline::model {

// Run once every name is collected: a value argument that names a dtype or
// a mesh axis (and no value) is the wrong kind of argument, not an unknown name.
void Checker::check_value_arguments() {
    for (auto const& arg : value_arguments) {
        auto const& name = arg.id->name;
        if (lookup_value(arg.scope, name) >= 0) continue;
        char const* kind = is_dtype_name(name) || is_dtype_parameter(arg.scope, name) ? "a dtype"
                           : is_mesh_name(arg.scope, name)                            ? "a mesh axis"
                                                                                      : nullptr;
        if (!kind) continue;
        auto const& param = arg.templ->node->parameters[arg.parameter];
        diagnostics.error(arg.file->span_of(*arg.id),
                          "parameter '" + param.name.name + "' of template '" +
                              arg.templ->node->name.name + "' takes a value, but '" + name +
                              "' is " + kind)
            .notes.push_back(note_at_parameter(*arg.templ, arg.parameter));
        bad_arguments.push_back(arg.slot);
    }
}

void Checker::check_dtype_arguments() {
    for (auto const& arg : dtype_arguments) {
        auto const& param = arg.templ->node->parameters[arg.parameter];
        auto& alias =
            scopes[static_cast<std::size_t>(arg.instance_scope)].dtype_aliases.at(param.name.name);
        auto const* id = bare_identifier(*arg.value);
        auto what = "parameter '" + param.name.name + "' of template '" +
                    arg.templ->node->name.name + "' takes a dtype";
        if (!id) {
            diagnostics.error(arg.file->span_of(*arg.value), what + ", not an expression")
                .notes.push_back(note_at_parameter(*arg.templ, arg.parameter));
            alias.ok = false;
            continue;
        }
        auto dtype = lookup_dtype(arg.scope, id->name);
        if (dtype.status != DtypeLookup::Status::unknown) {
            alias.ok = dtype.status == DtypeLookup::Status::found;
            continue;
        }
        int const slot = lookup_value(arg.scope, id->name);
        if (slot >= 0 && bad_slot[static_cast<std::size_t>(slot)]) {
            alias.ok = false;  // a let already reported (`let wdt = bf17`)
            continue;
        }
        std::string message = slot >= 0 ? what + ", but '" + id->name + "' is a value"
                              : is_mesh_name(arg.scope, id->name)
                                  ? what + ", but '" + id->name + "' is a mesh axis"
                                  : "unknown dtype '" + id->name + "'" +
                                        did_you_mean(id->name, dtype_names());
        diagnostics.error(arg.file->span_of(*id), message)
            .notes.push_back(note_at_parameter(*arg.templ, arg.parameter));
        alias.ok = false;
    }
}

// Run once the mesh is known: each mesh-axis argument (or default) names a
// mesh axis of the scenario or a mesh-axis parameter of an enclosing instance.
void Checker::check_mesh_arguments() {
    for (auto const& arg : mesh_arguments) {
        auto const& param = arg.templ->node->parameters[arg.parameter];
        auto& alias =
            scopes[static_cast<std::size_t>(arg.instance_scope)].mesh_aliases.at(param.name.name);
        auto const* id = bare_identifier(*arg.value);
        auto what = "parameter '" + param.name.name + "' of template '" +
                    arg.templ->node->name.name + "' takes a mesh axis";
        if (!id) {
            alias.ok = false;
            bool number = arg.value->rest.empty() &&
                          boost::get<ast::Number>(&arg.value->first.get()) != nullptr;
            diagnostics.error(arg.file->span_of(*arg.value),
                              what + (number ? ", not a number" : ", not an expression"))
                .notes.push_back(note_at_parameter(*arg.templ, arg.parameter));
            continue;
        }
        auto found = lookup_mesh(arg.scope, id->name);
        alias.ok = found.status == MeshLookup::Status::found;
        // Quiet when the name is a mesh-axis parameter whose own argument is
        // wrong: that argument is reported.
        if (found.status == MeshLookup::Status::found ||
            found.status == MeshLookup::Status::wrong_argument ||
            (found.status == MeshLookup::Status::unknown && is_mesh_name(arg.scope, id->name)))
            continue;
        std::string message;
        if (found.status == MeshLookup::Status::cycle)  // `X = Y, Y = X`
            message = what + ", but '" + id->name + "' is a parameter whose default names it back";
        else if (lookup_value(arg.scope, id->name) >= 0)
            message = what + ", but '" + id->name + "' is a value";
        else if (is_dtype_name(id->name) || is_dtype_parameter(arg.scope, id->name))
            message = what + ", but '" + id->name + "' is a dtype";
        else
            message = unknown_mesh_axis(arg.scope, id->name);
        diagnostics.error(arg.file->span_of(*id), message)
            .notes.push_back(note_at_parameter(*arg.templ, arg.parameter));
    }
}

Checker::DtypeLookup Checker::lookup_dtype(int scope, std::string const& name) const {
    // A default like `W = W` would chase itself; no real chain is this deep.
    std::string current = name;
    for (int depth = 0; depth < 10'000; ++depth) {
        bool found = false;
        for (int s = scope; s >= 0 && !found; s = scopes[static_cast<std::size_t>(s)].parent) {
            auto const& aliases = scopes[static_cast<std::size_t>(s)].dtype_aliases;
            auto it = aliases.find(current);
            if (it == aliases.end()) continue;
            if (!it->second.ok) return {DtypeLookup::Status::wrong_argument, {}};
            if (it->second.sweep_slot >= 0)
                return {DtypeLookup::Status::found, DtypeRef{-1, it->second.sweep_slot}};
            scope = it->second.scope;
            current = it->second.name;
            found = true;
        }
        if (found) continue;
        int index = lookup_dtype(current);
        if (index < 0) return {};
        return {DtypeLookup::Status::found, DtypeRef{index, -1}};
    }
    return {};
}

}  // namespace roofline::model
