// Drives the grammar one top-level statement at a time. On a syntax error it
// records a diagnostic and resumes at the next line that starts a top-level
// statement, so that one run reports every broken statement. Also parses a
// --set value of the command line on its own (parse_set).
#include "roofline/lang/parse.hpp"

#include "grammar.hpp"
#include "roofline/lang/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

namespace roofline {
namespace x3 = boost::spirit::x3;
using Iterator = std::string::const_iterator;

namespace {

bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The token at `pos`, for "found ..." in messages, and its length in bytes.
struct Token {
    std::string shown;
    std::size_t length;
};

// `end`: what the end of the text is called ("end of file").
Token token_at(std::string_view text, std::size_t pos, char const* end = "end of file") {
    if (pos >= text.size()) return {end, 0};
    char c = text[pos];
    if (c == '\n' || c == '\r') return {"end of line", 1};
    if (is_ident_char(c)) {
        std::size_t end = pos;
        while (end < text.size() && (is_ident_char(text[end]) || text[end] == '.') &&
               end - pos < 40)
            ++end;
        // Appended, not "'" + std::string(...): GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        return {std::string("'").append(text.substr(pos, end - pos)).append("'"), end - pos};
    }
    if (c == '"') return {"a string", 1};
    std::size_t n = 1;
    while (pos + n < text.size() && (static_cast<unsigned char>(text[pos + n]) & 0xC0) == 0x80)
        ++n;
    return {std::string("'").append(text.substr(pos, n)).append("'"), n};
}

Iterator skip_blanks(Iterator first, Iterator last) {
    x3::skip_over(first, last, x3::make_context<x3::skipper_tag>(grammar::skipper));
    return first;
}

bool starts_with_keyword(std::string_view text, std::size_t pos) {
    std::size_t end = pos;
    while (end < text.size() && is_ident_char(text[end])) ++end;
    auto word = text.substr(pos, end - pos);
    auto const& words = grammar::statement_words();
    return std::find(words.begin(), words.end(), word) != words.end();
}

// Where to resume after an error at `error` in the statement that starts at
// `start`: the first line that starts with a keyword, from the error's own
// line on (`let A = 1 +` followed by `let B = 2` resumes at `let B`), outside
// any braces opened since `start` (a broken layer is skipped whole).
std::size_t resync(std::string_view text, std::size_t start, std::size_t error) {
    std::size_t error_line = text.rfind('\n', error == 0 ? 0 : error - 1);
    error_line = error_line == std::string_view::npos ? 0 : error_line + 1;
    int depth = 0;
    bool in_comment = false, in_string = false, line_start = false;
    for (std::size_t i = start; i < text.size(); ++i) {
        char c = text[i];
        if (line_start && i >= error_line && depth <= 0 &&
            !std::isspace(static_cast<unsigned char>(c)) && starts_with_keyword(text, i))
            return i;
        if (c == '\n') {
            line_start = true;
            in_comment = in_string = false;
            continue;
        }
        if (line_start && (c == ' ' || c == '\t' || c == '\r')) continue;
        line_start = false;
        if (in_comment) continue;
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '#') in_comment = true;
        else if (c == '"') in_string = true;
        else if (c == '{') ++depth;
        else if (c == '}') depth = std::max(0, depth - 1);
    }
    return text.size();
}

Span span_at(SourceFile const& source, std::size_t offset, std::size_t length) {
    return Span{&source, static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(length)};
}

// The context the grammar runs in: the skipper, the position cache and the
// expression nesting count (set to 0 before each statement).
struct GrammarContext {
    explicit GrammarContext(PositionCache& positions) : cache(positions) {}
    GrammarContext(GrammarContext const&) = delete;
    GrammarContext& operator=(GrammarContext const&) = delete;

