#include "roofline/report/manifest.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/model/check.hpp"
#include "roofline/report/publish.hpp"
#include "roofline/output/sha256.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <sys/stat.h>

namespace roofline::report {

using nlohmann::json;

std::string Manifest::output_sha256(std::string const& path) const {
    for (auto const& o : outputs)
        if (o.path == path) return o.sha256;
    return {};
}

std::string Manifest::formats_text() const {
    std::string out;
    for (auto [on, name] : {std::pair<bool, char const*>{csv, "csv"}, {xlsx, "xlsx"}, {charts, "charts"}})
        if (on) out.append(out.empty() ? "" : ",").append(name);
    return out;
}

std::string manifest_text(Manifest const& m) {
    json j;
    j["tool"] = m.tool;
    j["report_format"] = m.format;
    if (!m.kind.empty()) j["kind"] = m.kind;
    j["tool_version"] = m.tool_version;
    j["report"] = m.report;
    j["version"] = m.version;
    j["created_utc"] = m.created_utc;
    j["command_line"] = m.command_line;
    j["title"] = m.title;
    j["inputs_sha256"] = m.inputs_sha256;
    auto& inputs = j["inputs"] = json::array();
    for (auto const& f : m.inputs)
        inputs.push_back({{"path", f.path}, {"source", f.source}, {"sha256", f.sha256}});
    j["set"] = m.sets;
    j["target_options"] = m.target_options;
    j["charts"] = m.charts;
    auto& formats = j["formats"] = json::array();
    if (m.csv) formats.push_back("csv");
    if (m.xlsx) formats.push_back("xlsx");
    if (m.charts) formats.push_back("charts");
    auto& targets = j["targets"] = json::array();
    for (auto const& t : m.targets) targets.push_back({{"id", t.id}, {"name", t.name}});
    auto& sweeps = j["sweeps"] = json::array();
    for (auto const& s : m.sweeps) {
        json sweep = {{"name", s.name}, {"points", s.points}};
        if (!s.dtypes.empty()) sweep["dtypes"] = s.dtypes;  // absent for numbers, as before
        if (s.mesh) sweep["mesh"] = true;                   // absent without a mesh, as before
        sweeps.push_back(std::move(sweep));
    }
    j["matmuls"] = m.ops;
    j["cases"] = m.cases;
    auto& outputs = j["outputs"] = json::array();
    for (auto const& o : m.outputs) outputs.push_back({{"path", o.path}, {"sha256", o.sha256}});
    return j.dump(2) + "\n";
}

namespace {

// Fields of one manifest file, each checked for its type.
struct Fields {
    std::string const& where;

