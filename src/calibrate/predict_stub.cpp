// TEMPORARY (branch i24-report): validate_measured is being written on
// another branch (src/calibrate/predict.cpp); this stub lets the branch link
// and is deleted before the merge.
#include "roofline/calibrate/predict.hpp"

namespace roofline::calibrate {

Validation validate_measured(std::string const&, PredictOptions const&) {
    throw MeasuredError("not implemented");
}

}  // namespace roofline::calibrate
