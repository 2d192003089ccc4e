#pragma once
// The serve part of a diff (docs/diff.md, "Serve points and the fleet"):
// when both reports hold serve.csv, their serve points matched by hardware
// (as the cases pair it) and sweep values, and per matched point the
// figures before (A), after (B) and their ratio B / A; the same for
// fleet.csv, per configuration. Both files are read by their column names
// (report/serve_columns.hpp), never by position. A report without them (an
// older version, or no serve statement) gives no serve part, and no error.
//
// A saturated point's latencies are lower bounds (serving.md, section 3), so
// a ratio of latencies where a side is saturated is a bound itself, or, with
// both sides saturated, a ratio of two lower bounds that bounds nothing:
// RatioKind says which, and every output marks it.

#include "roofline/diff/match.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline::diff {

enum class ServeTableKind : std::uint8_t { serve, fleet };

// A figure the diff compares: its column in serve.csv / fleet.csv.
struct ServeFigure {
    char const* column;  // the CSV column (serve_columns.cpp)
    char const* label;   // for the terminal and the sheet: "TPOT p99"
    bool lower_bound;    // a lower bound at a saturated point (a latency)
    bool higher_better;  // a rate; false: a latency, chips, a cost
    bool seconds;        // shown as a time; else a plain number
};
std::vector<ServeFigure> const& serve_figures(ServeTableKind kind);

// One row of serve.csv or fleet.csv.
struct ServeRecord {
    std::size_t line = 0;  // in its file (1: the header)
    std::string hardware;
    // In the order of ComparedReport::sweeps: the value's text (a number as
    // the report wrote it, or a dtype's name); `has_sweep` says which the
    // table has (fleet.csv leaves out the load sweeps).
    std::vector<std::string> sweep;
    std::vector<double> figures;  // serve_figures(kind) order; NaN: empty
    bool saturated = false;       // serve.csv's `saturated` is "yes"
    std::string note;             // serve.csv's `problem`, fleet.csv's `why_none`
};

struct ServeTable {
    ServeTableKind kind = ServeTableKind::serve;
    std::string path;
    std::vector<bool> has_sweep;  // per ComparedReport::sweeps
    std::vector<ServeRecord> rows;
};

// "serve.csv" or "fleet.csv".
char const* table_file(ServeTableKind kind);

// The table of `report`, or nullopt when its manifest lists no such output
// (the file is then not part of the report, whether there or not). Checks the
// file against the SHA-256 its manifest lists. Throws ReportError naming the
// file and line of a row that does not parse ("out/x/v2/serve.csv:3: column
// 'tpot_p99': 'fast' is not a number"), a missing column, a missing file.
std::optional<ServeTable> read_serve_table(ComparedReport const& report, ServeTableKind kind);

// What the ratio B / A of a latency is, given which side is saturated.
enum class RatioKind : std::uint8_t {
    exact,         // neither side saturated (or not a latency)
    at_least,      // B saturated: B's figure is a lower bound, so the ratio is one
    at_most,       // A saturated: A's figure is a lower bound, so the ratio is an upper bound
    lower_bounds,  // both saturated: a ratio of two lower bounds, which bounds nothing
};
char const* ratio_kind_name(RatioKind kind);  // "exact", "at_least", "at_most", "lower_bounds"

struct ServeDiffRow {
    Status status = Status::matched;
    std::uint32_t pair = 0;  // into Matcher::pairing().pairs
    // Per ServeTableDiff::sweep_names: A's value for a matched or only_a row,
    // B's for an only_b one; "" where that side has no such sweep.
    std::vector<std::string> sweep;
    std::vector<double> a, b;  // serve_figures(kind) order; NaN on the missing side
    bool saturated_a = false, saturated_b = false;
    std::string note_a, note_b;
    std::size_t line_a = 0, line_b = 0;

    // b / a, NaN unless both are finite and a is not 0.
    double ratio(std::size_t figure) const;
    // exact for a figure that is no lower bound; else by saturation.
    RatioKind ratio_kind(ServeFigure const& figure) const;
};

struct ServeTableDiff {
    ServeTableKind kind = ServeTableKind::serve;
    std::vector<std::string> sweep_names;  // the union sweeps that key a row
    // B's rows in B's order (matched or only_b), then A's unmatched in A's order.
    std::vector<ServeDiffRow> rows;
    std::size_t matched = 0, only_a = 0, only_b = 0;
    std::size_t left_out = 0;  // rows on hardware no pair names (--pair)
};

struct ServeDiff {
    std::optional<ServeTableDiff> serve, fleet;
    // Why a part is missing where one side has it ("only B has serve.csv ...").
    std::vector<std::string> notes;
};

// Reads both reports' serve.csv and fleet.csv and matches their rows with
// the matcher's hardware pairs and sweep names (a mesh sweep of one value on
// each side pairs those values, as for the cases). Throws ReportError.
ServeDiff diff_serve(Matcher const& matcher);

// "h100_sxm → h200 at R = 4, TP = 2"
std::string describe(Matcher const& matcher, ServeTableDiff const& diff, ServeDiffRow const& row);

// serve_diff.csv / fleet_diff.csv (serve_diff_csv.cpp). Throws std::runtime_error.
void write_serve_diff_csv(std::string const& path, Matcher const& matcher,
                          ServeTableDiff const& diff);
// The serve part of the terminal summary (serve_diff_text.cpp); "" without one.
std::string serve_summary_text(Matcher const& matcher, ServeDiff const& diff);

}  // namespace roofline::diff
