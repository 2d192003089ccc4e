#include "roofline/calibrate/error_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline::calibrate {

double median(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    std::size_t const n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

ErrorStats error_stats(std::span<double const> predicted, std::span<double const> measured) {
    std::vector<double> ape, signed_error;
    for (std::size_t i = 0; i < predicted.size() && i < measured.size(); ++i) {
        if (!(measured[i] > 0) || !std::isfinite(predicted[i])) continue;
        double const e = (predicted[i] - measured[i]) / measured[i];
        signed_error.push_back(e);
        ape.push_back(std::abs(e));
    }
    ErrorStats s;
    s.count = ape.size();
    if (ape.empty()) return s;
    s.median_ape = median(ape);
    double sum = 0;
    for (double e : ape) sum += e;
    s.mean_ape = sum / static_cast<double>(ape.size());
    s.signed_median = median(signed_error);
    return s;
}

}  // namespace roofline::calibrate
