#pragma once
// A row's mean TTFT and TPOT at any factors x (docs/calibration.md,
// section 2): features . x + a constant, each op on the roof that is largest
// at x. The fit prices every row at every iterate, so a row is laid out
// once for it (RowPricing): what does not depend on the roofs (serial
// collectives, launches, the per-step, per-layer, per-sequence and
// per-request overheads) summed into fixed features, and the ops whose roof
// is math or HBM alone grouped by their two parameters and sorted by
// t_math / t_comms. At x an op of a group is on the math roof exactly when
// that ratio is at least x_hbm / x_math, so a binary search and two running
// sums price the group, however many steps and ops it holds. The rest (an
// op with on-chip time or overlapped collectives) is priced op by op.

#include "parameters.hpp"

#include <Eigen/Dense>

#include <memory>
#include <utility>
#include <vector>

namespace roofline::calibrate {

struct RowFeatures {
    Eigen::VectorXd ttft, tpot;
    double ttft_constant = 0, tpot_constant = 0;
};

// A serial collective whose latency is fitted: priced at x, since it never
// goes below its roofline time (engine/expected.cpp).
struct SerialAtX {
    SegmentCollective const* col = nullptr;
    RowIndices::Collective ci;
    double count = 1, w_ttft = 0, w_tpot = 0;
};

class RowPricing {
public:
    // `sorted` false prices every op one by one (the reference the sorted
    // groups are checked against in the tests).
    RowPricing(RowModel const& row, RowIndices indices, Eigen::Index parameters, bool sorted = true);
    RowPricing(RowPricing&&) noexcept = default;

    // The row's mean TTFT and TPOT at x as features . x + constant; x holds
    // every parameter the indices name.
    void features(Eigen::VectorXd const& x, RowFeatures& out) const;

private:
    // The segments' steps alone (no per-request, stream or admission term):
    // the first wave's.
    RowPricing(std::vector<Segment> const& segments, RowIndices indices, Eigen::Index parameters, bool sorted);
    void lay_out(std::vector<Segment> const& segments, Eigen::Index parameters, bool sorted);
    void price(Eigen::VectorXd const& x, RowFeatures& out) const;

    struct Group {  // ops of one (math, hbm) parameter pair; none: no parameter (x = 1, a constant)
        std::size_t math = RowIndices::none, hbm = RowIndices::none;
        std::vector<double> ratio;                 // t_math / t_comms, ascending, distinct
        std::vector<double> math_ttft, math_tpot;  // [i]: the math time of the ops from i on
        std::vector<double> hbm_ttft, hbm_tpot;    // [i]: the HBM time of the ops before i
    };
    struct OneByOne {
        Segment const* segment = nullptr;
        std::size_t op = 0, op_at = 0, col_at = 0;
    };
    RowModel const* row_;  // outlives this
    RowIndices indices_;
    Eigen::VectorXd fixed_ttft_, fixed_tpot_;
    std::vector<Group> groups_;
    std::vector<OneByOne> one_by_one_;
    std::vector<SerialAtX> serial_at_x_;
    std::unique_ptr<RowPricing> cold_;  // the first wave's TTFT, when the row has one
};

// The same for a row and a space (the space gets any parameter it lacks, at
// its default in x, which grows to match).
void row_features(RowModel const& row, ParamSpace& space, Eigen::VectorXd& x, RowFeatures& out);

// The predicted mean TTFT and TPOT (seconds) with a calibration (nullptr:
// the serial roofline: every efficiency 1, no overhead, the roofline's
// collective latencies).
std::pair<double, double> predict_row(RowModel const& row, model::Calibration const* calibration);

}  // namespace roofline::calibrate
