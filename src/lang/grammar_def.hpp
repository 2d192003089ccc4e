#pragma once
// How each rule of the .roof grammar parses (the rules, their names and the
// helpers are in grammar_rules.hpp), included by the one translation unit
// that instantiates the grammar (grammar.cpp). `>` marks the points after
// which backtracking is pointless: an expectation failure there becomes an
// "expected X, found Y" diagnostic, so every right-hand side of `>` is a rule
// with a readable name. `>>` binds tighter than `>`, so `a >> b > c` is
// `(a >> b) > c`; the parentheses that say so are for clang's
// -Woverloaded-shift-op-parentheses.

#include "grammar_rules.hpp"

namespace roofline::grammar {

// --- tokens -----------------------------------------------------------------
auto const identifier_def = !lexeme[reserved >> !ident_char] >>
                            raw[lexeme[(alpha | '_') >> *ident_char]]
                                [assign_text(&ast::Identifier::name)];

auto const digits = digit >> *(-lit('_') >> digit);
auto const number_def =
    raw[lexeme[digits >> -('.' >> digits) >> -(x3::char_("eE") >> -x3::char_("+-") >> digits)]]
       [assign_text(&ast::Number::text)];

auto const string_def =
    raw[lexeme[('"' >> *(('\\' > escaped_char) | ~x3::standard::char_("\"\\\r\n"))) > close_quote]]
       [assign_string];

// --- expressions ------------------------------------------------------------
// Brackets and unary minus nest: each opens a level (nest, unnest above).
auto const expression_list_def = expression % ',';
auto const call_def =
    ((identifier >> x3::omit[nest('(')]) > expression_list > close_paren) >> unnest;
// A name not followed by '(' first: names are far more common than calls, and
// this way a name is parsed once.
// `tokens` is a keyword (the tokens statement) and, in an expression, a name:
// a serve's linear part has the step's tokens under it (the checker says
// where else it is unknown).
auto const tokens_name_def = raw[lexeme[lit("tokens") >> !ident_char]][assign_text(&ast::Identifier::name)];
auto const primary_def = number | (identifier >> !lit('(')) | tokens_name | call |
                         ((x3::omit[nest('(')] > expression > close_paren) >> unnest);
auto const negation_def = (nest('-') > unary) >> unnest;
auto const unary_def = negation | primary;
// One flat list of operands and binary operators; the checker applies
// precedence (^ binds tightest and to the right, then unary minus, then * /,
// then + -). A flat list keeps the tree small: no node per precedence level.
auto const operation_def = x3::char_("+*/^-") > unary;  // a trailing '-' is not a range
auto const expression_def = unary >> *operation;

// --- hardware fields --------------------------------------------------------
// A unit is a word (with an optional "/word") after a quantity's value, unless
// that word starts the next field (`name =`, `peak bf16 =`). Any word is taken
// here so that a misspelt unit gets "unknown unit" with a hint from the checker.
auto const unit_word = lexeme[(alpha | '_') >> *ident_char];
auto const unit_def = (!(keyword("peak") >> unit_word >> '=') >>
                       raw[lexeme[unit_word >> -('/' >> unit_word)]] >> !lit('='))
                          [assign_text(&ast::Unit::text)];
auto const quantity_def = expression >> -unit;
auto const field_value_def = string | quantity;
auto const field_def = (identifier >> -identifier >> equals) > field_value;

// --- matmul operands and sweeps --------------------------------------------
// A role word is one only before a dtype name: `weight int8[D, F]`, but a
// dtype that happens to be called `weight` still reads `weight[D, F]`.
auto const role_def = lexeme[(x3::string("weight") | x3::string("cache") | x3::string("expert")) >> !ident_char >>
                             !(*x3::ascii::space >> '[')];
auto const shards_def = ((lit('(') > axis_names) > close_paren) | x3::repeat(1)[identifier];
auto const dim_def = identifier >> -(lit('@') > shards);
// `onchip`, like a role, is one only before a dtype name.
auto const onchip_word = lexeme[lit("onchip") >> !ident_char >> !(*x3::ascii::space >> '[')];
// `x EXPR` after an operand: one operand of an expression (a number, a name,
// a call or a parenthesized expression), so that the `->` or `*` after it
// stays the statement's.
auto const reads_def = unary >> x3::attr(std::vector<ast::Operation>{});
auto const tensor_list_def = tensor % ',';
auto const tensor_def = ((-role >> x3::matches[onchip_word] >> identifier) > open_bracket >
                         -(dim % ',') > close_bracket) >>
                        -(keyword("x") > reads);
auto const size_unit_def = lexeme[(x3::string("bits") | x3::string("bytes")) >> !ident_char];
auto const step_kind_def = lexeme[(x3::string("step") | x3::string("times")) >> !ident_char];
auto const sweep_step_def = step_kind > expression;
auto const sweep_range_def = expression > range_dots > expression > -sweep_step;
auto const sweep_list_def = '[' > expression_list > close_bracket;
auto const sweep_spec_def = sweep_list | sweep_range;

// --- statements -------------------------------------------------------------
auto const scenario_stmt_def = keyword("scenario") > string;
auto const include_stmt_def = keyword("include") > string;
auto const dtype_stmt_def = keyword("dtype") > identifier > equals > expression > size_unit;
auto const hardware_stmt_def = keyword("hardware") > identifier >
                               -(keyword("extends") > identifier) > open_brace > *field >
                               hardware_end;
// `target h100_sxm with trtllm_h100, b200`: `with` is a word only after a name.
auto const calibration_name_def = identifier;
auto const target_entry_def = identifier >> -(keyword("with") > calibration_name);
auto const target_names_def = target_entry % ',';
auto const target_name_def = identifier;
auto const target_stmt_def = keyword("target") > target_names;
auto const alias_stmt_def = keyword("alias") > identifier > equals > target_name;
auto const let_stmt_def = keyword("let") > identifier > equals > expression;
auto const sweep_stmt_def = keyword("sweep") > identifier > equals > sweep_spec;
auto const matmul_stmt_def = keyword("matmul") > identifier > equals > tensor > times_sign >
                             tensor > arrow > tensor > -(keyword("flops") > expression) >
                             -(keyword("compute") > identifier) >
                             x3::matches[keyword("overlapped")];
auto const layer_stmt_def = keyword("layer") > identifier > -(keyword("x") > expression) >
                            open_brace > *statement > layer_end;
auto const elementwise_stmt_def = keyword("elementwise") > identifier > equals >
                                  tensor_list > arrow > tensor >
                                  -(keyword("flops") > expression) >
                                  -(keyword("compute") > identifier) >
                                  x3::matches[keyword("overlapped")];
auto const resident_stmt_def = keyword("resident") > identifier > equals > tensor;
auto const tokens_stmt_def = keyword("tokens") > equals > expression;
auto const link_def = lexeme[(x3::string("ici") | x3::string("nvlink") | x3::string("dcn")) >> !ident_char];
auto const topology_def = lexeme[(x3::string("ring") | x3::string("line")) >> !ident_char];
// `pipeline` on the axis's line, parsed without skipping first: an axis
// without it ends at its link or topology (the topology's error points there).
auto const mesh_axis_def =
    identifier > equals > expression > over_word > link > -topology >
    x3::matches[x3::no_skip[+x3::ascii::blank >> lit("pipeline") >> !ident_char]];
auto const mesh_axes_def = mesh_axis % ',';
auto const axis_names_def = identifier % ',';
auto const mesh_stmt_def = keyword("mesh") > mesh_axes;
auto const slo_stmt_def = keyword("slo") > identifier > at_most > quantity;
auto const collective_stmt_def = keyword("collective") > identifier > equals > identifier >
                                 open_paren > axis_names > close_paren > tensor > arrow >
                                 tensor;
auto const argument_def = identifier > equals > expression;
auto const use_stmt_def = keyword("use") > identifier >
                          -(lit('(') > -(argument % ',') > close_paren) >
                          -(keyword("as") > identifier) > -(keyword("x") > expression);
auto const parameter_def = identifier >> -(lit('=') > expression);
auto const template_stmt_def = keyword("template") > identifier > open_paren >
                               -(parameter % ',') > close_paren > open_brace > *statement >
                               template_end;
auto const kernel_stmt_def = keyword("kernel") > identifier > -(keyword("x") > expression) >
                             open_brace > *statement > kernel_end;
auto const request_stmt_def = keyword("request") > identifier > open_paren >
                              -(argument % ',') > close_paren > open_brace > prefill_word >
                              colon > *statement > decode_word > colon > *statement >
                              request_end;
// `fleet rate = 500 /s`: the rate is an expression up to the `/s` that ends it
// (a plain expression would read `500 / s` as a division).
auto const fleet_rate_def = unary >> *(!per_second >> operation);
auto const fleet_stmt_def = keyword("fleet") > rate_word > equals > fleet_rate > per_second;
// `serve NAME { ... }`: settings (`name = value`) and parts (`name:` and the
// statements after it) in any order; a part ends where a statement cannot
// start, at the next setting or part. `trace` is a word only before a string.
auto const serve_trace_def = keyword("trace") >> string;
auto const serve_value_def = serve_trace | expression;
auto const serve_setting_def = (identifier >> equals) > serve_value;
auto const serve_part_def = (identifier >> lit(':')) >> *statement;
// `prefill_pool(replicas = 1, TP = 4)`: no statement starts with a name and '('.
auto const serve_pool_def = (identifier >> lit('(')) > -(argument % ',') > close_paren;
auto const serve_item_def = serve_part | serve_setting | serve_pool;
auto const serve_stmt_def = keyword("serve") > identifier > open_brace > *serve_item > serve_end;
// `calibration NAME for HW { ... }`: one setting a line, `KEY WORD... = VALUE`;
// the checker knows the keys and their words. A value's unit is on its own
// line (`latency allreduce nvlink = 14 us`), so that a plain number
// (`efficiency hbm = 0.88`) never takes the next line's key for its unit.
// (The blanks and the word's first letter are read without skipping: the
// unit rule itself would skip a comment and a line break.)
auto const calibration_quantity_def =
    expression >> -(x3::omit[x3::no_skip[+x3::ascii::blank >> &(alpha | '_')]] >> unit);
auto const calibration_value_def = string | calibration_quantity;
// A setting's words may be keywords too (`efficiency elementwise hbm`).
auto const calibration_word_def = raw[lexeme[(alpha | '_') >> *ident_char]][assign_text(&ast::Identifier::name)];
auto const calibration_setting_def = (identifier >> *calibration_word >> equals) > calibration_value;
auto const calibration_stmt_def = keyword("calibration") > identifier > for_word > target_name >
                                  open_brace > *calibration_setting > calibration_end;
auto const workload_stmt_def = request_stmt | serve_stmt | fleet_stmt | calibration_stmt;
auto const statement_def = scenario_stmt | include_stmt | dtype_stmt | hardware_stmt |
                           target_stmt | alias_stmt | let_stmt | sweep_stmt | matmul_stmt | layer_stmt |
                           elementwise_stmt | resident_stmt | tokens_stmt | use_stmt |
                           template_stmt | mesh_stmt | collective_stmt | slo_stmt | kernel_stmt |
                           workload_stmt;

BOOST_SPIRIT_DEFINE(identifier, number, string, expression, primary, call,
                    negation, unary, operation, unit, quantity, field_value, field,
                    tensor, size_unit, step_kind, sweep_step, sweep_range, sweep_list,
                    sweep_spec, scenario_stmt, include_stmt, dtype_stmt, hardware_stmt,
                    target_stmt, alias_stmt, let_stmt, sweep_stmt, matmul_stmt, layer_stmt, role,
                    elementwise_stmt, resident_stmt, tokens_stmt, argument, use_stmt, parameter,
                    template_stmt, statement, dim, shards, link, topology, mesh_axis, mesh_stmt,
                    collective_stmt, slo_stmt, mesh_axes, axis_names, kernel_stmt, request_stmt,
                    reads, expression_list, target_names, target_name, tensor_list)
// Apart: one BOOST_SPIRIT_DEFINE takes at most 64 rules.
BOOST_SPIRIT_DEFINE(tokens_name, fleet_stmt, fleet_rate, serve_stmt, serve_trace, serve_value, serve_setting,
                    serve_part, serve_pool, serve_item, workload_stmt, target_entry, calibration_name, calibration_word,
                    calibration_quantity, calibration_value, calibration_setting, calibration_stmt)

}  // namespace roofline::grammar
