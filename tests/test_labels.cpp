// Labels that said something else than their numbers (issue 21, point 8): a
// request table on a mesh headed "per chip" over the mesh's tokens/s; the
// diff's "critical TP never → never"; the diff's step table sampling the
// flat list of points instead of run's step points.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace roofline::test;

namespace {

// A made-up chip with NVLink: 1e15 bf16 FLOP/s, 1e12 B/s.
constexpr char const* chip =
    "hardware g { hbm_bandwidth = 1e12 B/s  hbm_capacity = 80 GB  peak bf16 = 1e15 FLOP/s  "
    "nvlink_bandwidth = 100 GB/s  nvlink_domain = 8 }\ntarget g\n";

// The lines of a table in `text`: from the first line that starts with
// `first` to the next empty line or footnote ("t_lower, speedup: ...").
std::vector<std::string> block(std::string const& text, std::string const& first) {
    std::vector<std::string> lines;
    auto at = text.rfind("\n" + first) + 1;  // at a line's start (0 when none)
    std::istringstream in(text.substr(at));
    for (std::string line; std::getline(in, line) && !line.empty() && line.rfind("t_lower,", 0) != 0;)
        lines.push_back(line);
    return lines;
}

// Two column-parallel matmuls (no collective) of width D = F = `width` on
// the chip, over TP = [1, 2] and B = 1 .. 8192 times 2, run and diffed with
// themselves (the diff's output).
CommandResult diff_of_itself(Sandbox const& box, std::string const& width) {
    box.write("a.roof", std::string(chip) + "sweep TP = [1, 2]\nmesh tp = TP over nvlink\n"
                        "sweep B = 1 .. 8192 times 2\nlet D = " + width + "\nlet F = " + width + R"(
matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
matmul up2 = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
tokens = B
)");
    auto run = run_roofline(box.path, "run a.roof --no-charts -q");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return run_roofline(box.path, "diff a@v1 a@v1 --no-charts");
}

}  // namespace

TEST_CASE("a request on a mesh: tokens/s of the whole mesh, bytes per chip, and the heading says so",
          "[requests][multichip][labels]") {
    Sandbox box;
    // tp = 2 splits F: per chip D x F/2. D = F = 1000, batch 1, prompt 1000, output 100.
    // prefill (T = 1000): flops 2 x 1000 x 1000 x 500 = 1e9 (1e-6 s); bytes
    //   2 (1e6 + 5e5 + 5e5) = 4e6 (4e-6 s): TTFT 4 µs, memory-bound.
    // decode: flops 2 x 1000 x 500 = 1e6 (1e-9 s); bytes 2 (1000 + 5e5 + 500)
    //   = 1,003,000 (1.003 µs) per token; 100 tokens: 1.003e-4 s.
    // e2e = 4e-6 + 1.003e-4 = 1.043e-4 s; tokens/s = 1 x 100 / 1.043e-4 =
    //   958,773 ("959 k"): the mesh's (per chip it would be half, "479 k").
    // resident per chip: the weights' half, 2 x 1000 x 500 = 1e6 B ("1 MB").
    box.write("req.roof", std::string(chip) + R"(
mesh tp = 2 over nvlink
let D = 1000
let F = 1000
template step(N) {
    matmul proj = bf16[N, D] * weight bf16[D, F@tp] -> bf16[N, F@tp]
}
request chat(prompt = 1000, output = 100, batch = 1) {
    prefill: use step(N = prompt)
    decode:  use step(N = batch)
}
)");
    auto r = run_roofline(box.path, "run req.roof --no-charts");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "request chat (prompt 1000, output 100, batch 1): TTFT = the prefill step, "
                          "TPOT = the decode step at context prompt + i, e2e = TTFT + every TPOT; "
                          "tokens/s of the whole mesh, KV and resident per chip:\n"));
    CHECK_FALSE(contains(r.out, "every TPOT, per chip:"));  // the old heading
    auto const table = block(r.out, "    TTFT");  // the header, indented by 4
    REQUIRE(table.size() == 2);
    CHECK(contains(table[1], "4 \u00b5s"));    // TTFT
    CHECK(contains(table[1], "1 \u00b5s"));    // TPOT 1.003 µs
    CHECK(contains(table[1], "959 k"));        // tokens/s of the mesh
    CHECK(contains(table[1], "1 MB"));         // resident per chip
}

TEST_CASE("diff: a critical value the same on both sides is one value, a column never critical "
          "is left out",
          "[diff][labels]") {
    Sandbox box;
    // up = bf16[B, D] x weight bf16[D, F@tp]: per chip flops 2 B D F/tp, bytes
    // 2 (B D + D F/tp + B F/tp). D = F = 4096. At tp = 1, intensity
    // 2 B 4096 4096 / (2 (4096 B + 4096² + 4096 B)) = 4096 B / (2 B + 4096),
    // at least the ridge 1000 (1e15 / 1e12) from B = 4096000 / 2096 = 1954.2:
    // critical B = 1955 (1954 gives 999.95), the same in A and B. TP only
    // lowers the intensity: never compute-bound along TP.
    auto d = diff_of_itself(box, "4096");
    INFO(d.out << d.err);
    REQUIRE(d.exit_code == 0);
    auto const table = block(d.out, "op ");
    REQUIRE(table.size() == 3);  // the header, up, up2
    CHECK(contains(table[0], "critical B"));
    CHECK_FALSE(contains(table[0], "critical TP"));  // never → never on every row
    CHECK_FALSE(contains(d.out, "never \u2192 never"));
    // critical B at the first case (TP = 1), the same on both sides: one value.
    CHECK(contains(table[1], " 1955"));
    CHECK_FALSE(contains(table[1], "\u2192 1955"));
}

TEST_CASE("diff: the step table shows every mesh size at each batch it samples, as run does",
          "[diff][labels][steps]") {
    Sandbox box;
    auto d = diff_of_itself(box, "64");
    INFO(d.out << d.err);
    REQUIRE(d.exit_code == 0);
    auto const table = block(d.out, "hardware A \u2192 B ");  // the step table's header
    // B has 14 values (1 .. 8192): step_points(14) keeps index 0, then
    // round(14^(k/7)) - 1 for k = 1 .. 6 = 0, 1, 2, 4, 6, 9 (rising ones only),
    // and the last, 13: B = 1, 2, 4, 16, 64, 512, 8192, each at TP = 1 and 2.
    // (Before: step_points(28) over the flat points, 0 1 2 3 6 10 16 27: TP = 1
    // at B = 1, 2, 4, 8, 64, 1024, then TP = 2 at B = 4 and 8192 alone.)
    std::vector<std::pair<std::string, std::string>> rows;
    for (std::size_t i = 1; i < table.size(); ++i) {
        std::istringstream row(table[i]);
        std::string a, arrow, b, tp, batch;
        row >> a >> arrow >> b >> tp >> batch;
        rows.emplace_back(tp, batch);
    }
    std::vector<std::pair<std::string, std::string>> expected;
    for (char const* batch : {"1", "2", "4", "16", "64", "512", "8192"})
        for (char const* tp : {"1", "2"}) expected.emplace_back(tp, batch);
    CHECK(rows == expected);
}
