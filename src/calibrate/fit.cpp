// The fit (fit.hpp): roofs chosen at x, then NNLS for x above its lower
// bounds, repeated.
#include "fit.hpp"

#include "nnls.hpp"

#include <algorithm>
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

// The weighted sum of row_loss of the system at x, whose equations are
// scaled by the square roots of their weights (`scale`).
double total_loss(System const& s, Eigen::VectorXd const& x, Eigen::VectorXd const& scale, double cap) {
    Eigen::VectorXd r = s.a * x - s.b;
    double total = 0;
    for (Eigen::Index i = 0; i < r.size(); ++i)
        if (scale(i) > 0) total += row_loss(r(i) / scale(i), cap) * scale(i) * scale(i);
    return total;
}

// The TTFT-only terms (request, stream and admission overheads, the first
// token's steps, the per-prompt-token and per-request launch terms, which
// no TPOT equation holds) refitted at x for each cold-start share on a grid of
// 0.005 up to 0.5, the factors kept; the share whose fit gives the training
// rows the smallest sum of absolute relative TTFT errors, each capped at 1,
// is kept with its terms. The cap keeps the rows no share can mend (a
// prediction several times the measured time) from choosing it; a median
// would move in steps with the share and choose by the noise of a few rows.
void choose_share(ParamSpace const& space, std::vector<FitRow> const& rows, std::vector<double> const& weights,
                  Eigen::VectorXd& x, Eigen::Index share) {
    std::vector<Eigen::Index> terms;
    for (auto const* name : {"request_overhead", "stream_overhead", "admission_wait", "first_token_steps",
                             "prompt_token_overhead", "request_launch"})
        for (std::size_t j = 0; j < space.size(); ++j)
            if (space.params()[j].name == name) terms.push_back(static_cast<Eigen::Index>(j));
    auto const n = static_cast<Eigen::Index>(rows.size()), k = static_cast<Eigen::Index>(terms.size());
    if (n == 0) return;
    // Each row's TTFT at x as rest + share x slope + terms . features.
    Eigen::VectorXd rest(n), slope(n), measured(n);
    Eigen::MatrixXd f(n, k);
    RowFeatures at;
    Eigen::VectorXd x0 = x;
    x0(share) = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        auto const& r = rows[static_cast<std::size_t>(i)];
        r.pricing->features(x0, at);
        double total = at.ttft.dot(x0) + at.ttft_constant;
        for (Eigen::Index t = 0; t < k; ++t) {
            f(i, t) = at.ttft(terms[static_cast<std::size_t>(t)]);
            total -= f(i, t) * x0(terms[static_cast<std::size_t>(t)]);
        }
        rest(i) = total, slope(i) = at.ttft(share), measured(i) = r.ttft_s;
    }
    double best_score = std::numeric_limits<double>::infinity();
    Eigen::VectorXd best_terms(k);
    for (Eigen::Index t = 0; t < k; ++t) best_terms(t) = x0(terms[static_cast<std::size_t>(t)]);
    double best_share = 0;
    // The terms' relative features, columns scaled to unit norm as in the fit.
    Eigen::MatrixXd const a = measured.cwiseInverse().asDiagonal() * f;
    Eigen::VectorXd norms = a.colwise().norm().transpose();
    for (Eigen::Index t = 0; t < k; ++t)
        if (!(norms(t) > 0)) norms(t) = 1;
    constexpr double share_step = 0.005, share_max = 0.5;
    for (int step = 0; step * share_step <= share_max + 1e-12; ++step) {
        double const s = share_step * step;
        // Least absolute relative deviations by reweighted NNLS.
        Eigen::VectorXd const target = (measured - rest - s * slope).cwiseQuotient(measured);
        Eigen::VectorXd y = Eigen::VectorXd::Zero(k);
        for (int it = 0; it < 30; ++it) {
            Eigen::VectorXd const residual = a * y - target;
            Eigen::VectorXd w(n);
            for (Eigen::Index i = 0; i < n; ++i) {
                double const scale = it == 0 ? 1.0 : std::max(std::abs(residual(i)), 0.01);
                w(i) = std::sqrt(weights[static_cast<std::size_t>(i)] / scale);
            }
            Eigen::MatrixXd const scaled = w.asDiagonal() * a * norms.cwiseInverse().asDiagonal();
            Eigen::VectorXd const next = nnls(scaled, w.cwiseProduct(target)).x.cwiseQuotient(norms);
            double const change = (next - y).cwiseAbs().maxCoeff();
            y = next;
            if (it > 2 && change < 1e-9) break;
        }
        double const score = (a * y - target).cwiseAbs().cwiseMin(1.0).sum();
        if (score < best_score - 1e-12) best_score = score, best_share = s, best_terms = y;
    }
    x(share) = best_share;
    for (Eigen::Index t = 0; t < k; ++t) x(terms[static_cast<std::size_t>(t)]) = best_terms(t);
}

}  // namespace

double row_loss(double r, double c) {
    double const a = std::abs(r);
    return c > 0 && a > c ? c * (1 + std::log(a / c)) : a;
}

double row_loss_weight(double r, double c) {
    double const a = std::abs(r);
    return c > 0 && a > c ? c / (a * a) : 1 / std::max(a, 0.01);
}

PricedRows price_rows(std::vector<RowModel const*> const& models) {
    PricedRows priced;
    for (auto const* m : models) priced.space.add_all(*m);
    // Every parameter is in the space now: each row laid out once.
    priced.rows.reserve(models.size());
    for (auto const* m : models)
        priced.rows.emplace_back(*m, index_row(*m, priced.space), static_cast<Eigen::Index>(priced.space.size()));
    return priced;
}

