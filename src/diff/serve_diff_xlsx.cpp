// diff.xlsx's Serve and Fleet sheets: every serve point (configuration) of
// either report, as in serve_diff.csv (fleet_diff.csv), each ratio B / A a
// formula of its two cells. Ratios coloured by whether B is better: green
// above 1 for a rate, below 1 for a latency, chips or a cost.
#include "diff/serve_diff_xlsx.hpp"

#include "diff/xlsx_book.hpp"

#include <charconv>
#include <string>
#include <vector>

namespace roofline::diff {

namespace {

void change_colors(XlsxBook& book, lxw_worksheet* ws, std::size_t first_row, std::size_t last_row,
                   std::size_t col, bool higher_better) {
    if (last_row < first_row) return;
    auto const& F = book.fmt();
    for (auto [criteria, better] : {std::pair{LXW_CONDITIONAL_CRITERIA_GREATER_THAN, true},
                                    std::pair{LXW_CONDITIONAL_CRITERIA_LESS_THAN, false}}) {
        lxw_conditional_format cf{};
        cf.type = LXW_CONDITIONAL_TYPE_CELL;
        cf.criteria = static_cast<uint8_t>(criteria);
        cf.value = 1;
        cf.format = better == higher_better ? F.faster : F.slower;
        book.check(worksheet_conditional_format_range(
                       ws, static_cast<lxw_row_t>(first_row), static_cast<lxw_col_t>(col),
                       static_cast<lxw_row_t>(last_row), static_cast<lxw_col_t>(col), &cf),
                   std::string("setting the ratio colours of ") + ws->name);
    }
}

// A sweep's value: a number where the text is one, else a dtype's name.
void sweep_cell(XlsxBook& book, lxw_worksheet* ws, std::size_t row, std::size_t col,
                std::string const& text) {
    double value = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!text.empty() && r.ec == std::errc() && r.ptr == text.data() + text.size())
        book.num(ws, row, col, value);
    else
        book.str(ws, row, col, text);
}

std::string ratio_kind_text(RatioKind kind) {
    switch (kind) {
        case RatioKind::exact:
            return "exact";
        case RatioKind::at_least:
            return "at least (B saturated)";
        case RatioKind::at_most:
            return "at most (A saturated)";
        case RatioKind::lower_bounds:
            break;
    }
    return "of two lower bounds (both saturated)";
}

void write_sheet(XlsxBook& book, Matcher const& matcher, ServeTableDiff const& diff) {
    auto const& F = book.fmt();
    bool const serve = diff.kind == ServeTableKind::serve;
    auto const& figures = serve_figures(diff.kind);
    lxw_worksheet* ws = book.sheet(serve ? "Serve" : "Fleet");
    book.str(ws, 0, 0,
             std::string(serve ? "Serve points: " : "Fleet: ") + matcher.a().label() + " → " +
                 matcher.b().label(),
             F.title);
    book.str(ws, 1, 0,
             serve ? "Each ratio is B / A, a formula of the two cells. A saturated point's "
                     "latencies are lower bounds, so a latency's ratio is then at least the value "
                     "(B saturated), at most (A saturated), or a ratio of two lower bounds that "
                     "bounds nothing (both): see 'latency ratio'."
                   : "Each ratio is B / A, a formula of the two cells; a configuration that meets "
                     "no SLO at any rate has no figures (why none).",
             F.note);
    std::size_t const head = 3;
    std::vector<std::string> headers = {"status", "hardware A", "hardware B"};
    headers.insert(headers.end(), diff.sweep_names.begin(), diff.sweep_names.end());
    if (serve) headers.insert(headers.end(), {"saturated A", "saturated B"});
    std::size_t const first_figure = headers.size();
    for (auto const& figure : figures)
        headers.insert(headers.end(), {std::string(figure.label) + " A",
                                       std::string(figure.label) + " B", "B/A"});
    std::size_t const c_after = headers.size();
    if (serve) headers.push_back("latency ratio");
    headers.insert(headers.end(), {serve ? "problem A" : "why none A", serve ? "problem B" : "why none B"});
    for (std::size_t c = 0; c < headers.size(); ++c) book.str(ws, head, c, headers[c], F.header);

    auto const& pairs = matcher.pairing().pairs;
    std::size_t row = head;
    for (auto const& d : diff.rows) {
        ++row;
        bool const has_a = d.status != Status::only_b, has_b = d.status != Status::only_a;
        book.str(ws, row, 0, status_name(d.status));
        if (has_a) book.str(ws, row, 1, pairs[d.pair].a);
        if (has_b) book.str(ws, row, 2, pairs[d.pair].b);
        for (std::size_t k = 0; k < d.sweep.size(); ++k) sweep_cell(book, ws, row, 3 + k, d.sweep[k]);
        std::size_t c = 3 + d.sweep.size();
        if (serve) {
            if (has_a && d.note_a.empty()) book.str(ws, row, c, d.saturated_a ? "yes" : "no");
            if (has_b && d.note_b.empty()) book.str(ws, row, c + 1, d.saturated_b ? "yes" : "no");
        }
        for (std::size_t f = 0; f < figures.size(); ++f) {
            std::size_t const col = first_figure + 3 * f;
            lxw_format* format = figures[f].seconds ? F.time : F.ratio;
            book.num(ws, row, col, d.a[f], format);
            book.num(ws, row, col + 1, d.b[f], format);
            book.ratio_formula(ws, row, col + 2, col + 1, col, d.ratio(f));
        }
        c = c_after;
        if (serve) {
            if (d.status == Status::matched && d.note_a.empty() && d.note_b.empty())
                for (auto const& figure : figures)
                    if (figure.lower_bound) {
                        book.str(ws, row, c, ratio_kind_text(d.ratio_kind(figure)));
                        break;
                    }
            ++c;
        }
        book.str(ws, row, c, d.note_a);
        book.str(ws, row, c + 1, d.note_b);
    }
    for (std::size_t f = 0; f < figures.size(); ++f)
        change_colors(book, ws, head + 1, row, first_figure + 3 * f + 2, figures[f].higher_better);
    book.width(ws, 0, 0, 9);
    book.width(ws, 1, 2, 12);
    book.width(ws, first_figure, c_after - 1, 11);
    book.width(ws, c_after, headers.size() - 1, 22);
    book.check(worksheet_autofilter(ws, static_cast<lxw_row_t>(head), 0, static_cast<lxw_row_t>(row),
                                    static_cast<lxw_col_t>(headers.size() - 1)),
               std::string("setting the autofilter of ") + ws->name);
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(head + 1), 0);
}

}  // namespace

void write_serve_sheets(XlsxBook& book, Matcher const& matcher, ServeDiff const& diff) {
    if (diff.serve) write_sheet(book, matcher, *diff.serve);
    if (diff.fleet) write_sheet(book, matcher, *diff.fleet);
}

}  // namespace roofline::diff
