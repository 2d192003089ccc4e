// The serve statement, its slos and `fleet rate` (docs/serving.md, section 1):
// parsed and checked into model::Serve, ServeSlo and fleet_rate. Values are
// those written; the parts' ops are evaluated at engine names set by hand;
// each error at its line and column, counted by hand in the texts below.
#include "helpers.hpp"

#include "roofline/model/expr.hpp"
#include "roofline/model/hardware_fields.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

using namespace roofline;
using test::contains;

namespace {

// Line 1: the chip; line 2: the target and the sizes; `serve chat {` is line 3, so the
// body's first line is line 4.
std::string const head =
    "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
    "target chip  let D = 64  let F = 128  let H = 4\n";
// One line of settings (line 4 below) ...
std::string const settings = "prompt = 2048 output = 256 arrivals = poisson(20)\n";
// ... and the three parts (lines 5 to 8).
std::string const linear_part =
    "linear: let N = tokens matmul up = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]\n";
std::string const decode_part = "decode: matmul qk = bf16[H, D] * cache bf16[context, D] -> bf16[H, context]\n";
std::string const prefill_part =
    "prefill: let K = start + chunk\n"
    "matmul pq = bf16[chunk, D] * cache bf16[K, D] -> bf16[chunk, K]\n";
std::string const parts = linear_part + decode_part + prefill_part;

std::string serve_text(std::string const& body, std::string const& after = "") {
    return head + "serve chat {\n" + body + "}\n" + after;
}

// check_text with `files` readable by the checker (a trace) as well as the loader.
std::unique_ptr<test::Checked> check_with_files(std::string const& text,
                                                std::vector<std::pair<std::string, std::string>> const& files) {
    auto result = std::make_unique<test::Checked>();
    for (auto const& [path, body] : files) result->fs->add(path, body);
    LoadOptions load{{}};
    result->program = load_program_text("test.roof", text, *result->fs, load, result->diagnostics);
    model::CheckOptions options;
    options.files = result->fs.get();
    result->scenario = model::check(result->program, options, result->diagnostics);
    return result;
}

// Every slot's value with the engine's names set to `engine` (slot, value):
// constants as checked, then the lets that depend on them in order, as the
// engine's PointEvaluator does at a step.
std::vector<double> values_at(model::Scenario const& s, std::vector<std::pair<int, double>> const& engine,
                              std::vector<double> const& sweeps = {}) {
    std::vector<double> v(s.slots.size());
    for (std::size_t i = 0; i < s.slots.size(); ++i) v[i] = s.slots[i].constant;
    for (auto const& sweep : s.sweeps)
        if (!sweeps.empty()) v[static_cast<std::size_t>(sweep.slot)] = sweeps[static_cast<std::size_t>(&sweep - s.sweeps.data())];
    for (auto [slot, value] : engine) v[static_cast<std::size_t>(slot)] = value;
    for (int slot : s.let_order) {
        auto result = model::evaluate(s.slots[static_cast<std::size_t>(slot)].expr, v);
        REQUIRE(std::holds_alternative<double>(result));
        v[static_cast<std::size_t>(slot)] = std::get<double>(result);
    }
    return v;
}

std::vector<double> sizes(model::Op const& op, std::vector<double> const& v) {
    std::vector<double> out;
    for (auto const& axis : op.axes) out.push_back(v[static_cast<std::size_t>(axis.slot)]);
    return out;
}

void expect_error(std::string const& text, std::string const& message,
                  std::vector<std::pair<std::string, std::string>> const& files = {}) {
    auto checked = check_with_files(text, files);
    INFO(checked->errors());
    CHECK(checked->diagnostics.has_errors());
    CHECK(contains(checked->errors(), message));
}

}  // namespace

