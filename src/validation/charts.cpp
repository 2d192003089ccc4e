#include "charts.hpp"

#include "output/chart_axes.hpp"
#include "output/chart_ticks.hpp"
#include "output/file_names.hpp"
#include "output/render_charts.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace roofline::validation {

namespace {

struct Figure {
    char const* name;  // "TPOT"
    char const* stem;  // "tpot"
    double calibrate::RowPrediction::*measured;
    double calibrate::RowPrediction::*predicted;
};

constexpr Figure figures[] = {
    {"TTFT", "ttft", &calibrate::RowPrediction::measured_ttft_s, &calibrate::RowPrediction::predicted_ttft_s},
    {"TPOT", "tpot", &calibrate::RowPrediction::measured_tpot_s, &calibrate::RowPrediction::predicted_tpot_s},
};

bool drawable(double v) { return std::isfinite(v) && v > 0; }

// The band of y = x times [1 - share, 1 + share] over [lo, hi]: straight on
// a log-log plot, so its two ends are enough.
output::Band band(double lo, double hi, double share) {
    return {{lo, lo * (1 - share), lo * (1 + share)}, {hi, hi * (1 - share), hi * (1 + share)}};
}

output::Chart chart(calibrate::Validation const& v, std::string const& chip, Figure const& figure,
                    std::vector<std::string> const& backends) {
    output::Chart c;
    c.stem = output::file_name({figure.stem, chip});
    c.title = std::string(figure.name) + " on " + chip + ": predicted against measured";
    std::size_t rows = 0, left_out = 0;
    double lo = INFINITY, hi = 0;
    std::vector<output::Points> points(backends.size());
    for (auto const& r : v.rows) {
        if (r.key.system != chip) continue;
        ++rows;
        double const m = r.*figure.measured * 1e3, p = r.*figure.predicted * 1e3;
        if (!drawable(m) || !drawable(p)) {
            ++left_out;
            continue;
        }
        lo = std::min({lo, m, p});
        hi = std::max({hi, m, p});
        auto const b = std::lower_bound(backends.begin(), backends.end(), r.key.backend) - backends.begin();
        points[static_cast<std::size_t>(b)].push_back({m, p});
    }
    c.subtitle = std::string(v.cross_validated ? "cross-validation of " : "validation of ") +
                 std::filesystem::path(v.measured_path).filename().string() + ": " +
                 std::to_string(rows - left_out) + " rows on " + chip + ", log-log, ms";
    if (!(hi > 0)) lo = 1, hi = 10;
    // The same range on both axes (y = x is the diagonal), padded so that
    // the bands stay visible around the end points.
    lo = output::nice_floor(lo / 1.4);
    hi = output::nice_ceil(hi * 1.4);
    if (hi / lo < 10) hi = lo * 10;
    // Ticks of one kind on both axes: powers of ten once a plain decimal
    // would run long (a 10⁶ beside 100000 reads as a different scale).
    auto const tick = hi >= 1e5 ? output::power_tick : output::decimal_tick;
    c.x = output::log_axis(std::string("measured ") + figure.name + " (ms)", lo, hi, tick);
    c.y = output::log_axis(std::string("predicted ") + figure.name + " (ms)", lo, hi, tick);
    c.key = "outside below center horizontal height 0.6 maxrows 4";

    output::Series wide;
    wide.title = "within ±25 %";
    wide.style = "with filledcurves fs solid 1.0 noborder lc rgb '#e8eef7'";
    wide.band = band(lo, hi, 0.25);
    c.series.push_back(std::move(wide));
    output::Series narrow;
    narrow.title = "within ±10 %";
    narrow.style = "with filledcurves fs solid 1.0 noborder lc rgb '#c6d5ec'";
    narrow.band = band(lo, hi, 0.10);
    c.series.push_back(std::move(narrow));
    output::add_series(c, "y = x (predicted = measured)", "with lines lw 1.5 dt 2 lc rgb '#303030'",
                       {{lo, lo}, {hi, hi}});
    for (std::size_t b = 0; b < backends.size(); ++b)
        output::add_series(c, backends[b],
                           "with points pt " + std::to_string(output::filled_point(b)) +
                               " ps 1.1 lc rgb '" + output::color(b) + "'",
                           std::move(points[b]));
    if (left_out > 0)
        c.key_entries.push_back(output::key_note(std::to_string(left_out) + " rows without a positive " +
                                                 figure.name + " left out"));
    return c;
}

}  // namespace

std::vector<output::Chart> validation_charts(calibrate::Validation const& validation) {
    std::set<std::string> chips, backend_set;
    for (auto const& r : validation.rows) {
        chips.insert(r.key.system);
        backend_set.insert(r.key.backend);
    }
    // A backend keeps its colour on every chip's charts.
    std::vector<std::string> const backends(backend_set.begin(), backend_set.end());
    std::vector<output::Chart> out;
    for (auto const& chip : chips)
        for (auto const& figure : figures) out.push_back(chart(validation, chip, figure, backends));
    return out;
}

std::vector<std::string> render(std::vector<output::Chart> charts, std::string const& folder) {
    std::vector<std::string> files;
    if (charts.empty()) return files;
    output::render_charts(std::move(charts), folder);
    for (auto const& entry : std::filesystem::directory_iterator(folder))
        files.push_back("charts/" + entry.path().filename().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace roofline::validation
