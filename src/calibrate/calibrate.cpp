// roofline calibrate: model, group by chip and engine, fit, cross-validate
// (calibrate.hpp).
#include "roofline/calibrate/calibrate.hpp"

#include "fit.hpp"
#include "modelled.hpp"
#include "pricing.hpp"

#include "roofline/output/sha256.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace roofline::calibrate {

namespace {

bool wanted(std::vector<std::string> const& list, std::string const& a, std::string const& b) {
    return list.empty() || std::find(list.begin(), list.end(), a) != list.end() ||
           std::find(list.begin(), list.end(), b) != list.end();
}

}  // namespace

CalibrateResult calibrate_measured(std::string const& path, CalibrateOptions const& options) {
    CalibrateResult result;
    // --hardware names a chip as the file does (h200_sxm) or by a prefix of
    // it (h200, the catalog's name); --backend an engine.
    auto chosen = [&](MeasuredRow const& row) {
        bool chip = options.hardware.empty();
        for (auto const& h : options.hardware) chip = chip || row.key.system.rfind(h, 0) == 0;
        return chip && wanted(options.backends, row.key.backend, row.key.backend);
    };
    auto modelled = model_measured(
        path, options.configs_dir, options.include_dirs,
        [&](std::size_t done, std::size_t total) {
            if (options.progress) options.progress("modelling", done, total);
        },
        chosen);
    auto const& rows = modelled.file.rows;
    result.measured_path = path;
    result.measured_sha256 = output::sha256_hex(modelled.file.text);
    result.measured_rows = rows.size();
    result.cross_validated.measured_path = path;
    result.cross_validated.measured_sha256 = result.measured_sha256;
    result.cross_validated.measured_rows = rows.size();
    result.cross_validated.cross_validated = true;
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto const& key = rows[i].key;
        if (!chosen(rows[i])) continue;
        if (!modelled.models[i].problem.empty()) {
            result.skipped.push_back(SkippedRow{key, modelled.models[i].problem});
            continue;
        }
        groups[{options.pool_for.empty() ? modelled.hardware[i] : options.pool_for, key.backend}].push_back(i);
    }
    std::vector<RowPrediction> predictions(rows.size());
    std::vector<std::uint8_t> predicted(rows.size(), 0);
    std::size_t group_index = 0;
    for (auto const& entry : groups) {
        // Named, not a structured binding: clang 14 cannot capture those in the lambdas below.
        auto const& group = entry.first;
        auto const& members = entry.second;
        if (options.progress) options.progress("fitting", group_index++, groups.size());
        std::vector<RowModel const*> models;
        for (auto i : members) models.push_back(&modelled.models[i]);
        PricedRows const priced = price_rows(models);
        auto fit_rows_of = [&](auto keep) {
            std::vector<FitRow> fit;
            for (std::size_t m = 0; m < members.size(); ++m) {
                std::size_t const i = members[m];
                if (keep(i)) fit.push_back(FitRow{&priced.rows[m], rows[i].ttft_s, rows[i].tpot_s, modelled.series_of[i]});
            }
            return fit;
        };
        FitOptions fit_options;
        fit_options.ttft_weight = options.ttft_weight;
        fit_options.error_cap = options.error_cap;
        GroupFit g;
        g.hardware = group.first;
        g.backend = group.second;
        g.rows = members.size();
        std::vector<std::size_t> series;
        for (auto i : members) series.push_back(modelled.series_of[i]);
        std::sort(series.begin(), series.end());
        g.series = static_cast<std::size_t>(std::unique(series.begin(), series.end()) - series.begin());
        auto all = fit_rows(priced.space, fit_rows_of([](std::size_t) { return true; }), fit_options);
        g.iterations = all.iterations;
        g.calibration = priced.space.calibration(all.x);
        g.calibration.name = g.hardware + "_" + g.backend;
        g.calibration.hardware = g.hardware;
        std::vector<double> pt, mt, pp, mp;
        for (std::size_t m = 0; m < members.size(); ++m) {
            std::size_t const i = members[m];
            auto [ttft, tpot] = predict_fitted(priced.rows[m], all.x);
            pt.push_back(ttft), mt.push_back(rows[i].ttft_s), pp.push_back(tpot), mp.push_back(rows[i].tpot_s);
        }
        g.fit_ttft = error_stats(pt, mt);
        g.fit_tpot = error_stats(pp, mp);
        // Cross-validation: each fold's series predicted by a fit without them.
        std::size_t const folds = std::min(options.folds, g.series);
        pt.clear(), mt.clear(), pp.clear(), mp.clear();
        for (std::size_t f = 0; folds >= 2 && f < folds; ++f) {
            auto in_fold = [&](std::size_t i) {
                return fold_of(modelled.series[modelled.series_of[i]].key, folds) == f;
            };
            auto train = fit_rows_of([&](std::size_t i) { return !in_fold(i); });
            if (train.empty()) continue;
            auto fold_fit = fit_rows(priced.space, train, fit_options);
            for (std::size_t m = 0; m < members.size(); ++m) {
                std::size_t const i = members[m];
                if (!in_fold(i)) continue;
                auto [ttft, tpot] = predict_fitted(priced.rows[m], fold_fit.x);
                RowPrediction& p = predictions[i];
                p.key = rows[i].key;
                p.measured_ttft_s = rows[i].ttft_s, p.measured_tpot_s = rows[i].tpot_s;
                p.predicted_ttft_s = ttft, p.predicted_tpot_s = tpot;
                auto [rt, rp] = predict_row(modelled.models[i], nullptr);
                p.roofline_ttft_s = rt, p.roofline_tpot_s = rp;
                p.calibration = g.calibration.name + " (fold " + std::to_string(f + 1) + ")";
                p.fits_memory = modelled.models[i].fits_memory;
                p.fold = static_cast<int>(f);
                predicted[i] = 1;
                pt.push_back(ttft), mt.push_back(rows[i].ttft_s), pp.push_back(tpot), mp.push_back(rows[i].tpot_s);
            }
        }
        g.cv_ttft = error_stats(pt, mt);
        g.cv_tpot = error_stats(pp, mp);
        result.groups.push_back(std::move(g));
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (predicted[i]) result.cross_validated.rows.push_back(predictions[i]);
    result.cross_validated.skipped = result.skipped;
    return result;
}