TEST_CASE("serve: the settings, parts, slos and fleet as written", "[serve-lang]") {
    auto checked = check_with_files(head + R"(let L = 2
sweep R = [10, 20]
template lin(N, D) { matmul up = bf16[N, D] * weight bf16[D, F] -> bf16[N, F] }
template dec(S, D) { matmul qk = bf16[H, D] * cache bf16[S, D] -> bf16[H, S] }
template pre(T, P, D) {
    let K = P + T
    matmul pq = bf16[T, D] * cache bf16[K, D] -> bf16[T, K]
}
serve chat {
    prompt = 2048                  # tokens per request
    output = uniform(16, 256)
    arrivals = poisson(R)
    requests = 2000  warmup = 200  seed = 7  max_seqs = 128
    max_step_tokens = 4096  memory_utilization = 0.8  admission = grow
    linear:  use lin(N = tokens, D = 64) as decoder x L
    decode:  use dec(S = context, D = 64) as decoder x L
    prefill: use pre(T = chunk, P = start, D = 64) as decoder x L
}
slo ttft_p99 <= 1 s
slo tpot_p90 <= 50 ms
slo e2e_mean <= 20 s
fleet rate = 500 /s
)",
                                    {});
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    REQUIRE(s.serve);
    auto const& serve = *s.serve;
    auto constant = [&](int slot) {
        REQUIRE(slot >= 0);
        CHECK(s.slots[static_cast<std::size_t>(slot)].depends_on == 0);
        return s.slots[static_cast<std::size_t>(slot)].constant;
    };
    CHECK(serve.name == "chat");
    CHECK(serve.prompt.kind == model::ServeLengths::Kind::fixed);
    CHECK(constant(serve.prompt.slot) == 2048);
    CHECK(serve.output.kind == model::ServeLengths::Kind::uniform);
    CHECK(constant(serve.output.slot) == 16);
    CHECK(constant(serve.output.high_slot) == 256);
    CHECK(serve.arrivals == model::Serve::Arrivals::poisson);
    // R is the first sweep: bit 0; at the sweep's second point the rate is 20.
    REQUIRE(serve.arrivals_slot >= 0);
    CHECK(s.slots[static_cast<std::size_t>(serve.arrivals_slot)].depends_on == 1);
    CHECK(values_at(s, {}, {20})[static_cast<std::size_t>(serve.arrivals_slot)] == 20);
    CHECK(constant(serve.requests_slot) == 2000);
    CHECK(constant(serve.warmup_slot) == 200);
    CHECK(serve.seed == 7);
    CHECK(constant(serve.max_seqs_slot) == 128);
    CHECK(constant(serve.max_step_tokens_slot) == 4096);
    CHECK(constant(serve.memory_utilization_slot) == 0.8);
    CHECK(serve.admission == model::Serve::Admission::grow);
    // The engine's names: values of the step, like a request's `i`.
    for (int slot : {serve.tokens_slot, serve.context_slot, serve.chunk_slot, serve.start_slot}) {
        REQUIRE(slot >= 0);
        CHECK(s.slots[static_cast<std::size_t>(slot)].depends_on == model::step_bit);
    }
    // One op per part, its layer the instance `decoder` inside the part, x L = 2.
    REQUIRE(serve.linear.size() == 1);
    REQUIRE(serve.decode.size() == 1);
    REQUIRE(serve.prefill.size() == 1);
    CHECK(serve.linear[0].name == "up");
    CHECK(serve.linear[0].layer == "chat/linear/decoder");
    CHECK(serve.linear[0].count == 2);
    CHECK(serve.linear[0].inputs[1].role == model::Role::weight);
    CHECK(serve.decode[0].name == "qk");
    CHECK(serve.decode[0].inputs[1].role == model::Role::cache);
    CHECK(serve.prefill[0].name == "pq");
    CHECK(serve.prefill[0].layer == "chat/prefill/decoder");
    CHECK(s.ops.empty());
    // At tokens = 100: up is [N, D] x [D, F], axes N = 100, D = 64, F = 128 in first-seen order.
    CHECK(sizes(serve.linear[0], values_at(s, {{serve.tokens_slot, 100}}, {10})) ==
          std::vector<double>{100, 64, 128});
    // At context = 300: qk's axes (4, D, S) = (4, 64, 300).
    CHECK(sizes(serve.decode[0], values_at(s, {{serve.context_slot, 300}}, {10})) ==
          std::vector<double>{4, 64, 300});
    // A chunk of 512 starting at 1024: T = 512, D = 64, K = P + T = 1536.
    CHECK(sizes(serve.prefill[0], values_at(s, {{serve.chunk_slot, 512}, {serve.start_slot, 1024}}, {10})) ==
          std::vector<double>{512, 64, 1536});
    // The slos in the order written, in seconds: 1 s, 50 ms = 0.05 s, 20 s.
    REQUIRE(s.serve_slos.size() == 3);
    CHECK(s.serve_slos[0].figure == model::ServeSlo::Figure::ttft);
    CHECK(s.serve_slos[0].statistic == model::ServeSlo::Statistic::p99);
    CHECK(s.serve_slos[0].limit_s == 1);
    CHECK(s.serve_slos[0].text == "ttft_p99 <= 1 s");
    CHECK(s.serve_slos[1].figure == model::ServeSlo::Figure::tpot);
    CHECK(s.serve_slos[1].statistic == model::ServeSlo::Statistic::p90);
    CHECK(s.serve_slos[1].limit_s == Approx(0.05).epsilon(1e-15));
    CHECK(s.serve_slos[2].figure == model::ServeSlo::Figure::e2e);
    CHECK(s.serve_slos[2].statistic == model::ServeSlo::Statistic::mean);
    CHECK(s.serve_slos[2].limit_s == 20);
    REQUIRE(s.fleet_rate);
    CHECK(*s.fleet_rate == 500);
    CHECK_FALSE(s.slo_step_s);
}

