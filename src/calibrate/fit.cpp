// The fit (fit.hpp): roofs chosen at x, then NNLS for x above its lower
// bounds, repeated.
#include "fit.hpp"

#include "nnls.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace roofline::calibrate {

namespace {

struct System {
    Eigen::MatrixXd a;
    Eigen::VectorXd b;
};

// The weighted relative-error system at x: each row's TTFT and TPOT
// equation, (features . x + constant - measured) / measured.
System build(std::vector<FitRow> const& rows, std::vector<double> const& weights, Eigen::VectorXd const& x,
             double ttft_weight) {
    std::vector<RowFeatures> features(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].pricing->features(x, features[i]);
    Eigen::Index const n = static_cast<Eigen::Index>(rows.size()), p = x.size();
    System s{Eigen::MatrixXd::Zero(2 * n, p), Eigen::VectorXd::Zero(2 * n)};
    for (Eigen::Index i = 0; i < n; ++i) {
        auto const& f = features[static_cast<std::size_t>(i)];
        auto const& r = rows[static_cast<std::size_t>(i)];
        double const w = std::sqrt(weights[static_cast<std::size_t>(i)]);
        double const wt = w * std::sqrt(ttft_weight);
        s.a.row(2 * i).head(f.ttft.size()) = f.ttft.transpose() * (wt / r.ttft_s);
        s.b(2 * i) = wt * (1 - f.ttft_constant / r.ttft_s);
        s.a.row(2 * i + 1).head(f.tpot.size()) = f.tpot.transpose() * (w / r.tpot_s);
        s.b(2 * i + 1) = w * (1 - f.tpot_constant / r.tpot_s);
    }
    return s;
}

}  // namespace

namespace {

// The weighted sum of absolute relative errors of the system at x (rows
// scaled by their base weight only).
double l1_objective(System const& s, Eigen::VectorXd const& x, Eigen::VectorXd const& scale) {
    Eigen::VectorXd r = s.a * x - s.b;
    double total = 0;
    for (Eigen::Index i = 0; i < r.size(); ++i) total += std::abs(r(i)) * scale(i);
    return total;
}

}  // namespace

PricedRows price_rows(std::vector<RowModel const*> const& models) {
    PricedRows priced;
    for (auto const* m : models) priced.space.add_all(*m);
    // Every parameter is in the space now: each row laid out once.
    priced.rows.reserve(models.size());
    for (auto const* m : models)
        priced.rows.emplace_back(*m, index_row(*m, priced.space), static_cast<Eigen::Index>(priced.space.size()));
    return priced;
}

FitResult fit_rows(ParamSpace const& space, std::vector<FitRow> const& rows, FitOptions const& options) {
    FitResult result;
    std::map<std::size_t, double> per_series;
    for (auto const& r : rows) per_series[r.series] += 1;
    // Each series weighs 1 in all; each equation's weight is squared in
    // the least squares, so the rows carry the square roots.
    std::vector<double> base;
    for (auto const& r : rows) base.push_back(1 / per_series[r.series]);

    Eigen::VectorXd x = space.lower();
    Eigen::VectorXd best = x;
    double best_objective = std::numeric_limits<double>::infinity();
    std::vector<double> weights = base;
    for (int it = 0; it < options.max_iterations; ++it) {
        // The roofs at x; the objective there: the sum of |relative error|,
        // which the iteratively reweighted least squares below minimizes
        // (an L1 fit: the median error matters, not a few outliers).
        System plain = build(rows, base, x, options.ttft_weight);
        Eigen::VectorXd unscale(plain.b.size());
        for (Eigen::Index i = 0; i < unscale.size(); ++i) {
            double const w = base[static_cast<std::size_t>(i / 2)] * (i % 2 == 0 ? options.ttft_weight : 1.0);
            unscale(i) = std::sqrt(w);  // |a x - b| = sqrt(w) |relative error|
        }
        double const objective = l1_objective(plain, x, unscale);
        if (objective < best_objective) best_objective = objective, best = x;
        // Reweight: each equation by 1 / max(|its relative error|, 1 %).
        Eigen::VectorXd const residual = plain.a * x - plain.b;
        System s = plain;
        for (Eigen::Index i = 0; i < residual.size(); ++i) {
            double const relative = unscale(i) > 0 ? std::abs(residual(i)) / unscale(i) : 0;
            double const w = it == 0 ? 1.0 : 1 / std::sqrt(std::max(relative, 0.01));
            s.a.row(i) *= w;
            s.b(i) *= w;
        }
        Eigen::VectorXd const lower = space.lower();
        // Columns scaled to unit norm, so that seconds and inverse
        // efficiencies weigh alike in the solver's tolerances.
        Eigen::VectorXd norms = s.a.colwise().norm().transpose();
        for (Eigen::Index j = 0; j < norms.size(); ++j)
            if (!(norms(j) > 0)) norms(j) = 1;
        Eigen::MatrixXd const scaled = s.a * norms.cwiseInverse().asDiagonal();
        auto const solved = nnls(scaled, s.b - s.a * lower);
        Eigen::VectorXd const y = solved.x.cwiseQuotient(norms);
        Eigen::VectorXd const next = lower + y;
        result.iterations = it + 1;
        double const change = (next - x).cwiseQuotient(x.cwiseAbs().cwiseMax(1e-6)).cwiseAbs().maxCoeff();
        x = next;
        if (it > 2 && change < 1e-4) break;
    }
    System s = build(rows, base, x, options.ttft_weight);
    Eigen::VectorXd unscale(s.b.size());
    for (Eigen::Index i = 0; i < unscale.size(); ++i)
        unscale(i) = std::sqrt(base[static_cast<std::size_t>(i / 2)] * (i % 2 == 0 ? options.ttft_weight : 1.0));
    double const objective = l1_objective(s, x, unscale);
    if (objective < best_objective) best_objective = objective, best = x;
    result.x = best;
    result.objective = best_objective;
    return result;
}

std::pair<double, double> predict_fitted(RowPricing const& row, Eigen::VectorXd const& x) {
    RowFeatures f;
    row.features(x, f);
    return {f.ttft.dot(x) + f.ttft_constant, f.tpot.dot(x) + f.tpot_constant};
}

}  // namespace roofline::calibrate
