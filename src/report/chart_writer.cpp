#include "roofline/report/chart_writer.hpp"

#include "chart_model.hpp"
#include "output/render_charts.hpp"

namespace roofline::report {

using chart_detail::Chart;
using chart_detail::chart_bases;
using chart_detail::line_sweep;
using chart_detail::has_scaling_chart;
using chart_detail::has_step_chart;
using chart_detail::request_chart;
using chart_detail::roofline_chart;
using chart_detail::scaling_chart;
using chart_detail::serve_front_chart;
using chart_detail::serve_latency_chart;
using chart_detail::step_chart;
using chart_detail::sweep_chart;

void render_charts(std::string const& folder, ReportContext const& context, ChartData const& data,
                   Summary const& summary, ProgressObserver* progress) {
    std::vector<Chart> charts;
    // A scenario of requests alone has no case to draw on a roofline or along a sweep.
    bool const cases = context.grid.op_count > 0;
    // Along sweep v, one chart per combination of the dtype and mesh sweeps
    // (chart_bases); no chart along a dtype sweep (no axis to draw it on).
    auto const& sweeps = context.scenario.sweeps;
    for (std::size_t t = 0; t < context.grid.target_count; ++t) {
        if (cases) charts.push_back(roofline_chart(context, data, t));
        for (std::size_t v = 0; v < context.grid.sweep_count; ++v)
            if (cases && !sweeps[v].of_dtypes)
                for (std::size_t base : chart_bases(context, v))
                    charts.push_back(sweep_chart(context, data, summary, v, t, base));
        for (std::size_t v = 0; v < context.grid.sweep_count; ++v)
            if (has_step_chart(context, v, t))
                for (std::size_t base : chart_bases(context, v))
                    charts.push_back(step_chart(context, summary, v, t, base));
        for (std::size_t v = 0; v < context.grid.sweep_count; ++v)
            if (has_scaling_chart(context, v, t))
                for (std::size_t base : chart_bases(context, v, line_sweep(context, v)))
                    charts.push_back(scaling_chart(context, summary, v, t, base));
        if (context.has_requests())
            for (std::size_t r = 0; r < context.scenario.requests.size(); ++r)
                charts.push_back(request_chart(context, r, t));
        if (context.has_serve()) charts.push_back(serve_latency_chart(context, t));
    }
    if (context.has_serve()) charts.push_back(serve_front_chart(context));
    if (!progress) return output::render_charts(std::move(charts), folder);
    progress->begin(Phase::charts, charts.size());
    output::render_charts(std::move(charts), folder,
                          [&](std::size_t drawn) { progress->advance(Phase::charts, drawn); });
    progress->end(Phase::charts);
}

}  // namespace roofline::report