TEST_CASE("serve: closed clients, defaults, and `tokens` still a statement", "[serve-lang]") {
    auto checked = check_with_files(head + "tokens = 8\nslo step <= 5 ms\n" + "serve chat {\n" +
                                        "prompt = 100 output = 10 arrivals = closed(4)\n" + parts + "}\n",
                                    {});
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& s = checked->scenario;
    REQUIRE(s.serve);
    CHECK(s.serve->arrivals == model::Serve::Arrivals::closed);
    CHECK(s.slots[static_cast<std::size_t>(s.serve->arrivals_slot)].constant == 4);
    // Unwritten settings stay -1 (serving.md's defaults), the seed 1.
    CHECK(s.serve->requests_slot == -1);
    CHECK(s.serve->warmup_slot == -1);
    CHECK(s.serve->max_seqs_slot == -1);
    CHECK(s.serve->max_step_tokens_slot == -1);
    CHECK(s.serve->memory_utilization_slot == -1);
    CHECK(s.serve->admission == model::Serve::Admission::reserve);
    CHECK(s.serve->seed == 1);
    // The top-level `tokens = 8` and `slo step <= 5 ms` are unchanged.
    REQUIRE(s.tokens_slot >= 0);
    CHECK(s.slots[static_cast<std::size_t>(s.tokens_slot)].constant == 8);
    REQUIRE(s.slo_step_s);
    CHECK(*s.slo_step_s == Approx(0.005).epsilon(1e-15));
    CHECK(s.serve_slos.empty());
    CHECK_FALSE(s.fleet_rate);
    // The parts without templates: layer paths chat/<part>.
    REQUIRE(s.serve->prefill.size() == 1);
    CHECK(s.serve->prefill[0].layer == "chat/prefill");
}

TEST_CASE("serve: a trace gives both lengths, relative to the scenario's folder", "[serve-lang]") {
    // The scenario is models/test.roof's text loaded as test.roof: the trace
    // sits beside it. Columns in any order, others ignored.
    auto checked = check_with_files(serve_text("prompt = trace \"lengths.csv\" arrivals = poisson(20)\n" + parts),
                                    {{"lengths.csv", "id,output,prompt\n1,5,10\n\n2, 40 ,300\r\n"}});
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& serve = *checked->scenario.serve;
    CHECK(serve.prompt.kind == model::ServeLengths::Kind::trace);
    CHECK(serve.output.kind == model::ServeLengths::Kind::trace);
    using Row = std::pair<std::uint32_t, std::uint32_t>;
    CHECK(serve.trace == std::vector<Row>{{10, 5}, {300, 40}});
    CHECK(serve.trace_path == "lengths.csv");
}

