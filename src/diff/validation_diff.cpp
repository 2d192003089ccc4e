#include "diff/validation_diff.hpp"

#include "diff/csv_text.hpp"

#include "roofline/diff/diff_folder.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/output/terminal_text.hpp"
#include "roofline/report/manifest.hpp"

#include "output/csv_rows.hpp"
#include "output/written_file.hpp"
#include "output/timestamp.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace roofline::diff {
namespace fs = std::filesystem;

namespace {

constexpr char const* validation_kind = "validation";  // validation/publish.hpp's report_kind
constexpr std::uintmax_t max_table_bytes = std::uintmax_t{256} << 20;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct Side {
    ComparedReport report;
    std::string measured_sha256;  // of its measured file (the manifest's first input)
};

// Both sides' manifests, when both are readable; nullopt otherwise (the
// case diff then says what is wrong with them).
std::optional<std::pair<Side, Side>> read_sides(DiffRequest const& request, bool& any_validation,
                                                bool& both_validation) {
    std::vector<Side> sides;
    any_validation = false;
    both_validation = true;
    for (auto const* spec : {&request.a, &request.b}) {
        Side side;
        auto& r = side.report;
        r.folder = resolve_report(*spec, request.out_root);
        std::string text;
        report::Manifest m;
        try {
            m = report::read_manifest(r.folder + "/manifest.json", &text);
        } catch (report::ManifestError const&) {
            return std::nullopt;
        }
        bool const validation = m.kind == validation_kind;
        any_validation = any_validation || validation;
        both_validation = both_validation && validation;
        r.manifest_sha256 = output::sha256_hex(text);
        r.name = m.report;
        r.version = m.version;
        r.tool_version = m.tool_version;
        r.targets = m.targets;
        r.cases = m.cases;
        r.cases_sha256 = m.output_sha256("rows.csv");
        r.outputs = m.outputs;
        if (!m.inputs.empty()) side.measured_sha256 = m.inputs.front().sha256;
        sides.push_back(std::move(side));
    }
    return std::make_pair(std::move(sides[0]), std::move(sides[1]));
}

// A table of the report, checked against its manifest; its records after
// the header, and the header's columns by name.
struct CsvTable {
    std::string path, text;
    std::vector<Record> rows;
    std::unordered_map<std::string, std::size_t> columns;
};

CsvTable read_table(ComparedReport const& report, std::string const& file) {
    CsvTable t;
    t.path = report.folder + "/" + file;
    auto const listed = [&] {
        for (auto const& o : report.outputs)
            if (o.path == file) return o.sha256;
        throw ReportError(report.folder + ": manifest.json lists no " + file + " (not a validation report roofline writes)");
    }();
    std::string error;
    bool refused = false;
    auto text = read_regular_file(t.path, max_table_bytes, error, &refused);
    if (!text)
        throw ReportError(t.path + (refused ? ": " + error
                                            : ": manifest.json lists it, but it cannot be read (" + error +
                                                  "): an incomplete report"));
    if (output::sha256_hex(*text) != listed)
        throw ReportError(t.path + ": its SHA-256 differs from the one in manifest.json (the file was "
                                   "changed or damaged after the report was published)");
    t.text = std::move(*text);
    CsvText csv(t.path, t.text);
    Record header;
    if (!csv.next(header)) csv.bad(1, "empty file: no header row");
    for (std::size_t c = 0; c < header.fields.size(); ++c) t.columns.emplace(header.fields[c], c);
    Record r;
    while (csv.next(r)) {
        if (r.fields.size() != header.fields.size())
            csv.bad(r.line, std::to_string(r.fields.size()) + " fields, but the header has " +
                                std::to_string(header.fields.size()));
        t.rows.push_back(r);
    }
    return t;
}

struct Getter {
    CsvTable const& t;
    std::size_t column(std::string const& name) const {
        auto it = t.columns.find(name);
        if (it == t.columns.end())
            CsvText(t.path, t.text).bad(1, "the header has no column '" + name + "' (not a file roofline writes)");
        return it->second;
    }
    std::string text(Record const& r, std::string const& name) const { return r.fields[column(name)]; }
    double number(Record const& r, std::string const& name) const {
        CsvText csv(t.path, t.text);
        return parse_number(csv, r, name, r.fields[column(name)]);
    }
};

constexpr char const* figures[] = {"ttft", "tpot"};

struct Row {
    std::string id, model, system, backend;
    double measured[2] = {nan, nan}, predicted[2] = {nan, nan};
    double ape(int f) const {
        return measured[f] > 0 && std::isfinite(predicted[f]) ? std::fabs(predicted[f] - measured[f]) / measured[f]
                                                               : nan;
    }
};

std::vector<Row> read_rows(ComparedReport const& report) {
    auto const table = read_table(report, "rows.csv");
    Getter const get{table};
    std::vector<Row> out;
    for (auto const& r : table.rows) {
        Row row{get.text(r, "id"), get.text(r, "model"), get.text(r, "system"), get.text(r, "backend")};
        for (int f = 0; f < 2; ++f) {
            row.measured[f] = get.number(r, std::string("measured_") + figures[f] + "_ms");
            row.predicted[f] = get.number(r, std::string("predicted_") + figures[f] + "_ms");
        }
        out.push_back(std::move(row));
    }
    return out;
}

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;  // level, chip, backend, model

struct GroupFigures {
    double rows = nan;
    double median_ape[2] = {nan, nan};
};

std::vector<std::pair<GroupKey, GroupFigures>> read_groups(ComparedReport const& report) {
    auto const table = read_table(report, "groups.csv");
    Getter const get{table};
    std::vector<std::pair<GroupKey, GroupFigures>> out;
    for (auto const& r : table.rows) {
        GroupFigures g;
        g.rows = get.number(r, "rows");
        for (int f = 0; f < 2; ++f) g.median_ape[f] = get.number(r, std::string(figures[f]) + "_median_ape");
        out.emplace_back(GroupKey{get.text(r, "level"), get.text(r, "system"), get.text(r, "backend"),
                                  get.text(r, "model")},
                         g);
    }
    return out;
}

struct Matched {
    Status status;
    Row const *a = nullptr, *b = nullptr;
};

struct GroupDiff {
    Status status;
    GroupKey key;
    GroupFigures a, b;
};

using File = output::WrittenFile;

void write_rows_diff(std::string const& path, std::vector<Matched> const& rows) {
    File file = output::create_file(path);
    output::CsvRows csv(file.get(), "cannot write validation_diff.csv");
    for (auto const* h : {"status", "id", "model", "system", "backend"}) csv.text(h);
    for (auto const* f : figures)
        for (auto const* part : {"_measured_ms", "_predicted_a_ms", "_predicted_b_ms", "_ape_a", "_ape_b", "_ape_change"})
            csv.text(std::string(f) + part);
    csv.end_row();
    for (auto const& m : rows) {
        Row const& any = m.a ? *m.a : *m.b;
        csv.text(status_name(m.status));
        for (auto const* s : {&any.id, &any.model, &any.system, &any.backend}) csv.text(*s);
        for (int f = 0; f < 2; ++f) {
            double const ape_a = m.a ? m.a->ape(f) : nan, ape_b = m.b ? m.b->ape(f) : nan;
            csv.number(any.measured[f]);
            csv.number(m.a ? m.a->predicted[f] : nan);
            csv.number(m.b ? m.b->predicted[f] : nan);
            csv.number(ape_a);
            csv.number(ape_b);
            csv.number(ape_b - ape_a);
        }
        csv.end_row();
    }
    output::finish_file(file, path);
}

void write_groups_diff(std::string const& path, std::vector<GroupDiff> const& groups) {
    File file = output::create_file(path);
    output::CsvRows csv(file.get(), "cannot write groups_diff.csv");
    for (auto const* h : {"status", "level", "system", "backend", "model", "rows_a", "rows_b"}) csv.text(h);
    for (auto const* f : figures)
        for (auto const* part : {"_median_ape_a", "_median_ape_b", "_change"}) csv.text(std::string(f) + part);
    csv.end_row();
    for (auto const& g : groups) {
        csv.text(status_name(g.status));
        csv.text(std::get<0>(g.key));
        csv.text(std::get<1>(g.key));
        csv.text(std::get<2>(g.key));
        csv.text(std::get<3>(g.key));
        csv.number(g.a.rows);
        csv.number(g.b.rows);
        for (int f = 0; f < 2; ++f) {
            csv.number(g.a.median_ape[f]);
            csv.number(g.b.median_ape[f]);
            csv.number(g.b.median_ape[f] - g.a.median_ape[f]);
        }
        csv.end_row();
    }
    output::finish_file(file, path);
}

std::string pct(double v) {
    if (std::isnan(v)) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", v * 100);
    return text;
}

std::string points(double v) {
    if (std::isnan(v)) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f pp", v * 100);
    return text;
}

std::string summary_text(Side const& a, Side const& b, std::size_t matched, std::size_t only_a,
                         std::size_t only_b, std::vector<GroupDiff> const& groups) {
    std::string out = "validation " + a.report.label() + " -> " + b.report.label() + ": " +
                      std::to_string(matched) + " rows matched by id, " + std::to_string(only_a) +
                      " only in A, " + std::to_string(only_b) + " only in B\n\n";
    std::vector<std::vector<std::string>> table = {{"chip", "backend", "rows A", "rows B", "TPOT median APE A",
                                                    "B", "change", "TTFT median APE A", "B", "change"}};
    for (auto const& g : groups) {
        auto const& [level, chip, backend, model] = g.key;
        if (level != "overall" && level != "chip_backend") continue;
        bool const all = level == "overall";
        auto count = [](double v) { return std::isnan(v) ? std::string("-") : std::to_string(static_cast<long long>(v)); };
        table.push_back({all ? "all" : chip, all ? "all" : backend, count(g.a.rows), count(g.b.rows),
                         pct(g.a.median_ape[1]), pct(g.b.median_ape[1]),
                         points(g.b.median_ape[1] - g.a.median_ape[1]), pct(g.a.median_ape[0]),
                         pct(g.b.median_ape[0]), points(g.b.median_ape[0] - g.a.median_ape[0])});
    }
    out += output::render_table(table, {false, false, true, true, true, true, true, true, true, true});
    out += "change: median APE B - A in percentage points (negative: B predicts closer); per model in "
           "groups_diff.csv, per row in validation_diff.csv\n";
    return out;
}

nlohmann::json side_json(Side const& s) {
    return {{"report", s.report.name},
            {"version", s.report.version},
            {"folder", s.report.folder},
            {"tool_version", s.report.tool_version},
            {"manifest_sha256", s.report.manifest_sha256},
            {"rows_sha256", s.report.cases_sha256}};
}

}  // namespace

