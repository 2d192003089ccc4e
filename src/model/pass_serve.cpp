// The serve pass (docs/serving.md): the serve's constant settings in range
// (a swept one is checked by the engine at each point), its seed, its trace
// file read; the serve's slos and the fleet rate. Its parts' ops and
// residents are checked with the others (check_ops, check_residents).
#include "passes.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/lang/suggest.hpp"
#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <string_view>

namespace roofline::model {
namespace {

// A bound as people read it: "10,000,000".
std::string grouped(double whole) {
    std::string const digits = std::to_string(static_cast<std::uint64_t>(whole));
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) text.push_back(',');
        text.push_back(digits[i]);
    }
    return text;
}

// What is wrong with a constant setting, to follow "must be"; nothing when it is fine.
std::optional<std::string> whole_problem(double value, double low, double high) {
    if (!(value >= low) || value != std::floor(value))
        return low == 0 ? std::string("a whole number (0 or more)") : std::string("a positive integer");
    if (value > high) return "at most " + grouped(high);
    return std::nullopt;
}

struct SettingCheck {
    Context const& context;
    SlotValues const& values;

    // The constant value of `slot`, or nullopt: unset, swept (the engine's),
    // or already reported.
    std::optional<double> constant(int slot) const {
        if (slot < 0 || !values.is_constant(slot)) return std::nullopt;
        return values.slots[static_cast<std::size_t>(slot)].constant;
    }
    Span span(int slot) const {
        auto const& value = values.slots[static_cast<std::size_t>(slot)];
        return value.expr.span.file ? value.expr.span : value.span;
    }
    // A whole number in [low, high]; else an error at its expression.
    bool whole(int slot, char const* what, double low, double high) const {
        auto v = constant(slot);
        if (!v) return true;
        if (auto problem = whole_problem(*v, low, high)) {
            context.diagnostics.error(span(slot), std::string(what) + " must be " + *problem + ", not " +
                                                      format_number(*v));
            return false;
        }
        return true;
    }
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> fields;
    for (std::size_t start = 0;;) {
        auto comma = line.find(',', start);
        fields.push_back(trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start)));
        if (comma == std::string_view::npos) return fields;
        start = comma + 1;
    }
}

