// The command line as a user runs it: the real binary, its exit codes and
// its output (reports.md: 0 ok, 1 invalid input, 2 usage error, 3 I/O).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Result {
    int exit_code;
    std::string out, err;
};

std::string slurp(std::filesystem::path const& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Arguments are passed through the shell: tests quote them themselves.
Result roofline(std::string const& args) {
    auto dir = std::filesystem::temp_directory_path();
    auto out = dir / ("roofline_cli_out_" + std::to_string(::getpid()));
    auto err = dir / ("roofline_cli_err_" + std::to_string(::getpid()));
    std::string command = std::string("cd '") + ROOFLINE_SOURCE_DIR + "' && '" + ROOFLINE_BINARY +
                          "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    int status = std::system(command.c_str());
    Result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
}

bool contains(std::string const& text, std::string const& part) {
    return text.find(part) != std::string::npos;
}

std::filesystem::path write_temp(std::string const& name, std::string const& text) {
    auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST_CASE("cli: version, help, usage errors", "[cli]") {
    auto version = roofline("--version");
    CHECK(version.exit_code == 0);
    CHECK(contains(version.out, "roofline 0."));
    for (auto const* command : {"check", "eval", "hardware"}) {
        INFO(command);
        auto help = roofline(std::string(command) + " --help");
        CHECK(help.exit_code == 0);
        CHECK(contains(help.out, "usage: roofline"));
    }
    CHECK(roofline("").exit_code == 2);
    CHECK(roofline("frobnicate").exit_code == 2);
    CHECK(roofline("check").exit_code == 2);  // no file
    CHECK(roofline("check --no-such-option x.roof").exit_code == 2);
    CHECK(roofline("eval 'int8[B] * int8[B] -> int8[]' --set B").exit_code == 2);
}

TEST_CASE("cli: check succeeds on the shipped scenario and reports the case count", "[cli]") {
    auto r = roofline("check scenarios/roofline-exercises.roof");
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
    auto r = roofline("check scenarios/llama3-70b-decode.roof");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, ": ok: 10 matmuls + 10 elementwise ops x 4 targets x 9 sweep points = "
                          "720 cases"));
    r = roofline("check templates/layers/dense.roof");
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, ": ok: 4 templates, no ops (a template is checked where a scenario "
                          "uses it)"));
}

TEST_CASE("cli: check prints diagnostics with file:line:col and exits 1", "[cli]") {
    auto path = write_temp("roofline_cli_bad.roof",
                           "let D = 4096\nlet F = 4096\nsweep B = 1 .. 8\n"
                           "matmul up = bf16[B, D] * bf16[D, Fx] -> bf16[B, F]\n");
    auto r = roofline("check '" + path.string() + "'");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, path.string() + ":4:34: error: unknown axis 'Fx'; did you mean 'F'?\n"
                          "matmul up = bf16[B, D] * bf16[D, Fx] -> bf16[B, F]\n"
                          "                                 ^~\n"));
    std::filesystem::remove(path);
}

TEST_CASE("cli: a missing file is an I/O failure (exit 3)", "[cli]") {
    auto r = roofline("check /nonexistent/nothing.roof");
    CHECK(r.exit_code == 3);
    CHECK(contains(r.err, "roofline: error: cannot read '/nonexistent/nothing.roof'"));
}

TEST_CASE("cli: eval prints the roofline of one matmul", "[cli]") {
    auto r = roofline("eval 'int8[B, D] * int8[D, F] -> int8[B, F]' --set B=256 --set D=4096 "
                      "--set F=4096 --target tpu_v5e");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // flops 2*256*4096^2, bytes 256*4096 + 4096^2, critical batch 273.
    CHECK(contains(r.out, "8589934592"));
    CHECK(contains(r.out, "17825792"));
    CHECK(contains(r.out, "memory"));
    CHECK(contains(r.out, "critical_B"));
    CHECK(contains(r.out, " 273 "));
}

TEST_CASE("cli: eval errors point into the command line", "[cli]") {
    auto r = roofline("eval 'bf16[B, D] * int8[D, Fx] -> bf16[B, F]' --set B=1 --set D=2 --set F=3 "
                      "--target tpu_v5e");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "error: unknown axis 'Fx'; did you mean 'F'?"));
    auto unknown = roofline("eval 'int8[B] * int8[B] -> int8[]' --set B=1 --target tpu_v5f");
    CHECK(unknown.exit_code == 1);
    CHECK(contains(unknown.err, "unknown hardware 'tpu_v5f' in --target; did you mean 'tpu_v5e'?"));
}

TEST_CASE("cli: hardware lists the catalog and shows one chip", "[cli]") {
    auto list = roofline("hardware");
    CHECK(list.exit_code == 0);
    for (auto const* id : {"tpu_v5e", "tpu_v6e", "h100_sxm", "b200", "mi325x"}) CHECK(contains(list.out, id));
    auto one = roofline("hardware tpu_v5e");
    CHECK(one.exit_code == 0);
    CHECK(contains(one.out, "TPU v5e"));
    CHECK(contains(one.out, "ridge 240.2 FLOP/byte"));  // 1.97e14 / 8.2e11
    auto bad = roofline("hardware tpu_v5");
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.err, "did you mean 'tpu_v5e'?"));
}