TEST_CASE("serve: errors at the user's token", "[serve-lang]") {
    // "prompt = 2048 output = 256 arrivals = poisson(" is 46 characters.
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = poisson(0)\n" + parts),
                 "test.roof:4:47: error: the arrival rate of poisson(R) must be positive (requests/s) and at "
                 "most 1,000,000,000, not 0");
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = poisson(-5)\n" + parts),
                 "test.roof:4:47: error: the arrival rate of poisson(R) must be positive");
    // "... arrivals = closed(" is 45 characters.
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = closed(2.5)\n" + parts),
                 "test.roof:4:46: error: the clients of closed(C) must be a positive integer, not 2.5");
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = closed(0)\n" + parts),
                 "test.roof:4:46: error: the clients of closed(C) must be a positive integer, not 0");
    // arrivals = 20: col 39 after "prompt = 2048 output = 256 arrivals = ".
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = 20\n" + parts),
                 "test.roof:4:39: error: arrivals is poisson(R), R requests/s, or closed(C), C clients");
    expect_error(serve_text("prompt = 2048 output = 256 arrivals = poison(20)\n" + parts),
                 "test.roof:4:39: error: arrivals is poisson(R), R requests/s, or closed(C), C clients; did "
                 "you mean 'poisson'?");
    // No decode part: settings (4), linear (5), prefill (6, 7); the brace on line 8.
    expect_error(serve_text(settings + linear_part + prefill_part),
                 "test.roof:8:1: error: serve 'chat' has no decode part: write 'decode:' and the ops of one "
                 "decoding sequence (at 'context') before the closing brace");
    expect_error(serve_text(settings + linear_part + decode_part),
                 "test.roof:7:1: error: serve 'chat' has no prefill part");
    // No arrivals: at the serve's name, line 3 col 7.
    expect_error(serve_text("prompt = 2048 output = 256\n" + parts),
                 "test.roof:3:7: error: serve 'chat' needs 'arrivals': write arrivals = poisson(R) or "
                 "arrivals = closed(C)");
    expect_error(serve_text("reqests = 10\n" + settings + parts),
                 "test.roof:4:1: error: a serve has no setting 'reqests' (its settings are prompt, output, "
                 "arrivals, requests, warmup, seed, max_seqs, max_step_tokens, memory_utilization and "
                 "admission); did you mean 'requests'?");
    // "admission = " is 12 characters: the policy at col 13.
    expect_error(serve_text(settings + "admission = grown\n" + parts),
                 "test.roof:5:13: error: admission is reserve (prompt + output held from admission) or grow "
                 "(the cache a request holds, the newest preempted when it is full); did you mean 'grow'?");
    expect_error(serve_text(settings + "admission = 2\n" + parts),
                 "test.roof:5:13: error: admission is reserve (prompt + output held from admission) or grow");
    expect_error(serve_text(settings + "admission = grow + 1\n" + parts),
                 "test.roof:5:13: error: admission is reserve");
    expect_error(serve_text(settings + "decod: let x = 1\n" + parts),
                 "test.roof:5:1: error: a serve has the parts linear:, decode:, prefill: and sample:, not 'decod:'; did "
                 "you mean 'decode'?");
    {
        // `output` again on line 5; first at line 4 col 15.
        auto checked = check_with_files(serve_text(settings + "output = 300\n" + parts), {});
        CHECK(contains(checked->errors(), "test.roof:5:1: error: 'output' is set twice"));
        CHECK(contains(checked->errors(), "test.roof:4:15: note: first set here"));
    }
    expect_error(serve_text(settings + parts + linear_part),
                 "test.roof:9:1: error: the serve has a linear part already; write its statements in one");
    // The slo after the serve's brace (line 9): line 10, the name at col 5.
    expect_error(serve_text(settings + parts, "slo ttft_p95 <= 1 s\n"),
                 "test.roof:10:5: error: a serve slo bounds ttft, tpot or e2e at p50, p90, p99 or mean, "
                 "written like ttft_p99, not 'ttft_p95'");
    {
        auto checked = check_with_files(serve_text(settings + parts, "slo ttft_p99 <= 1 s\nslo ttft_p99 <= 2 s\n"), {});
        CHECK(contains(checked->errors(), "test.roof:11:5: error: 'ttft_p99' is bounded twice"));
        CHECK(contains(checked->errors(), "test.roof:10:5: note: first bounded here"));
    }
    expect_error(serve_text(settings + parts, "slo tpot_p99 <= 50\n"),
                 "test.roof:10:17: error: the slo is a time: write a unit, e.g. '50 ms'");
    expect_error(head + "slo ttft_p99 <= 1 s\n",
                 "test.roof:3:1: error: 'slo ttft_p99' bounds a serve figure, but the scenario has no serve "
                 "statement");
    expect_error(head + "fleet rate = 500 /s\n",
                 "test.roof:3:1: error: 'fleet' sizes a fleet for the traffic of a serve statement, and the "
                 "scenario has none");
    // "fleet rate = " is 13 characters.
    expect_error(serve_text(settings + parts, "fleet rate = 0 /s\n"),
                 "test.roof:10:14: error: the fleet rate must be positive (requests/s)");
    // A setting without its '=': the parser expects the serve's items or its brace there.
    expect_error(serve_text(settings + "requests 2000\n" + parts),
                 "test.roof:5:1: error: expected a setting like requests = 1000, a part (linear:, decode:, "
                 "prefill:), a statement or '}', found 'requests'");
    {
        // `fleet` twice: the second at line 11, the first's note at line 10.
        auto checked = check_with_files(serve_text(settings + parts, "fleet rate = 5 /s\nfleet rate = 6 /s\n"), {});
        CHECK(contains(checked->errors(), "test.roof:11:1: error: the scenario already has a fleet rate"));
        CHECK(contains(checked->errors(), "test.roof:10:1: note: previous fleet statement is here"));
        // A rate without its `/s`: expected at the next token, here the end of the file (line 11).
        auto unitless = check_with_files(serve_text(settings + parts, "fleet rate = 500\n"), {});
        CHECK(contains(unitless->errors(), "test.roof:11:1: error: expected '/s' (requests per second)"));
    }
    {
        // A second serve, line 10 (after the first's brace on 9), its name at col 7.
        auto checked = check_with_files(
            serve_text(settings + parts) + "serve other {\n" + settings + parts + "}\n", {});
        CHECK(contains(checked->errors(), "test.roof:10:7: error: the scenario already has a serve statement"));
        CHECK(contains(checked->errors(), "test.roof:3:7: note: previous serve statement is here"));
    }
    // uniform(...) starts at col 10 of "prompt = uniform(4096, 128) ...".
    expect_error(serve_text("prompt = uniform(4096, 128) output = 256 arrivals = poisson(20)\n" + parts),
                 "test.roof:4:10: error: the prompt's uniform(A, B) needs A <= B, not 4096 > 128");
    expect_error(serve_text("prompt = uniform(4096) output = 256 arrivals = poisson(20)\n" + parts),
                 "test.roof:4:10: error: uniform takes the shortest and the longest length: uniform(A, B), "
                 "not 1 argument");
    // "memory_utilization = " is 21 characters.
    expect_error(serve_text(settings + "memory_utilization = 1.5\n" + parts),
                 "test.roof:5:22: error: memory_utilization is the share of each chip's HBM for weights and "
                 "the KV cache, in (0, 1], not 1.5");
    expect_error(serve_text(settings + "memory_utilization = 0\n" + parts),
                 "test.roof:5:22: error: memory_utilization is the share");
    // "requests = 100 warmup = " is 24 characters.
    expect_error(serve_text(settings + "requests = 100 warmup = 100\n" + parts),
                 "test.roof:5:25: error: warmup must leave requests to measure: it is 100, of 100 requests");
    expect_error(serve_text(settings + "requests = 0\n" + parts),
                 "test.roof:5:12: error: requests must be a positive integer, not 0");
    expect_error(serve_text("prompt = 0 output = 256 arrivals = poisson(20)\n" + parts),
                 "test.roof:4:10: error: the prompt must be a positive integer, not 0");
    expect_error(serve_text(settings + "max_seqs = 2.5\n" + parts),
                 "test.roof:5:12: error: max_seqs must be a positive integer, not 2.5");
    expect_error(head + "sweep S = [1, 2]\nserve chat {\n" + settings + "seed = S\n" + parts + "}\n",
                 "test.roof:6:8: error: the seed must be a constant, not a sweep");
    // The engine's names exist only in their part: `context` in linear: is
    // unknown, at col 17 of "linear: let N = context".
    expect_error(serve_text(settings + "linear: let N = context matmul up = bf16[N, D] * weight bf16[D, F] -> "
                                       "bf16[N, F]\n" + decode_part + prefill_part),
                 "test.roof:5:17: error: unknown name 'context': it is a decoding sequence's context only inside "
                 "a serve's decode part");
    // `tokens` stays a keyword: not a name to define, nor usable outside a linear part.
    expect_error(head + "let tokens = 4\n", "test.roof:3:5: error: expected a name, found 'tokens'");
    expect_error(head + "let x = tokens\n",
                 "test.roof:3:9: error: unknown name 'tokens': it is the step's tokens only inside a serve's "
                 "linear part");
    // `sampled` only in a sample part: in linear, at col 17 of "linear: let N = sampled".
    expect_error(serve_text(settings + "linear: let N = sampled matmul up = bf16[N, D] * weight bf16[D, F] -> "
                                       "bf16[N, F]\n" + decode_part + prefill_part),
                 "test.roof:5:17: error: unknown name 'sampled': it is the step's sampled sequences only inside "
                 "a serve's sample part");
    expect_error(serve_text(settings + parts + "sample:\n"), "test.roof:9:1: error: the sample part has no statements");
}

