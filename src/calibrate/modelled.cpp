// Modelling a measured file row by row (modelled.hpp).
#include "modelled.hpp"

#include "roofline/importer/import_config.hpp"
#include "roofline/lang/diagnostics.hpp"

#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>

namespace roofline::calibrate {

namespace {

std::string first_error(Diagnostics const& diagnostics) {
    for (auto const& d : diagnostics.all())
        if (d.severity == Severity::error) return d.message;
    return "the scenario did not load";
}

// The import error's first line, without the file name it starts with.
std::string reason_of(std::string message) {
    message = message.substr(0, message.find('\n'));
    auto at = message.find("error: ");
    return at == std::string::npos ? message : message.substr(at + 7);
}

}  // namespace

std::size_t fold_of(std::string const& key, std::size_t folds) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : key) h = (h ^ c) * 1099511628211ULL;
    return static_cast<std::size_t>(h % folds);
}

ModelledRows model_measured(std::string const& path, std::string const& configs_dir,
                            std::vector<std::string> const& include_dirs, ModelProgress const& progress,
                            RowFilter const& selected) {
    ModelledRows out;
    out.file = read_measured(path);
    auto const& rows = out.file.rows;
    out.models.resize(rows.size());
    out.hardware.resize(rows.size());
    out.series_of.assign(rows.size(), std::numeric_limits<std::size_t>::max());
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].key.mode != "agg")
            out.models[i].problem = "disaggregated (separate prefill and decode workers): not modelled yet";
    std::vector<MeasuredRow> chosen;
    std::vector<std::size_t> chosen_index;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (selected && !selected(rows[i])) {
            out.models[i].problem = "not selected";
            continue;
        }
        chosen.push_back(rows[i]);
        chosen_index.push_back(i);
    }
    out.series = group_series(chosen);
    for (auto& series : out.series)
        for (auto& i : series.rows) i = chosen_index[i];
    std::size_t done = 0;
    for (std::size_t s = 0; s < out.series.size(); ++s) {
        auto const& series = out.series[s];
        MeasuredRow const& first = rows[series.rows.front()];
        auto skip_all = [&](std::string const& reason) {
            for (auto i : series.rows) out.models[i].problem = reason;
        };
        for (auto i : series.rows) out.series_of[i] = s;
        std::string const config_path = find_config(first.config, configs_dir, path);
        std::string config_text;
        if (config_path.empty()) {
            skip_all(first.config.empty() ? "no `config` column value (give --configs DIR)"
                                          : "config '" + first.config + "' not found");
        } else {
            std::ifstream in(config_path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            config_text = text.str();
        }
        if (!config_text.empty()) {
            std::vector<std::uint32_t> batches;
            for (auto i : series.rows) batches.push_back(rows[i].key.batch);
            std::sort(batches.begin(), batches.end());
            batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
            try {
                auto scenario_text = series_scenario(first, batches, config_text, first.config);
                Diagnostics diagnostics;
                auto loaded = model::load_scenario(first.key.id + ".roof", scenario_text.text, include_dirs,
                                                   model::CheckOptions{}, diagnostics);
                if (diagnostics.has_errors()) {
                    skip_all("the imported scenario does not check: " + first_error(diagnostics));
                } else {
                    auto const& sc = loaded.scenario;
                    std::string const hw = sc.hardware[static_cast<std::size_t>(sc.targets[0])].id;
                    std::size_t c_sweep = 0;
                    for (std::size_t w = 0; w < sc.sweeps.size(); ++w)
                        if (sc.sweeps[w].name == "clients") c_sweep = w;
                    for (auto i : series.rows) {
                        std::vector<double> point;
                        for (auto const& sweep : sc.sweeps) point.push_back(sweep.values.front());
                        point[c_sweep] = rows[i].key.batch;
                        out.models[i] = model_row(sc, point);
                        out.hardware[i] = hw;
                    }
                }
            } catch (model::ImportError const& e) {
                skip_all(reason_of(e.what()));
            }
        }
        done += series.rows.size();
        if (progress) progress(done, chosen.size());
    }
    return out;
}

}  // namespace roofline::calibrate
