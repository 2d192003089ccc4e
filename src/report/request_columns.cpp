#include "roofline/report/request_columns.hpp"

#include "requests_csv.hpp"

#include <cmath>

namespace roofline::report {

namespace {

using R = RequestRow;
using Cell = RequestCell;
using Term = RequestTerm;
using N = RequestColumnSpec::Needs;
using Result = engine::RequestResult;

template <double Result::*field>
double value(R const& r, std::size_t) { return r.result.*field; }

// clang-format off
constexpr RequestColumnSpec specs[] = {
//   csv               sheet           term          sweep  varies cell          term                width formula                                      needs
    {"request",        "request",      "",           false, false, Cell::plain,  Term::text,         0,  "",                                          N::nothing,
     nullptr, [](R const& r, std::size_t) -> std::string_view { return r.context.scenario.requests[r.result.request].name; }},
    {"hardware",       "hardware",     "",           false, false, Cell::indent, Term::text,         0,  "",                                          N::nothing,
     nullptr, [](R const& r, std::size_t) -> std::string_view { return r.hardware().id; }},
    // A sweep's value: a number, or for a dtype sweep the dtype's name.
    {"",               "",             "",           true,  false, Cell::plain,  Term::count,        0,  "",                                          N::nothing,
     [](R const& r, std::size_t v) { return r.context.grid.sweep_value(r.result.point, v); },
     [](R const& r, std::size_t v) -> std::string_view {
         auto const* name = r.context.scenario.sweep_dtype_name(v, r.context.grid.sweep_value(r.result.point, v));
         return name ? std::string_view(*name) : std::string_view(); }},
    {"prompt",         "prompt",       "prompt",     false, true,  Cell::whole,  Term::count,        0,  "",                                          N::nothing, value<&Result::prompt>},
    {"output",         "output",       "output",     false, true,  Cell::whole,  Term::count,        0,  "",                                          N::nothing, value<&Result::output>},
    {"batch",          "batch",        "batch",      false, true,  Cell::whole,  Term::count,        0,  "",                                          N::nothing, value<&Result::batch>},
    {"ttft",           "TTFT",         "TTFT",       false, false, Cell::time,   Term::long_seconds, 12, "",                                          N::nothing, value<&Result::ttft>},
    {"tpot_first",     "TPOT first",   "TPOT first", false, false, Cell::time,   Term::long_seconds, 12, "",                                          N::nothing, value<&Result::tpot_first>},
    {"tpot_mean",      "TPOT mean",    "mean",       false, false, Cell::time,   Term::long_seconds, 12, "",                                          N::nothing, value<&Result::tpot_mean>},
    {"tpot_last",      "TPOT last",    "last",       false, false, Cell::time,   Term::long_seconds, 12, "",                                          N::nothing, value<&Result::tpot_last>},
    {"decode_total",   "decode total", "",           false, false, Cell::time,   Term::long_seconds, 12, "",                                          N::nothing, value<&Result::decode_total>},
    {"e2e",            "e2e",          "e2e",        false, false, Cell::time,   Term::long_seconds, 12, "{ttft}+{decode_total}",                     N::finite_e2e, value<&Result::e2e>},
    {"tokens_per_s",   "tokens/s",     "tokens/s",   false, false, Cell::rate,   Term::si_count,     12, "{batch}*{output}/{e2e}",                    N::finite_e2e, value<&Result::tokens_per_s>},
    {"weight_bytes",   "weights",      "",           false, false, Cell::bytes,  Term::si_bytes,     12, "",                                          N::nothing, value<&Result::weight_bytes>},
    {"cache_bytes",    "cache",        "KV at end",  false, false, Cell::bytes,  Term::si_bytes,     12, "",                                          N::nothing, value<&Result::cache_bytes>},
    {"resident_bytes", "resident",     "resident",   false, false, Cell::bytes,  Term::si_bytes,     12, "{weight_bytes}+{cache_bytes}",              N::nothing,
     [](R const& r, std::size_t) { return r.result.weight_bytes + r.result.cache_bytes; }},
    {"hbm_capacity",   "HBM capacity", "",           false, false, Cell::bytes,  Term::si_bytes,     12, "{hw.hbm_capacity}",                         N::capacity,
     [](R const& r, std::size_t) { return r.hardware().hbm_capacity_bytes ? *r.hardware().hbm_capacity_bytes : NAN; }},
    {"fits",           "fits",         "fits",       false, false, Cell::center, Term::text,         0,  "IF({resident_bytes}<={hbm_capacity},\"yes\",\"no\")", N::capacity,
     nullptr, [](R const& r, std::size_t) { return request_fits(r.context, r.result); }},
    // The expected times (docs/calibration.md): the bounded ones when uncalibrated; last, so that the
    // columns before them stay where they were.
    {"ttft_expected",  "TTFT expected", "TTFT exp.", false, false, Cell::time,  Term::long_seconds, 12, "",                                          N::nothing, value<&Result::ttft_expected>},
    {"tpot_first_expected", "TPOT first expected", "", false, false, Cell::time, Term::long_seconds, 12, "",                                       N::nothing, value<&Result::tpot_first_expected>},
    {"tpot_mean_expected", "TPOT mean expected", "TPOT exp.", false, false, Cell::time, Term::long_seconds, 12, "",                                N::nothing, value<&Result::tpot_mean_expected>},
    {"tpot_last_expected", "TPOT last expected", "", false, false, Cell::time, Term::long_seconds, 12, "",                                         N::nothing, value<&Result::tpot_last_expected>},
    {"decode_total_expected", "decode total expected", "", false, false, Cell::time, Term::long_seconds, 12, "",                                  N::nothing, value<&Result::decode_total_expected>},
    {"e2e_expected",   "e2e expected", "",           false, false, Cell::time,   Term::long_seconds, 12, "{ttft_expected}+{decode_total_expected}",   N::finite_e2e, value<&Result::e2e_expected>},
    {"tokens_per_s_expected", "tokens/s expected", "", false, false, Cell::rate, Term::si_count,     12, "{batch}*{output}/{e2e_expected}",          N::finite_e2e, value<&Result::tokens_per_s_expected>},
    {"calibration",    "calibration",  "",           false, false, Cell::plain,  Term::text,         0,  "",                                          N::nothing,
     nullptr, [](R const& r, std::size_t) { return calibration_label(r.context.scenario, r.result.target); }},
};
// clang-format on

}  // namespace

std::span<RequestColumnSpec const> request_column_specs() { return specs; }

std::vector<RequestColumn> request_columns(model::Scenario const& scenario) {
    std::vector<RequestColumn> columns;
    for (auto const& spec : specs) {
        if (!spec.per_sweep) {
            columns.push_back({&spec, 0, std::string(spec.csv), std::string(spec.sheet), std::string(spec.term)});
            continue;
        }
        for (std::size_t v = 0; v < scenario.sweeps.size(); ++v) {
            auto const& name = scenario.sweeps[v].name;
            columns.push_back({&spec, v, name, name, name});
        }
    }
    return columns;
}

}  // namespace roofline::report
