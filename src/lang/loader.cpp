#include "roofline/lang/loader.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/lang/templates_dir.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string_view>
#include <vector>

namespace roofline {
namespace {

class Loader {
public:
    Loader(FileSystem& fs, LoadOptions const& options, Diagnostics& diagnostics)
        : fs_(fs), options_(options), diagnostics_(diagnostics) {}

    Program program;

    void load_text(std::string path, std::string text) {
        auto identity = fs_.identity(path);
        auto name = std::filesystem::path(path).filename().string();
        auto& file = add_file(std::move(path), std::move(text), name);
        loaded_.push_back(identity);
        stack_.push_back({identity, file.source->path});
        walk(file.parsed);
        stack_.pop_back();
    }

    void load_main(std::string const& path) {
        if (auto why = fs_.refusal(path)) {  // the input's fault, not an I/O failure
            diagnostics_.error(Span{}, "cannot read '" + path + "': " + *why);
            return;
        }
        std::string error;
        auto text = fs_.read(path, error);
        if (!text) {
            diagnostics_.error(Span{}, "cannot read '" + path + "': " + error);
            program.main_unreadable = true;
            return;
        }
        load_text(path, std::move(*text));
    }

private:
    struct Open {
        std::string identity;
        std::string shown;
    };

    Program::File& add_file(std::string path, std::string text, std::string input_name) {
        auto file = std::make_unique<Program::File>();
        file->source = std::make_unique<SourceFile>(std::move(path), std::move(text));
        file->parsed = parse_file(*file->source, diagnostics_);
        // Distinct, relative, inside the copy folder.
        auto normal = std::filesystem::path(input_name).lexically_normal();
        bool outside = normal.empty() || normal.is_absolute() || *normal.begin() == "..";
        std::string name = outside ? "external/" + normal.filename().string() : normal.string();
        for (auto const& other : program.files)
            if (other->input_name == name)
                name = "external/" + std::to_string(program.files.size()) + "-" +
                       normal.filename().string();
        file->input_name = name;
        program.files.push_back(std::move(file));
        return *program.files.back();
    }

    void walk(ParsedFile const& parsed) {
        for (auto const& statement : parsed.statements) {
            if (auto const* include = boost::get<ast::IncludeStmt>(&statement.get()))
                include_file(parsed, *include);
            else
                program.statements.push_back({&parsed, &statement});
        }
    }

    // The file an include names, and its input name (see Program::File).
    std::pair<std::string, std::string> resolve(ParsedFile const& from, std::string const& name) {
        // A text that is not a file ("<command line>") has no folder of its own.
        bool is_file = from.source->path.rfind('<', 0) != 0;
        auto local = join_path(parent_dir(from.source->path), name);
        if (is_file && fs_.is_file(local))
            return {local, join_path(parent_dir(input_name_of(from)), name)};
        for (auto const& dir : options_.search_path) {
            auto candidate = join_path(dir, name);
            if (fs_.is_file(candidate)) return {candidate, name};
        }
        return {};
    }

    // "; did you mean 'X'?" with X a .roof file that the include could name,
    // in the including file's folder or on the search path; or "".
    std::string include_suggestion(ParsedFile const& from, std::string const& name) {
        std::vector<std::string> files;
        if (from.source->path.rfind('<', 0) != 0)
            files = fs_.roof_files_below(parent_dir(from.source->path));
        for (auto const& dir : options_.search_path) {
            auto more = fs_.roof_files_below(dir);
            files.insert(files.end(), more.begin(), more.end());
        }
        std::sort(files.begin(), files.end());  // a folder lists its files in no order
        return did_you_mean(name, std::vector<std::string_view>(files.begin(), files.end()));
    }

    std::string input_name_of(ParsedFile const& parsed) const {
        for (auto const& file : program.files)
            if (&file->parsed == &parsed) return file->input_name;
        return {};
    }

    void include_file(ParsedFile const& from, ast::IncludeStmt const& include) {
        Span where = from.span_of(include.path);
        auto const& name = include.path.value;
        auto [path, input_name] = resolve(from, name);
        if (path.empty()) {
            // Appended, not "'" + parent_dir(...): GCC 12 at -O3 gives a false
            // -Wrestrict for a string literal + a temporary std::string.
            std::string searched =
                std::string("'").append(parent_dir(from.source->path)).append("'");
            if (parent_dir(from.source->path).empty()) searched = "'.'";
            for (auto const& dir : options_.search_path) searched += ", '" + dir + "'";
            diagnostics_.error(where, "cannot find include file '" + name + "' (searched " +
                                          searched + ")" + include_suggestion(from, name));
            return;
        }
        auto identity = fs_.identity(path);
        for (std::size_t i = 0; i < stack_.size(); ++i) {
            if (stack_[i].identity != identity) continue;
            std::string chain;
            for (std::size_t k = i; k < stack_.size(); ++k) chain += stack_[k].shown + " -> ";
            diagnostics_.error(where, "include cycle: " + chain + path);
            return;
        }
        for (auto const& seen : loaded_)
            if (seen == identity) return;  // read once
        if (stack_.size() > max_include_depth) {  // the main file is not an include
            diagnostics_.error(where, "include nested too deeply (more than " +
                                          std::to_string(max_include_depth) +
                                          " files included inside each other)");
            return;
        }
        std::string error;
        auto text = fs_.read(path, error);
        if (!text) {
            diagnostics_.error(where, "cannot read '" + path + "': " + error);
            return;
        }
        loaded_.push_back(identity);
        auto& file = add_file(path, std::move(*text), input_name);
        stack_.push_back({identity, path});
        walk(file.parsed);
        stack_.pop_back();
    }

    FileSystem& fs_;
    LoadOptions const& options_;
    Diagnostics& diagnostics_;
    std::vector<Open> stack_;
    std::vector<std::string> loaded_;
};

}  // namespace

std::vector<std::string> default_search_path(std::vector<std::string> const& include_dirs) {
    std::vector<std::string> path = include_dirs;
    if (char const* env = std::getenv("ROOFLINE_PATH")) {
        std::stringstream list(env);
        std::string dir;
        while (std::getline(list, dir, ':'))
            if (!dir.empty()) path.push_back(dir);
    }
    path.push_back(templates_dir());
    return path;
}

Program load_program(std::string const& path, FileSystem& fs, LoadOptions const& options,
                     Diagnostics& diagnostics) {
    Loader loader(fs, options, diagnostics);
    loader.load_main(path);
    return std::move(loader.program);
}

Program load_program_text(std::string name, std::string text, FileSystem& fs,
                          LoadOptions const& options, Diagnostics& diagnostics) {
    Loader loader(fs, options, diagnostics);
    loader.load_text(std::move(name), std::move(text));
    return std::move(loader.program);
}

}  // namespace roofline
