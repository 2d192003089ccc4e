// Kernels, requests and the serve (docs/fusion.md, docs/serving.md): the ops
// check_ops built, grouped into one case per `kernel` block (each checked by
// check_kernel, pass_kernels.cpp) and routed to the scenario's cases, a
// request's prefill and decode or the serve's parts; a request's and the
// serve's names and scopes, collected.
#include "checker.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>

namespace roofline::model {

std::vector<Op>& Checker::ops_of_scope(int scope) {
    auto const& s = scopes[static_cast<std::size_t>(scope)];
    if (s.serve) {
        auto& serve = *scenario.serve;
        return s.phase == ServeSource::linear    ? serve.linear
               : s.phase == ServeSource::decode  ? serve.decode
               : s.phase == ServeSource::prefill ? serve.prefill
                                                 : serve.sample;
    }
    if (s.request < 0) return scenario.ops;
    auto& request = scenario.requests[static_cast<std::size_t>(s.request)];
    return s.phase == 0 ? request.prefill : request.decode;
}

std::vector<Resident>& Checker::residents_of_scope(int scope) {
    auto const& s = scopes[static_cast<std::size_t>(scope)];
    if (s.serve) {
        auto& serve = *scenario.serve;
        return s.phase == ServeSource::linear    ? serve.linear_residents
               : s.phase == ServeSource::decode  ? serve.decode_residents
               : s.phase == ServeSource::prefill ? serve.prefill_residents
                                                 : serve.sample_residents;
    }
    if (s.request < 0) return scenario.residents;
    auto& request = scenario.requests[static_cast<std::size_t>(s.request)];
    return s.phase == 0 ? request.prefill_residents : request.decode_residents;
}

void Checker::assemble_ops(std::vector<Op>& built, std::vector<int> const& scope_of,
                           std::vector<bool> const& incomplete) {
    auto destination = [&](int scope) -> std::vector<Op>& { return ops_of_scope(scope); };
    // Each kernel's case sits where its first member was written.
    struct Place {
        std::vector<Op>* list;
        std::size_t index;
    };
    std::vector<std::optional<Place>> placed(kernels.size());
    for (std::size_t i = 0; i < built.size(); ++i) {
        int scope = scope_of[i];
        auto& list = destination(scope);
        int k = scopes[static_cast<std::size_t>(scope)].kernel;
        if (k < 0) {
            list.push_back(std::move(built[i]));
            continue;
        }
        auto& place = placed[static_cast<std::size_t>(k)];
        if (!place) {
            auto const& pending = kernels[static_cast<std::size_t>(k)];
            Op kernel;
            kernel.kind = OpKind::kernel;
            kernel.name = pending.node->name.name;
            kernel.layer = scopes[static_cast<std::size_t>(pending.outer_scope)].path;
            kernel.count = scopes[static_cast<std::size_t>(pending.inner_scope)].count;
            kernel.span = pending.file->span_of(pending.node->name);
            kernel.flops_per_point = 0;
            list.push_back(std::move(kernel));
            place = Place{&list, list.size() - 1};
        }
        (*place->list)[place->index].members.push_back(std::move(built[i]));
    }
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        auto const& pending = kernels[k];
        if (placed[k]) {
            diagnostics.set_context(context_of(pending.inner_scope));
            check_kernel(context, (*placed[k]->list)[placed[k]->index], !incomplete[k]);
            diagnostics.set_context(nullptr);
        } else if (pending.node->body.empty()) {
            diagnostics.error(pending.file->span_of(pending.node->name),
                              "kernel '" + pending.node->name.name + "' has no ops");
        }
    }
}