namespace {

// The reweighted NNLS loop from x, every parameter at least `lower`; those
// listed in `held` stay at their lower bound (not in the solve).
FitResult solve(std::vector<FitRow> const& rows, std::vector<double> const& base,
                FitOptions const& options, Eigen::VectorXd const& lower, Eigen::VectorXd x,
                std::vector<Eigen::Index> const& held) {
    FitResult result;
    Eigen::VectorXd best = x;
    double best_objective = std::numeric_limits<double>::infinity();
    auto objective_at = [&](System const& plain, Eigen::VectorXd const& at, Eigen::VectorXd& unscale) {
        unscale.resize(plain.b.size());
        for (Eigen::Index i = 0; i < unscale.size(); ++i) {
            double const w = base[static_cast<std::size_t>(i / 2)] * (i % 2 == 0 ? options.ttft_weight : 1.0);
            unscale(i) = std::sqrt(w);  // |a x - b| = sqrt(w) |relative error|
        }
        return total_loss(plain, at, unscale, options.error_cap);
    };
    for (int it = 0; it < options.max_iterations; ++it) {
        // The roofs at x; the objective there: the sum of row_loss (|relative
        // error| up to the cap), which the iteratively reweighted least
        // squares below minimizes (an L1 fit: the median error matters, not
        // a few outliers).
        System plain = build(rows, base, x, options.ttft_weight);
        Eigen::VectorXd unscale;
        double const objective = objective_at(plain, x, unscale);
        if (objective < best_objective) best_objective = objective, best = x;
        // Reweight: each equation by row_loss_weight (the rows carry square
        // roots: the least squares squares them).
        Eigen::VectorXd const residual = plain.a * x - plain.b;
        System s = plain;
        for (Eigen::Index i = 0; i < residual.size(); ++i) {
            double const relative = unscale(i) > 0 ? residual(i) / unscale(i) : 0;
            double const w = it == 0 ? 1.0 : std::sqrt(row_loss_weight(relative, options.error_cap));
            s.a.row(i) *= w;
            s.b(i) *= w;
        }
        // Columns scaled to unit norm, so that seconds and inverse
        // efficiencies weigh alike in the solver's tolerances.
        Eigen::VectorXd norms = s.a.colwise().norm().transpose();
        for (Eigen::Index j = 0; j < norms.size(); ++j)
            if (!(norms(j) > 0)) norms(j) = 1;
        Eigen::MatrixXd scaled = s.a * norms.cwiseInverse().asDiagonal();
        for (auto j : held) scaled.col(j).setZero();
        auto const solved = nnls(scaled, s.b - s.a * lower);
        Eigen::VectorXd const next = lower + solved.x.cwiseQuotient(norms);
        result.iterations = it + 1;
        double const change = (next - x).cwiseQuotient(x.cwiseAbs().cwiseMax(1e-6)).cwiseAbs().maxCoeff();
        x = next;
        if (it > 2 && change < 1e-4) break;
    }
    System s = build(rows, base, x, options.ttft_weight);
    Eigen::VectorXd unscale;
    double const objective = objective_at(s, x, unscale);
    if (objective < best_objective) best_objective = objective, best = x;
    result.x = best;
    result.objective = best_objective;
    return result;
}

}  // namespace

FitResult fit_rows(ParamSpace const& space, std::vector<FitRow> const& rows, FitOptions const& options) {
    std::map<std::size_t, double> per_series;
    for (auto const& r : rows) per_series[r.series] += 1;
    // Each series weighs 1 in all; each equation's weight is squared in
    // the least squares, so the rows carry the square roots.
    std::vector<double> base;
    for (auto const& r : rows) base.push_back(1 / per_series[r.series]);
    // The shares (the cold start's) are not in the least squares: fitted
    // with the factors, a share trades many rows' TTFT for a few far off
    // (the sum of absolute errors falls, the median rises). The fit runs
    // without them, each share is chosen with its errors capped
    // (choose_share), and the fit runs again from there with the share held.
    std::vector<Eigen::Index> shares;
    for (std::size_t j = 0; j < space.size(); ++j)
        if (space.params()[j].kind == ParamSpace::Kind::share) shares.push_back(static_cast<Eigen::Index>(j));
    Eigen::VectorXd lower = space.lower();
    FitResult result = solve(rows, base, options, lower, lower, shares);
    if (shares.empty()) return result;
    // From the fit without the shares, a few iterations settle the rest;
    // the shares are chosen again there, until they stay (three rounds at most).
    FitOptions again = options;
    again.max_iterations = std::min(options.max_iterations, 12);
    for (int round = 0; round < 3; ++round) {
        Eigen::VectorXd const before = result.x;
        for (auto j : shares) choose_share(space, rows, base, result.x, j);
        bool moved = round == 0;
        for (auto j : shares) moved = moved || result.x(j) != before(j);
        if (!moved) {
            result.x = before;  // the solve's terms, with the share it held
            break;
        }
        for (auto j : shares) lower(j) = result.x(j);
        int const done = result.iterations;
        result = solve(rows, base, again, lower, result.x, shares);
        result.iterations += done;
    }
    return result;
}

std::pair<double, double> predict_fitted(RowPricing const& row, Eigen::VectorXd const& x) {
    RowFeatures f;
    row.features(x, f);
    return {f.ttft.dot(x) + f.ttft_constant, f.tpot.dot(x) + f.tpot_constant};
}

}  // namespace roofline::calibrate
