// summary.txt of a validation report: what `roofline validate` prints.
#include "roofline/validation/publish.hpp"

#include "roofline/output/terminal_text.hpp"
#include "roofline/validation/groups.hpp"
#include "tables.hpp"

#include <filesystem>
#include <map>

namespace roofline::validation {

namespace {

std::string rows_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " row" : " rows"); }

}  // namespace

std::string summary_tables(calibrate::Validation const& v) {
    std::string out = std::string(v.cross_validated ? "cross-validation (folds by series) of " : "validation of ") + output::terminal_safe(std::filesystem::path(v.measured_path).filename().string());
    if (!v.measured_sha256.empty()) out += " (sha256 " + v.measured_sha256.substr(0, 12) + ")";
    out += ": " + rows_text(v.measured_rows) + ", " + std::to_string(v.rows.size()) + " modelled, " +
           std::to_string(v.skipped.size()) + " skipped\n";
    std::string calibrations;
    for (auto const& [name, count] : calibrations_used(v))
        calibrations += (calibrations.empty() ? "" : ", ") +
                        (name.empty() ? std::string("none (uncalibrated)") : name) + " (" +
                        rows_text(count) + ")";
    if (!calibrations.empty()) out += "calibrations: " + output::terminal_safe(calibrations) + "\n";
    out += "\n";

    std::vector<std::vector<std::string>> table = {{"chip", "backend", "rows", "TPOT median APE",
                                                    "TPOT signed median", "TTFT median APE",
                                                    "TTFT signed median"}};
    for (auto const& g : error_groups(v)) {
        if (g.level == Level::chip_backend_model) continue;
        bool const all = g.level == Level::overall;
        auto stat = [](calibrate::ErrorStats const& s, bool sign) {
            return s.count == 0 ? std::string("-") : percent(sign ? s.signed_median : s.median_ape, sign);
        };
        table.push_back({all ? "all" : g.system, all ? "all" : g.backend, std::to_string(g.rows),
                         stat(g.tpot, false), stat(g.tpot, true), stat(g.ttft, false), stat(g.ttft, true)});
    }
    out += output::render_table(table, {false, false, true, true, true, true, true});
    out += "APE: |predicted - measured| / measured; signed: (predicted - measured) / measured, "
           "negative when the prediction is optimistic.\n";

    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) on
    // `"literal" + std::string&&` here.
    if (auto const memory = memory_disagreements(v); !memory.empty()) {
        out += "\n";
        out += rows_text(memory.size());
        out += " predicted not to fit in memory where the engine served them (memory.csv)\n";
    }

    auto const reasons = skipped_by_reason(v);
    if (!reasons.empty()) {
        out += "\nskipped: ";
        out += rows_text(v.skipped.size());
        out += " not modelled (skipped.csv)\n";
        std::vector<std::vector<std::string>> skipped = {{"rows", "reason"}};
        for (auto const& [reason, count] : reasons) skipped.push_back({std::to_string(count), reason});
        out += output::render_table(skipped, {true, false});
    }
    return out;
}

}  // namespace roofline::validation
