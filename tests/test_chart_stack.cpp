// The chart pieces that the report's and the diff's charts share
// (output/chart_*): the sampler, decade rounding, roofs and series.
#include "output/chart.hpp"
#include "output/chart_axes.hpp"
#include "output/chart_roofs.hpp"
#include "output/chart_sample.hpp"
#include "output/chart_ticks.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace roofline;

TEST_CASE("chart stack: the sampler keeps the first, the last and evenly spread items", "[charts]") {
    using output::even_sample;
    using output::Sampling;
    CHECK(even_sample(0, 5).empty());
    CHECK(even_sample(3, 5) == std::vector<std::size_t>{0, 1, 2});
    CHECK(even_sample(5, 5) == std::vector<std::size_t>{0, 1, 2, 3, 4});
    // 10 items in 4: k * 9 / 3 is 0, 3, 6, 9 either way; 11 in 4: k * 10 / 3
    // is 3.33 and 6.67, to the nearest 3 and 7, rounded down 3 and 6.
    CHECK(even_sample(10, 4) == std::vector<std::size_t>{0, 3, 6, 9});
    CHECK(even_sample(11, 4) == std::vector<std::size_t>{0, 3, 7, 10});
    CHECK(even_sample(11, 4, Sampling::down) == std::vector<std::size_t>{0, 3, 6, 10});
    CHECK(output::sample_index(11, 4, 2) == 7);
    CHECK(output::sample_index(11, 4, 2, Sampling::down) == 6);
    auto const many = even_sample(100000, 500);
    REQUIRE(many.size() == 500);
    CHECK(many.front() == 0);
    CHECK(many.back() == 99999);
}

TEST_CASE("chart stack: decades and log axes", "[charts]") {
    CHECK(output::floor_decade(3.5e12) == Approx(1e12));
    CHECK(output::ceil_decade(3.5e12) == Approx(1e13));
    CHECK(output::floor_decade(0.02) == Approx(0.01));
    auto const axis = output::log_axis("x", 0.1, 1000, output::decimal_tick);
    CHECK(axis.log);
    CHECK(axis.log_base == 10);
    CHECK(axis.lo == 0.1);
    CHECK(axis.hi == 1000);
    CHECK(axis.ticks == output::log_ticks(0.1, 1000, output::decimal_tick));
}

TEST_CASE("chart stack: a roof is its slope, its ridge and its peak, labelled beside the ridge",
          "[charts]") {
    using output::Points;
    CHECK(output::roof_points(2, 5, 10, 1, 100) == Points{{1, 2}, {5, 10}, {100, 10}});
    CHECK(output::roof_points(2, 5, 10, 1, 100, false) == Points{{1, 2}, {5, 10}});

    output::Chart chart;
    chart.x = output::log_axis("x", 1, 1e4, output::decimal_tick);
    output::add_roof(chart, {.title = "roof", .bandwidth = 2, .ridge = 5000, .peak = 1e4,
                             .line = "lw 2", .marker = "pt 7", .label = "ridge"});
    REQUIRE(chart.series.size() == 2);
    CHECK(chart.series[0].title == "roof");
    CHECK(chart.series[0].style == "with lines lw 2 lc rgb '#303030'");
    CHECK(chart.series[1].title.empty());
    CHECK(chart.series[1].points == Points{{5000, 1e4}});
    REQUIRE(chart.decorations.size() == 2);
    CHECK(chart.decorations[0] ==
          "set arrow from first 5000, graph 0 to first 5000, first 10000 nohead dt 2 lw 1 lc "
          "rgb '#777777' back");
    // Near the right end there is room on the left only.
    CHECK(chart.decorations[1].find(" right offset character -0.8") != std::string::npos);

    output::Chart low;
    low.x = chart.x;
    output::add_roof(low, {.bandwidth = 2, .ridge = 1.01, .peak = 2.02, .flat = false,
                           .line = "lw 2", .marker = "pt 6", .label = "ridge", .label_left = true});
    CHECK(low.series[0].points == Points{{1, 2}, {1.01, 2.02}});
    CHECK(low.decorations[1].find(" left offset character 0.8") != std::string::npos);
}

TEST_CASE("chart stack: a series without points is left out", "[charts]") {
    output::Chart chart;
    output::add_series(chart, "none", "with lines", {}, 60);
    CHECK(chart.series.empty());
    output::add_series(chart, "one", "with points", {{1, 2}}, 60);
    REQUIRE(chart.series.size() == 1);
    CHECK(chart.series[0].title_chars == 60);
}