    [[noreturn]] void bad(std::string const& what) const { throw ManifestError(where + ": " + what); }
    std::string string(json const& j, char const* key) const {
        auto it = j.find(key);
        if (it == j.end() || !it->is_string())
            bad(std::string("field '") + key + "' is missing or not a string");
        return it->get<std::string>();
    }
    long long integer(json const& j, char const* key) const {
        auto it = j.find(key);
        if (it == j.end() || !it->is_number_integer() || it->get<long long>() < 0)
            bad(std::string("field '") + key + "' is missing or not a whole number");
        return it->get<long long>();
    }
    json const& array(json const& j, char const* key) const {
        auto it = j.find(key);
        if (it == j.end() || !it->is_array())
            bad(std::string("field '") + key + "' is missing or not a list");
        return *it;
    }
    json const& object(json const& j, char const* what) const {
        if (!j.is_object()) bad(std::string("a ") + what + " is not an object");
        return j;
    }
    std::vector<std::string> strings(json const& j, char const* key) const {
        std::vector<std::string> out;
        auto it = j.find(key);
        if (it == j.end() || !it->is_array()) return out;
        for (auto const& s : *it)
            if (s.is_string()) out.push_back(s.get<std::string>());
        return out;
    }
};

}  // namespace

Manifest read_manifest(std::string const& path, std::string* text_out) {
    std::string error;
    auto text = read_regular_file(path, max_manifest_bytes, error);
    if (!text) throw ManifestError(path + ": cannot be read: " + error);
    if (text_out) *text_out = *text;
    auto j = json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw ManifestError(path + ": not a valid manifest (not a JSON object)");

    auto format = j.find("report_format");
    if (format == j.end())
        throw ManifestError(path +
                            ": no report_format: not a roofline report, or one made by an older "
                            "roofline; run its scenario again to make a comparable report");
    if (!format->is_number_integer() || format->get<long long>() != report_format)
        throw ManifestError(path + ": report format " + format->dump() + " (roofline " +
                            j.value("tool_version", std::string("?")) + "), but roofline " +
                            ROOFLINE_VERSION + " reads format " + std::to_string(report_format) +
                            " only; run its scenario again with this roofline");

    Fields f{path};
    Manifest m;
    m.tool = j.value("tool", std::string());
    if (auto it = j.find("kind"); it != j.end()) {
        if (!it->is_string()) f.bad("field 'kind' is not a string");
        m.kind = it->get<std::string>();
    }
    m.report = f.string(j, "report");
    auto version = f.integer(j, "version");
    if (version < 1 || version > Publisher::max_version)
        f.bad("field 'version' is " + std::to_string(version) + ", not a version number (1 to " +
              std::to_string(Publisher::max_version) + ")");
    m.version = static_cast<int>(version);
    m.tool_version = f.string(j, "tool_version");
    m.cases = static_cast<std::size_t>(f.integer(j, "cases"));
    for (auto const& t : f.array(j, "targets"))
        m.targets.push_back({f.string(f.object(t, "target"), "id"), t.value("name", std::string())});
    if (f.array(j, "sweeps").size() > model::max_sweeps)
        f.bad("it lists " + std::to_string(f.array(j, "sweeps").size()) +
              " sweeps; a scenario has at most " + std::to_string(model::max_sweeps));
    for (auto const& s : f.array(j, "sweeps")) {
        m.sweeps.push_back({f.string(f.object(s, "sweep"), "name"),
                            static_cast<std::size_t>(f.integer(s, "points")), {}});
        if (s.contains("dtypes"))
            for (auto const& d : f.array(s, "dtypes"))
                m.sweeps.back().dtypes.push_back(d.is_string() ? d.get<std::string>() : "?");
        m.sweeps.back().mesh = s.value("mesh", false) == true;
    }
    for (auto const& o : f.array(j, "outputs"))
        if (o.is_object())
            m.outputs.push_back({o.value("path", std::string()), o.value("sha256", std::string())});
    // Not needed to read a report; taken as they are.
    m.created_utc = j.value("created_utc", std::string());
    m.title = j.value("title", std::string());
    m.inputs_sha256 = j.value("inputs_sha256", std::string());
    m.command_line = f.strings(j, "command_line");
    m.sets = f.strings(j, "set");
    m.target_options = f.strings(j, "target_options");
    if (auto it = j.find("charts"); it != j.end() && it->is_boolean()) m.charts = it->get<bool>();
    if (j.contains("formats")) {
        auto const formats = f.strings(j, "formats");
        auto has = [&](char const* name) {
            return std::find(formats.begin(), formats.end(), name) != formats.end();
        };
        m.csv = has("csv");
        m.xlsx = has("xlsx");
        m.charts = has("charts");
    }
    if (auto it = j.find("inputs"); it != j.end() && it->is_array())
        for (auto const& i : *it)
            if (i.is_object())
                m.inputs.push_back({i.value("path", std::string()), i.value("source", std::string()),
                                    i.value("sha256", std::string())});
    if (auto it = j.find("matmuls"); it != j.end() && it->is_number_unsigned())
        m.ops = it->get<std::size_t>();
    return m;
}

namespace {

// Whether `path` names a file inside a version folder: relative, and no
// part of it empty, "." or "..".
bool inside_version(std::string const& path) {
    if (path.empty() || path.front() == '/') return false;
    for (std::size_t start = 0; start <= path.size();) {
        auto end = std::min(path.find('/', start), path.size());
        auto part = std::string_view(path).substr(start, end - start);
        if (part.empty() || part == "." || part == "..") return false;
        start = end + 1;
    }
    return true;
}

// Why `folder`/`path` cannot be read as the plain file it was written as:
// every part of the path is looked at without following a symbolic link.
std::string not_plain_file(std::string const& folder, std::string const& path) {
    std::string at = folder;
    for (auto const& part : std::filesystem::path(path)) {
        at.append("/").append(part.string());  // not "/" + a temporary: GCC 12 -O3 -Wrestrict
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0) return path + " is missing";
        bool last = at.size() == folder.size() + 1 + path.size();
        if (last ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode))
            return path + " is not a plain file";
    }
    return "";
}

}  // namespace