    int depth = 0;
    std::reference_wrapper<int> depth_ref{depth};
    std::reference_wrapper<PositionCache> cache;
    x3::context<x3::skipper_tag, grammar::skipper_type const> skip{grammar::skipper};
    x3::context<grammar::position_cache_tag, std::reference_wrapper<PositionCache>, decltype(skip)>
        with_cache{cache, skip};
    grammar::context_type context{depth_ref, with_cache};
};

// Runs `parse` (which says whether its parser matched). The grammar's
// exceptions become an error, `prefix` before its message, and `error_at` says
// where; otherwise `error_at` is left alone.
template <typename Parse>
bool parse_or_report(SourceFile const& source, Diagnostics& diagnostics, std::string const& prefix,
                     char const* end, std::size_t& error_at, Parse const& parse) {
    auto const& text = source.text;
    Iterator const begin = text.cbegin(), last = text.cend();
    try {
        return parse();
    } catch (x3::expectation_failure<Iterator> const& failure) {
        // A string left open is reported where the line ends, not on the next line.
        bool open_string = failure.which() == "closing '\"'";
        auto where = open_string ? failure.where() : skip_blanks(failure.where(), last);
        error_at = static_cast<std::size_t>(where - begin);
        auto token = token_at(text, error_at, end);
        diagnostics.error(span_at(source, error_at, token.length),
                          prefix + "expected " + failure.which() + ", found " + token.shown);
    } catch (grammar::nesting_too_deep const& deep) {
        error_at = static_cast<std::size_t>(deep.where - begin);
        diagnostics.error(span_at(source, error_at, 1),
                          prefix + "expression nested too deeply (more than " +
                              std::to_string(max_expression_nesting) + " levels)");
    }
    return false;
}

}  // namespace

Span ParsedFile::span_of(x3::position_tagged const& node) const {
    if (!positions || node.id_first < 0 || node.id_last < 0) return Span{source, 0, 0};
    auto range = positions->position_of(node);
    auto begin = source->text.cbegin();
    return Span{source, static_cast<std::uint32_t>(range.begin() - begin),
                static_cast<std::uint32_t>(range.end() - range.begin())};
}

ParsedFile parse_file(SourceFile const& source, Diagnostics& diagnostics) {
    ParsedFile file;
    file.source = &source;
    auto const& text = source.text;
    file.positions = std::make_unique<PositionCache>(text.cbegin(), text.cend());
    if (!check_text(source, diagnostics)) return file;

    GrammarContext grammar_context(*file.positions);
    auto const& statement = grammar::statement_parser();

    Iterator const begin = text.cbegin(), last = text.cend();
    Iterator first = begin;
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) first += 3;  // a UTF-8 byte-order mark
    while (!diagnostics.full()) {
        first = skip_blanks(first, last);
        if (first == last) break;
        std::size_t start = static_cast<std::size_t>(first - begin);
        std::size_t error_at = std::string::npos;
        ast::Statement parsed;
        grammar_context.depth = 0;
        if (parse_or_report(source, diagnostics, "", "end of file", error_at, [&] {
                return statement.parse(first, last, grammar_context.context, x3::unused, parsed);
            })) {
            file.statements.push_back(std::move(parsed));
            continue;
        }
        if (error_at == std::string::npos) {
            first = begin + static_cast<std::ptrdiff_t>(start);
            auto token = token_at(text, start);
            std::string message = "expected a statement, found " + token.shown;
            if (token.length > 0 && is_ident_char(text[start]))
                message += did_you_mean(std::string_view(text).substr(start, token.length),
                                        grammar::statement_words());
            diagnostics.error(span_at(source, start, token.length), std::move(message));
            error_at = start;
        }
        first = begin + static_cast<std::ptrdiff_t>(resync(text, start, error_at));
    }
    if (diagnostics.full() && skip_blanks(first, last) != last) diagnostics.mark_truncated();
    return file;
}