// A length of the trace: digits only, 1 .. max_serve_tokens.
std::optional<std::uint32_t> parse_length(std::string_view text) {
    if (text.empty() || text.size() > 10) return std::nullopt;
    double value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (value < 1 || value > max_serve_tokens) return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

// The trace's rows into `serve.trace`; an error at the file's string when it
// cannot be read or a row is not two positive lengths.
void read_trace(Context const& context, ServeSource const& source, FileSystem& files, Serve& serve) {
    auto& diagnostics = context.diagnostics;
    auto const& name = source.trace->value;
    Span at = source.file->span_of(*source.trace);
    std::string path = join_path(parent_dir(source.file->source->path), name);
    serve.trace_path = path;
    std::string error;
    std::optional<std::string> text;
    if (auto why = files.refusal(path)) error = *why;
    else text = files.read(path, error);
    if (!text) {
        diagnostics.error(at, "cannot read the trace '" + name + "': " + error);
        return;
    }
    serve.trace_text = *text;
    std::string_view rest(*text);
    std::size_t line_number = 0;
    std::optional<std::size_t> prompt_column, output_column;
    std::size_t columns = 0;
    auto fail = [&](std::string const& message) {
        diagnostics.error(at, "the trace '" + name + "', line " + std::to_string(line_number) + ": " + message);
        serve.trace.clear();
    };
    while (!rest.empty()) {
        auto end = rest.find('\n');
        std::string_view line = trim(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        ++line_number;
        if (line.empty()) continue;
        auto fields = split_fields(line);
        if (!prompt_column) {  // the header
            columns = fields.size();
            for (std::size_t i = 0; i < fields.size(); ++i) {
                if (fields[i] == "prompt" && !prompt_column) prompt_column = i;
                if (fields[i] == "output" && !output_column) output_column = i;
            }
            if (!prompt_column || !output_column) {
                diagnostics.error(at, "the trace '" + name + "' needs the columns prompt and output, named in "
                                      "its first line (e.g. 'prompt,output'); it has no '" +
                                          (prompt_column ? "output" : "prompt") + "' column");
                return;
            }
            continue;
        }
        if (fields.size() != columns)
            return fail("a row of " + std::to_string(fields.size()) + " fields; the header has " +
                        std::to_string(columns));
        auto prompt = parse_length(fields[*prompt_column]);
        auto output = parse_length(fields[*output_column]);
        if (!prompt || !output) {
            auto bad = !prompt ? fields[*prompt_column] : fields[*output_column];
            return fail(std::string(!prompt ? "the prompt" : "the output") + " length must be a positive integer "
                        "of at most " + grouped(max_serve_tokens) + " tokens, not '" + std::string(bad) + "'");
        }
        if (serve.trace.size() >= max_serve_requests)
            return fail("more than " + grouped(max_serve_requests) + " rows");
        serve.trace.emplace_back(*prompt, *output);
    }
    if (!prompt_column)
        diagnostics.error(at, "the trace '" + name + "' is empty: it needs a header 'prompt,output' and a row per request");
    else if (serve.trace.empty())
        diagnostics.error(at, "the trace '" + name + "' has no rows: write one request per line after the header");
}

constexpr std::string_view figures[] = {"ttft", "tpot", "e2e"};
constexpr std::string_view statistics[] = {"p50", "p90", "p99", "mean"};

}  // namespace

bool is_serve_measure(std::string_view measure) {
    for (auto figure : figures)
        if (measure.substr(0, figure.size()) == figure) return true;
    return false;
}

char const* serve_name_place(std::string_view name) {
    if (name == "tokens") return "it is the step's tokens only inside a serve's linear part";
    if (name == "context") return "it is a decoding sequence's context only inside a serve's decode part";
    if (name == "chunk" || name == "start")
        return "it is a prompt chunk's tokens (chunk) or first position (start) only inside a serve's prefill part";
    if (name == "sampled") return "it is the step's sampled sequences only inside a serve's sample part";
    return nullptr;
}

void check_serve(Context const& context, ServeSource const& source, SlotValues const& values,
                 FileSystem& files, Serve& serve) {
    auto& diagnostics = context.diagnostics;
    SettingCheck check{context, values};
    for (auto const* lengths : {&serve.prompt, &serve.output}) {
        char const* what = lengths == &serve.prompt ? "the prompt" : "the output";
        if (lengths->kind == ServeLengths::Kind::fixed) {
            check.whole(lengths->slot, what, 1, max_serve_tokens);
        } else if (lengths->kind == ServeLengths::Kind::uniform) {
            bool low_ok = check.whole(lengths->slot, "uniform(A, B)'s A", 1, max_serve_tokens);
            bool high_ok = check.whole(lengths->high_slot, "uniform(A, B)'s B", 1, max_serve_tokens);
            auto low = check.constant(lengths->slot), high = check.constant(lengths->high_slot);
            if (low_ok && high_ok && low && high && *low > *high)
                diagnostics.error(lengths->span, std::string(what) + "'s uniform(A, B) needs A <= B, not " +
                                                     format_number(*low) + " > " + format_number(*high));
        }
    }
    if (serve.arrivals == Serve::Arrivals::poisson) {
        if (auto rate = check.constant(serve.arrivals_slot); rate && !(*rate > 0 && *rate <= max_arrival_rate))
            diagnostics.error(check.span(serve.arrivals_slot),
                              "the arrival rate of poisson(R) must be positive (requests/s) and at most " +
                                  grouped(max_arrival_rate) + ", not " + format_number(*rate));
    } else {
        check.whole(serve.arrivals_slot, "the clients of closed(C)", 1, max_serve_seqs);
    }
    bool requests_ok = check.whole(serve.requests_slot, "requests", 1, max_serve_requests);
    bool warmup_ok = check.whole(serve.warmup_slot, "warmup", 0, max_serve_requests);
    double requests = serve.requests_slot < 0 ? default_serve_requests : check.constant(serve.requests_slot).value_or(-1);
    if (auto warmup = check.constant(serve.warmup_slot); requests_ok && warmup_ok && warmup && requests >= 0 &&
                                                         *warmup >= requests)
        diagnostics.error(check.span(serve.warmup_slot),
                          "warmup must leave requests to measure: it is " + format_number(*warmup) + ", of " +
                              format_number(requests) + " requests");
    check.whole(serve.max_seqs_slot, "max_seqs", 1, max_serve_seqs);
    check.whole(serve.max_step_tokens_slot, "max_step_tokens", 1, max_serve_tokens);
    if (auto share = check.constant(serve.memory_utilization_slot); share && !(*share > 0 && *share <= 1))
        diagnostics.error(check.span(serve.memory_utilization_slot),
                          "memory_utilization is the share of each chip's HBM for weights and the KV cache, "
                          "in (0, 1], not " + format_number(*share));
    if (int slot = source.seed_slot; slot >= 0) {
        auto const& value = values.slots[static_cast<std::size_t>(slot)];
        if (!values.bad[static_cast<std::size_t>(slot)] && value.depends_on != 0)
            diagnostics.error(check.span(slot), "the seed must be a constant, not a sweep: a point's "
                                                "requests come from one seed");
        else if (check.whole(slot, "the seed", 0, max_serve_seed))
            if (auto seed = check.constant(slot)) serve.seed = static_cast<std::uint64_t>(*seed);
    }
    if (source.trace) read_trace(context, source, files, serve);
}

std::vector<ServeSlo> check_serve_slos(Context const& context,
                                       std::vector<Pending<ast::SloStmt>> const& statements,
                                       Constants const& constant, bool has_serve) {
    auto& diagnostics = context.diagnostics;
    std::vector<ServeSlo> slos;
    std::map<std::string, Span, std::less<>> bounded;
    for (auto const& pending : statements) {
        auto const& file = *pending.file;
        auto const* node = pending.node;
        auto const& name = node->measure.name;
        Span name_span = file.span_of(node->measure);
        ServeSlo slo;
        bool known = false;
        for (std::size_t f = 0; f < std::size(figures) && !known; ++f)
            for (std::size_t s = 0; s < std::size(statistics) && !known; ++s)
                if (name == std::string(figures[f]).append("_").append(statistics[s])) {
                    slo.figure = static_cast<ServeSlo::Figure>(f);
                    slo.statistic = static_cast<ServeSlo::Statistic>(s);
                    known = true;
                }
        if (!known) {
            std::vector<std::string> forms;
            for (auto figure : figures)
                for (auto statistic : statistics) forms.push_back(std::string(figure).append("_").append(statistic));
            diagnostics.error(name_span, "a serve slo bounds ttft, tpot or e2e at p50, p90, p99 or mean, "
                                         "written like ttft_p99, not '" + name + "'" +
                                             did_you_mean(name, {forms.begin(), forms.end()}));
            continue;
        }
        if (!has_serve) {
            Span keyword = file.span_of(*node);
            keyword.length = 3;
            diagnostics.error(keyword, "'slo " + name + "' bounds a serve figure, but the scenario has no "
                                       "serve statement");
            continue;
        }
        if (auto [it, fresh] = bounded.emplace(name, name_span); !fresh) {
            diagnostics.error(name_span, "'" + name + "' is bounded twice")
                .notes.push_back(Diagnostics::note(it->second, "first bounded here"));
            continue;
        }
        auto const& quantity = node->limit;
        auto value = constant(file, quantity.value, "the slo");
        if (!value) continue;
        Span value_span = file.span_of(quantity.value);
        auto unit = quantity.unit ? find_unit(quantity.unit->text) : std::nullopt;
        if (!unit || unit->family != UnitFamily::seconds) {
            std::vector<std::string_view> times = {"s", "ms", "us", "ns"};
            if (!quantity.unit)
                diagnostics.error(value_span, "the slo is a time: write a unit, e.g. '" + format_number(*value) + " ms'");
            else
                diagnostics.error(file.span_of(*quantity.unit), "the slo is a time (s, ms, us or ns), not '" +
                                                                    quantity.unit->text + "'" +
                                                                    did_you_mean(quantity.unit->text, times));
            continue;
        }
        double seconds = unit->to_base(*value);
        if (!(seconds > 0) || std::isinf(seconds) || range_problem(UnitFamily::seconds, seconds)) {
            diagnostics.error(value_span, "the slo must be a positive time of at most " +
                                              grouped(max_seconds) + " s, not " + format_number(*value) +
                                              " " + quantity.unit->text);
            continue;
        }
        slo.limit_s = seconds;
        Span limit_span = file.span_of(quantity);
        slo.text = name + " <= " + std::string(file.source->text.substr(limit_span.offset, limit_span.length));
        slo.span = name_span;
        slos.push_back(std::move(slo));
    }
    return slos;
}

std::optional<double> check_fleet(Context const& context, Pending<ast::FleetStmt> const& statement,
                                  Constants const& constant, bool has_serve) {
    if (!statement.node) return std::nullopt;
    auto& diagnostics = context.diagnostics;
    auto const& file = *statement.file;
    if (!has_serve) {
        Span keyword = file.span_of(*statement.node);
        keyword.length = 5;
        diagnostics.error(keyword, "'fleet' sizes a fleet for the traffic of a serve statement, and the "
                                   "scenario has none");
        return std::nullopt;
    }
    auto rate = constant(file, statement.node->rate, "the fleet rate");
    if (!rate) return std::nullopt;
    if (!(*rate > 0) || *rate > max_arrival_rate) {
        diagnostics.error(file.span_of(statement.node->rate), "the fleet rate must be positive (requests/s) and at most " +
                                                                  grouped(max_arrival_rate) + ", not " +
                                                                  format_number(*rate));
        return std::nullopt;
    }
    return rate;
}

}  // namespace roofline::model
