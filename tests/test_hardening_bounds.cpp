// Work bounded before it starts (issue 25, item 10): `eval` refuses a table
// of more rows than a person can read before evaluating anything, and the
// requests' product of sweep points x output tokens x decode ops x targets is
// checked for every point before the first decode step is evaluated.
#include "command.hpp"
#include "helpers.hpp"

#include "roofline/engine/evaluate.hpp"
#include "roofline/report/run.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

using namespace roofline;

namespace {

bool contains(std::string const& text, std::string const& part) {
    return text.find(part) != std::string::npos;
}

// A memory limit for a run that must refuse before it allocates much, so
// that a regression fails instead of filling the machine; none under
// AddressSanitizer, which reserves terabytes of address space up front.
#if defined(__SANITIZE_ADDRESS__)
constexpr char const* memory_limit = "";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr char const* memory_limit = "";
#else
constexpr char const* memory_limit = "ulimit -v 2000000;";
#endif
#else
constexpr char const* memory_limit = "ulimit -v 2000000;";
#endif

// A request whose decode step fails at i = 3 (S = 3 - i = 0), after `sweeps`.
std::string failing_request(std::string const& sweeps, std::string const& output,
                            std::string const& batch) {
    std::string text = "hardware toy { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
                       "target toy\nlet E = 64\n";
    text.append(sweeps).append(
        "template step(B, S) {\n"
        "    matmul scores = bf16[B, E] * cache bf16[B, S, E] -> bf16[B, S]\n"
        "}\n"
        "request chat(prompt = 16, output = ");
    text.append(output).append(", batch = ").append(batch).append(
        ") {\n"
        "    prefill: use step(B = batch, S = prompt)\n"
        "    decode:  use step(B = batch, S = 3 - i)\n"
        "}\n");
    return text;
}

}  // namespace

TEST_CASE("bounds: eval refuses a 10^7-value --set at its token, before making its values",
          "[reliability][hardening][bounds]") {
    test::Sandbox box;
    // Before: 9,999,999 points x the catalog's targets (under run's case
    // limit) were evaluated and built into one table string: 23 GB. Now the
    // sweep is refused while its values are made, past eval's 100,000 rows.
    auto eval = test::run_roofline(box.path,
                                   "eval 'bf16[B,D] * bf16[D,F] -> bf16[B,F]' --set B=1..9999999 "
                                   "--set D=4096 --set F=4096",
                                   memory_limit);
    CHECK(eval.exit_code == 1);
    CHECK(contains(eval.err, "<--set B=1..9999999>:1:1: error: sweep 'B' takes the sweep points "
                             "past the limit of 100000 cases"));
    CHECK(eval.out.empty());
}

TEST_CASE("bounds: eval counts the targets: points x targets past 100,000 rows is an error",
          "[reliability][hardening][bounds]") {
    test::Sandbox box;
    // 50,001 points on 2 targets = 100,002 rows: one past the limit; 50,000
    // points on 2 targets = 100,000 rows exactly: the limit, allowed.
    auto over = test::run_roofline(box.path, "eval 'bf16[B,D] * bf16[D,F] -> bf16[B,F]' "
                                             "--target h100_sxm --target h200 --set B=1..50001 "
                                             "--set D=64 --set F=64");
    INFO(over.err);
    CHECK(over.exit_code == 1);
    CHECK(contains(over.err, "<--set B=1..50001>:1:1: error: eval prints one row per case, at most "
                             "100000, but with this --set it has at least 100002 (on 2 targets)"));
    CHECK(over.out.empty());
    auto at = test::run_roofline(box.path, "eval 'bf16[B,D] * bf16[D,F] -> bf16[B,F]' "
                                           "--target h100_sxm --target h200 --set B=1..50000 "
                                           "--set D=64 --set F=64");
    INFO(at.err);
    CHECK(at.exit_code == 0);
}

