#include "workbook.hpp"

#include "output/workbook.hpp"
#include "output/xlsx_cells.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <type_traits>

namespace roofline::validation {

namespace {

constexpr double max_width = 50;
// The characters a landscape page prints legibly: a wider table is printed
// over pages side by side (as report.xlsx's Serve sheet).
constexpr double page_chars = 170;

struct Formats {
    lxw_format *ms, *fraction, *signed_fraction, *whole;
};

lxw_format* format_of(Cell cell, Formats const& f) {
    switch (cell) {
        case Cell::ms: return f.ms;
        case Cell::fraction: return f.fraction;
        case Cell::signed_fraction: return f.signed_fraction;
        case Cell::whole: return f.whole;
        case Cell::text: break;
    }
    return nullptr;
}

// A table from `first_row` (its header) down, with frozen headers and a filter.
void write_table(output::Workbook& book, lxw_worksheet* ws, std::size_t first_row, Table const& table,
                 Formats const& f) {
    auto const& F = book.formats();
    std::vector<double> widths(table.columns.size());
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        book.text(ws, first_row, c, table.columns[c].header, F.header);
        widths[c] = std::max(output::text_width(table.columns[c].header) + 2, 8.0);
    }
    std::size_t row = first_row;
    for (auto const& values : table.rows) {
        ++row;
        for (std::size_t c = 0; c < values.size() && c < table.columns.size(); ++c) {
            auto const& v = values[c];
            if (v.is_text) {
                if (v.text.empty()) continue;
                book.text(ws, row, c, v.text);
                widths[c] = std::max(widths[c], output::text_width(v.text) + 2);
            } else {
                book.number(ws, row, c, v.number, format_of(table.columns[c].cell, f));
            }
        }
    }
    double total = 0;
    for (std::size_t c = 0; c < widths.size(); ++c) {
        book.width(ws, c, c, std::min(widths[c], max_width));
        total += std::min(widths[c], max_width);
    }
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(first_row + 1), 1);
    book.check(worksheet_autofilter(ws, static_cast<lxw_row_t>(first_row), 0,
                                    static_cast<lxw_row_t>(row),
                                    static_cast<lxw_col_t>(table.columns.size() - 1)),
               "setting the autofilter of " + table.sheet);
    book.check(worksheet_repeat_rows(ws, static_cast<lxw_row_t>(first_row), static_cast<lxw_row_t>(first_row)),
               "repeating the header row of " + table.sheet);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, static_cast<std::uint16_t>(std::max(1.0, std::ceil(total / page_chars))), 0);
}

