// libFuzzer target: the bytes are a config.json for `roofline import`. They
// go to model::import_config in memory; when it makes a scenario, the
// scenario must hold exactly the statements an import writes (no text of the
// config made a statement: one `target` line, the three includes, no
// `hardware`) and is loaded and checked through the in-memory file system as
// fuzz_scenario does, and its grid prepared. Nothing is written to disk.
//
// Built only with clang and -DROOFLINE_FUZZ=ON; see docs/reliability.md.
#include "roofline/engine/evaluate.hpp"
#include "roofline/importer/import_config.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"
#include "templates.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// How many lines of `text` start with `word`.
int lines_starting_with(std::string const& text, std::string const& word) {
    int count = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        if (text.compare(at, word.size(), word) == 0) ++count;
        auto end = text.find('\n', at);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return count;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string json(reinterpret_cast<char const*>(data), size);
    roofline::model::ImportedScenario imported;
    try {
        imported = roofline::model::import_config(json, "config.json");
    } catch (roofline::model::ImportError const&) {
        return 0;  // the message was made: what is tested
    }
    auto const& text = imported.text;
    if (lines_starting_with(text, "target ") != 1 || lines_starting_with(text, "include ") != 3 ||
        lines_starting_with(text, "hardware") != 0)
        std::abort();  // a config's text became a statement

    // A fresh copy: inputs never share state.
    roofline::MemoryFileSystem fs = roofline::fuzz::templates();
    roofline::Diagnostics diagnostics;
    roofline::LoadOptions load{{ROOFLINE_TEMPLATES_DIR}};
    auto program = roofline::load_program_text("imported.roof", text, fs, load, diagnostics);
    auto scenario = roofline::model::check(program, {}, diagnostics);
    if (!diagnostics.has_errors()) {
        roofline::engine::EvaluateOptions options;
        options.max_cases = 4096;
        (void)roofline::engine::prepare(scenario, diagnostics, options);
    }
    (void)roofline::format(diagnostics);
    return 0;
}