void Checker::collect_request(ParsedFile const& file, ast::RequestStmt const& r) {
    Span name_span = file.span_of(r.name);
    for (auto const& other : scenario.requests)
        if (other.name == r.name.name) {
            diagnostics.error(name_span, "redefinition of request '" + r.name.name + "'")
                .notes.push_back(Diagnostics::note(other.span, "previous definition is here"));
            return;
        }
    Request request;
    request.name = r.name.name;
    request.span = name_span;
    int request_scope = open_scope(0, r.name.name);
    scopes[static_cast<std::size_t>(request_scope)].request = static_cast<int>(scenario.requests.size());
    static constexpr std::string_view names[] = {"prompt", "output", "batch"};
    int* slots[] = {&request.prompt_slot, &request.output_slot, &request.batch_slot};
    for (auto const& argument : r.arguments) {
        auto const& name = argument.name.name;
        auto known = std::find(std::begin(names), std::end(names), name);
        if (known == std::end(names)) {
            diagnostics.error(file.span_of(argument.name),
                              "a request has no argument '" + name +
                                  "' (it takes prompt, output and batch)" +
                                  did_you_mean(name, {names[0], names[1], names[2]}));
            continue;
        }
        if (!define_value(request_scope, name, file.span_of(argument.name))) continue;
        int slot = scopes[static_cast<std::size_t>(request_scope)].values.at(name);
        lets.push_back({&file, &argument.value, 0});
        let_slots.push_back(slot);
        *slots[known - std::begin(names)] = slot;
    }
    for (auto [slot, name] : {std::pair{request.prompt_slot, "prompt"}, std::pair{request.output_slot, "output"}})
        if (slot < 0)
            diagnostics.error(name_span, "request '" + r.name.name + "' needs '" + name +
                                             "': write request " + r.name.name + "(prompt = P, output = G)");
    int prefill = open_scope(request_scope, r.name.name + "/prefill");
    scopes[static_cast<std::size_t>(prefill)].phase = 0;
    int decode = open_scope(request_scope, r.name.name + "/decode");
    scopes[static_cast<std::size_t>(decode)].phase = 1;
    // `i`, the decode step: a value no let computes, set by the engine.
    if (define_value(decode, "i", name_span)) {
        request.step_slot = scopes[static_cast<std::size_t>(decode)].values.at("i");
        scenario.slots[static_cast<std::size_t>(request.step_slot)].depends_on = step_bit;
    }
    scenario.requests.push_back(std::move(request));
    requests.push_back({&file, &r, 0});
    collect_in_layer(file, r.prefill, prefill);
    collect_in_layer(file, r.decode, decode);
}