void write_summary(output::Workbook& book, lxw_worksheet* ws, WorkbookInput const& in, Formats const& f) {
    auto const& F = book.formats();
    auto const& v = in.validation;
    std::size_t row = 0;
    std::string const what = v.cross_validated ? "Cross-validation of " : "Validation of ";
    book.text(ws, row++, 0, what + std::filesystem::path(v.measured_path).filename().string() + " (" + in.report + ")",
              F.title);
    book.text(ws, row++, 0,
              "Errors are (predicted - measured) / measured; APE is its absolute value. Medians of an "
              "even count are the mean of the two middle values.",
              F.note);
    ++row;
    auto fact = [&](std::string const& name, auto const& value) {
        book.text(ws, row, 0, name, F.bold);
        if constexpr (std::is_arithmetic_v<std::decay_t<decltype(value)>>)
            book.number(ws, row, 1, static_cast<double>(value), f.whole);
        else
            book.text(ws, row, 1, value);
        ++row;
    };
    fact("measured file", v.measured_path);
    fact("SHA-256", v.measured_sha256);
    fact("rows in the file", v.measured_rows);
    fact("rows modelled", v.rows.size());
    fact("rows skipped", v.skipped.size());
    fact("predicted not to fit in memory", memory_disagreements(v).size());
    bool const calibrated = std::any_of(v.rows.begin(), v.rows.end(), [](auto const& r) { return !r.calibration.empty(); });
    if (v.cross_validated)
        fact("calibration files", std::string("none: each row predicted by its group's fit without its series "
                                              "(roofline calibrate)"));
    else if (v.calibration_files.empty())
        fact("calibration files", std::string(calibrated ? "the shipped ones" : "none"));
    for (std::size_t i = 0; i < v.calibration_files.size(); ++i)
        fact(i == 0 ? "calibration files" : "", v.calibration_files[i]);
    bool first = true;
    for (auto const& [name, count] : calibrations_used(v)) {
        book.text(ws, row, 0, first ? "calibrations used (rows)" : "", F.bold);
        book.text(ws, row, 1, name.empty() ? std::string("none: uncalibrated") : name);
        book.number(ws, row, 2, static_cast<double>(count), f.whole);
        ++row;
        first = false;
    }

    ++row;
    book.text(ws, row++, 0, "Overall and per chip × backend (groups.csv has every model too)", F.bold);
    char const* headers[] = {"chip",           "backend",         "rows",
                             "TPOT median APE", "TPOT mean APE",  "TPOT signed median",
                             "TTFT median APE", "TTFT mean APE",  "TTFT signed median"};
    for (std::size_t c = 0; c < std::size(headers); ++c) book.text(ws, row, c, headers[c], F.header);
    for (auto const& g : in.groups) {
        if (g.level == Level::chip_backend_model) continue;
        ++row;
        book.text(ws, row, 0, g.level == Level::overall ? std::string("all") : g.system);
        book.text(ws, row, 1, g.level == Level::overall ? std::string("all") : g.backend);
        book.number(ws, row, 2, static_cast<double>(g.rows), f.whole);
        std::size_t c = 3;
        for (auto const* s : {&g.tpot, &g.ttft}) {
            bool const any = s->count > 0;
            book.number(ws, row, c++, any ? s->median_ape : NAN, f.fraction);
            book.number(ws, row, c++, any ? s->mean_ape : NAN, f.fraction);
            book.number(ws, row, c++, any ? s->signed_median : NAN, f.signed_fraction);
        }
    }
    row += 2;
    auto const reasons = skipped_by_reason(v);
    book.text(ws, row++, 0, "Skipped rows by reason (skipped.csv lists them)", F.bold);
    book.text(ws, row, 0, "rows", F.header);
    book.text(ws, row, 1, "reason", F.header);
    // A reason runs to 250 characters: it wraps within columns B..I (the
    // widths below, 146 characters), its row as tall as its lines, so that
    // print shows it whole.
    lxw_format* wrap = book.add_format();
    format_set_text_wrap(wrap);
    format_set_align(wrap, LXW_ALIGN_VERTICAL_TOP);
    lxw_format* count_top = book.number_format("0");
    format_set_align(count_top, LXW_ALIGN_VERTICAL_TOP);
    constexpr double reason_chars = 24 + 8 + 6 * 19;
    for (auto const& [reason, count] : reasons) {
        ++row;
        book.number(ws, row, 0, static_cast<double>(count), count_top);
        auto const r = static_cast<lxw_row_t>(row);
        book.check(worksheet_merge_range(ws, r, 1, r, 8, "", wrap), "merging a reason's cells");
        book.text(ws, row, 1, reason, wrap);
        double const lines = std::max(1.0, std::ceil(output::text_width(reason) / reason_chars));
        book.check(worksheet_set_row(ws, r, 15 * lines, nullptr), "setting a reason's row height");
    }
    if (reasons.empty()) book.text(ws, ++row, 0, "none", F.note);
    book.width(ws, 0, 0, 30);
    book.width(ws, 1, 1, 24);
    book.width(ws, 2, 2, 8);
    book.width(ws, 3, 8, 19);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

}  // namespace

void write_workbook(std::string const& path, WorkbookInput const& input) {
    output::DocumentProperties properties;
    properties.title = std::string(input.validation.cross_validated ? "Cross-validation of " : "Validation of ") +
                       std::filesystem::path(input.validation.measured_path).filename().string();
    properties.subject = input.report;
    properties.author = "roofline";
    output::Workbook book(path, properties);
    Formats f{};
    f.ms = book.number_format("#,##0.000");
    f.fraction = book.number_format("0.0%");
    f.signed_fraction = book.number_format("+0.0%;-0.0%;0.0%");
    f.whole = book.number_format("0");
    // Sheets are written in the order they are added (constant memory).
    lxw_worksheet* summary = book.add_sheet("Summary");
    std::vector<lxw_worksheet*> sheets;
    for (auto const* t : input.tables) sheets.push_back(book.add_sheet(t->sheet));
    write_summary(book, summary, input, f);
    for (std::size_t i = 0; i < sheets.size(); ++i) write_table(book, sheets[i], 0, *input.tables[i], f);
    book.close();
}

}  // namespace roofline::validation