namespace {

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

// Seconds in the unit that keeps them readable.
std::string duration(double s) {
    if (s == 0) return "0 us";
    if (s >= 1e-3) return number(s * 1e3) + " ms";
    if (s >= 1e-6) return number(s * 1e6) + " us";
    return number(s * 1e9) + " ns";
}

std::string percent(double f) { return number(100 * f) + " %"; }

std::string_view link_text(model::Link l) {
    return l == model::Link::ici ? "ici" : l == model::Link::nvlink ? "nvlink" : "dcn";
}

}  // namespace

std::string calibration_text(GroupFit const& g, CalibrateResult const& r, std::string const& date) {
    auto const& c = g.calibration;
    std::string t = "calibration " + c.name + " for " + c.hardware + " {\n";
    std::string file = r.measured_path.substr(r.measured_path.find_last_of('/') + 1);
    t += "    source = \"" + file + " sha256 " + r.measured_sha256 + ", " + std::to_string(g.rows) + " rows in " +
         std::to_string(g.series) + " series, fitted " + date + "\"\n";
    t += "    # fit: TPOT median APE " + percent(g.fit_tpot.median_ape) + ", TTFT " + percent(g.fit_ttft.median_ape) +
         "; cross-validated (" + "folds by series): TPOT " + percent(g.cv_tpot.median_ape) + " (signed " +
         percent(g.cv_tpot.signed_median) + "), TTFT " + percent(g.cv_ttft.median_ape) + " (signed " +
         percent(g.cv_ttft.signed_median) + ")\n";
    for (auto const& m : c.math)
        t += "    efficiency " + std::string(model::op_class_name(m.op_class)) + " " + m.dtype + " = " + number(m.value) + "\n";
    for (auto const& h : c.hbm_by_class)
        t += "    efficiency " + std::string(model::op_class_name(h.op_class)) + " hbm = " + number(h.value) + "\n";
    if (c.network) t += "    efficiency network = " + number(*c.network) + "\n";
    for (auto const& l : c.latencies)
        t += "    latency " + std::string(model::collective_info(l.kind).name) + " " + std::string(link_text(l.link)) +
             " = " + duration(l.seconds) + "\n";
    t += "    launch = " + duration(c.launch_s) + "\n";
    t += "    step_overhead = " + duration(c.step_overhead_s) + "\n";
    t += "    layer_overhead = " + duration(c.layer_overhead_s) + "\n";
    t += "    sequence_overhead = " + duration(c.sequence_overhead_s) + "\n";
    t += "    prefill_overhead = " + duration(c.prefill_overhead_s) + "\n";
    t += "    request_overhead = " + duration(c.request_overhead_s) + "\n";
    t += "    stream_overhead = " + duration(c.stream_overhead_s) + "\n";
    t += "    admission_wait = " + number(c.admission_wait) + "\n";
    t += "    first_token_steps = " + number(c.first_token_steps) + "\n";
    t += "    prompt_token_overhead = " + duration(c.prompt_token_overhead_s) + "\n";
    t += "    request_launch = " + duration(c.request_launch_s) + "\n";
    t += "    cold_start = " + number(c.cold_start) + "\n";
    t += "}\n";
    return t;
}

}  // namespace roofline::calibrate
