// A serve's trace file is an input of the report like the scenario's own
// files: copied into the version's inputs/, hashed into the inputs' digest,
// so that an edited trace publishes a new version and an unchanged one is
// up to date.
#include "sandbox.hpp"

#include "roofline/report/manifest.hpp"
#include "roofline/report/run.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace roofline;
namespace fs = std::filesystem;

namespace {

constexpr char const* traced = R"(
hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s  hbm_capacity = 80e9 B }
target chip
let D = 64
let F = 64
serve chat {
    prompt = trace "lengths.csv"
    arrivals = closed(2)
    requests = 20
    linear: let N = tokens matmul up = bf16[N, D] * weight bf16[D, F] -> bf16[N, F]
    decode: let S = context let B = 1 matmul qk = bf16[B, D] * cache bf16[S, D] -> bf16[B, S]
    prefill: let T = chunk let K = start + chunk
    matmul pq = bf16[T, D] * cache bf16[K, D] -> bf16[T, K]
}
)";

report::RunOutcome run(test::Sandbox const& box) {
    report::RunRequest request;
    request.scenario = (box.path / "chat.roof").string();
    request.out_root = (box.path / "out").string();
    request.charts = false;
    request.command_line = {"test"};
    Diagnostics diagnostics;
    auto outcome = report::run(request, diagnostics);
    INFO(format(diagnostics));
    CHECK_FALSE(diagnostics.has_errors());
    return outcome;
}

}  // namespace

TEST_CASE("serve: the trace is an input of the report, copied and hashed", "[serve-report][run]") {
    test::Sandbox box;
    box.write("chat.roof", traced);
    box.write("lengths.csv", "prompt,output\n100,10\n200,20\n");
    auto first = run(box);
    REQUIRE(first.status == report::RunOutcome::Status::published);
    auto manifest = report::read_manifest((fs::path(first.folder) / "manifest.json").string());
    bool listed = false;
    for (auto const& o : manifest.outputs) listed = listed || o.path == "inputs/traces/lengths.csv";
    CHECK(listed);
    CHECK(test::read_file(fs::path(first.folder) / "inputs" / "traces" / "lengths.csv") ==
          "prompt,output\n100,10\n200,20\n");

    // Unchanged: up to date. The trace edited (the scenario not): a new version.
    CHECK(run(box).status == report::RunOutcome::Status::up_to_date);
    box.write("lengths.csv", "prompt,output\n100,10\n300,20\n");
    auto edited = run(box);
    CHECK(edited.status == report::RunOutcome::Status::published);
    CHECK(edited.folder != first.folder);
}
