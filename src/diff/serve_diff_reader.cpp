// Reading a report's serve.csv and fleet.csv for the diff: RFC 4180 (as
// output/csv_rows.hpp writes it), each needed column found by its name in
// report/serve_columns.cpp, every row's numbers checked. The files are small
// (one row per serve point or configuration), so they are read whole.
#include "diff/serve_diff.hpp"

#include "diff/csv_text.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/report/serve_columns.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace roofline::diff {

namespace {

// Far above any real table (100,000 serve points are about 40 MB).
constexpr std::uintmax_t max_table_bytes = std::uintmax_t{256} << 20;

// The names of a table's own columns (not the repeated ones of sweeps and SLOs).
std::unordered_set<std::string> fixed_names(ServeTableKind kind) {
    std::unordered_set<std::string> names;
    if (kind == ServeTableKind::serve)
        for (auto const& spec : report::serve_column_specs()) names.emplace(spec.csv);
    else
        for (auto const& spec : report::fleet_column_specs()) names.emplace(spec.csv);
    names.erase("");
    return names;
}

}  // namespace

char const* table_file(ServeTableKind kind) {
    return kind == ServeTableKind::serve ? "serve.csv" : "fleet.csv";
}

std::optional<ServeTable> read_serve_table(ComparedReport const& report, ServeTableKind kind) {
    std::string const file = table_file(kind);
    auto listed = std::find_if(report.outputs.begin(), report.outputs.end(),
                               [&](auto const& o) { return o.path == file; });
    if (listed == report.outputs.end()) return std::nullopt;
    ServeTable table;
    table.kind = kind;
    table.path = report.folder + "/" + file;
    std::string error;
    bool refused = false;
    auto text = read_regular_file(table.path, max_table_bytes, error, &refused);
    if (!text) {
        if (refused) throw ReportError(table.path + ": " + error);
        throw ReportError(table.path + ": manifest.json lists it, but it cannot be read (" + error +
                          "): an incomplete report");
    }
    if (!listed->sha256.empty() && output::sha256_hex(*text) != listed->sha256)
        throw ReportError(table.path +
                          ": its SHA-256 differs from the one in manifest.json (the file was "
                          "changed or damaged after the report was published)");

    CsvText csv(table.path, *text);
    Record header;
    if (!csv.next(header)) csv.bad(1, "empty file: no header row");
    // Each name's columns, in order: a sweep may share a name with one of
    // the table's own columns (a sweep named `chips`); the sweep's comes
    // first (serve_columns.cpp puts the sweeps after `hardware`), the own
    // column last.
    std::unordered_map<std::string, std::vector<std::size_t>> columns;
    for (std::size_t c = 0; c < header.fields.size(); ++c) columns[header.fields[c]].push_back(c);
    auto const fixed = fixed_names(kind);
    auto own = [&](std::string const& name) {
        auto it = columns.find(name);
        if (it == columns.end())
            csv.bad(header.line, "the header has no column '" + name + "' (not a " + file +
                                     " roofline writes)");
        return it->second.back();
    };
    auto optional_own = [&](std::string const& name) {
        auto it = columns.find(name);
        return it == columns.end() ? SIZE_MAX : it->second.back();
    };
    std::size_t const c_hardware = own("hardware");
    std::vector<std::size_t> c_sweep;
    for (auto const& sweep : report.sweeps) {
        auto it = columns.find(sweep.name);
        std::size_t needed = fixed.count(sweep.name) ? 2 : 1;
        bool there = it != columns.end() && it->second.size() >= needed;
        // fleet.csv leaves out the load sweeps (the rate it searched); serve.csv has every sweep.
        if (!there && kind == ServeTableKind::serve)
            csv.bad(header.line, "the header has no column '" + sweep.name + "' for sweep '" +
                                     sweep.name + "' of manifest.json");
        table.has_sweep.push_back(there);
        c_sweep.push_back(there ? it->second.front() : SIZE_MAX);
    }
    std::vector<std::size_t> c_figure;
    for (auto const& figure : serve_figures(kind)) c_figure.push_back(own(figure.column));
    std::size_t const c_saturated = kind == ServeTableKind::serve ? own("saturated") : SIZE_MAX;
    std::size_t const c_note = optional_own(kind == ServeTableKind::serve ? "problem" : "why_none");

    Record r;
    while (csv.next(r)) {
        if (r.fields.size() != header.fields.size())
            csv.bad(r.line, std::to_string(r.fields.size()) + " fields, but the header has " +
                                std::to_string(header.fields.size()));
        ServeRecord row;
        row.line = r.line;
        row.hardware = r.fields[c_hardware];
        if (row.hardware.empty()) csv.bad(r.line, "column 'hardware' is empty");
        for (std::size_t v = 0; v < report.sweeps.size(); ++v) {
            if (c_sweep[v] == SIZE_MAX) {
                row.sweep.emplace_back();
                continue;
            }
            auto const& sweep = report.sweeps[v];
            std::string const& text = r.fields[c_sweep[v]];
            if (!sweep.dtypes.empty()) {
                if (std::find(sweep.dtypes.begin(), sweep.dtypes.end(), text) == sweep.dtypes.end())
                    csv.bad(r.line, "column '" + sweep.name + "': '" + text +
                                        "' is not one of the dtypes manifest.json lists for it");
                row.sweep.push_back(text);
                continue;
            }
            double value = parse_number(csv, r, sweep.name, text);
            if (std::isnan(value)) csv.bad(r.line, "column '" + sweep.name + "' is empty");
            // One text per value, so that keys compare as text ("4" and "4.0", 0 and -0).
            row.sweep.push_back(number_text(value == 0 ? 0.0 : value));
        }
        for (std::size_t f = 0; f < c_figure.size(); ++f)
            row.figures.push_back(parse_number(csv, r, serve_figures(kind)[f].column, r.fields[c_figure[f]]));
        if (c_saturated != SIZE_MAX) {
            std::string const& s = r.fields[c_saturated];
            if (s != "yes" && s != "no" && !s.empty())
                csv.bad(r.line, "column 'saturated': '" + s + "' is not yes, no or empty");
            row.saturated = s == "yes";
        }
        if (c_note != SIZE_MAX) row.note = r.fields[c_note];
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace roofline::diff
