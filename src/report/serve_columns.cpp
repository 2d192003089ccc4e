#include "roofline/report/serve_columns.hpp"

#include "launch_settings.hpp"

#include "output/gnuplot_text.hpp"

#include <cmath>
#include <limits>

namespace roofline::report {

namespace {

using R = ServeRow;
using F = FleetRowView;
using Cell = ServeCell;
using Term = ServeTerm;
using Each = ServeColumnSpec::Each;
using Result = engine::ServeResult;
using Fleet = engine::FleetRow;
using engine::serving::Latency;

constexpr double none = std::numeric_limits<double>::quiet_NaN();  // an empty cell

// What a point is (its chips, rate, memory): shown even where it could not
// be simulated, since that says why.
template <double Result::*field>
double value(R const& r, std::size_t) { return r.result.*field; }
// What the simulation found: empty on a point that has a problem, never 0.
template <double Result::*field>
double figure(R const& r, std::size_t) { return r.result.problem.empty() ? r.result.*field : none; }
template <std::uint64_t Result::*field>
double count(R const& r, std::size_t) {
    return r.result.problem.empty() ? static_cast<double>(r.result.*field) : none;
}
template <Latency Result::*figure, double Latency::*statistic>
double latency(R const& r, std::size_t) {
    return r.result.problem.empty() ? (r.result.*figure).*statistic : none;
}
// A fleet row's figures: empty where no rate meets the SLOs (why_none says why).
template <double Fleet::*field>
double fleet_value(F const& f, std::size_t) { return f.row.why_none.empty() ? f.row.*field : none; }

std::string yes_no(bool yes) { return yes ? "yes" : "no"; }

// A sweep's value at a point: its dtype's name for a dtype sweep, else "" (a number).
std::string dtype_text(ReportContext const& context, std::size_t point, std::size_t v) {
    auto const* name = context.scenario.sweep_dtype_name(v, context.grid.sweep_value(point, v));
    return name ? *name : std::string();
}

double sweep_number(ReportContext const& context, std::size_t point, std::size_t v) {
    return context.grid.sweep_value(point, v);
}

engine::ServeResult const* fleet_result(F const& f) {
    return serve_result(f.context, f.row.point, f.row.target);
}

LaunchSettings fleet_launch(F const& f) {
    return launch_settings(f.context, f.row.point, f.row.target, fleet_result(f));
}

// clang-format off
#define LAT(csv, sheet, term, fig, stat) \
    {csv, sheet, term, Each::once, Cell::time, Term::seconds, true, latency<&Result::fig, &Latency::stat>}
constexpr ServeColumnSpec specs[] = {
//   csv                             sheet                     term          each        cell          term           bound  value
    {"hardware",                     "hardware",               "",           Each::once, Cell::indent, Term::text,    false, nullptr,
     [](R const& r, std::size_t) { return r.context.target(r.result.target).id; }},
    {"",                             "",                       "",           Each::sweep, Cell::plain, Term::count,   false,
     [](R const& r, std::size_t v) { return sweep_number(r.context, r.result.point, v); },
     [](R const& r, std::size_t v) { return dtype_text(r.context, r.result.point, v); }},
    {"chips",                        "chips",                  "",           Each::once, Cell::whole,  Term::count,   false, value<&Result::chips>},
    // Disaggregated: the group, the link between its pools, the mean KV hand-over.
    {"pools",                        "pools",                  "pools",      Each::pools, Cell::plain, Term::text,    false, nullptr,
     [](R const& r, std::size_t) { return r.result.pools; }},
    {"link",                         "KV link",                "",           Each::pools, Cell::plain, Term::text,    false, nullptr,
     [](R const& r, std::size_t) { return r.result.link; }},
    {"transfer_mean",                "KV transfer (mean)",     "",           Each::pools, Cell::time,  Term::seconds, false, figure<&Result::transfer_seconds>},
    {"rate",                         "rate (req/s)",           "rate",       Each::once, Cell::rate,   Term::si_count, false, value<&Result::rate>},
    {"clients",                      "clients",                "clients",    Each::once, Cell::whole,  Term::count,   false, value<&Result::clients>},
    {"served_rate",                  "served (req/s)",         "served",     Each::once, Cell::rate,   Term::si_count, false, figure<&Result::served_rate>},
    {"output_tokens_per_s",          "output tok/s",           "",           Each::once, Cell::rate,   Term::si_count, false, figure<&Result::output_tokens_per_s>},
    {"output_tokens_per_s_per_chip", "output tok/s per chip",  "tok/s/chip", Each::once, Cell::rate,   Term::si_count, false, figure<&Result::output_tokens_per_s_per_chip>},
    LAT("ttft_p50",  "TTFT p50",  "TTFT p50", ttft, p50),
    LAT("ttft_p90",  "TTFT p90",  "",         ttft, p90),
    LAT("ttft_p99",  "TTFT p99",  "TTFT p99", ttft, p99),
    LAT("ttft_mean", "TTFT mean", "",         ttft, mean),
    LAT("tpot_p50",  "TPOT p50",  "TPOT p50", tpot, p50),
    LAT("tpot_p90",  "TPOT p90",  "",         tpot, p90),
    LAT("tpot_p99",  "TPOT p99",  "TPOT p99", tpot, p99),
    LAT("tpot_mean", "TPOT mean", "",         tpot, mean),
    LAT("e2e_p50",   "e2e p50",   "",         e2e,  p50),
    LAT("e2e_p90",   "e2e p90",   "",         e2e,  p90),
    LAT("e2e_p99",   "e2e p99",   "e2e p99",  e2e,  p99),
    LAT("e2e_mean",  "e2e mean",  "",         e2e,  mean),
    {"mean_running",                 "running (mean)",         "running",    Each::once, Cell::rate,   Term::general, false, figure<&Result::mean_running>},
    {"mean_step",                    "step (mean)",            "",           Each::once, Cell::time,   Term::seconds, false, figure<&Result::mean_step>},
    {"peak_kv_tokens",               "KV peak (tokens)",       "KV peak",    Each::once, Cell::whole,  Term::si_count, false, figure<&Result::peak_kv_tokens>},
    {"kv_capacity_tokens",           "KV capacity (tokens)",   "KV capacity", Each::once, Cell::whole, Term::si_count, false, value<&Result::kv_capacity_tokens>},
    {"weight_bytes",                 "weights per chip",       "",           Each::once, Cell::bytes,  Term::si_bytes, false, value<&Result::weight_bytes>},
    {"reserve_bytes",                "reserve per chip",       "",           Each::once, Cell::bytes,  Term::si_bytes, false, value<&Result::reserve_bytes>},
    {"kv_bytes_per_token",           "KV bytes/token per chip", "",          Each::once, Cell::bytes,  Term::si_bytes, false, value<&Result::kv_bytes_per_token>},
    {"kv_bytes_per_sequence",        "KV bytes/sequence per chip", "",       Each::once, Cell::bytes,  Term::si_bytes, false, value<&Result::kv_bytes_per_sequence>},
    {"steps",                        "steps",                  "",           Each::once, Cell::whole,  Term::count,   false, count<&Result::steps>},
    {"requests",                     "requests counted",       "",           Each::once, Cell::whole,  Term::count,   false, count<&Result::requests>},
    {"preemptions",                  "preemptions",            "",           Each::once, Cell::whole,  Term::count,   false, count<&Result::preemptions>},
    // The latencies of a saturated point are lower bounds (serving.md, section 3).
    {"saturated",                    "saturated (lower bounds)", "saturated", Each::once, Cell::center, Term::text,  false, nullptr,
     [](R const& r, std::size_t) { return r.result.problem.empty() ? yes_no(r.result.saturated) : std::string(); }},
    {"slos_met",                     "SLOs met",               "SLOs",       Each::once, Cell::center, Term::text,    false, nullptr,
     [](R const& r, std::size_t) {
         if (!r.result.problem.empty() || r.context.scenario.serve_slos.empty()) return std::string();
         return yes_no(serve_meets_slos(r.result)); }},
    {"",                             "",                       "",           Each::slo,  Cell::center, Term::text,    false, nullptr,
     [](R const& r, std::size_t i) {
         if (!r.result.problem.empty() || i >= r.result.slo_met.size()) return std::string();
         return yes_no(r.result.slo_met[i] != 0); }},
    {"problem",                      "problem",                "",           Each::once, Cell::plain,  Term::text,    false, nullptr,
     [](R const& r, std::size_t) { return r.result.problem; }},
    // Which times these are: the target's calibration (expected), or the
    // serial roofline. Last, so that the columns before stay where they were.
    {"calibration",                  "calibration",            "",           Each::once, Cell::plain,  Term::text,    false, nullptr,
     [](R const& r, std::size_t) { return std::string(calibration_label(r.context.scenario, r.result.target)); }},
};
#undef LAT

constexpr FleetColumnSpec fleet_specs[] = {
//   csv                           sheet                   term             sweep  cell          term
    {"hardware",                   "hardware",             "",              false, Cell::indent, Term::text, nullptr,
     [](F const& f, std::size_t) { return f.context.target(f.row.target).id; }},
    {"",                           "",                     "",              true,  Cell::plain,  Term::count,
     [](F const& f, std::size_t v) { return sweep_number(f.context, f.row.point, v); },
     [](F const& f, std::size_t v) { return dtype_text(f.context, f.row.point, v); }},
    {"chips_per_replica",          "chips per replica",    "chips/replica", false, Cell::whole,  Term::count,
     [](F const& f, std::size_t) {
         // Disaggregated: the chips of one group of prefill and decode replicas.
         if (f.row.pools.empty()) return f.context.grid.chips_at(f.row.point);
         return f.row.replicas > 0 ? f.row.chips / f.row.replicas : std::numeric_limits<double>::quiet_NaN(); }},
    {"pools",                      "group (prefill + decode)", "group",      false, Cell::plain,  Term::text, nullptr,
     [](F const& f, std::size_t) { return f.row.pools; }, true},
    {"max_rate_per_replica",       "max rate per replica (req/s)", "rate/replica", false, Cell::rate, Term::si_count, fleet_value<&Fleet::max_rate>},
    {"replicas",                   "replicas",             "replicas",      false, Cell::whole,  Term::count,   fleet_value<&Fleet::replicas>},
    {"chips",                      "chips",                "chips",         false, Cell::whole,  Term::count,   fleet_value<&Fleet::chips>},
    {"dollars_per_hour",           "$/h",                  "$/h",           false, Cell::rate,   Term::general, fleet_value<&Fleet::dollars_per_hour>},
    {"dollars_per_million_tokens", "$ per M output tokens", "$/Mtok",       false, Cell::rate,   Term::general, fleet_value<&Fleet::dollars_per_million_tokens>},
    {"kilowatts",                  "kW",                   "kW",            false, Cell::rate,   Term::general, fleet_value<&Fleet::kilowatts>},
    {"joules_per_token",           "J per output token",   "J/token",       false, Cell::rate,   Term::general, fleet_value<&Fleet::joules_per_token>},
    {"fewest_chips",               "fewest chips",         "",              false, Cell::center, Term::text, nullptr,
     [](F const& f, std::size_t) { return f.row.fewest_chips ? std::string("yes") : std::string(); }},
    {"cheapest",                   "cheapest",             "",              false, Cell::center, Term::text, nullptr,
     [](F const& f, std::size_t) { return f.row.cheapest ? std::string("yes") : std::string(); }},
    {"",                           "",                     "marks",         false, Cell::plain,  Term::text, nullptr,
     [](F const& f, std::size_t) {
         std::string marks = f.row.fewest_chips ? "fewest chips" : "";
         if (f.row.cheapest) marks.append(marks.empty() ? "" : ", ").append("cheapest");
         return marks; }},
    {"why_none",                   "why none",             "",              false, Cell::plain,  Term::text, nullptr,
     [](F const& f, std::size_t) { return f.row.why_none; }},
    {"vllm",                       "vLLM",                 "",              false, Cell::wrap ,  Term::text, nullptr,
     [](F const& f, std::size_t) { return fleet_launch(f).vllm; }},
    {"trtllm",                     "TensorRT-LLM",         "",              false, Cell::wrap ,  Term::text, nullptr,
     [](F const& f, std::size_t) { return fleet_launch(f).trtllm; }},
    {"sglang",                     "SGLang",               "",              false, Cell::wrap ,  Term::text, nullptr,
     [](F const& f, std::size_t) { return fleet_launch(f).sglang; }},
    // The target's calibration (last, so that the columns before stay where they were).
    {"calibration",                "calibration",          "",              false, Cell::plain,  Term::text, nullptr,
     [](F const& f, std::size_t) { return std::string(calibration_label(f.context.scenario, f.row.target)); }},
};
// clang-format on

// "ttft_p99" of `slo ttft_p99 <= 1 s`.
std::string slo_name(model::ServeSlo const& slo) {
    using Fig = model::ServeSlo::Figure;
    using Stat = model::ServeSlo::Statistic;
    std::string name = slo.figure == Fig::ttft ? "ttft" : slo.figure == Fig::tpot ? "tpot" : "e2e";
    name += slo.statistic == Stat::p50 ? "_p50" : slo.statistic == Stat::p90 ? "_p90"
          : slo.statistic == Stat::p99 ? "_p99" : "_mean";
    return name;
}

}  // namespace

std::span<ServeColumnSpec const> serve_column_specs() { return specs; }
std::span<FleetColumnSpec const> fleet_column_specs() { return fleet_specs; }

std::vector<ServeColumn> serve_columns(model::Scenario const& scenario) {
    std::vector<ServeColumn> columns;
    for (auto const& spec : specs) {
        if (spec.each == Each::once) {
            columns.push_back({&spec, 0, std::string(spec.csv), std::string(spec.sheet), std::string(spec.term)});
        } else if (spec.each == Each::sweep) {
            for (std::size_t v = 0; v < scenario.sweeps.size(); ++v) {
                auto const& name = scenario.sweeps[v].name;
                columns.push_back({&spec, v, name, name, ""});
            }
        } else if (spec.each == Each::pools) {
            if (scenario.serve && scenario.serve->prefill_pool)
                columns.push_back({&spec, 0, std::string(spec.csv), std::string(spec.sheet), std::string(spec.term)});
        } else {
            for (std::size_t i = 0; i < scenario.serve_slos.size(); ++i) {
                auto const& slo = scenario.serve_slos[i];
                // Two bounds on one figure stay apart: slo_ttft_p99_2.
                std::string csv = std::string("slo_").append(slo_name(slo));
                for (std::size_t j = 0; j < i; ++j)
                    if (slo_name(scenario.serve_slos[j]) == slo_name(slo)) {
                        csv.append("_").append(std::to_string(i + 1));
                        break;
                    }
                columns.push_back({&spec, i, csv, std::string("SLO ").append(slo.text), ""});
            }
        }
    }
    return columns;
}

bool serve_is_text(ServeColumn const& column, ServeRow const& row) {
    if (!column.spec->text) return false;
    return !column.spec->number || !column.spec->text(row, column.index).empty();
}

std::vector<FleetColumn> fleet_columns(model::Scenario const& scenario) {
    std::uint64_t const load = serve_load_sweeps(scenario);
    std::vector<FleetColumn> columns;
    for (auto const& spec : fleet_specs) {
        if (spec.pools_only && !(scenario.serve && scenario.serve->prefill_pool)) continue;
        if (!spec.per_sweep) {
            columns.push_back({&spec, 0, std::string(spec.csv), std::string(spec.sheet), std::string(spec.term)});
            continue;
        }
        for (std::size_t v = 0; v < scenario.sweeps.size(); ++v) {
            if (v < 64 && (load >> v & 1)) continue;  // the load is what the fleet searched
            auto const& name = scenario.sweeps[v].name;
            columns.push_back({&spec, v, name, name, name});
        }
    }
    return columns;
}

bool fleet_is_text(FleetColumn const& column, FleetRowView const& row) {
    if (!column.spec->text) return false;
    return !column.spec->number || !column.spec->text(row, column.sweep).empty();
}

std::uint64_t serve_load_sweeps(model::Scenario const& scenario) {
    if (!scenario.serve || scenario.serve->arrivals_slot < 0) return 0;
    auto const& slot = scenario.slots[static_cast<std::size_t>(scenario.serve->arrivals_slot)];
    std::uint64_t bits = slot.depends_on;
    if (slot.sweep >= 0 && slot.sweep < 64) bits |= std::uint64_t{1} << slot.sweep;
    return bits;
}

std::size_t serve_config_point(ReportContext const& context, std::size_t point) {
    auto const& grid = context.grid;
    std::uint64_t const load = serve_load_sweeps(context.scenario);
    // The first sweep varies slowest: sweep v's digit has the stride of the sweeps after it.
    std::size_t stride = 1, first = point;
    for (std::size_t v = grid.sweep_count; v-- > 0;) {
        std::size_t const size = grid.sweep_sizes[v];
        if (v < 64 && (load >> v & 1)) first -= (point / stride % size) * stride;
        stride *= size;
    }
    return first;
}

// The sweeps a serve's pools fix (their values name the pools' meshes).
std::uint64_t serve_pool_sweeps(model::Scenario const& scenario) {
    std::uint64_t bits = 0;
    if (!scenario.serve || !scenario.serve->prefill_pool) return bits;
    for (auto const* pool : {&*scenario.serve->prefill_pool, &*scenario.serve->decode_pool})
        for (auto const& [sweep, value] : pool->values)
            if (sweep >= 0 && sweep < 64) bits |= std::uint64_t{1} << sweep;
    return bits;
}

std::string serve_config_text(ReportContext const& context, std::size_t point) {
    // Neither the load nor what the pools fix tells configurations apart.
    std::uint64_t const load = serve_load_sweeps(context.scenario) | serve_pool_sweeps(context.scenario);
    std::string text;
    for (std::size_t v = 0; v < context.grid.sweep_count; ++v) {
        if (v < 64 && (load >> v & 1)) continue;
        double const value = context.grid.sweep_value(point, v);
        auto const* dtype = context.scenario.sweep_dtype_name(v, value);
        text.append(text.empty() ? "" : ", ")
            .append(context.scenario.sweeps[v].name)
            .append(" = ")
            .append(dtype ? *dtype : output::value_text(value));
    }
    return text;
}

double serve_load(engine::ServeResult const& result) {
    return std::isnan(result.rate) ? result.clients : result.rate;
}

bool serve_closed(model::Scenario const& scenario) {
    return scenario.serve && scenario.serve->arrivals == model::Serve::Arrivals::closed;
}

bool serve_meets_slos(engine::ServeResult const& result) {
    if (!result.problem.empty()) return false;
    for (auto met : result.slo_met)
        if (!met) return false;
    return true;
}

engine::ServeResult const* serve_result(ReportContext const& context, std::size_t point,
                                        std::size_t target) {
    if (!context.serve) return nullptr;
    std::size_t const index = point * context.grid.target_count + target;
    if (index >= context.serve->size()) return nullptr;
    auto const& result = (*context.serve)[index];
    return result.point == point && result.target == target ? &result : nullptr;
}

}  // namespace roofline::report