std::string mismatch(Manifest const& manifest, std::string const& folder) {
    for (auto const& output : manifest.outputs) {
        if (!inside_version(output.path))
            return "it lists '" + output.path + "', which is not a file inside the version";
        if (auto problem = not_plain_file(folder, output.path); !problem.empty()) return problem;
        try {
            if (output::sha256_file(folder + "/" + output.path) != output.sha256)
                return output.path + " changed";
        } catch (std::runtime_error const&) {
            return output.path + " cannot be read";
        }
    }
    return "";
}

std::string inputs_digest(RunInputs const& inputs, std::string const& tool_version) {
    // Length-prefixed fields, so that no two different inputs hash alike.
    output::Sha256 sha;
    auto field = [&](std::string const& text) {
        sha.update(std::to_string(text.size()) + ":");
        sha.update(text);
    };
    field("roofline " + tool_version);
    for (auto const& f : inputs.files) {
        field("file");
        field(f.path);
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
    // Only when off: the digest of a run with charts is the one it always was.
    if (!inputs.charts) field("no-charts");
    if (!inputs.csv) field("no-csv");
    if (!inputs.xlsx) field("no-xlsx");
    return sha.hex();
}

Manifest make_manifest(ReportInfo const& info, ReportContext const& context,
                       std::vector<std::string> const& command_line, RunInputs const& inputs,
                       std::size_t case_count, std::vector<Manifest::Output> const& outputs) {
    Manifest m;
    m.tool_version = info.tool_version;
    m.report = info.name;
    m.version = info.version;
    m.created_utc = info.created_utc;
    m.command_line = command_line;
    m.title = context.scenario.title;
    m.inputs_sha256 = info.inputs_sha256;
    for (auto const& f : inputs.files) m.inputs.push_back({"inputs/" + f.path, f.source, f.sha256});
    m.sets = inputs.sets;
    m.target_options = inputs.targets;
    m.charts = inputs.charts;
    m.csv = inputs.csv;
    m.xlsx = inputs.xlsx;
    for (std::size_t t = 0; t < context.grid.target_count; ++t)
        m.targets.push_back({context.target(t).id, context.target(t).display_name});
    for (std::size_t v = 0; v < context.scenario.sweeps.size(); ++v) {
        auto const& s = context.scenario.sweeps[v];
        m.sweeps.push_back({s.name, s.values.size(), {}});
        for (auto const& axis : context.scenario.mesh)
            if (v < 64 && (context.scenario.slots[static_cast<std::size_t>(axis.slot)].depends_on >> v & 1))
                m.sweeps.back().mesh = true;
        if (s.of_dtypes)
            for (double x : s.values) m.sweeps.back().dtypes.push_back(*context.scenario.sweep_dtype_name(v, x));
    }
    m.ops = context.scenario.ops.size();
    m.cases = case_count;
    m.outputs = outputs;
    return m;
}

}  // namespace roofline::report
