// The one translation unit that instantiates the grammar.
#include "grammar_def.hpp"

namespace roofline::grammar {

BOOST_SPIRIT_INSTANTIATE(statement_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(expression_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(sweep_spec_type, iterator_type, context_type)

statement_type const& statement_parser() { return statement; }
expression_type const& expression_parser() { return expression; }
sweep_spec_type const& sweep_spec_parser() { return sweep_spec; }

std::vector<std::string_view> const& keywords() {
    static std::vector<std::string_view> const words = {
        "scenario", "include", "dtype",       "hardware", "extends", "target",
        "let",      "sweep",   "matmul",      "compute",  "layer",   "template",
        "use",      "elementwise", "resident", "tokens",   "mesh",    "collective", "slo",
        "kernel",   "request"};
    return words;
}

std::vector<std::string_view> const& statement_words() {
    static std::vector<std::string_view> const words = [] {
        auto all = keywords();
        // Contextual: `alias` stays a name everywhere else; `serve`,
        // `fleet` and `calibration` too (they came after files had used
        // them as names).
        for (auto word : {"alias", "serve", "fleet", "calibration"}) all.push_back(word);
        return all;
    }();
    return words;
}

}  // namespace roofline::grammar