TEST_CASE("bounds: the requests' work is checked at every point before a decode step runs",
          "[reliability][hardening][bounds]") {
    // 200 points x (1 prefill case + 10^6 steps x 1 decode case) x 1 target
    // = 200,000,200 > 200,000,000: the bound fails at B = 200. The decode
    // step would fail at i = 3 (S = 3 - i = 0) at the first point, B = 1;
    // before, that step was evaluated (and 10^6 steps with it) before the
    // bound was seen, so its error was the one reported.
    auto checked = test::check_text(failing_request("sweep B = 1..201\n", "1000000", "B"));
    INFO(checked->errors());
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    auto results = engine::evaluate_requests(checked->scenario, *grid, checked->diagnostics);
    CHECK_FALSE(results);
    auto const errors = checked->errors();
    CHECK(checked->diagnostics.error_count() == 1);
    CHECK(contains(errors, "error: the requests evaluate more than 200000000 cases (sweep points x "
                           "output tokens x decode ops x targets); lower the output or the sweeps "
                           "(request 'chat', at B = 200)"));
    CHECK_FALSE(contains(errors, "i = 3"));
}

TEST_CASE("bounds: under the requests' bound, a decode step's error names its step",
          "[reliability][hardening][bounds]") {
    // The same request at one point: within the bound, so the steps run and
    // the first one that fails is reported, at i = 3.
    auto checked = test::check_text(failing_request("", "10", "1"));
    REQUIRE_FALSE(checked->diagnostics.has_errors());
    auto grid = engine::prepare(checked->scenario, checked->diagnostics);
    REQUIRE(grid);
    CHECK_FALSE(engine::evaluate_requests(checked->scenario, *grid, checked->diagnostics));
    INFO(checked->errors());
    CHECK(checked->diagnostics.error_count() == 1);
    CHECK(contains(checked->errors(), "i = 3)"));
}

TEST_CASE("bounds: a report whose manifest the tool could not read back is not published",
          "[reliability][hardening][bounds]") {
    // The names and strings are bounded, the counts of targets and charts are
    // not: a manifest past what `run` and `diff` read back (16 MiB) is an
    // error before the version appears. Shown with the limit lowered to 1,000
    // bytes: a manifest lists its inputs and outputs with 64-digit SHA-256s,
    // so even this one-op report's is longer.
    test::Sandbox box;
    box.write("small.roof", "hardware h { hbm_bandwidth = 1 TB/s peak bf16 = 1e15 FLOP/s }\n"
                            "target h\nlet D = 64\nlet F = 64\nsweep B = [1, 2]\n"
                            "matmul up = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    report::RunRequest request;
    request.scenario = (box.path / "small.roof").string();
    request.out_root = (box.path / "out").string();
    request.charts = false;
    request.command_line = {"test"};
    Diagnostics first;
    auto published = report::run(request, first);
    INFO(format(first));
    REQUIRE(published.status == report::RunOutcome::Status::published);

    request.force = true;
    request.max_manifest_bytes = 1000;
    Diagnostics diagnostics;
    auto refused = report::run(request, diagnostics);
    CHECK(refused.status == report::RunOutcome::Status::invalid_input);
    auto const printed = format(diagnostics);
    INFO(printed);
    CHECK(contains(printed, " bytes, more than the 1000 that roofline reads back (up to date, "
                                  "diff); nothing is published"));
    CHECK(std::filesystem::exists(box.path / "out/small/v1/manifest.json"));
    CHECK_FALSE(std::filesystem::exists(box.path / "out/small/v2"));
    CHECK(std::filesystem::read_symlink(box.path / "out/small/latest") == "v1");
    // Nothing is left of the refused run: v1, latest and the lock only.
    std::size_t entries = 0;
    for (auto const& e : std::filesystem::directory_iterator(box.path / "out/small")) {
        (void)e;
        ++entries;
    }
    CHECK(entries == 3);
}
