// libFuzzer target: the bytes are a scenario's text. It is loaded through the
// in-memory file system (the shipped templates copied into it once, so that
// `include "hardware/catalog.roof"` works and nothing else on disk is read),
// checked, and, when it checks, its grid is prepared with a small case limit
// so that no input takes long. Nothing is written to disk.
//
// Built only with clang and -DROOFLINE_FUZZ=ON; see docs/reliability.md.
#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"
#include "templates.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string text(reinterpret_cast<char const*>(data), size);
    // A fresh copy: inputs never share state.
    roofline::MemoryFileSystem fs = roofline::fuzz::templates();
    roofline::Diagnostics diagnostics;
    roofline::LoadOptions load{{ROOFLINE_TEMPLATES_DIR}};
    auto program = roofline::load_program_text("fuzz.roof", text, fs, load, diagnostics);
    auto scenario = roofline::model::check(program, {}, diagnostics);
    if (!diagnostics.has_errors()) {
        roofline::engine::EvaluateOptions options;
        options.max_cases = 4096;
        auto grid = roofline::engine::prepare(scenario, diagnostics, options);
        // Requests step by step, when their steps are few.
        bool small = true;
        for (auto const& r : scenario.requests)
            small = small && r.output_slot >= 0 &&
                    scenario.slots[static_cast<std::size_t>(r.output_slot)].depends_on == 0 &&
                    scenario.slots[static_cast<std::size_t>(r.output_slot)].constant <= 64;
        if (grid && small && !diagnostics.has_errors())
            (void)roofline::engine::evaluate_requests(scenario, *grid, diagnostics);
    }
    (void)roofline::format(diagnostics);  // the messages' text is part of what is tested
    return 0;
}
