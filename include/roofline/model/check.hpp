#pragma once
// AST -> checked scenario. Resolves names (spreadsheet-like: order does not
// matter), converts units, evaluates constants, and reports every problem it
// finds as a diagnostic pointing at the token. The result is only meaningful
// when no error was reported.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/scenario.hpp"

#include <string>
#include <vector>

namespace roofline::model {

// The most cases a scenario may have (sweep points x matmuls x targets).
inline constexpr std::size_t max_cases = 200'000'000;
// The most sweeps a scenario may have.
inline constexpr std::size_t max_sweeps = 63;  // bit 63 of Slot::depends_on is a request's step

// The longest text for people in a scenario (its title, a chip's source) and
// the longest names that a report's manifest.json keeps (a chip's name and
// identifier, a sweep's, a dtype's), in bytes: longer is an error at the
// string or the name. So that a report stays readable by the tool itself,
// whose manifests are read up to 16 MiB (report::max_manifest_bytes): the
// manifest keeps one title, an id and a name per target and a name per sweep
// and dtype value, JSON-escaped (6 bytes at most per byte, \u0001): at most
// 6 x 4096 = 24 KiB of title, and 1024 + 6 x 1024 bytes (7 KiB) per target,
// 1 KiB per sweep and per dtype value. docs/reliability.md, "Sizes", has the
// whole count.
inline constexpr std::size_t max_text_bytes = 4096;
inline constexpr std::size_t max_name_bytes = 1024;

struct CheckOptions {
    std::vector<std::string> targets;  // --target: replaces the scenario's targets
    // --set: `let`/`sweep` statements that replace the top-level let or sweep
    // of the same name, in its place (so sweep order is kept). Their files
    // must outlive the scenario.
    std::vector<StatementRef> overrides;
    std::size_t max_sweep_points = 10'000'000;  // per sweep
    // All sweeps together (their product), checked while their values are
    // made, so that no more than this is ever built: the engine's case limit
    // (engine::EvaluateOptions::max_cases), since every point is a case.
    std::size_t max_points = max_cases;
    // Where data files a scenario names are read (a serve's trace); nullptr:
    // the disk.
    FileSystem* files = nullptr;
};

Scenario check(Program const& program, CheckOptions const& options, Diagnostics& diagnostics);

}  // namespace roofline::model
