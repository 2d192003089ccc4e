#include "roofline/diff/report_reader.hpp"

#include "roofline/report/manifest.hpp"
#include "roofline/report/sha256.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace roofline::diff {
namespace fs = std::filesystem;

namespace {

bool is_dir(fs::path const& path) {
    std::error_code ec;
    return fs::is_directory(path, ec);
}

bool path_exists(fs::path const& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

// out/x/latest -> out/x/v3, so that messages and labels name the version.
fs::path follow_latest(fs::path const& report_dir) {
    auto link = report_dir / "latest";
    std::error_code ec;
    auto target = fs::read_symlink(link, ec);
    if (ec) return link;
    return target.is_absolute() ? target : report_dir / target;
}

std::string const& field_string(nlohmann::json const& m, char const* key,
                                std::string const& where) {
    auto it = m.find(key);
    if (it == m.end() || !it->is_string())
        throw ReportError(where + ": field '" + key + "' is missing or not a string");
    return it->get_ref<std::string const&>();
}

long long field_integer(nlohmann::json const& m, char const* key, std::string const& where) {
    auto it = m.find(key);
    if (it == m.end() || !it->is_number_integer() || it->get<long long>() < 0)
        throw ReportError(where + ": field '" + key + "' is missing or not a whole number");
    return it->get<long long>();
}

nlohmann::json const& field_array(nlohmann::json const& m, char const* key,
                                  std::string const& where) {
    auto it = m.find(key);
    if (it == m.end() || !it->is_array())
        throw ReportError(where + ": field '" + key + "' is missing or not a list");
    return *it;
}

}  // namespace

std::string resolve_report(std::string const& spec, std::string const& out_root) {
    fs::path path(spec);
    if (!path_exists(path)) {
        auto at = spec.rfind('@');
        if (at != std::string::npos && at > 0) {
            std::string name = spec.substr(0, at), version = spec.substr(at + 1);
            fs::path report_dir = fs::path(out_root) / name;
            if (version == "latest") return follow_latest(report_dir).string();
            bool number = version.size() > 1 && version[0] == 'v' &&
                          version.find_first_not_of("0123456789", 1) == std::string::npos;
            if (!number) throw ReportError("'" + spec + "': expected NAME@vN or NAME@latest");
            auto folder = report_dir / version;
            if (!is_dir(folder))
                throw ReportError("no report at '" + folder.string() + "' (from '" + spec + "')");
            return folder.string();
        }
        if (spec.find('/') == std::string::npos && is_dir(fs::path(out_root) / spec))
            path = fs::path(out_root) / spec;
        else
            throw ReportError("no report at '" + spec + "'");
    }
    if (!is_dir(path)) throw ReportError("'" + spec + "' is not a report folder");
    if (path_exists(path / "manifest.json")) return path.string();
    if (path_exists(path / "latest")) return follow_latest(path).string();
    throw ReportError("'" + path.string() +
                      "' is not a report: it has no manifest.json (a version folder) and no "
                      "'latest' (a report folder)");
}

ReportInfo read_report(std::string const& spec, std::string const& out_root) {
    ReportInfo info;
    info.folder = resolve_report(spec, out_root);
    std::string const manifest_path = info.folder + "/manifest.json";
    std::ifstream in(manifest_path, std::ios::binary);
    if (!in)
        throw ReportError(info.folder + ": no manifest.json (not a report, or an incomplete one)");
    std::stringstream text;
    text << in.rdbuf();
    info.manifest_sha256 = report::sha256_hex(text.str());
    auto m = nlohmann::json::parse(text.str(), nullptr, false);
    if (m.is_discarded() || !m.is_object())
        throw ReportError(manifest_path + ": not a valid manifest (not a JSON object)");

    auto format = m.find("report_format");
    if (format == m.end())
        throw ReportError(manifest_path +
                          ": no report_format: not a roofline report, or one made by an older "
                          "roofline; run its scenario again to make a comparable report");
    if (!format->is_number_integer() || format->get<long long>() != report::report_format)
        throw ReportError(manifest_path + ": report format " + format->dump() + " (roofline " +
                          m.value("tool_version", std::string("?")) + "), but roofline " +
                          ROOFLINE_VERSION + " reads format " +
                          std::to_string(report::report_format) +
                          " only; run its scenario again with this roofline");

    info.name = field_string(m, "report", manifest_path);
    info.version = static_cast<int>(field_integer(m, "version", manifest_path));
    info.tool_version = field_string(m, "tool_version", manifest_path);
    info.cases = static_cast<std::size_t>(field_integer(m, "cases", manifest_path));
    for (auto const& t : field_array(m, "targets", manifest_path)) {
        if (!t.is_object()) throw ReportError(manifest_path + ": a target is not an object");
        info.targets.push_back(
            {field_string(t, "id", manifest_path), t.value("name", std::string())});
    }
    for (auto const& s : field_array(m, "sweeps", manifest_path)) {
        if (!s.is_object()) throw ReportError(manifest_path + ": a sweep is not an object");
        info.sweeps.push_back(
            {field_string(s, "name", manifest_path),
             static_cast<std::size_t>(field_integer(s, "points", manifest_path))});
    }
    for (auto const& o : field_array(m, "outputs", manifest_path))
        if (o.is_object() && o.value("path", std::string()) == "cases.csv")
            info.cases_sha256 = o.value("sha256", std::string());
    if (!path_exists(info.cases_path()))
        throw ReportError(info.folder + ": cases.csv is missing (an incomplete report)");
    return info;
}

}  // namespace roofline::diff