ParsedFile parse_set(SourceFile const& source, bool always_sweep, Diagnostics& diagnostics) {
    ParsedFile file;
    file.source = &source;
    auto const& text = source.text;
    file.positions = std::make_unique<PositionCache>(text.cbegin(), text.cend());
    if (!check_text(source, diagnostics)) return file;
    Iterator const begin = text.cbegin(), last = text.cend();

    // NAME: one name, blanks around it allowed.
    std::size_t eq = text.find('=');
    if (eq == std::string::npos) {
        diagnostics.error(span_at(source, 0, text.size()), "--set: expected NAME=VALUE");
        return file;
    }
    auto blank = [&](std::size_t i) { return text[i] == ' ' || text[i] == '\t'; };
    std::size_t name_begin = 0, name_end = eq;
    while (name_begin < name_end && blank(name_begin)) ++name_begin;
    while (name_end > name_begin && blank(name_end - 1)) --name_end;
    std::string_view name = std::string_view(text).substr(name_begin, name_end - name_begin);
    bool is_name = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                   std::all_of(name.begin(), name.end(), is_ident_char) &&
                   !starts_with_keyword(name, 0);
    if (!is_name) {
        // Appended, not "'" + std::string(...): GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        std::string found =
            name.empty() ? std::string("'='") : std::string("'").append(name).append("'");
        Span span = span_at(source, name.empty() ? eq : name_begin, std::max<std::size_t>(1, name.size()));
        diagnostics.error(span, "--set: expected a name before '=', found " + found);
        return file;
    }
    ast::Identifier id;
    id.name = std::string(name);
    file.positions->annotate(id, begin + static_cast<std::ptrdiff_t>(name_begin),
                             begin + static_cast<std::ptrdiff_t>(name_end));

    // VALUE: exactly one expression, range or list, and nothing after it.
    std::string const prefix = "--set " + id.name + ": ";
    GrammarContext grammar_context(*file.positions);
    Iterator const value_first = skip_blanks(begin + static_cast<std::ptrdiff_t>(eq) + 1, last);
    Iterator value_last = value_first;
    std::optional<ast::Expression> expression;
    std::optional<ast::SweepSpec> spec;
    std::size_t error_at = std::string::npos;
    bool parsed = parse_or_report(source, diagnostics, prefix, "end of value", error_at, [&] {
        auto const& context = grammar_context.context;
        Iterator at = value_first;
        if (at == last || *at != '[') {
            ast::Expression value;
            if (!grammar::expression_parser().parse(at, last, context, x3::unused, value))
                return false;
            auto next = static_cast<std::size_t>(skip_blanks(at, last) - begin);
            if (std::string_view(text).substr(next).rfind("..", 0) != 0) {
                expression = std::move(value);
                value_last = at;
                return true;
            }
            at = value_first;  // a range: parsed again as one
        }
        ast::SweepSpec value;
        if (!grammar::sweep_spec_parser().parse(at, last, context, x3::unused, value)) return false;
        spec = std::move(value);
        value_last = at;
        return true;
    });
    if (error_at != std::string::npos) return file;
    if (auto rest = skip_blanks(value_last, last); !parsed || rest != last) {
        std::size_t at = static_cast<std::size_t>((parsed ? rest : value_first) - begin);
        auto token = token_at(text, at, "end of value");
        diagnostics.error(span_at(source, at, token.length),
                          prefix + "expected one value (an expression, a range or a list), found " +
                              token.shown);
        return file;
    }

    if (expression && always_sweep) {
        // One value of a sweep: a list of one item.
        ast::SweepList list;
        list.items.push_back(std::move(*expression));
        file.positions->annotate(list, value_first, value_last);
        spec = ast::SweepSpec(std::move(list));
        expression.reset();
    }
    if (expression) {
        ast::LetStmt let;
        let.name = std::move(id);
        let.value = std::move(*expression);
        file.positions->annotate(let, begin, last);
        file.statements.emplace_back(std::move(let));
    } else {
        ast::SweepStmt sweep;
        sweep.name = std::move(id);
        sweep.spec = std::move(*spec);
        file.positions->annotate(sweep, begin, last);
        file.statements.emplace_back(std::move(sweep));
    }
    return file;
}

}  // namespace roofline
