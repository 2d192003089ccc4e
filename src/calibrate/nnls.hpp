#pragma once
// Non-negative least squares: min ||A x - b|| subject to x >= 0, by Lawson
// and Hanson's active-set method (Solving Least Squares Problems, 1974,
// ch. 23), each passive-set subproblem solved by Eigen's column-pivoting
// Householder QR. Debian's Eigen (3.4.0) does not ship the NNLS module of
// its later unsupported tree, so the outer loop is here; the numerics are
// Eigen's.

#include <Eigen/Dense>

namespace roofline::calibrate {

struct NnlsResult {
    Eigen::VectorXd x;
    int iterations = 0;
    bool converged = false;
};

// `tolerance` is relative to the largest |A^T b|. At most 3n outer
// iterations, as Lawson and Hanson bound them in practice.
NnlsResult nnls(Eigen::MatrixXd const& a, Eigen::VectorXd const& b, double tolerance = 1e-10);

}  // namespace roofline::calibrate
