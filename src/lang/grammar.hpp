#pragma once
// Declares the statement grammar; grammar_rules.hpp and grammar_def.hpp define it and grammar.cpp
// instantiates it once, so only that translation unit pays for the templates.

#include "roofline/lang/ast.hpp"

#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::grammar {
namespace x3 = boost::spirit::x3;

using iterator_type = std::string::const_iterator;
using position_cache = x3::position_cache<std::vector<iterator_type>>;
struct position_cache_tag;

// Whitespace and `#` comments. Non-ASCII bytes are never whitespace.
inline auto const skipper =
    x3::ascii::space | (x3::lit('#') >> *(x3::standard::char_ - x3::eol));
using skipper_type = std::remove_const_t<decltype(skipper)>;

// How deep the expression being parsed nests (each '(' and each unary '-'
// opens a level): the grammar is recursive, so it stops with an error at
// max_expression_nesting (parse.hpp) instead of running out of stack. The
// count starts at 0 for each statement.
struct nesting_tag;
// Thrown at the '(' or '-' that would open one level too many.
struct nesting_too_deep {
    iterator_type where;
};

using context_type =
    x3::context<nesting_tag, std::reference_wrapper<int>,
                x3::context<position_cache_tag, std::reference_wrapper<position_cache>,
                            x3::context<x3::skipper_tag, skipper_type const>>>;

struct statement_class;
using statement_type = x3::rule<statement_class, ast::Statement>;
// Entry points for a --set value (parse_set): an expression, or a range or a list.
struct expression_class;
using expression_type = x3::rule<expression_class, ast::Expression>;
struct sweep_spec_class;
using sweep_spec_type = x3::rule<sweep_spec_class, ast::SweepSpec>;
BOOST_SPIRIT_DECLARE(statement_type, expression_type, sweep_spec_type)

statement_type const& statement_parser();
expression_type const& expression_parser();
sweep_spec_type const& sweep_spec_parser();

// The reserved words, for diagnostics and error recovery.
std::vector<std::string_view> const& keywords();
// The words a statement may start with: the keywords and the contextual
// `alias` (for resuming after an error, and "did you mean" on a statement).
std::vector<std::string_view> const& statement_words();

}  // namespace roofline::grammar
