// The marks of the step, sweep and scaling charts on points that a buyer
// cannot use: the step does not fit in the chip's HBM, or it misses the
// scenario's slo. Read as the Plan reads them (plan.cpp), so that a point the
// Plan skips is marked where it is drawn.
#include "chart_model.hpp"

#include <string>

namespace roofline::report::chart_detail {

void StepMarks::add(ReportContext const& context, StepTotals const& step, double x, double y) {
    if (!(step.t_lower > 0)) return;  // no step here (no case supported): nothing to mark
    if (!step.fits()) no_fit.push_back({x, y});
    if (!meets_slo(context.scenario, step)) misses_slo.push_back({x, y});
}

void add_step_marks(Chart& chart, ReportContext const& context, std::vector<StepMarks> const& marks) {
    bool any_no_fit = false, any_slo = false;
    for (auto const& m : marks) {
        any_no_fit = any_no_fit || !m.no_fit.empty();
        any_slo = any_slo || !m.misses_slo.empty();
        // Not in the key as series: one key entry per kind below.
        output::add_series(chart, "", m.axes + no_fit_style, m.no_fit);
        output::add_series(chart, "", m.axes + slo_style, m.misses_slo);
    }
    if (any_no_fit)
        chart.key_entries.push_back(
            {no_fit_style, "does not fit in HBM (resident bytes per chip > hbm_capacity)"});
    if (any_slo)
        chart.key_entries.push_back(
            {slo_style, std::string("misses the slo (")
                            .append(slo_measure_name(context.scenario))
                            .append(" > ")
                            .append(eng(*context.scenario.slo_step_s, "s"))
                            .append(")")});
}

}  // namespace roofline::report::chart_detail
