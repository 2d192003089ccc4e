#include "chart_model.hpp"


#include <algorithm>
#include <span>
#include <string_view>

namespace roofline::report::chart_detail {

std::string op_label(model::Op const& m) {
    return m.layer.empty() ? m.name : m.layer + "/" + m.name;
}

std::string chart_title(ReportContext const& context) {
    if (!context.scenario.title.empty()) return context.scenario.title;
    return context.info.name.empty() ? "roofline" : context.info.name;
}

std::string chip_name(model::Hardware const& hw) {
    return hw.display_name == hw.id || hw.display_name.empty()
               ? hw.id
               : hw.display_name + " [" + hw.id + "]";
}

std::string other_sweeps_note(ReportContext const& context, std::size_t v, std::size_t base,
                              std::size_t skip) {
    auto const& sweeps = context.scenario.sweeps;
    std::string fixed;
    for (std::size_t w = 0; w < sweeps.size(); ++w)
        if (w != v && w != skip) {
            double value = context.grid.sweep_value(base, w);
            auto const* dtype = context.scenario.sweep_dtype_name(w, value);
            fixed += (fixed.empty() ? "" : ", ") + sweeps[w].name + " = " +
                     (dtype ? *dtype : value_text(value));
        }
    return fixed.empty() ? fixed : " (" + fixed + ")";
}

std::string dtypes_at(ReportContext const& context, std::size_t base) {
    std::string dtypes;
    for (std::size_t w = 0; w < context.grid.sweep_count; ++w)
        if (auto const* dtype = context.scenario.sweep_dtype_name(w, context.grid.sweep_value(base, w)))
            dtypes.append(dtypes.empty() ? "" : "_").append(*dtype);
    return dtypes;
}

bool sets_mesh(ReportContext const& context, std::size_t w) {
    auto const& scenario = context.scenario;
    return !scenario.sweeps[w].of_dtypes && scenario.sweeps[w].values.size() >= 2 && scenario.mesh_depends_on(w);
}

std::vector<std::size_t> chart_bases(ReportContext const& context, std::size_t v, std::size_t skip) {
    std::vector<std::size_t> bases = context.dtype_bases();
    for (std::size_t w = 0; w < context.grid.sweep_count; ++w) {
        if (w == v || w == skip || !sets_mesh(context, w)) continue;
        std::size_t const stride = sweep_stride(context.grid, w);
        std::vector<std::size_t> more;
        for (std::size_t base : bases)
            for (std::size_t k = 0; k < context.grid.sweep_sizes[w]; ++k) more.push_back(base + k * stride);
        bases = std::move(more);
    }
    std::sort(bases.begin(), bases.end());
    return bases;
}

Chart chart_along(ReportContext const& context, char const* kind, std::size_t v,
                  model::Hardware const& hw, std::size_t base, std::size_t skip) {
    Chart chart;
    auto const& sweeps = context.scenario.sweeps;
    std::vector<std::string> parts = {kind, sweeps[v].name, hw.id};
    for (std::size_t w = 0; w < sweeps.size(); ++w)
        if (w != v && w != skip && sets_mesh(context, w))
            parts.push_back(std::string(sweeps[w].name).append(value_text(context.grid.sweep_value(base, w))));
    if (std::string dtypes = dtypes_at(context, base); !dtypes.empty()) parts.push_back(std::move(dtypes));
    std::vector<std::string_view> const views(parts.begin(), parts.end());
    chart.stem = output::file_name(std::span<std::string_view const>(views));
    chart.title = chart_title(context);
    return chart;
}

std::size_t sweep_stride(engine::CaseGrid const& grid, std::size_t v) {
    std::size_t stride = 1;
    for (std::size_t w = v + 1; w < grid.sweep_count; ++w) stride *= grid.sweep_sizes[w];
    return stride;
}

bool any_supported(ReportContext const& context, model::Hardware const& hw) {
    auto const& ops = context.scenario.ops;
    return std::any_of(ops.begin(), ops.end(),
                       [&](model::Op const& m) { return context.supported_on(m, hw); });
}

std::vector<Roof> roofs(ReportContext const& context, model::Hardware const& hw) {
    std::vector<Roof> result;
    for (int dtype : context.compute_dtypes()) {
        auto peak = hw.peak_for(dtype);
        if (!peak) continue;
        auto same = std::find_if(result.begin(), result.end(),
                                 [&](Roof const& r) { return r.peak == *peak; });
        if (same != result.end())
            same->dtypes += ", " + context.dtype_name(dtype);
        else
            result.push_back({context.dtype_name(dtype), *peak, *peak / hw.hbm_bytes_per_s});
    }
    std::stable_sort(result.begin(), result.end(),
                     [](Roof const& a, Roof const& b) { return a.peak > b.peak; });
    return result;
}

std::string unsupported_note(ReportContext const& context, model::Op const& m,
                             std::string const& dtypes) {
    return op_label(m) + ": not plotted, no " + (dtypes.empty() ? dtypes_text(context, m) : dtypes) +
           " peak on this chip";
}

std::string dtypes_text(ReportContext const& context, model::Op const& m) {
    std::string text;
    for (int d : context.scenario.compute_dtypes_of(m))
        text.append(text.empty() ? "" : " or ").append(context.dtype_name(d));
    return text;
}

}  // namespace roofline::report::chart_detail
