#include "plausible.hpp"

#include <cmath>
#include <cstdio>

namespace roofline::model {
namespace {

// Three significant digits, as the catalog's numbers are usually known.
std::string digits(double value, char const* format = "%.3g") {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string with_separators(double value) {
    // Copied digit by digit rather than with insert(), which GCC 12 -O3
    // warns about falsely (-Wrestrict).
    std::string plain = digits(std::round(value), "%.0f"), text;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        if (i > 0 && (plain.size() - i) % 3 == 0) text.push_back(',');
        text.push_back(plain[i]);
    }
    return text;
}

// The same value times a power of 1000 that lands in [low, high], the one
// nearest the middle of the range (in log scale): what a unit slip of a
// prefix or more was meant to say. Zero when none does.
double unslipped(double value, double low, double high) {
    double middle = (std::log10(low) + std::log10(high)) / 2, best = 0;
    for (int k = -6; k <= 6; ++k) {
        double candidate = value * std::pow(1000.0, k);
        if (k == 0 || candidate < low || candidate > high) continue;
        if (best == 0 ||
            std::abs(std::log10(candidate) - middle) < std::abs(std::log10(best) - middle))
            best = candidate;
    }
    return best;
}

std::string range_message(std::string const& field, double value, std::string const& unit,
                          double low, double high) {
    std::string written = digits(value, "%.4g") + " " + unit, familiar = familiar_units(value, unit);
    std::string text = field + " = " + written + (familiar == written ? "" : " (" + familiar + ")") +
                       " is outside the plausible " + familiar_units(low, unit) + " .. " +
                       familiar_units(high, unit);
    if (double meant = unslipped(value, low, high); meant > 0)
        text.append("; did you mean ")
            .append(digits(meant, "%.4g"))
            .append(" " + unit + " = ")
            .append(familiar_units(meant, unit))
            .append("?");
    return text;
}

bool in(double value, double low, double high) { return value >= low && value <= high; }

}  // namespace

std::string familiar_units(double value, std::string const& unit) {
    static char const* const prefixes[] = {"", "k", "M", "G", "T", "P"};
    int index = 0;
    while (index < 5 && std::abs(value) >= 1000 * std::pow(1000.0, index) * (1 - 1e-12)) ++index;
    double scaled = value / std::pow(1000.0, index);
    std::string number = scaled >= 1000 ? with_separators(scaled) : digits(scaled);
    return number + " " + prefixes[index] + unit;
}

void warn_implausible(Hardware const& hw, WrittenFields const& written,
                      std::vector<Dtype> const& dtypes, Diagnostics& diagnostics) {
    auto capacity = [&](char const* field, std::optional<Span> const& at,
                        std::optional<double> const& bytes, double low, double high) {
        if (at && bytes && !in(*bytes, low, high))
            diagnostics.warning(*at, range_message(field, *bytes, "B", low, high));
    };
    capacity("hbm_capacity", written.hbm_capacity, hw.hbm_capacity_bytes, min_plausible_hbm_capacity,
             max_plausible_hbm_capacity);
    capacity("onchip_capacity", written.onchip_capacity, hw.onchip_capacity_bytes,
             min_plausible_onchip_capacity, max_plausible_onchip_capacity);
    bool bandwidth_ok = in(hw.hbm_bytes_per_s, min_plausible_bandwidth, max_plausible_bandwidth);
    if (written.hbm_bandwidth && !bandwidth_ok)
        diagnostics.warning(*written.hbm_bandwidth,
                            range_message("hbm_bandwidth", hw.hbm_bytes_per_s, "B/s",
                                          min_plausible_bandwidth, max_plausible_bandwidth));
    for (auto const& peak : hw.peaks) {
        auto const& dtype = dtypes[static_cast<std::size_t>(peak.dtype)].name;
        // Integer dtypes count operations, not floating-point ones.
        std::string unit = dtype.rfind("int", 0) == 0 || dtype.rfind("uint", 0) == 0 ? "OP/s"
                                                                                     : "FLOP/s";
        std::optional<Span> at;
        for (auto const& w : written.peaks)
            if (w.dtype == peak.dtype) at = w.value;
        bool peak_ok = in(peak.flops_per_s, min_plausible_peak, max_plausible_peak);
        if (at && !peak_ok)
            diagnostics.warning(*at, range_message("peak " + dtype, peak.flops_per_s, unit,
                                                   min_plausible_peak, max_plausible_peak));
        // The ridge of two plausible numbers; one out of range has its own
        // warning, which the ridge would only repeat. At the peak if this
        // statement wrote it, else at the bandwidth if it did.
        if (!at) at = written.hbm_bandwidth;
        double ridge = peak.flops_per_s / hw.hbm_bytes_per_s;
        if (at && peak_ok && bandwidth_ok && !in(ridge, min_plausible_ridge, max_plausible_ridge))
            diagnostics.warning(
                *at, "ridge point of '" + hw.id + "' for " + dtype + ": peak " + dtype + " / " +
                         "hbm_bandwidth = " + familiar_units(peak.flops_per_s, unit) + " / " +
                         familiar_units(hw.hbm_bytes_per_s, "B/s") + " = " +
                         (ridge >= 1000 ? with_separators(ridge) : digits(ridge)) + " " +
                         unit.substr(0, unit.size() - 2) +
                         "/byte is outside the plausible 1 .. 10,000; check the units of both");
    }
}

}  // namespace roofline::model
