#include "roofline/report/manifest.hpp"

#include "roofline/report/sha256.hpp"

namespace roofline::report {

std::string inputs_digest(RunInputs const& inputs, std::string const& tool_version) {
    // Length-prefixed fields, so that no two different inputs hash alike.
    Sha256 sha;
    auto field = [&](std::string const& text) {
        sha.update(std::to_string(text.size()) + ":");
        sha.update(text);
    };
    field("roofline " + tool_version);
    for (auto const& f : inputs.files) {
        field("file");
        field(f.name);
        field(f.sha256);
    }
    for (auto const& s : inputs.sets) {
        field("set");
        field(s);
    }
    for (auto const& t : inputs.targets) {
        field("target");
        field(t);
    }
    return sha.hex();
}

nlohmann::json make_manifest(ReportInfo const& info, ReportContext const& context,
                             std::vector<std::string> const& command_line,
                             RunInputs const& inputs, std::size_t case_count,
                             std::vector<OutputFile> const& outputs) {
    nlohmann::json manifest;
    manifest["tool"] = "roofline";
    manifest["report_format"] = report_format;
    manifest["tool_version"] = info.tool_version;
    manifest["report"] = info.name;
    manifest["version"] = info.version;
    manifest["created_utc"] = info.created_utc;
    manifest["command_line"] = command_line;
    manifest["title"] = context.scenario.title;
    manifest["inputs_sha256"] = info.inputs_sha256;
    auto& files = manifest["inputs"] = nlohmann::json::array();
    for (auto const& f : inputs.files)
        files.push_back({{"path", "inputs/" + f.name}, {"source", f.source_path}, {"sha256", f.sha256}});
    manifest["set"] = inputs.sets;
    manifest["target_options"] = inputs.targets;
    auto& targets = manifest["targets"] = nlohmann::json::array();
    for (std::size_t t = 0; t < context.grid.target_count; ++t)
        targets.push_back({{"id", context.target(t).id}, {"name", context.target(t).display_name}});
    auto& sweeps = manifest["sweeps"] = nlohmann::json::array();
    for (auto const& s : context.scenario.sweeps)
        sweeps.push_back({{"name", s.name}, {"points", s.values.size()}});
    manifest["matmuls"] = context.scenario.ops.size();
    manifest["cases"] = case_count;
    auto& out = manifest["outputs"] = nlohmann::json::array();
    for (auto const& o : outputs) out.push_back({{"path", o.path}, {"sha256", o.sha256}});
    return manifest;
}

}  // namespace roofline::report
