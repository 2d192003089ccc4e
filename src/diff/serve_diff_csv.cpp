// serve_diff.csv and fleet_diff.csv: one row per serve point (configuration)
// of either report, in the order of ServeTableDiff::rows, in the CSV of
// diff.csv (RFC 4180, CRLF, numbers as the reports write them, "" for none).
//   status, hardware_a, hardware_b, one column per sweep that keys the rows,
//   [serve: saturated_a, saturated_b,] per figure <f>_a, <f>_b, <f>_ratio
//   (B / A), [serve: latency_ratio (exact, at_least, at_most, lower_bounds),
//   problem_a, problem_b | fleet: why_none_a, why_none_b].
#include "diff/serve_diff.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace roofline::diff {

namespace {

// The ratio kind of the row's latencies: the same for every latency of a row.
std::string latency_ratio(ServeDiffRow const& row, ServeTableKind kind) {
    // No ratio where a side has no figures (its point's problem says why).
    if (row.status != Status::matched || !row.note_a.empty() || !row.note_b.empty()) return "";
    for (auto const& figure : serve_figures(kind))
        if (figure.lower_bound) return ratio_kind_name(row.ratio_kind(figure));
    return "";
}

}  // namespace

void write_serve_diff_csv(std::string const& path, Matcher const& matcher,
                          ServeTableDiff const& diff) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                         &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    bool const serve = diff.kind == ServeTableKind::serve;
    auto const& figures = serve_figures(diff.kind);
    output::CsvRows rows(file.get(), "cannot write '" + path + "'");
    for (char const* name : {"status", "hardware_a", "hardware_b"}) rows.text(name);
    for (auto const& name : diff.sweep_names) rows.text(name);
    if (serve)
        for (char const* name : {"saturated_a", "saturated_b"}) rows.text(name);
    for (auto const& figure : figures)
        for (char const* suffix : {"_a", "_b", "_ratio"})
            rows.text(std::string(figure.column).append(suffix));
    if (serve)
        for (char const* name : {"latency_ratio", "problem_a", "problem_b"}) rows.text(name);
    else
        for (char const* name : {"why_none_a", "why_none_b"}) rows.text(name);
    rows.end_row();

    auto const& pairs = matcher.pairing().pairs;
    for (auto const& row : diff.rows) {
        bool const has_a = row.status != Status::only_b, has_b = row.status != Status::only_a;
        rows.text(status_name(row.status));
        rows.text(has_a ? pairs[row.pair].a : "");
        rows.text(has_b ? pairs[row.pair].b : "");
        for (auto const& value : row.sweep) rows.text(value);
        if (serve) {
            // No saturation where the side is missing or its point has no figures (a problem).
            rows.text(!has_a || !row.note_a.empty() ? "" : row.saturated_a ? "yes" : "no");
            rows.text(!has_b || !row.note_b.empty() ? "" : row.saturated_b ? "yes" : "no");
        }
        for (std::size_t f = 0; f < figures.size(); ++f) {
            rows.number(row.a[f]);
            rows.number(row.b[f]);
            rows.number(row.ratio(f));
        }
        if (serve) rows.text(latency_ratio(row, diff.kind));
        rows.text(row.note_a);
        rows.text(row.note_b);
        rows.end_row();
    }
    std::FILE* f = file.release();
    bool failed = std::fflush(f) != 0 || std::ferror(f);
    if (std::fclose(f) != 0 || failed)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace roofline::diff
