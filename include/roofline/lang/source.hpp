#pragma once
// A source file held in memory, and spans into it. Diagnostics point at spans;
// line and column (1-based, the column counted in characters) are computed
// only when a diagnostic is printed.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct SourceFile {
    std::string path;  // as shown in diagnostics (as given, or resolved for includes)
    std::string text;

    SourceFile(std::string path_, std::string text_);

    struct LineCol {
        std::uint32_t line;
        std::uint32_t column;
    };
    LineCol line_col(std::uint32_t offset) const;
    std::uint32_t line_of(std::uint32_t offset) const;  // line_col's line, without counting the column
    std::string_view line_text(std::uint32_t line) const;  // without the newline

private:
    std::vector<std::uint32_t> line_starts_;
};

// A range of bytes in a source file; file == nullptr means "no location".
struct Span {
    SourceFile const* file = nullptr;
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
};

}  // namespace roofline
