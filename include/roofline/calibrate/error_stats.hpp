#pragma once
// The error figures of predictions against measurements (docs/calibration.md):
// absolute percentage error |p - m| / m, its median and mean, and the signed
// median of (p - m) / m (negative: optimistic). The median of an even count
// is the mean of the two middle values.

#include <span>
#include <vector>

namespace roofline::calibrate {

struct ErrorStats {
    std::size_t count = 0;
    double median_ape = 0, mean_ape = 0, signed_median = 0;  // fractions: 0.1 is 10 %
};

// `predicted` and `measured` parallel; pairs with a measured value <= 0 or a
// prediction that is not finite are not counted.
ErrorStats error_stats(std::span<double const> predicted, std::span<double const> measured);

double median(std::vector<double> values);  // NaN for none

}  // namespace roofline::calibrate
