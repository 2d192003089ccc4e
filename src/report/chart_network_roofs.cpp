// The network roofs of a roofline chart (chart_model.hpp, NetRoof): one per
// rate at which the ops' collectives receive, for the PNG roofline and the
// workbook's Charts sheet alike.
#include "chart_model.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::report::chart_detail {

std::vector<NetRoof> network_roofs(ReportContext const& context, std::size_t t,
                                   std::function<double(std::size_t)> const& rate_of) {
    auto const& scenario = context.scenario;
    auto const& hw = context.target(t);
    std::vector<NetRoof> result;
    for (std::size_t i = 0; i < scenario.ops.size(); ++i) {
        auto const& m = scenario.ops[i];
        double const rate = rate_of(i);
        if (!(rate > 0)) continue;
        double peak = 0;
        for (int d : scenario.compute_dtypes_of(m))
            if (auto p = hw.peak_for(d)) peak = std::max(peak, *p);
        if (!(peak > 0)) continue;
        auto same = std::find_if(result.begin(), result.end(), [&](NetRoof const& r) {
            return std::fabs(r.rate - rate) <= 1e-9 * rate;
        });
        if (same == result.end()) same = result.insert(result.end(), NetRoof{rate, peak, ""});
        same->peak = std::max(same->peak, peak);
        for (auto const& collective : m.collectives)
            for (int a : collective.mesh_axes) {
                auto const link = scenario.mesh[static_cast<std::size_t>(a)].link;
                std::string name = link == model::Link::ici      ? "ICI"
                                   : link == model::Link::nvlink ? "NVLink"
                                                                 : "DCN";
                if (same->links.find(name) == std::string::npos)
                    same->links.append(same->links.empty() ? "" : ", ").append(name);
            }
    }
    std::stable_sort(result.begin(), result.end(),
                     [](NetRoof const& a, NetRoof const& b) { return a.rate > b.rate; });
    return result;
}

std::string network_roof_title(NetRoof const& roof) {
    return std::string("network roof (")
        .append(roof.links)
        .append(", ")
        .append(eng(roof.rate, "B/s"))
        .append(" received per chip)");
}

}  // namespace roofline::report::chart_detail
