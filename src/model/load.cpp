#include "roofline/model/load.hpp"

#include "roofline/lang/file_system.hpp"

#include <map>

namespace roofline::model {

namespace {

// The NAME of a parsed --set (a let or a sweep), or nullptr.
ast::Identifier const* set_name(ast::Statement const& statement) {
    if (auto const* let = boost::get<ast::LetStmt>(&statement.get())) return &let->name;
    if (auto const* sweep = boost::get<ast::SweepStmt>(&statement.get())) return &sweep->name;
    return nullptr;
}

// Each --set is a file of its own, "<--set NAME=VALUE>", holding the argument
// as its text, so that a diagnostic shows the argument with a caret in it.
// A NAME given twice is an error in both modes: which value the user meant
// cannot be known, and last-wins would hide a slip.
Program parse_sets(std::vector<std::string> const& sets, SetMode mode, Diagnostics& diagnostics) {
    Program program;
    std::map<std::string, Span> first;  // NAME -> its first --set
    for (auto const& set : sets) {
        auto file = std::make_unique<Program::File>();
        file->source = std::make_unique<SourceFile>("<--set " + set + ">", set);
        file->parsed = parse_set(*file->source, mode == SetMode::define_sweep, diagnostics);
        for (auto const& statement : file->parsed.statements) {
            if (auto const* name = set_name(statement)) {
                Span span = file->parsed.span_of(*name);
                auto [it, inserted] = first.emplace(name->name, span);
                if (!inserted) {
                    diagnostics
                        .error(span, "--set " + name->name + " is given twice; give each name once")
                        .notes.push_back(Diagnostics::note(
                            it->second, "the first --set " + name->name + " is here"));
                    continue;
                }
            }
            program.statements.push_back({&file->parsed, &statement});
        }
        program.files.push_back(std::move(file));
    }
    return program;
}

}  // namespace

LoadedScenario load_scenario(std::string const& path, std::optional<std::string> const& text,
                             std::vector<std::string> const& include_dirs, CheckOptions options,
                             Diagnostics& diagnostics, std::vector<std::string> const& sets,
                             SetMode mode) {
    DiskFileSystem fs;
    LoadOptions load_options{default_search_path(include_dirs)};
    LoadedScenario result;
    std::size_t errors_before = diagnostics.error_count();
    result.overrides = parse_sets(sets, mode, diagnostics);
    // A scenario checked without one of its --set values would only give
    // errors that the value was meant to avoid (or none at all).
    bool sets_ok = diagnostics.error_count() == errors_before;
    if (mode == SetMode::replace) options.overrides = result.overrides.statements;
    result.program = text ? load_program_text(path, *text, fs, load_options, diagnostics)
                          : load_program(path, fs, load_options, diagnostics);
    if (mode == SetMode::define_sweep) {
        auto& statements = result.program.statements;
        statements.insert(statements.begin(), result.overrides.statements.begin(),
                          result.overrides.statements.end());
    }
    if (sets_ok && !result.program.files.empty())
        result.scenario = check(result.program, options, diagnostics);
    return result;
}

bool is_name_value(std::string const& set) {
    auto eq = set.find('=');
    return eq != std::string::npos && eq != 0 && set.find_first_of("\r\n") == std::string::npos;
}

}  // namespace roofline::model