TEST_CASE("serve: a sample part, its ops at the engine's `sampled`", "[serve-lang]") {
    auto checked = check_with_files(
        serve_text(settings + parts + "sample: matmul head = bf16[sampled, D] * weight bf16[D, F] -> bf16[sampled, F]\n"),
        {});
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& serve = *checked->scenario.serve;
    REQUIRE(serve.sample.size() == 1);
    CHECK(serve.sample[0].name == "head");
    REQUIRE(serve.sampled_slot >= 0);
    CHECK(checked->scenario.slots[static_cast<std::size_t>(serve.sampled_slot)].name == "sampled");
    CHECK(serve.linear.size() == 1);
    CHECK(serve.decode.size() == 1);
    CHECK(serve.prefill.size() == 1);
}

TEST_CASE("serve: a trace's errors at the file's string", "[serve-lang]") {
    // "prompt = trace " is 15 characters: the string at col 16.
    std::string const text = serve_text("prompt = trace \"lengths.csv\" arrivals = poisson(20)\n" + parts);
    expect_error(text, "test.roof:4:16: error: cannot read the trace 'lengths.csv': ");
    expect_error(text,
                 "test.roof:4:16: error: the trace 'lengths.csv' needs the columns prompt and output, named in "
                 "its first line (e.g. 'prompt,output'); it has no 'output' column",
                 {{"lengths.csv", "prompt,out\n10,5\n"}});
    expect_error(text,
                 "test.roof:4:16: error: the trace 'lengths.csv', line 3: the prompt length must be a positive "
                 "integer of at most 1,000,000,000 tokens, not '0'",
                 {{"lengths.csv", "prompt,output\n10,5\n0,3\n"}});
    expect_error(text, "test.roof:4:16: error: the trace 'lengths.csv', line 2: the output length must be",
                 {{"lengths.csv", "prompt,output\n10,-5\n"}});
    expect_error(text, "test.roof:4:16: error: the trace 'lengths.csv' has no rows",
                 {{"lengths.csv", "prompt,output\n"}});
    expect_error(text, "test.roof:4:16: error: the trace 'lengths.csv' is empty", {{"lengths.csv", ""}});
    expect_error(text, "test.roof:4:16: error: the trace 'lengths.csv', line 2: a row of 3 fields; the header has 2",
                 {{"lengths.csv", "prompt,output\n1,2,3\n"}});
    // The trace gives both lengths: an output beside it is an error at its name (col 30).
    expect_error(serve_text("prompt = trace \"lengths.csv\" output = 5 arrivals = poisson(20)\n" + parts),
                 "test.roof:4:30: error: the trace gives both lengths: 'output' and 'prompt' cannot be set "
                 "apart from it",
                 {{"lengths.csv", "prompt,output\n10,5\n"}});
}

