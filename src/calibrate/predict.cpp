// roofline validate's predictions: every row of a measured file with the
// calibration of its chip and engine (predict.hpp).
#include "roofline/calibrate/predict.hpp"

#include "modelled.hpp"
#include "pricing.hpp"

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/templates_dir.hpp"
#include "roofline/model/load.hpp"
#include "roofline/output/sha256.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace roofline::calibrate {

namespace {

struct LoadedCalibrations {
    std::vector<model::Calibration> calibrations;
    std::vector<std::string> files;
};

// Every `calibration` block of the files; a file that does not check is a
// MeasuredError with its diagnostics' text.
LoadedCalibrations load_calibrations(std::vector<std::string> files, std::vector<std::string> const& include_dirs) {
    LoadedCalibrations out;
    if (files.empty()) {
        namespace fs = std::filesystem;
        fs::path const dir = fs::path(templates_dir()) / "calibration";
        std::error_code ec;
        for (auto const& entry : fs::directory_iterator(dir, ec))
            if (entry.path().extension() == ".roof") files.push_back(entry.path().string());
        std::sort(files.begin(), files.end());
    }
    for (auto const& file : files) {
        Diagnostics diagnostics;
        auto loaded = model::load_scenario(file, std::nullopt, include_dirs, model::CheckOptions{}, diagnostics);
        if (diagnostics.has_errors()) {
            std::string message;
            for (auto const& d : diagnostics.all())
                if (d.severity == Severity::error) message += file + ": error: " + d.message + "\n";
            throw MeasuredError(message.empty() ? file + ": error: the calibration file does not check\n" : message);
        }
        for (auto c : loaded.scenario.calibrations) {
            // The values only: the spans point into `loaded`, which goes.
            c.span = {};
            for (auto& m : c.math) m.span = {};
            for (auto& h : c.hbm_by_class) h.span = {};
            for (auto& l : c.latencies) l.span = {};
            out.calibrations.push_back(std::move(c));
        }
        out.files.push_back(file);
    }
    return out;
}

// The calibration for a chip and an engine: the one for the chip whose name
// ends in "_<engine>", else the only one for the chip; nullptr for none.
model::Calibration const* calibration_for(std::vector<model::Calibration> const& all, std::string const& hardware,
                                          std::string const& backend) {
    model::Calibration const* only = nullptr;
    std::size_t for_chip = 0;
    std::string const suffix = "_" + backend;
    for (auto const& c : all) {
        if (c.hardware != hardware) continue;
        ++for_chip;
        only = &c;
        if (c.name.size() >= suffix.size() && c.name.compare(c.name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return &c;
    }
    return for_chip == 1 ? only : nullptr;
}

}  // namespace

Validation validate_measured(std::string const& path, PredictOptions const& options) {
    LoadedCalibrations calibrations;
    if (!options.uncalibrated) calibrations = load_calibrations(options.calibration_files, options.include_dirs);
    auto modelled = model_measured(path, options.configs_dir, options.include_dirs);
    Validation v;
    v.measured_path = path;
    v.measured_sha256 = output::sha256_hex(modelled.file.text);
    v.measured_rows = modelled.file.rows.size();
    v.calibration_files = calibrations.files;
    for (std::size_t i = 0; i < modelled.file.rows.size(); ++i) {
        auto const& row = modelled.file.rows[i];
        auto const& m = modelled.models[i];
        if (!m.problem.empty()) {
            v.skipped.push_back(SkippedRow{row.key, m.problem});
            continue;
        }
        RowPrediction p;
        p.key = row.key;
        p.measured_ttft_s = row.ttft_s;
        p.measured_tpot_s = row.tpot_s;
        auto const* calibration = calibration_for(calibrations.calibrations, modelled.hardware[i], row.key.backend);
        std::tie(p.predicted_ttft_s, p.predicted_tpot_s) = predict_row(m, calibration);
        std::tie(p.roofline_ttft_s, p.roofline_tpot_s) = predict_row(m, nullptr);
        p.calibration = calibration ? calibration->name : "";
        p.fits_memory = m.fits_memory;
        v.rows.push_back(std::move(p));
    }
    return v;
}

}  // namespace roofline::calibrate
