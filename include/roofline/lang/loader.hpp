#pragma once
// Reads a scenario and every file it includes. Includes are searched relative
// to the including file, then in each search-path folder in order; a file is
// read once however often it is included; a cycle is an error that prints the
// chain. The result lists the top-level statements in reading order, with
// each include replaced by the statements of the file it names.

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/file_system.hpp"
#include "roofline/lang/parse.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace roofline {

struct StatementRef {
    ParsedFile const* file;
    ast::Statement const* statement;
};

struct Program {
    // Every file read, the main file first. Each owns its text and its AST.
    struct File {
        std::unique_ptr<SourceFile> source;
        ParsedFile parsed;
        // Where a copy of the file goes so that the copies include each other
        // as the originals did: the main file's name; an include's path
        // relative to its includer's copy, or, when found on the search path,
        // the include string itself. Always relative, never with "..".
        std::string input_name;
    };
    std::vector<std::unique_ptr<File>> files;
    std::vector<StatementRef> statements;
    bool main_unreadable = false;  // an I/O failure, not invalid input
};

// How many files may be included inside each other (the main file includes
// one, which includes another, ...): loading recurses once per level, so a
// deeper chain is an error at the include that crosses it, not a stack overflow.
inline constexpr std::size_t max_include_depth = 64;

struct LoadOptions {
    std::vector<std::string> search_path;  // -I folders, ROOFLINE_PATH, templates/
};

// The search path a command line gets: `-I` folders, then ROOFLINE_PATH
// (colon-separated), then the installed templates folder.
std::vector<std::string> default_search_path(std::vector<std::string> const& include_dirs);

// Diagnostics point into the returned program's files: keep it alive while
// they are printed.
Program load_program(std::string const& path, FileSystem& fs, LoadOptions const& options,
                     Diagnostics& diagnostics);

// The same for a text that is not a file of its own (`roofline eval`, tests).
Program load_program_text(std::string name, std::string text, FileSystem& fs,
                          LoadOptions const& options, Diagnostics& diagnostics);

}  // namespace roofline