TEST_CASE("price: a chip's US dollars per hour, USD/h, the catalog's as written", "[serve-lang]") {
    auto checked = test::check_text("hardware chip { hbm_bandwidth = 1e12 B/s  price = 2.99 USD/h }\n");
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto const& price = model::hardware_field("price");
    CHECK(model::field_number(checked->scenario.hardware[0], price) == 2.99);
    // A bare number has no unit: "hardware chip { hbm_bandwidth = 1e12 B/s  price = " is 50 characters.
    auto bare = test::check_text("hardware chip { hbm_bandwidth = 1e12 B/s  price = 2.99 }\n");
    CHECK(contains(bare->errors(), "test.roof:1:51: error: 'price' needs a unit of US dollars per hour (USD/h)"));
    // The shipped catalog's list prices, as templates/hardware/*.roof write them.
    auto catalog = test::check_with_catalog("include \"hardware/catalog.roof\"\n");
    INFO(catalog->errors());
    REQUIRE_FALSE(catalog->diagnostics.has_errors());
    auto price_of = [&](std::string const& id) {
        int i = catalog->scenario.find_hardware(id);
        REQUIRE(i >= 0);
        return model::field_number(catalog->scenario.hardware[static_cast<std::size_t>(i)], price);
    };
    CHECK(price_of("h100_sxm") == 2.99);
    CHECK(price_of("h200") == 3.50);
    CHECK(price_of("tpu_v5e") == 1.20);
    CHECK(price_of("mi300x") == 6.00);
    CHECK_FALSE(price_of("gb200"));  // no public on-demand list price: none
}
