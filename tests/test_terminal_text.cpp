// Numbers for people on the terminal (output/terminal_text) and the text of
// the progress line (cli/progress): expectations worked out by hand from the
// rules in their headers.
#include "cli/progress.hpp"
#include "roofline/output/terminal_text.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace roofline;
using output::format_si;
using output::format_si_count;
using output::format_thousands;

TEST_CASE("format_si: three significant digits, an SI prefix joined to the unit", "[terminal]") {
    CHECK(format_si(3.35e12, "B/s") == "3.35 TB/s");
    CHECK(format_si(989e12, "FLOP/s") == "989 TFLOP/s");
    CHECK(format_si(1.979e15, "FLOP/s") == "1.98 PFLOP/s");
    CHECK(format_si(42.41e-3, "s") == "42.4 ms");
    CHECK(format_si(136e-9, "s") == "136 ns");
    CHECK(format_si(-2.5e-3, "s") == "-2.5 ms");
    CHECK(format_si(80e9, "B") == "80 GB");
    CHECK(format_si(1.64e4, "B") == "16.4 kB");
    CHECK(format_si(950, "B") == "950 B");
    // Rounded to three digits first: 999.7 GB/s is 1 TB/s, not "1e+03 GB/s".
    CHECK(format_si(999.7e9, "B/s") == "1 TB/s");
    CHECK(format_si(999.4e9, "B/s") == "999 GB/s");
    CHECK(format_si(0, "B/s") == "0 B/s");
    CHECK(format_si(std::nan(""), "B") == "-");
}

TEST_CASE("format_si_count: a prefix standing alone, none below 1000", "[terminal]") {
    CHECK(format_si_count(2967, "tok/s") == "2.97 k tok/s");
    CHECK(format_si_count(2.967e4, "tok/s") == "29.7 k tok/s");
    CHECK(format_si_count(23.58, "tok/s") == "23.6 tok/s");
    CHECK(format_si_count(0.5, "cases/s") == "0.5 cases/s");  // no milli-cases
    CHECK(format_si_count(254000, "") == "254 k");
    CHECK(format_si_count(1.979e15, "") == "1.98 P");
    CHECK(format_si_count(999.7, "") == "1 k");
    CHECK(format_si_count(std::nan(""), "rows/s") == "-");
}

TEST_CASE("format_thousands: whole numbers with separators", "[terminal]") {
    CHECK(format_thousands(0) == "0");
    CHECK(format_thousands(999) == "999");
    CHECK(format_thousands(1000) == "1,000");
    CHECK(format_thousands(12288) == "12,288");
    CHECK(format_thousands(80e9) == "80,000,000,000");
    CHECK(format_thousands(-1234567) == "-1,234,567");
}

TEST_CASE("progress_line: the phases under way, with counts and rates", "[terminal][progress]") {
    using State = cli::PhaseView::State;
    using report::Phase;
    cli::ProgressView view{};
    auto at = [&](Phase p) -> cli::PhaseView& { return view[static_cast<std::size_t>(p)]; };
    CHECK(cli::progress_line(view).empty());  // nothing under way yet

    // Just begun: no rate from nothing.
    at(Phase::evaluating) = {State::running, 30000, 0, 0};
    CHECK(cli::progress_line(view) == "evaluating 0%  0 / 30,000 cases");
    // 12,288 of 30,000 is 40.96%: shown as 40% (never 100% before the end);
    // 12,288 cases in 0.6 s is 20,480 cases/s.
    at(Phase::evaluating) = {State::running, 30000, 12288, 0.6};
    CHECK(cli::progress_line(view) == "evaluating 40%  12,288 / 30,000 cases  20.5 k cases/s");

    // The workbook and the charts at once; the CSV not begun.
    at(Phase::evaluating).state = State::done;
    at(Phase::workbook) = {State::running, 100, 45, 2};
    at(Phase::charts) = {State::running, 7, 3, 1};
    CHECK(cli::progress_line(view) == "writing workbook 45%  |  charts 3 / 7");

    // Charts done, the CSV at 1.2 M of 4 M rows after 1 s.
    at(Phase::charts).state = State::done;
    at(Phase::csv) = {State::running, 4000000, 1200000, 1};
    CHECK(cli::progress_line(view) == "writing workbook 45%  |  CSV 30%  1.2 M rows/s");

    at(Phase::workbook).state = State::done;
    at(Phase::csv).state = State::done;
    at(Phase::publishing) = {State::running, 0, 0, 0.1};
    CHECK(cli::progress_line(view) == "publishing");
}
