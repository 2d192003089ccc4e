#pragma once
// Test helpers: parse and check scenario text held in memory (no disk), with
// the shipped catalog reachable through the real templates folder; and
// `contains`, for checking what a text (an output, a file) says.

#include "roofline/engine/evaluate.hpp"
#include "roofline/lang/loader.hpp"
#include "roofline/model/check.hpp"

#include <memory>
#include <string>

namespace roofline::test {

inline bool contains(std::string const& text, std::string const& part) {
    return text.find(part) != std::string::npos;
}

struct Checked {
    std::unique_ptr<MemoryFileSystem> fs = std::make_unique<MemoryFileSystem>();
    Diagnostics diagnostics;
    Program program;
    model::Scenario scenario;
    std::string errors() const { return format(diagnostics); }
};

// `files` are extra files the text may include, by path.
inline std::unique_ptr<Checked> check_text(
    std::string const& text, std::vector<std::pair<std::string, std::string>> const& files = {},
    model::CheckOptions const& options = {}) {
    auto result = std::make_unique<Checked>();
    for (auto const& [path, body] : files) result->fs->add(path, body);
    LoadOptions load{{}};
    result->program =
        load_program_text("test.roof", text, *result->fs, load, result->diagnostics);
    result->scenario = model::check(result->program, options, result->diagnostics);
    return result;
}

// The catalog from templates/, read from disk (the shipped files are the subject).
inline std::unique_ptr<Checked> check_with_catalog(std::string const& text,
                                                   model::CheckOptions const& options = {}) {
    auto result = std::make_unique<Checked>();
    DiskFileSystem disk;
    LoadOptions load{{std::string(ROOFLINE_SOURCE_DIR) + "/templates"}};
    result->program = load_program_text("test.roof", text, disk, load, result->diagnostics);
    result->scenario = model::check(result->program, options, result->diagnostics);
    return result;
}

}  // namespace roofline::test
