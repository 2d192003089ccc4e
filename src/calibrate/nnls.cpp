#include "nnls.hpp"

#include <algorithm>
#include <vector>

namespace roofline::calibrate {

namespace {

// The least-squares solution on the passive columns, zero elsewhere.
Eigen::VectorXd solve_passive(Eigen::MatrixXd const& a, Eigen::VectorXd const& b,
                              std::vector<bool> const& passive) {
    std::vector<Eigen::Index> columns;
    for (Eigen::Index j = 0; j < a.cols(); ++j)
        if (passive[static_cast<std::size_t>(j)]) columns.push_back(j);
    Eigen::MatrixXd sub(a.rows(), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k) sub.col(static_cast<Eigen::Index>(k)) = a.col(columns[k]);
    Eigen::VectorXd z_sub = sub.colPivHouseholderQr().solve(b);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(a.cols());
    for (std::size_t k = 0; k < columns.size(); ++k) z(columns[k]) = z_sub(static_cast<Eigen::Index>(k));
    return z;
}

}  // namespace

NnlsResult nnls(Eigen::MatrixXd const& a, Eigen::VectorXd const& b, double tolerance) {
    Eigen::Index const n = a.cols();
    NnlsResult result;
    result.x = Eigen::VectorXd::Zero(n);
    std::vector<bool> passive(static_cast<std::size_t>(n), false);
    Eigen::VectorXd w = a.transpose() * (b - a * result.x);
    double const scale = std::max(1.0, w.cwiseAbs().maxCoeff());
    int const max_outer = 3 * static_cast<int>(std::max<Eigen::Index>(n, 1));
    for (; result.iterations < max_outer; ++result.iterations) {
        // The most promising column still held at zero.
        Eigen::Index best = -1;
        double best_w = tolerance * scale;
        for (Eigen::Index j = 0; j < n; ++j)
            if (!passive[static_cast<std::size_t>(j)] && w(j) > best_w) best = j, best_w = w(j);
        if (best < 0) {
            result.converged = true;
            return result;
        }
        passive[static_cast<std::size_t>(best)] = true;
        // Inner loop: step towards the unconstrained solution until every
        // passive coefficient is positive.
        for (int inner = 0; inner < 3 * n + 3; ++inner) {
            Eigen::VectorXd z = solve_passive(a, b, passive);
            bool feasible = true;
            for (Eigen::Index j = 0; j < n; ++j)
                if (passive[static_cast<std::size_t>(j)] && z(j) <= 0) feasible = false;
            if (feasible) {
                result.x = z;
                break;
            }
            double alpha = 1;
            for (Eigen::Index j = 0; j < n; ++j)
                if (passive[static_cast<std::size_t>(j)] && z(j) <= 0)
                    alpha = std::min(alpha, result.x(j) / (result.x(j) - z(j)));
            result.x += alpha * (z - result.x);
            for (Eigen::Index j = 0; j < n; ++j)
                if (passive[static_cast<std::size_t>(j)] && result.x(j) <= tolerance * std::abs(result.x.maxCoeff()))
                    passive[static_cast<std::size_t>(j)] = false, result.x(j) = 0;
        }
        w = a.transpose() * (b - a * result.x);
    }
    return result;
}

}  // namespace roofline::calibrate