namespace {

constexpr std::string_view serve_settings[] = {"prompt", "output", "arrivals", "requests", "warmup",
                                               "seed", "max_seqs", "max_step_tokens",
                                               "memory_utilization", "admission"};
constexpr std::string_view admission_policies[] = {"reserve", "grow"};
constexpr std::string_view serve_parts[] = {"linear", "decode", "prefill", "sample"};

std::vector<std::string_view> names_of(std::span<std::string_view const> names) {
    return {names.begin(), names.end()};
}

std::string listed(std::span<std::string_view const> names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text.append(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ").append(names[i]);
    return text;
}

// `uniform(A, B)`, `poisson(R)`: an expression that is one call and nothing else.
ast::Call const* whole_call(ast::Expression const& e) {
    if (!e.rest.empty()) return nullptr;
    auto const* call = boost::get<boost::spirit::x3::forward_ast<ast::Call>>(&e.first.get());
    return call ? &call->get() : nullptr;
}

}  // namespace

void Checker::collect_serve_setting(ParsedFile const& file, ast::ServeSetting const& setting) {
    auto& serve = *scenario.serve;
    auto const& key = setting.key.name;
    auto const* trace = boost::get<ast::ServeTrace>(&setting.value.get());
    auto const* expr = boost::get<ast::Expression>(&setting.value.get());
    if (key == "prompt" || key == "output") {
        auto& lengths = key == "prompt" ? serve.prompt : serve.output;
        if (trace) {
            // One trace gives both lengths, a request per row.
            serve.prompt.kind = serve.output.kind = ServeLengths::Kind::trace;
            serve.prompt.span = serve.output.span = file.span_of(trace->path);
            serve_source.trace = &trace->path;
            return;
        }
        lengths.span = file.span_of(*expr);
        if (auto const* call = whole_call(*expr); call && call->function.name == "uniform") {
            if (call->arguments.size() != 2) {
                diagnostics.error(lengths.span, "uniform takes the shortest and the longest length: "
                                                "uniform(A, B), not " +
                                                    std::to_string(call->arguments.size()) + " argument" +
                                                    (call->arguments.size() == 1 ? "" : "s"));
                return;
            }
            lengths.kind = ServeLengths::Kind::uniform;
            lengths.slot = hidden_slot(file, call->arguments[0], 0, key + " low");
            lengths.high_slot = hidden_slot(file, call->arguments[1], 0, key + " high");
            return;
        }
        lengths.kind = ServeLengths::Kind::fixed;
        lengths.slot = hidden_slot(file, *expr, 0, key);
        return;
    }
    if (trace) {
        diagnostics.error(file.span_of(*trace), "a trace gives the lengths: write it as 'prompt = trace \"" +
                                                    trace->path.value + "\"', not as '" + key + "'");
        return;
    }
    if (key == "admission") {
        // A policy's name, not an expression: reserve or grow.
        auto const* name = expr->rest.empty() ? boost::get<ast::Identifier>(&expr->first.get()) : nullptr;
        auto const known = name ? std::find(std::begin(admission_policies), std::end(admission_policies), name->name)
                                : std::end(admission_policies);
        if (known == std::end(admission_policies)) {
            diagnostics.error(file.span_of(*expr),
                              "admission is reserve (prompt + output held from admission) or grow (the cache a "
                              "request holds, the newest preempted when it is full)" +
                                  (name ? did_you_mean(name->name, names_of(admission_policies)) : std::string()));
            return;
        }
        serve.admission = *known == "grow" ? Serve::Admission::grow : Serve::Admission::reserve;
        return;
    }
    if (key == "arrivals") {
        serve.arrivals_span = file.span_of(*expr);
        auto const* call = whole_call(*expr);
        bool poisson = call && call->function.name == "poisson";
        bool closed = call && call->function.name == "closed";
        if (!poisson && !closed) {
            std::string hint;
            if (call) hint = did_you_mean(call->function.name, {"poisson", "closed"});
            diagnostics.error(call ? file.span_of(call->function) : serve.arrivals_span,
                              "arrivals is poisson(R), R requests/s, or closed(C), C clients" + hint);
            return;
        }
        if (call->arguments.size() != 1) {
            diagnostics.error(serve.arrivals_span,
                              std::string(poisson ? "poisson(R) takes one argument, the requests/s"
                                                  : "closed(C) takes one argument, the clients"));
            return;
        }
        serve.arrivals = poisson ? Serve::Arrivals::poisson : Serve::Arrivals::closed;
        serve.arrivals_slot = hidden_slot(file, call->arguments[0], 0, poisson ? "poisson rate" : "clients");
        return;
    }
    int slot = hidden_slot(file, *expr, 0, key);
    if (key == "requests") serve.requests_slot = slot;
    else if (key == "warmup") serve.warmup_slot = slot;
    else if (key == "seed") serve_source.seed_slot = slot;
    else if (key == "max_seqs") serve.max_seqs_slot = slot;
    else if (key == "max_step_tokens") serve.max_step_tokens_slot = slot;
    else serve.memory_utilization_slot = slot;
}

void Checker::collect_serve_pool(ParsedFile const& file, ast::ServePool const& pool,
                                 std::map<std::string, Span, std::less<>>& seen) {
    static constexpr std::string_view pool_names[] = {"prefill_pool", "decode_pool"};
    auto const& name = pool.name.name;
    Span name_span = file.span_of(pool.name);
    auto known = std::find(std::begin(pool_names), std::end(pool_names), name);
    if (known == std::end(pool_names)) {
        diagnostics.error(name_span, "a serve's pools are prefill_pool(...) and decode_pool(...), not '" + name +
                                         "(...)'" + did_you_mean(name, names_of(pool_names)));
        return;
    }
    if (auto [it, fresh] = seen.emplace(name + "()", name_span); !fresh) {
        diagnostics.error(name_span, "the serve has a " + name + " already")
            .notes.push_back(Diagnostics::note(it->second, "first written here"));
        return;
    }
    serve_source.pools[static_cast<std::size_t>(known - std::begin(pool_names))] = &pool;
}

void Checker::collect_serve(ParsedFile const& file, ast::ServeStmt const& s) {
    Span name_span = file.span_of(s.name);
    if (serve_source.node) {
        diagnostics.error(name_span, "the scenario already has a serve statement; one scenario serves "
                                     "one model (sweep its settings instead)")
            .notes.push_back(Diagnostics::note(scenario.serve->span, "previous serve statement is here"));
        return;
    }
    if (!within_limit(s.name.name, max_name_bytes, name_span, "serve name")) return;
    auto& serve = scenario.serve.emplace();
    serve.name = s.name.name;
    serve.span = name_span;
    serve_source.file = &file;
    serve_source.node = &s;
    Span whole = file.span_of(s);
    serve_source.close = {whole.file, whole.offset + whole.length - 1, 1};
    int serve_scope = open_scope(0, s.name.name);
    // The engine's names of each part, values no let computes: set per step.
    static constexpr std::string_view engine_names[4][2] = {
        {"tokens", {}}, {"context", {}}, {"chunk", "start"}, {"sampled", {}}};
    int* engine_slots[4][2] = {{&serve.tokens_slot, nullptr},
                               {&serve.context_slot, nullptr},
                               {&serve.chunk_slot, &serve.start_slot},
                               {&serve.sampled_slot, nullptr}};
    std::map<std::string, Span, std::less<>> seen;  // settings and parts written
    for (auto const& item : s.items) {
        if (auto const* setting = boost::get<ast::ServeSetting>(&item.get())) {
            auto const& key = setting->key.name;
            Span key_span = file.span_of(setting->key);
            if (std::find(std::begin(serve_settings), std::end(serve_settings), key) ==
                std::end(serve_settings)) {
                diagnostics.error(key_span, "a serve has no setting '" + key + "' (its settings are " +
                                                listed(serve_settings) + ")" +
                                                did_you_mean(key, names_of(serve_settings)));
                continue;
            }
            bool trace_pair = (key == "prompt" && seen.count("output")) || (key == "output" && seen.count("prompt"));
            if (auto [it, fresh] = seen.emplace(key, key_span); !fresh) {
                diagnostics.error(key_span, "'" + key + "' is set twice")
                    .notes.push_back(Diagnostics::note(it->second, "first set here"));
                continue;
            }
            bool is_trace = boost::get<ast::ServeTrace>(&setting->value.get()) != nullptr;
            if (trace_pair && (is_trace || serve.prompt.kind == ServeLengths::Kind::trace)) {
                auto const& other = key == "prompt" ? "output" : "prompt";
                diagnostics.error(key_span, std::string("the trace gives both lengths: '") + key +
                                                "' and '" + other + "' cannot be set apart from it")
                    .notes.push_back(Diagnostics::note(seen.at(other), std::string("'") + other + "' is set here"));
                continue;
            }
            collect_serve_setting(file, *setting);
            continue;
        }
        if (auto const* pool = boost::get<ast::ServePool>(&item.get())) {
            collect_serve_pool(file, *pool, seen);
            continue;
        }
        auto const& part = boost::get<ast::ServePart>(item.get());
        auto const& name = part.name.name;
        Span part_span = file.span_of(part.name);
        auto known = std::find(std::begin(serve_parts), std::end(serve_parts), name);
        if (known == std::end(serve_parts)) {
            diagnostics.error(part_span, "a serve has the parts linear:, decode:, prefill: and sample:, not '" + name +
                                             ":'" + did_you_mean(name, names_of(serve_parts)));
            continue;
        }
        if (auto [it, fresh] = seen.emplace(name + ":", part_span); !fresh) {
            diagnostics.error(part_span, "the serve has a " + name + " part already; write its statements in one")
                .notes.push_back(Diagnostics::note(it->second, "first written here"));
            continue;
        }
        auto k = static_cast<std::size_t>(known - std::begin(serve_parts));
        serve_source.parts[k] = &part;
        if (part.body.empty())
            diagnostics.error(part_span, "the " + name + " part has no statements");
        int part_scope = open_scope(serve_scope, s.name.name + "/" + name);
        auto& scope = scopes[static_cast<std::size_t>(part_scope)];
        scope.serve = true;
        scope.phase = static_cast<int>(k);
        for (std::size_t n = 0; n < 2; ++n) {
            if (engine_names[k][n].empty()) continue;
            std::string value(engine_names[k][n]);
            if (!define_value(part_scope, value, part_span)) continue;
            int slot = scopes[static_cast<std::size_t>(part_scope)].values.at(value);
            scenario.slots[static_cast<std::size_t>(slot)].depends_on = step_bit;
            *engine_slots[k][n] = slot;
        }
        collect_in_layer(file, part.body, part_scope);
    }
    for (auto name : {"arrivals", "prompt", "output"}) {
        bool from_trace = std::string_view(name) != "arrivals" && serve.prompt.kind == ServeLengths::Kind::trace;
        if (seen.count(name) || from_trace) continue;
        std::string form = std::string_view(name) == "arrivals" ? "arrivals = poisson(R) or arrivals = closed(C)"
                                                                : std::string(name) + " = 2048, uniform(A, B) or trace \"file.csv\"";
        diagnostics.error(name_span, "serve '" + s.name.name + "' needs '" + name + "': write " + form);
    }
    for (std::size_t k = 1; k < 3; ++k) {
        if (serve_source.parts[k]) continue;
        std::string part(serve_parts[k]);
        diagnostics.error(serve_source.close,
                          "serve '" + s.name.name + "' has no " + part + " part: write '" + part + ":' and " +
                              (k == ServeSource::decode ? "the ops of one decoding sequence (at 'context')"
                                                        : "the ops of one prompt chunk (at 'chunk' and 'start')") +
                              " before the closing brace");
    }
}

}  // namespace roofline::model
