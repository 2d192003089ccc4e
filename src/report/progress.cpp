#include "roofline/report/progress.hpp"

namespace roofline::report {

char const* phase_name(Phase phase) {
    switch (phase) {
        case Phase::evaluating: return "evaluating";
        case Phase::workbook: return "workbook";
        case Phase::charts: return "charts";
        case Phase::csv: return "csv";
        case Phase::publishing: return "publishing";
        case Phase::serving: return "serving";
        case Phase::fleet: return "fleet";
    }
    return "?";
}

}  // namespace roofline::report
