#include "diff_xlsx.hpp"

#include "diff/serve_diff_xlsx.hpp"
#include "diff/xlsx_book.hpp"
#include "output/fast_rows.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline::diff {

// The Cases sheets: status, op, layer, hardware A, hardware B, one column per
// sweep variable, t_lower A, t_lower B, speedup (=G/H), bound A, bound B,
// flip, intensity.
struct DiffXlsxWriter::State {
    XlsxBook book;
    Matcher const& matcher;
    std::size_t rows_per_sheet;
    std::size_t k, c_t_a, c_t_b, c_speedup, c_bound_a, c_flip, c_last;  // columns
    output::FastRows out;
    lxw_worksheet* summary = nullptr;
    std::vector<lxw_worksheet*> cases;
    std::size_t rows = 0;  // data rows written
    std::string formula;
    ServeDiff const* serve = nullptr;

    State(std::string const& path, Matcher const& m, std::size_t per_sheet)
        : book(path, "roofline diff " + m.a().label() + " -> " + m.b().label()),
          matcher(m),
          rows_per_sheet(per_sheet),
          k(m.sweep_names().size()),
          c_t_a(5 + k),
          c_t_b(c_t_a + 1),
          c_speedup(c_t_a + 2),
          c_bound_a(c_t_a + 3),
          c_flip(c_bound_a + 2),
          c_last(c_flip + 1),
          out(book.workbook(), c_last + 1) {
        summary = book.sheet("Summary");
        cases_sheet();
    }

    void cases_sheet() {
        auto const& F = book.fmt();
        std::string name =
            cases.empty() ? "Cases" : "Cases (" + std::to_string(cases.size() + 1) + ")";
        lxw_worksheet* ws = book.sheet(name);
        cases.push_back(ws);
        std::vector<std::string> headers = {"status", "op", "layer", "hardware A", "hardware B"};
        for (auto const& v : matcher.sweep_names()) headers.push_back(v);
        for (char const* h :
             {"t_lower A", "t_lower B", "speedup A/B", "bound A", "bound B", "flip", "intensity"})
            headers.push_back(h);
        for (std::size_t c = 0; c < headers.size(); ++c) book.str(ws, 0, c, headers[c], F.header);
        book.width(ws, 0, 0, 9);
        book.width(ws, 1, 2, 16);
        book.width(ws, 3, 4, 12);
        book.width(ws, c_t_a, c_t_b, 13, F.time);
        book.width(ws, c_speedup, c_speedup, 12, F.speedup);
        book.width(ws, c_bound_a, c_flip, 16);
        book.width(ws, c_last, c_last, 11, F.ratio);
        worksheet_freeze_panes(ws, 1, 0);
        out.begin_sheet(ws);
    }

    void add(DiffCase const& c) {
        if (book.closed()) throw std::logic_error("DiffXlsxWriter::add after finish");
        auto const& F = book.fmt();
        if (rows / rows_per_sheet == cases.size()) cases_sheet();
        std::size_t row = rows % rows_per_sheet + 1;
        ++rows;
        auto const& matmul = matcher.ops()[c.op];
        auto const& pair = matcher.pairing().pairs[c.pair];
        bool has_a = c.status != Status::only_b, has_b = c.status != Status::only_a;
        auto const& plain = out.style(nullptr);
        out.begin_row(row);
        out.text(0, status_name(c.status), plain);
        out.text(1, matmul.op, plain);
        out.text(2, matmul.layer, plain);
        if (has_a) out.text(3, pair.a, plain);
        if (has_b) out.text(4, pair.b, plain);
        for (std::size_t v = 0; v < k; ++v) {
            if (matcher.sweep_of_dtypes(v) && !std::isnan(c.sweep[v]))
                out.text(5 + v, matcher.sweep_text(v, c.sweep[v]), plain);
            else
                out.number(5 + v, c.sweep[v], plain);
        }
        out.number(c_t_a, c.a.t_lower, out.style(F.time));
        out.number(c_t_b, c.b.t_lower, out.style(F.time));
        double speedup = c.speedup();
        if (std::isfinite(speedup)) {
            formula.assign(out.letters(c_t_a)).append(out.row_digits()).append("/");
            formula.append(out.letters(c_t_b)).append(out.row_digits());
            out.formula(c_speedup, formula, speedup, out.style(F.speedup));
        }
        if (has_a) out.text(c_bound_a, bound_name(c.a.bound), plain);
        if (has_b) out.text(c_bound_a + 1, bound_name(c.b.bound), plain);
        if (c.flipped())
            out.text(c_flip, std::string(bound_name(c.a.bound)).append("→").append(bound_name(c.b.bound)),
                     plain);
        out.number(c_last, has_a ? c.a.intensity : c.b.intensity, out.style(F.ratio));
        out.end_row();
    }

    void finish(DiffSummary const& s) {
        if (book.closed()) throw std::logic_error("DiffXlsxWriter::finish called twice");
        out.finish();
        for (std::size_t i = 0; i < cases.size(); ++i) {
            std::size_t n = std::min(rows_per_sheet, rows - std::min(rows, i * rows_per_sheet));
            lxw_worksheet* ws = cases[i];
            book.check(worksheet_autofilter(ws, 0, 0, static_cast<lxw_row_t>(n),
                                            static_cast<lxw_col_t>(c_last)),
                       std::string("setting the autofilter of ") + ws->name);
            book.speedup_colors(ws, 1, n, c_speedup);
            book.flip_colors(ws, 1, n, c_bound_a, c_flip, c_flip);
        }
        write_summary_sheet(book, summary, matcher, s);
        if (serve) write_serve_sheets(book, matcher, *serve);
        book.close();
    }
};

DiffXlsxWriter::DiffXlsxWriter(std::string const& path, Matcher const& matcher,
                               std::size_t rows_per_sheet)
    : state_(std::make_unique<State>(path, matcher, std::max<std::size_t>(rows_per_sheet, 1))) {}

DiffXlsxWriter::~DiffXlsxWriter() = default;  // the book closes an unfinished workbook

void DiffXlsxWriter::add(DiffCase const& c) { state_->add(c); }

void DiffXlsxWriter::add_serve(ServeDiff const& serve) { state_->serve = &serve; }

void DiffXlsxWriter::finish(DiffSummary const& summary) { state_->finish(summary); }

}  // namespace roofline::diff
