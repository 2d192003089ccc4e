#include "output/render_charts.hpp"

#include "output/chart_script.hpp"
#include "output/gnuplot_process.hpp"
#include "roofline/output/errors.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <optional>
#include <sstream>
#include <thread>

namespace roofline::output {

namespace {

// An empty series ('-' with no points) makes gnuplot warn and drop its key
// entry; give it one point outside the range instead. A chart without any
// series (a chip with no peak for any compute dtype used: no roof, no
// curve, only key notes) gets such a point too, since gnuplot cannot plot
// key entries alone.
void fill_empty(Chart& chart) {
    if (chart.series.empty()) chart.series.push_back({"", "with points ps 0", {}, ""});
    for (auto& s : chart.series)
        if (s.points.empty() && s.band.empty())
            s.points.push_back(
                {chart.x.log ? chart.x.lo / 1e3 : chart.x.lo - (chart.x.hi - chart.x.lo),
                 chart.y.log ? chart.y.lo / 1e3 : chart.y.lo - (chart.y.hi - chart.y.lo)});
}

// gnuplot's first few non-blank lines of complaint, on one line.
std::string first_lines(std::string const& text, std::size_t lines) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; lines > 0 && std::getline(in, line);) {
        auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos) continue;
        out += (out.empty() ? "" : " | ") + line.substr(start);
        --lines;
    }
    return out;
}

}  // namespace

void render_charts(std::vector<Chart> charts, std::string const& folder,
                   std::function<void(std::size_t drawn)> const& progress) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder))
        throw ChartError("cannot create chart folder " + folder + ": " +
                         (ec ? ec.message() : "not a folder"));
    std::string const where = std::filesystem::absolute(folder, ec).string();
    if (ec) throw ChartError("cannot find chart folder " + folder + ": " + ec.message());

    for (auto& chart : charts) fill_empty(chart);

    // A few charts per gnuplot (a start costs about 25 ms), and gnuplots at
    // once on all cores but one, which the caller keeps for the workbook.
    std::size_t const cores = std::max(1u, std::thread::hardware_concurrency());
    std::size_t const parallel = std::clamp<std::size_t>(cores - 1, 1, 8);
    std::size_t const per_process =
        std::clamp<std::size_t>((charts.size() + parallel - 1) / parallel, 1, 8);

    struct Job {
        std::size_t first, last;  // charts [first, last)
        Script script;
        std::optional<GnuplotProcess> process;
    };
    std::deque<Job> running;
    std::string failure;
    std::size_t drawn = 0;
    auto finish_oldest = [&] {
        Job& job = running.front();
        auto finished = job.process->finish();
        if (!finished.ok && failure.empty()) {
            // gnuplot stopped at the first chart that it could not finish.
            std::size_t bad = job.first;
            while (bad + 1 < job.last && std::filesystem::exists(std::filesystem::path(where) /
                                                                 (charts[bad].stem + ".png")))
                ++bad;
            failure = "gnuplot failed drawing " + charts[bad].stem + " in " + folder + ": " +
                      first_lines(finished.errors, 4);
        }
        drawn += job.last - job.first;
        running.pop_front();
        if (progress && failure.empty()) progress(drawn);
    };
    for (std::size_t first = 0; first < charts.size() && failure.empty(); first += per_process) {
        auto& job = running.emplace_back();
        job.first = first;
        job.last = std::min(charts.size(), first + per_process);
        for (std::size_t c = job.first; c < job.last; ++c) draw(job.script.gp(), charts[c]);
        job.script.end();
        while (running.size() > parallel) finish_oldest();
        job.process.emplace(job.script, where);
    }
    while (!running.empty()) finish_oldest();
    if (!failure.empty()) throw ChartError(failure);

    for (auto const& chart : charts)
        for (char const* ext : {".svg", ".png"}) {
            auto path = std::filesystem::path(where) / (chart.stem + ext);
            if (std::filesystem::file_size(path, ec) == 0 || ec)
                throw ChartError("gnuplot wrote no " + path.string());
        }
}

}  // namespace roofline::output
