#include "roofline/diff/gnuplot_run.hpp"

#include "report/gnuplot_process.hpp"
#include "report/gnuplot_text.hpp"
#include "roofline/report/chart_writer.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <thread>

namespace roofline::diff {

namespace cd = report::chart_detail;

void GnuplotChart::add(std::string style, Points points) {
    if (points.empty()) return;  // gnuplot warns about an empty data block
    styles.push_back(std::move(style));
    data.push_back(std::move(points));
}

std::string GnuplotChart::script() const {
    std::string out;
    for (auto [terminal, ext] :
         {std::pair{"svg size 1000,700 fixed font 'Sans,12' background '#ffffff'", ".svg"},
          std::pair{"pngcairo size 1000,700 font 'Sans,10' background '#ffffff'", ".png"}}) {
        out += "reset\nset encoding utf8\nset terminal " + std::string(terminal) + " noenhanced\n";
        out += "set output " + cd::literal(stem + ext) + "\n" + settings;
        out += "set key " + key +
               " Left reverse noenhanced samplen 2.5 spacing 1.15 width 2 height 1\n";
        out += "set lmargin 11\nset rmargin 5\nset grid lw 1 lc rgb '#e4e4e4'\n";
        out += "set border 3 lc rgb '#404040'\nset tics nomirror out\nplot";
        for (std::size_t i = 0; i < styles.size(); ++i)
            out += (i ? ", " : " ") + std::string("'-' ") + styles[i];
        for (auto const& entry : keys) out += ", keyentry " + entry;
        out += "\n";
        for (auto const& points : data) {
            for (auto const& [x, y] : points)
                out.append(cd::num(x)).append(" ").append(cd::num(y)).append("\n");
            out += "e\n";
        }
        out += "unset output\n";
    }
    return out;
}

void run_gnuplot(std::vector<GnuplotChart> const& charts, std::string const& folder) {
    std::size_t const parallel = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    struct Job {
        std::string stem;
        cd::Script script;
        std::optional<cd::GnuplotProcess> process;
    };
    std::deque<Job> running;
    std::string failure;
    auto finish_oldest = [&] {
        auto finished = running.front().process->finish();
        if (!finished.ok && failure.empty())
            failure = "gnuplot failed drawing " + running.front().stem + " in " + folder + ": " +
                      finished.errors.substr(0, 400);
        running.pop_front();
    };
    for (auto const& chart : charts) {
        if (!failure.empty()) break;
        while (running.size() >= parallel) finish_oldest();
        // Not emplace_back(chart.stem): clang 14 lacks C++20's parenthesized
        // aggregate initialization.
        auto& job = running.emplace_back();
        job.stem = chart.stem;
        job.script.gp() << chart.script();
        job.script.end();
        job.process.emplace(job.script, folder);
    }
    while (!running.empty()) finish_oldest();
    if (!failure.empty()) throw report::ChartError(failure);
}

}  // namespace roofline::diff
