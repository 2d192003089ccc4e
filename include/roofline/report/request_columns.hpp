#pragma once
// The columns of the requests (reports.md, "Requests"): the one description
// that requests.csv, the workbook's Requests sheet and the request table of
// `roofline run` follow. Adding a column is one entry in request_columns.cpp.

#include "roofline/report/report.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

// One request's result as the columns' values read it.
struct RequestRow {
    ReportContext const& context;
    engine::RequestResult const& result;
    model::Hardware const& hardware() const { return context.target(result.target); }
};

// The Requests sheet's format of a column (XlsxWriter::State::Formats).
enum class RequestCell : std::uint8_t { plain, indent, whole, time, rate, bytes, center };
// How the terminal writes it: format_count, format_long_seconds,
// format_si_count without a unit, format_si in bytes, the text itself.
enum class RequestTerm : std::uint8_t { count, long_seconds, si_count, si_bytes, text };

struct RequestColumnSpec {
    std::string_view csv;    // requests.csv's header; for a per-sweep column, "" (the sweep's name)
    std::string_view sheet;  // the Requests sheet's header
    // The terminal's header; "" when the terminal leaves the column out. A
    // column the target's hbm_capacity decides (below) is shown only on a
    // target with one, its header followed by the capacity ("fits 141 GB").
    std::string_view term;
    bool per_sweep;
    // The terminal shows it only when it varies across the points (in the
    // table's heading otherwise: "(prompt 512, batch 8)").
    bool term_if_varies;
    RequestCell cell;
    RequestTerm term_style;
    double min_width;  // the sheet's width at least (characters); text columns fit their values
    // The sheet's cell, when derived: a formula over this row's cells (by
    // csv name: "{ttft}+{decode_total}") and the target's Hardware cell
    // ({hw.hbm_capacity}), the value its cached result. Empty: the value.
    std::string_view formula;
    // The sheet leaves the cell empty without a finite e2e, or on a target
    // without an hbm_capacity.
    enum class Needs : std::uint8_t { nothing, finite_e2e, capacity } needs;
    // The value: a number (NaN: an empty field), a text, or (a sweep) a
    // number that may have a name (a dtype sweep's value: its text).
    double (*number)(RequestRow const& row, std::size_t sweep);
    std::string_view (*text)(RequestRow const& row, std::size_t sweep) = nullptr;
};

// Every spec, in the order of the columns.
std::span<RequestColumnSpec const> request_column_specs();

// A column of one report: a spec, and for a per-sweep one, which sweep.
struct RequestColumn {
    RequestColumnSpec const* spec;
    std::size_t sweep = 0;
    std::string csv, sheet, term;  // the headers (a sweep's name)
};

// The columns of the requests of this scenario, in order.
std::vector<RequestColumn> request_columns(model::Scenario const& scenario);

// Whether a row's value in this column is a text: a name, or a dtype sweep's value.
inline bool request_is_text(RequestColumn const& column, RequestRow const& row) {
    if (!column.spec->text) return false;
    return !column.spec->number || !column.spec->text(row, column.sweep).empty();
}

}  // namespace roofline::report
