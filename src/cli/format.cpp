#include "roofline/cli/format.hpp"

#include <cmath>
#include <cstdio>

namespace roofline::cli {
namespace {

std::string printf_string(char const* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// Characters, not bytes, so that "µs" pads like "ms".
std::size_t display_width(std::string const& text) {
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
}

}  // namespace

std::string format_count(double value) {
    if (std::isnan(value)) return "-";
    if (value == std::floor(value) && std::fabs(value) < 1.8e19) return printf_string("%.0f", value);
    return printf_string("%.6g", value);
}

std::string format_seconds(double value) {
    if (std::isnan(value)) return "-";
    double magnitude = std::fabs(value);
    if (magnitude >= 1 || magnitude == 0) return printf_string("%.3g s", value);
    if (magnitude >= 1e-3) return printf_string("%.3g ms", value * 1e3);
    if (magnitude >= 1e-6) return printf_string("%.3g µs", value * 1e6);
    return printf_string("%.3g ns", value * 1e9);
}

std::string format_general(double value) {
    if (std::isnan(value)) return "-";
    return printf_string("%.4g", value);
}

std::string format_bytes(double value) {
    if (std::isnan(value)) return "-";
    constexpr double GiB = 1024.0 * 1024 * 1024;
    if (std::fmod(value, GiB) == 0) return printf_string("%.0f GiB", value / GiB);
    return printf_string("%.4g GB", value / 1e9);
}

std::string render_table(std::vector<std::vector<std::string>> const& rows,
                         std::vector<bool> const& right) {
    std::vector<std::size_t> widths;
    for (auto const& row : rows) {
        if (widths.size() < row.size()) widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], display_width(row[i]));
    }
    std::string out;
    for (auto const& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            std::string pad(widths[i] - display_width(row[i]), ' ');
            bool align_right = i < right.size() && right[i];
            if (i) line += "  ";
            line += align_right ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : "");
        }
        out += line + "\n";
    }
    return out;
}

std::string case_table(model::Scenario const& scenario, engine::Evaluation const& evaluation) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header = {"op", "layer", "count", "hardware", "compute_dtype"};
    bool any_layer = false;
    for (auto const& m : scenario.matmuls) any_layer = any_layer || !m.layer.empty();
    if (!any_layer) header = {"op", "hardware", "compute_dtype"};
    for (auto const& sweep : scenario.sweeps) header.push_back(sweep.name);
    for (char const* name : {"flops", "bytes_read", "bytes_written", "intensity", "peak", "ridge",
                             "t_math", "t_comms", "t_lower", "t_upper", "bound", "attained",
                             "peak_fraction"})
        header.push_back(name);
    for (auto const& sweep : scenario.sweeps) header.push_back("critical_" + sweep.name);
    std::vector<bool> right(header.size(), true);
    for (std::size_t i = 0; i < (any_layer ? 5u : 3u); ++i) right[i] = i == 2 && any_layer;
    right[header.size() - scenario.sweeps.size() - 3] = false;  // bound
    rows.push_back(std::move(header));

    for (auto const& c : evaluation.cases) {
        auto const& matmul = scenario.matmuls[c.matmul];
        auto const& hw = scenario.hardware[static_cast<std::size_t>(scenario.targets[c.target])];
        auto const& m = c.metrics;
        std::vector<std::string> row = {matmul.name};
        if (any_layer) {
            row.push_back(matmul.layer);
            row.push_back(format_count(matmul.count));
        }
        row.push_back(hw.id);
        row.push_back(scenario.dtypes[static_cast<std::size_t>(matmul.compute_dtype)].name);
        for (std::size_t v = 0; v < scenario.sweeps.size(); ++v)
            row.push_back(format_count(evaluation.sweep_value(c, v)));
        row.push_back(format_count(m.counts.flops));
        row.push_back(format_count(m.counts.bytes_read));
        row.push_back(format_count(m.counts.bytes_written));
        row.push_back(format_general(m.intensity));
        row.push_back(format_general(m.peak));
        row.push_back(format_general(m.ridge));
        row.push_back(format_seconds(m.t_math));
        row.push_back(format_seconds(m.t_comms));
        row.push_back(format_seconds(m.t_lower));
        row.push_back(format_seconds(m.t_upper));
        row.push_back(std::string(engine::bound_name(m.bound)));
        row.push_back(format_general(m.attained));
        row.push_back(format_general(m.peak_fraction));
        for (std::size_t v = 0; v < scenario.sweeps.size(); ++v)
            row.push_back(format_count(evaluation.critical_value(c, v)));
        rows.push_back(std::move(row));
    }
    return render_table(rows, right);
}

}  // namespace roofline::cli
