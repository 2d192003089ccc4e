// diff.xlsx's Summary sheet: the two reports, the headline, and one row per
// matmul and hardware pair with the speedup as a formula of the two
// geometric-mean times.
#include "diff_xlsx.hpp"
#include "diff/xlsx_book.hpp"

#include <tuple>
#include <utility>

namespace roofline::diff {

namespace {

std::string bounds_text(Bound first, Bound last) {
    return first == last ? std::string(bound_name(first))
                         : std::string(bound_name(first)) + ".." + std::string(bound_name(last));
}

std::string flips_text(GroupSummary const& g) {
    return g.flips_text(true);
}

}  // namespace

void write_summary_sheet(XlsxBook& book, lxw_worksheet* ws, Matcher const& matcher,
                         DiffSummary const& s) {
    auto const& F = book.fmt();
    auto const& a = matcher.a();
    auto const& b = matcher.b();
    book.str(ws, 0, 0, "roofline diff: " + a.label() + " → " + b.label(), F.title);
    for (auto [row, side, report] : {std::tuple{1u, "A", &a}, std::tuple{2u, "B", &b}}) {
        book.str(ws, row, 0, side, F.bold);
        book.str(ws, row, 1, report->label());
        book.str(ws, row, 2, report->folder);
        book.str(ws, row, 4, "roofline " + report->tool_version, F.note);
    }
    std::string pairs;
    for (auto const& p : matcher.pairing().pairs)
        pairs += (pairs.empty() ? "" : ", ") + (p.a.empty() ? "-" : p.a) + " → " +
                 (p.b.empty() ? "-" : p.b);
    book.str(ws, 3, 0, "hardware", F.bold);
    book.str(ws, 3, 1, pairs);
    book.str(ws, 5, 0, "speedup (geometric mean)", F.bold);
    book.num(ws, 5, 1, s.speedup(), F.speedup);
    std::size_t row = 6;
    for (auto [label, value] :
         {std::pair{"matched cases", s.matched}, std::pair{"faster in B", s.faster},
          std::pair{"slower in B", s.slower}, std::pair{"bound flips", s.flips},
          std::pair{"only in A", s.only_a}, std::pair{"only in B", s.only_b}}) {
        book.str(ws, row, 0, label, F.bold);
        book.num(ws, row++, 1, static_cast<double>(value));
    }
    book.str(ws, row++, 0,
             "speedup = t_lower A / t_lower B: above 1× B is faster. The times and speedups below "
             "are geometric means over each row's cases; bounds at the first..last sweep point; "
             "every case is in the Cases sheet.",
             F.note);
    ++row;

    auto const& sweeps = matcher.sweep_names();
    std::vector<std::string> headers = {
        "op",      "layer",     "hardware A", "hardware B",  "cases",       "only A",
        "only B",  "t_lower A", "t_lower B",  "speedup A/B", "min speedup", "max speedup",
        "bound A", "bound B",   "flips",      "ridge A",     "ridge B"};
    std::vector<std::size_t> critical_sweeps;  // not a dtype sweep: it has no critical value
    for (std::size_t v = 0; v < sweeps.size(); ++v) {
        if (matcher.sweep_of_dtypes(v)) continue;
        critical_sweeps.push_back(v);
        headers.push_back("critical " + sweeps[v] + " A");
        headers.push_back("critical " + sweeps[v] + " B");
    }
    std::size_t const head = row;
    for (std::size_t c = 0; c < headers.size(); ++c) book.str(ws, head, c, headers[c], F.header);
    for (auto const& g : s.groups) {
        ++row;
        auto const& matmul = matcher.ops()[g.op];
        auto const& pair = matcher.pairing().pairs[g.pair];
        book.str(ws, row, 0, matmul.op);
        book.str(ws, row, 1, matmul.layer);
        book.str(ws, row, 2, pair.a);
        book.str(ws, row, 3, pair.b);
        book.num(ws, row, 4, static_cast<double>(g.matched));
        book.num(ws, row, 5, static_cast<double>(g.only_a));
        book.num(ws, row, 6, static_cast<double>(g.only_b));
        book.num(ws, row, 7, g.t_a(), F.time);
        book.num(ws, row, 8, g.t_b(), F.time);
        book.ratio_formula(ws, row, 9, 7, 8, g.speedup());
        if (g.comparable) {
            book.num(ws, row, 10, g.min_speedup, F.speedup);
            book.num(ws, row, 11, g.max_speedup, F.speedup);
        }
        if (!g.matched) continue;
        book.str(ws, row, 12, bounds_text(g.a_first, g.a_last));
        book.str(ws, row, 13, bounds_text(g.b_first, g.b_last));
        book.str(ws, row, 14, flips_text(g));
        book.num(ws, row, 15, g.ridge_a, F.ratio);
        book.num(ws, row, 16, g.ridge_b, F.ratio);
        for (std::size_t k = 0; k < critical_sweeps.size(); ++k) {
            book.num(ws, row, 17 + 2 * k, g.critical_a[critical_sweeps[k]]);
            book.num(ws, row, 18 + 2 * k, g.critical_b[critical_sweeps[k]]);
        }
    }
    book.speedup_colors(ws, head + 1, row, 9);
    book.flip_colors(ws, head + 1, row, 12, 14, 14);
    for (auto [first, last, chars] :
         {std::tuple{0, 0, 24.0}, std::tuple{1, 1, 14.0}, std::tuple{2, 3, 12.0},
          std::tuple{4, 6, 8.0}, std::tuple{7, 8, 13.0}, std::tuple{9, 11, 12.0},
          std::tuple{12, 13, 16.0}, std::tuple{14, 14, 22.0}, std::tuple{15, 16, 10.0}})
        book.width(ws, static_cast<std::size_t>(first), static_cast<std::size_t>(last), chars);
    if (!critical_sweeps.empty()) book.width(ws, 17, 16 + 2 * critical_sweeps.size(), 12);
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(head + 1), 0);
}

}  // namespace roofline::diff
