// The command line as a user runs it: the real binary, its exit codes and
// its output (reports.md: 0 ok, 1 invalid input, 2 usage error, 3 I/O).
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

using roofline::test::contains;

// The binary run in the source folder. Arguments are passed through the
// shell: tests quote them themselves.
roofline::test::CommandResult cli(std::string const& args) {
    return roofline::test::run_roofline(ROOFLINE_SOURCE_DIR, args);
}

}  // namespace

TEST_CASE("cli: version, help, usage errors", "[cli]") {
    auto version = cli("--version");
    CHECK(version.exit_code == 0);
    CHECK(contains(version.out, "roofline 0."));
    for (auto const* command : {"check", "eval", "hardware"}) {
        INFO(command);
        auto help = cli(std::string(command) + " --help");
        CHECK(help.exit_code == 0);
        CHECK(contains(help.out, "usage: roofline"));
    }
    CHECK(cli("").exit_code == 2);
    CHECK(cli("frobnicate").exit_code == 2);
    CHECK(cli("check").exit_code == 2);  // no file
    CHECK(cli("check --no-such-option x.roof").exit_code == 2);
    CHECK(cli("eval 'int8[B] * int8[B] -> int8[]' --set B").exit_code == 2);
}

TEST_CASE("cli: check succeeds on the shipped scenario and reports the case count", "[cli]") {
    auto r = cli("check scenarios/roofline-exercises.roof");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    // 8 matmuls x 2 targets x 512 batch sizes.
    CHECK(contains(r.out, "= 8192 cases"));
}

TEST_CASE("cli: check counts elementwise ops apart, and says what a file of templates holds",
          "[cli]") {
    // Llama 3 70B decode: embedding gather; per layer 2 norms, q/k/v/o,
    // 2 RoPE, scores, softmax, values, 2 residual adds, gate/up/down and
    // silu_mul; final norm and logits: 10 matmuls, 10 elementwise ops,
    // x 4 targets x 9 batch sizes = 720 cases.
    auto r = cli("check scenarios/llama3-70b-decode.roof");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, ": ok: 10 matmuls + 10 elementwise ops x 4 targets x 9 sweep points = "
                          "720 cases"));
    // attention, gated_mlp, dense_decode, dense_prefill and the flash forms
    // flash_attention, dense_decode_flash, dense_prefill_flash.
    r = cli("check templates/layers/dense.roof");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, ": ok: 7 templates, no ops (a template is checked where a scenario "
                          "uses it)"));
}

TEST_CASE("cli: check prints diagnostics with file:line:col and exits 1", "[cli]") {
    roofline::test::Sandbox box;
    auto path = box.write("roofline_cli_bad.roof",
                          "let D = 4096\nlet F = 4096\nsweep B = 1 .. 8\n"
                          "matmul up = bf16[B, D] * bf16[D, Fx] -> bf16[B, F]\n");
    auto r = cli("check '" + path.string() + "'");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, path.string() + ":4:34: error: unknown axis 'Fx'; did you mean 'F'?\n"
                          "matmul up = bf16[B, D] * bf16[D, Fx] -> bf16[B, F]\n"
                          "                                 ^~\n"));
}

TEST_CASE("cli: a missing file is an I/O failure (exit 3)", "[cli]") {
    auto r = cli("check /nonexistent/nothing.roof");
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, "roofline: error: cannot read '/nonexistent/nothing.roof'"));
}

TEST_CASE("cli: eval prints the roofline of one matmul", "[cli]") {
    auto r = cli("eval 'int8[B, D] * int8[D, F] -> int8[B, F]' --set B=256 --set D=4096 "
                      "--set F=4096 --target tpu_v5e");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // flops 2*256*4096^2 = 8,589,934,592 = 8.59 GFLOP, bytes read 256*4096 +
    // 4096^2 = 17,825,792 = 17.8 MB, critical batch 273.
    CHECK(contains(r.out, " 8.59 GFLOP "));
    CHECK(contains(r.out, " 17.8 MB "));
    CHECK(contains(r.out, "memory"));
    CHECK(contains(r.out, "critical_B"));
    CHECK(contains(r.out, " 273 "));
}