std::optional<DiffOutcome> validation_diff(DiffRequest const& request) {
    bool any = false, both = false;
    auto sides = read_sides(request, any, both);
    if (!sides || !any) return std::nullopt;
    auto& [a, b] = *sides;
    if (!both)
        throw ReportError((a.report.name.empty() ? request.a : a.report.label()) + " and " +
                          (b.report.name.empty() ? request.b : b.report.label()) +
                          ": one is a validation report and the other is not; diff compares two of a kind");
    if (!request.pairs.empty())
        throw ReportError("--pair pairs hardware of two run reports; validation reports match rows by id");
    if (!std::isnan(request.fail_if_slower))
        throw ReportError("--fail-if-slower compares cases of two run reports; validation reports have none");

    DiffOutcome outcome;
    outcome.validation = true;
    if (a.report.tool_version != b.report.tool_version)
        outcome.notes.push_back(a.report.label() + " was made by roofline " + a.report.tool_version + " and " +
                                b.report.label() + " by roofline " + b.report.tool_version);
    if (a.measured_sha256 != b.measured_sha256)
        outcome.notes.push_back("the two reports validated different measured files (their SHA-256 differ): "
                                "each row's error is against its own report's measurement");

    auto const rows_a = read_rows(a.report), rows_b = read_rows(b.report);
    std::unordered_map<std::string, Row const*> by_id;
    for (auto const& r : rows_b) by_id.emplace(r.id, &r);
    std::vector<Matched> matched;
    std::unordered_map<std::string, bool> seen;
    for (auto const& r : rows_a) {
        auto it = by_id.find(r.id);
        if (it != by_id.end() && !seen[r.id]) {
            matched.push_back({Status::matched, &r, it->second});
            seen[r.id] = true;
        } else {
            matched.push_back({Status::only_a, &r, nullptr});
        }
    }
    for (auto const& r : rows_b)
        if (!seen.count(r.id)) matched.push_back({Status::only_b, nullptr, &r});
    auto& s = outcome.summary;
    for (auto const& m : matched)
        ++(m.status == Status::matched ? s.matched : m.status == Status::only_a ? s.only_a : s.only_b);

    auto const groups_a = read_groups(a.report), groups_b = read_groups(b.report);
    std::map<GroupKey, GroupFigures const*> b_groups;
    for (auto const& [key, g] : groups_b) b_groups.emplace(key, &g);
    std::vector<GroupDiff> groups;
    std::map<GroupKey, bool> in_a;
    for (auto const& [key, g] : groups_a) {
        in_a[key] = true;
        auto it = b_groups.find(key);
        groups.push_back(it == b_groups.end() ? GroupDiff{Status::only_a, key, g, {}}
                                              : GroupDiff{Status::matched, key, g, *it->second});
    }
    for (auto const& [key, g] : groups_b)
        if (!in_a.count(key)) groups.push_back({Status::only_b, key, {}, g});

    DiffFolder folder(request.out_root, diff_name(a.report, b.report, Pairing{}));
    outcome.folder = folder.path();
    if (!folder.exists()) {
        fs::path const temp = folder.begin();
        write_rows_diff((temp / "validation_diff.csv").string(), matched);
        write_groups_diff((temp / "groups_diff.csv").string(), groups);
        nlohmann::json j;
        j["tool"] = "roofline";
        j["diff_format"] = 1;
        j["kind"] = validation_kind;
        j["tool_version"] = ROOFLINE_VERSION;
        j["created_utc"] = output::utc_now();
        j["command_line"] = request.command_line;
        j["a"] = side_json(a);
        j["b"] = side_json(b);
        j["matched"] = s.matched;
        j["only_a"] = s.only_a;
        j["only_b"] = s.only_b;
        auto& outputs = j["outputs"] = nlohmann::json::array();
        for (auto const* f : {"validation_diff.csv", "groups_diff.csv"})
            outputs.push_back({{"path", f}, {"sha256", output::sha256_file((temp / f).string())}});
        std::ofstream out(temp / "diff.json", std::ios::binary);
        out << j.dump(2) << "\n";
        out.close();
        if (!out) throw std::runtime_error("cannot write '" + (temp / "diff.json").string() + "'");
        outcome.published = folder.commit();
        outcome.warnings = folder.warnings();
    }
    outcome.summary_text = summary_text(a, b, s.matched, s.only_a, s.only_b, groups);
    return outcome;
}

}  // namespace roofline::diff
