#include "roofline/validation/groups.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>

namespace roofline::validation {

char const* level_name(Level level) {
    switch (level) {
        case Level::overall: return "overall";
        case Level::chip_backend: return "chip_backend";
        case Level::chip_backend_model: break;
    }
    return "chip_backend_model";
}

double signed_error(double predicted, double measured) {
    if (!(measured > 0) || !std::isfinite(predicted)) return std::numeric_limits<double>::quiet_NaN();
    return (predicted - measured) / measured;
}

namespace {

struct Members {
    std::vector<double> ttft_p, ttft_m, tpot_p, tpot_m;
    std::size_t rows = 0;
    void add(calibrate::RowPrediction const& r) {
        ++rows;
        ttft_p.push_back(r.predicted_ttft_s);
        ttft_m.push_back(r.measured_ttft_s);
        tpot_p.push_back(r.predicted_tpot_s);
        tpot_m.push_back(r.measured_tpot_s);
    }
    Group group(Level level, std::string system, std::string backend, std::string model) const {
        Group g;
        g.level = level;
        g.system = std::move(system);
        g.backend = std::move(backend);
        g.model = std::move(model);
        g.rows = rows;
        g.ttft = calibrate::error_stats(ttft_p, ttft_m);
        g.tpot = calibrate::error_stats(tpot_p, tpot_m);
        return g;
    }
};

}  // namespace

std::vector<Group> error_groups(calibrate::Validation const& validation) {
    Members all;
    std::map<std::pair<std::string, std::string>, Members> chip_backend;
    std::map<std::tuple<std::string, std::string, std::string>, Members> chip_backend_model;
    for (auto const& r : validation.rows) {
        all.add(r);
        chip_backend[{r.key.system, r.key.backend}].add(r);
        chip_backend_model[{r.key.system, r.key.backend, r.key.model}].add(r);
    }
    std::vector<Group> out;
    out.push_back(all.group(Level::overall, "", "", ""));
    for (auto const& [key, members] : chip_backend)
        out.push_back(members.group(Level::chip_backend, key.first, key.second, ""));
    for (auto const& [key, members] : chip_backend_model)
        out.push_back(members.group(Level::chip_backend_model, std::get<0>(key), std::get<1>(key),
                                    std::get<2>(key)));
    return out;
}

std::map<std::string, std::size_t> skipped_by_reason(calibrate::Validation const& validation) {
    std::map<std::string, std::size_t> out;
    for (auto const& s : validation.skipped) ++out[s.reason];
    return out;
}

std::map<std::string, std::size_t> calibrations_used(calibrate::Validation const& validation) {
    std::map<std::string, std::size_t> rows;  // a fold's fit under its group's calibration
    std::map<std::string, std::set<int>> folds;
    for (auto const& r : validation.rows) {
        auto const cut = r.fold >= 0 ? r.calibration.rfind(" (fold ") : std::string::npos;
        std::string const name = r.calibration.substr(0, cut);
        ++rows[name];
        if (cut != std::string::npos) folds[name].insert(r.fold);
    }
    std::map<std::string, std::size_t> out;
    for (auto const& [name, n] : rows) {
        auto const f = folds.find(name);
        std::size_t const k = f == folds.end() ? 0 : f->second.size();
        out[k == 0 ? name : name + " (" + std::to_string(k) + (k == 1 ? " fold)" : " folds)")] = n;
    }
    return out;
}

std::vector<calibrate::RowPrediction const*> memory_disagreements(
    calibrate::Validation const& validation) {
    std::vector<calibrate::RowPrediction const*> out;
    for (auto const& r : validation.rows)
        if (!r.fits_memory) out.push_back(&r);
    return out;
}

}  // namespace roofline::validation
