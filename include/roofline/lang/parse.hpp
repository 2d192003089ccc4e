#pragma once
// Text -> AST for one file. Syntax errors become diagnostics; parsing resumes
// at the next top-level statement so that one run reports them all.

#include "roofline/lang/ast.hpp"
#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/source.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

using PositionCache =
    boost::spirit::x3::position_cache<std::vector<std::string::const_iterator>>;

struct ParsedFile {
    SourceFile const* source = nullptr;
    std::vector<ast::Statement> statements;
    std::unique_ptr<PositionCache> positions;

    // Where a node was written; the start of the file for a node the parser
    // did not tag.
    Span span_of(boost::spirit::x3::position_tagged const& node) const;
};

// `source` must outlive the result (the positions point into its text).
ParsedFile parse_file(SourceFile const& source, Diagnostics& diagnostics);

// One --set NAME=VALUE of the command line, `source` holding exactly that
// text. VALUE must be one expression, range or list and nothing else. The
// result holds the statement it stands for: `sweep NAME = VALUE` for a range
// or a list; for an expression `let NAME = VALUE`, or, when `always_sweep`,
// `sweep NAME = [VALUE]`. Or no statement, and an error that names the --set.
ParsedFile parse_set(SourceFile const& source, bool always_sweep, Diagnostics& diagnostics);

// Before parsing: the text must be UTF-8 without NUL bytes, brackets may
// nest at most max_nesting deep (the parser is recursive), and a line may
// hold at most max_line_bytes (what one line can make the parser build is
// bounded: a 60 MB line of one expression took 2 GB to reject). Returns
// false, with an error, when the file must not be parsed.
inline constexpr int max_nesting = 256;
inline constexpr std::size_t max_line_bytes = 1 << 20;  // 1 MiB
bool check_text(SourceFile const& source, Diagnostics& diagnostics);

// While parsing: an expression nests at most this deep, counting each '('
// (of a group or a call) and each unary '-' around the innermost operand; the
// '(' or '-' that opens a deeper level is an error. `^` chains (`2^-2^-2...`)
// are flat lists to the parser and are compiled without recursion.
inline constexpr int max_expression_nesting = 256;

}  // namespace roofline
