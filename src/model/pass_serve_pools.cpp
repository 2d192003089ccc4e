// The serve's pools (docs/serving.md, "Disaggregated prefill and decode"):
// `prefill_pool(replicas = 1, TP = 4)` and `decode_pool(...)`, both or
// neither; replicas a positive whole constant, every other argument a sweep
// of the scenario set to one of its values.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace roofline::model {
namespace {

constexpr double max_pool_replicas = 1'000'000;

std::string values_of(Scenario const& scenario, Sweep const& sweep) {
    std::string text;
    for (std::size_t i = 0; i < sweep.values.size(); ++i) {
        if (i > 0) text.append(", ");
        auto const* dtype = sweep.of_dtypes ? &scenario.dtypes[static_cast<std::size_t>(sweep.values[i])].name : nullptr;
        text.append(dtype ? *dtype : format_number(sweep.values[i]));
    }
    return text;
}

// The value `expr` gives sweep `sweep`: a dtype sweep's value is the name of
// one of its dtypes, a number sweep's a constant; nullopt after an error.
std::optional<double> sweep_value(Context const& context, Constants const& constant, ParsedFile const& file,
                                  ast::Expression const& expr, Scenario const& scenario, Sweep const& sweep) {
    Span at = file.span_of(expr);
    std::optional<double> value;
    if (sweep.of_dtypes) {
        auto const* name = expr.rest.empty() ? boost::get<ast::Identifier>(&expr.first.get()) : nullptr;
        if (name)
            for (double v : sweep.values)
                if (scenario.dtypes[static_cast<std::size_t>(v)].name == name->name) value = v;
    } else {
        value = constant(file, expr, "a pool's sweep value");
        if (!value) return std::nullopt;
        bool found = false;
        for (double v : sweep.values) found = found || v == *value;
        if (!found) value.reset();
    }
    if (!value) {
        std::string written(file.source->text.substr(at.offset, at.length));
        context.diagnostics.error(at, "sweep " + sweep.name + " has no value " + written + " (its values are " +
                                          values_of(scenario, sweep) + ")");
    }
    return value;
}

std::optional<ServePool> check_pool(Context const& context, ParsedFile const& file, ast::ServePool const& node,
                                    Constants const& constant, Scenario const& scenario) {
    auto& diagnostics = context.diagnostics;
    ServePool pool;
    pool.span = file.span_of(node.name);
    bool ok = true, has_replicas = false;
    std::vector<std::string_view> names = {"replicas"};
    for (auto const& sweep : scenario.sweeps) names.push_back(sweep.name);
    std::vector<std::string> written;
    for (auto const& argument : node.arguments) {
        auto const& name = argument.name.name;
        Span name_span = file.span_of(argument.name);
        bool twice = false;
        for (auto const& w : written) twice = twice || w == name;
        if (twice) {
            diagnostics.error(name_span, "'" + name + "' is given twice in " + node.name.name);
            ok = false;
            continue;
        }
        written.push_back(name);
        if (name == "replicas") {
            has_replicas = true;
            auto value = constant(file, argument.value, "replicas");
            if (!value) {
                ok = false;
                continue;
            }
            if (!(*value >= 1) || *value != std::floor(*value) || *value > max_pool_replicas) {
                diagnostics.error(file.span_of(argument.value),
                                  "replicas must be a positive whole number of at most 1,000,000, not " +
                                      format_number(*value));
                ok = false;
                continue;
            }
            pool.replicas = *value;
            continue;
        }
        int found = -1;
        for (std::size_t s = 0; s < scenario.sweeps.size(); ++s)
            if (scenario.sweeps[s].name == name) found = static_cast<int>(s);
        if (found < 0) {
            diagnostics.error(name_span, "'" + name + "' is not a sweep of the scenario: a pool takes replicas "
                                         "and values of sweeps (e.g. TP = 4)" + did_you_mean(name, names));
            ok = false;
            continue;
        }
        auto const& sweep = scenario.sweeps[static_cast<std::size_t>(found)];
        auto value = sweep_value(context, constant, file, argument.value, scenario, sweep);
        if (!value) {
            ok = false;
            continue;
        }
        pool.values.emplace_back(found, *value);
    }
    if (!has_replicas) {
        diagnostics.error(pool.span, node.name.name + " needs its replica count: write replicas = N");
        ok = false;
    }
    if (!ok) return std::nullopt;
    return pool;
}

}  // namespace

void check_serve_pools(Context const& context, ServeSource const& source, Constants const& constant,
                       Scenario const& scenario, Serve& serve) {
    auto const* prefill = source.pools[0];
    auto const* decode = source.pools[1];
    if (!prefill && !decode) return;
    auto const& file = *source.file;
    if (!prefill || !decode) {
        auto const* one = prefill ? prefill : decode;
        char const* other = prefill ? "decode_pool" : "prefill_pool";
        context.diagnostics.error(file.span_of(one->name),
                                  one->name.name + " without a " + other + ": disaggregated serving needs both "
                                  "pools (prompts run on one, decodes on the other)");
        return;
    }
    if (serve.arrivals == Serve::Arrivals::closed) {
        context.diagnostics.error(file.span_of(prefill->name),
                                  "pools need open-loop arrivals, poisson(R): under closed(C) a client's next "
                                  "request waits on both pools at once");
        return;
    }
    auto prefill_pool = check_pool(context, file, *prefill, constant, scenario);
    auto decode_pool = check_pool(context, file, *decode, constant, scenario);
    if (prefill_pool && decode_pool) {
        serve.prefill_pool = std::move(prefill_pool);
        serve.decode_pool = std::move(decode_pool);
    }
}

}  // namespace roofline::model
