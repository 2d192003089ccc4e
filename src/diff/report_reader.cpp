#include "roofline/diff/report_reader.hpp"

#include "roofline/report/manifest.hpp"
#include "roofline/output/sha256.hpp"

#include "output/file_names.hpp"

#include <filesystem>

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

}  // namespace

std::string resolve_report(std::string const& spec, std::string const& out_root) {
    fs::path path(spec);
    if (!path_exists(path)) {
        auto at = spec.rfind('@');
        if (at != std::string::npos && at > 0) {
            std::string name = spec.substr(0, at), version = spec.substr(at + 1);
            fs::path report_dir = fs::path(out_root) / name;
            // The folder of a report whose name is not a safe file name.
            if (!is_dir(report_dir)) report_dir = fs::path(out_root) / output::file_name(name);
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
        else if (spec.find('/') == std::string::npos &&
                 is_dir(fs::path(out_root) / output::file_name(spec)))
            path = fs::path(out_root) / output::file_name(spec);
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

ComparedReport read_report(std::string const& spec, std::string const& out_root) {
    ComparedReport info;
    info.folder = resolve_report(spec, out_root);
    std::string const manifest_path = info.folder + "/manifest.json";
    if (!path_exists(manifest_path))
        throw ReportError(info.folder + ": no manifest.json (not a report, or an incomplete one)");
    std::string text;
    report::Manifest m;
    try {
        m = report::read_manifest(manifest_path, &text);
    } catch (report::ManifestError const& e) {
        throw ReportError(e.what());
    }
    info.manifest_sha256 = output::sha256_hex(text);
    info.name = m.report;
    info.version = m.version;
    info.tool_version = m.tool_version;
    info.cases = m.cases;
    info.targets = m.targets;
    info.sweeps = m.sweeps;
    info.cases_sha256 = m.output_sha256("cases.csv");
    info.outputs = m.outputs;
    // What diff reads is cases.csv alone (and the manifest): a version of
    // --formats xlsx,charts has none to read.
    if (!m.csv)
        throw ReportError(info.folder + ": published without cases.csv (run --formats " +
                          m.formats_text() +
                          "), which diff reads; run its scenario again with csv in --formats");
    if (!path_exists(info.cases_path()))
        throw ReportError(info.folder + ": cases.csv is missing (an incomplete report)");
    return info;
}

}  // namespace roofline::diff
