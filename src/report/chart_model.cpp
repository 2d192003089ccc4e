#include "chart_model.hpp"

#include "gnuplot_text.hpp"

#include <algorithm>

namespace roofline::report::chart_detail {

namespace {

constexpr std::array<char const*, 10> palette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                                 "#bcbd22", "#7f7f7f"};
constexpr std::array<int, 6> filled_points = {7, 5, 9, 11, 13, 15};
constexpr std::array<int, 6> open_points = {6, 4, 8, 10, 12, 14};

}  // namespace

std::string color(std::size_t i) {
    return palette[i % palette.size()];
}
int filled_point(std::size_t i) {
    return filled_points[i % filled_points.size()];
}
int open_point(std::size_t i) {
    return open_points[i % open_points.size()];
}
int dash_type(std::size_t i) {
    return 1 + static_cast<int>((i / palette.size()) % 4);
}

std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) {
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
        out += ok ? ch : '_';
    }
    return out.empty() || out.find_first_not_of('.') == std::string::npos ? "_" + out : out;
}

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

std::string other_sweeps_note(ReportContext const& context, std::size_t v) {
    auto const& sweeps = context.scenario.sweeps;
    std::string fixed;
    for (std::size_t w = 0; w < sweeps.size(); ++w)
        if (w != v)
            fixed += (fixed.empty() ? "" : ", ") + sweeps[w].name + " = " +
                     value_text(sweeps[w].values.front());
    return fixed.empty() ? fixed : " (" + fixed + ")";
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

std::string unsupported_note(ReportContext const& context, model::Op const& m) {
    return op_label(m) + ": not plotted, no " + context.dtype_name(m.compute_dtype) +
           " peak on this chip";
}

}  // namespace roofline::report::chart_detail