TEST_CASE("cli: eval errors point into the command line", "[cli]") {
    auto r = cli("eval 'bf16[B, D] * int8[D, Fx] -> bf16[B, F]' --set B=1 --set D=2 --set F=3 "
                      "--target tpu_v5e");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "error: unknown axis 'Fx'; did you mean 'F'?"));
    auto unknown = cli("eval 'int8[B] * int8[B] -> int8[]' --set B=1 --target tpu_v5f");
    CHECK(unknown.exit_code == 1);
    CHECK(contains(unknown.err, "unknown hardware 'tpu_v5f' in --target; did you mean 'tpu_v5e' or "
                                "'tpu_v5p'?"));
}

TEST_CASE("cli: hardware lists the catalog and shows one chip", "[cli]") {
    auto list = cli("hardware");
    CHECK(list.exit_code == 0);
    for (auto const* id : {"tpu_v5e", "tpu_v6e", "h100_sxm", "b200", "mi325x"}) CHECK(contains(list.out, id));
    auto one = cli("hardware tpu_v5e");
    CHECK(one.exit_code == 0);
    CHECK(contains(one.out, "TPU v5e"));
    CHECK(contains(one.out, "ridge 240.2 FLOP/byte"));  // 1.97e14 / 8.2e11
    // tpu.roof's numbers with SI prefixes: 8.2e11 B/s, 16 GiB = 17,179,869,184 B,
    // 4.5e10 B/s, 1.97e14 FLOP/s; the interconnect the chip has (the default
    // latencies with their links; DCN 3.125e9 B/s to three digits, half to
    // even), none it lacks; VMEM 128 MiB at 22 x 8.1e11 = 1.782e13 B/s, which
    // is 21.73 x this chip's 8.2e11. The first column is as wide as
    // onchip_bandwidth.
    CHECK(contains(one.out, "hbm_bandwidth     820 GB/s\n"));
    CHECK(contains(one.out, "hbm_capacity      16 GiB (17,179,869,184 B)\n"));
    CHECK(contains(one.out, "ici_bandwidth     45 GB/s\n"
                            "ici_wraparound    16\n"
                            "ici_latency       1 µs\n"
                            "dcn_bandwidth     3.12 GB/s\n"
                            "dcn_latency       10 µs\n"
                            "onchip_capacity   128 MiB (134,217,728 B)\n"
                            "onchip_bandwidth  17.8 TB/s, 21.73 x HBM\n"
                            "price             1.2 USD/h\n"  // tpu.roof: on-demand, per chip-hour
                            "peak bf16         197 TFLOP/s, ridge 240.2 FLOP/byte\n"));
    CHECK_FALSE(contains(one.out, "nvlink"));
    // A GPU: NVLink (450 GB/s one-way, 8 GPUs) and a 400 Gb/s NIC, no ICI.
    auto gpu = cli("hardware h100_sxm");
    CHECK(gpu.exit_code == 0);
    // 81008 MiB (79.11 GiB, what the driver reports) x 1,048,576 B.
    CHECK(contains(gpu.out, "hbm_capacity      84.94 GB (84,943,044,608 B)\n"
                            "nvlink_bandwidth  450 GB/s\n"
                            "nvlink_domain     8\n"
                            "nvlink_latency    1 µs\n"
                            "dcn_bandwidth     50 GB/s\n"
                            "dcn_latency       10 µs\n"));
    CHECK_FALSE(contains(gpu.out, "ici_"));
    // A chip without any interconnect field shows none.
    auto pcie = cli("hardware h100_pcie");
    CHECK(pcie.exit_code == 0);
    for (auto const* field : {"ici_", "nvlink_", "dcn_"}) CHECK_FALSE(contains(pcie.out, field));
    // The list: bandwidth and peaks (3.94e14 = 394 T, 7.88e14 = 788 T) the same way.
    CHECK(contains(list.out, "820 GB/s"));
    CHECK(contains(list.out, "bf16=197 T  int8=394 T  int4=788 T\n"));
    auto bad = cli("hardware tpu_v5");
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.err, "did you mean 'tpu_v5e' or 'tpu_v5p'?"));
}
