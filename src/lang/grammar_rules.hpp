#pragma once
// The rules of the .roof grammar (see docs/language.md): the parsing helpers
// and each rule with its attribute and its name, which is what an "expected
// X, found Y" diagnostic says. grammar_def.hpp defines how each one parses.

#include "ast_adapted.hpp"
#include "grammar.hpp"

#include "roofline/lang/parse.hpp"

namespace roofline::grammar {

using x3::lexeme;
using x3::lit;
using x3::raw;
using x3::ascii::alnum;
using x3::ascii::alpha;
using x3::ascii::digit;

// Records each position-tagged node's source range in the position cache.
struct annotate_position {
    template <typename T, typename Iterator, typename Context>
    void on_success(Iterator const& first, Iterator const& last, T& node,
                    Context const& context) const {
        if constexpr (std::is_base_of_v<x3::position_tagged, T>) {
            x3::get<position_cache_tag>(context).get().annotate(node, first, last);
        }
    }
};

inline auto const ident_char = alnum | '_';
inline auto keyword(char const* word) { return lexeme[lit(word) >> !ident_char]; }

struct keyword_symbols : x3::symbols<x3::unused_type> {
    keyword_symbols() {
        for (auto word : keywords()) add(std::string(word));
    }
};
inline keyword_symbols const reserved;

// Leaf tokens are built by semantic actions from the matched range. X3 does
// not run a rule's on_success for rules with actions (the attribute is not
// passed down), so the action records the token's position itself.
template <typename Node, typename Range, typename Context>
void annotate_range(Node& node, Range const& range, Context const& ctx) {
    x3::get<position_cache_tag>(ctx).get().annotate(node, range.begin(), range.end());
}

template <typename Member>
auto assign_text(Member member) {
    return [member](auto& ctx) {
        auto const& range = x3::_attr(ctx);
        (x3::_val(ctx).*member).assign(range.begin(), range.end());
        annotate_range(x3::_val(ctx), range, ctx);
    };
}

// The string's value with its escapes (\" and \\) resolved.
inline auto const assign_string = [](auto& ctx) {
    auto const& range = x3::_attr(ctx);
    auto& value = x3::_val(ctx).value;
    value.clear();
    auto it = std::next(range.begin()), end = std::prev(range.end());  // inside the quotes
    for (; it != end; ++it) {
        if (*it == '\\') ++it;
        value += *it;
    }
    annotate_range(x3::_val(ctx), range, ctx);
};

// `nest('(')`, `nest('-')`: the character that opens one more level of an
// expression, counted in the context (nesting_tag); past
// max_expression_nesting levels it throws nesting_too_deep at that character.
// `unnest` ends the level. Whatever follows `nest` is expected (`>`), so a level
// that is opened is either closed or abandoned with its whole statement, and
// the count restarts at the next statement.
struct nest_parser : x3::parser<nest_parser> {
    using attribute_type = char;
    static bool const has_attribute = true;
    char opener;
    constexpr explicit nest_parser(char c) : opener(c) {}

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&,
               Attribute& attr) const {
        x3::skip_over(first, last, context);
        if (first == last || *first != opener) return false;
        int& depth = x3::get<nesting_tag>(context).get();
        if (depth >= max_expression_nesting) throw nesting_too_deep{first};
        ++depth;
        ++first;
        x3::traits::move_to(opener, attr);
        return true;
    }
};
inline nest_parser nest(char c) { return nest_parser(c); }

struct unnest_parser : x3::parser<unnest_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator&, Iterator const&, Context const& context, RContext&, Attribute&) const {
        --x3::get<nesting_tag>(context).get();
        return true;
    }
};
inline unnest_parser const unnest{};

// Named punctuation, so that "expected '='" reads well.
#define ROOFLINE_TOKEN(id, name, parser) \
    inline auto const id = x3::rule<struct id##_class>{name} = parser;
ROOFLINE_TOKEN(equals, "'='", lit('='))
ROOFLINE_TOKEN(open_bracket, "'['", lit('['))
ROOFLINE_TOKEN(close_bracket, "']'", lit(']'))
ROOFLINE_TOKEN(open_paren, "'('", lit('('))
ROOFLINE_TOKEN(close_paren, "')'", lit(')'))
ROOFLINE_TOKEN(open_brace, "'{'", lit('{'))
ROOFLINE_TOKEN(arrow, "'->'", lit("->"))
ROOFLINE_TOKEN(over_word, "'over'", keyword("over"))
ROOFLINE_TOKEN(at_most, "'<='", lit("<="))
ROOFLINE_TOKEN(times_sign, "'*'", lit('*'))
ROOFLINE_TOKEN(range_dots, "'..'", lit(".."))
ROOFLINE_TOKEN(close_quote, "closing '\"'", lit('"'))
ROOFLINE_TOKEN(escaped_char, "'\"' or '\\' after '\\'", x3::standard::char_("\"\\"))
ROOFLINE_TOKEN(layer_end, "a statement or '}'", lit('}'))
ROOFLINE_TOKEN(template_end, "a statement or '}'", lit('}'))
ROOFLINE_TOKEN(hardware_end, "a hardware field or '}'", lit('}'))
ROOFLINE_TOKEN(kernel_end, "a matmul, an elementwise op or '}'", lit('}'))
ROOFLINE_TOKEN(request_end, "a statement or '}'", lit('}'))
ROOFLINE_TOKEN(colon, "':'", lit(':'))
ROOFLINE_TOKEN(prefill_word, "'prefill:'", keyword("prefill"))
ROOFLINE_TOKEN(decode_word, "a statement or 'decode:'", keyword("decode"))
ROOFLINE_TOKEN(serve_end, "a setting like requests = 1000, a part (linear:, decode:, prefill:), a statement or '}'", lit('}'))
ROOFLINE_TOKEN(rate_word, "'rate'", keyword("rate"))
ROOFLINE_TOKEN(per_second, "'/s' (requests per second)", lit('/') >> keyword("s"))
ROOFLINE_TOKEN(for_word, "'for'", keyword("for"))
ROOFLINE_TOKEN(calibration_end, "a calibration setting like efficiency gemm bf16 = 0.8, or '}'", lit('}'))
#undef ROOFLINE_TOKEN

struct identifier_class : annotate_position {};
struct number_class : annotate_position {};
struct string_class : annotate_position {};
struct expression_class : annotate_position {};
struct primary_class : annotate_position {};
struct call_class : annotate_position {};
struct negation_class : annotate_position {};
struct unary_class : annotate_position {};
struct operation_class : annotate_position {};
struct unit_class : annotate_position {};
struct quantity_class : annotate_position {};
struct field_value_class : annotate_position {};
struct field_class : annotate_position {};
struct tensor_class : annotate_position {};
struct dim_class : annotate_position {};
struct shards_class;
struct link_class;
struct topology_class;
struct mesh_axis_class : annotate_position {};
struct mesh_class : annotate_position {};
struct mesh_axes_class;
struct axis_names_class;
struct collective_class : annotate_position {};
struct slo_class : annotate_position {};
struct size_unit_class;
struct step_kind_class;
struct sweep_step_class : annotate_position {};
struct sweep_range_class : annotate_position {};
struct sweep_list_class : annotate_position {};
struct sweep_spec_class : annotate_position {};
struct scenario_class : annotate_position {};
struct include_class : annotate_position {};
struct dtype_class : annotate_position {};
struct hardware_class : annotate_position {};
struct target_class : annotate_position {};
struct alias_class : annotate_position {};
struct let_class : annotate_position {};
struct sweep_class : annotate_position {};
struct matmul_class : annotate_position {};
struct layer_class : annotate_position {};
struct role_class;
struct elementwise_class : annotate_position {};
struct resident_class : annotate_position {};
struct tokens_class : annotate_position {};
struct argument_class : annotate_position {};
struct use_class : annotate_position {};
struct parameter_class : annotate_position {};
struct template_class : annotate_position {};
struct kernel_class : annotate_position {};
struct request_class : annotate_position {};
struct reads_class : annotate_position {};
struct tokens_name_class;
struct fleet_class : annotate_position {};
struct fleet_rate_class : annotate_position {};
struct serve_class : annotate_position {};
struct serve_trace_class : annotate_position {};
struct serve_value_class : annotate_position {};
struct serve_setting_class : annotate_position {};
struct serve_part_class : annotate_position {};
struct serve_pool_class : annotate_position {};
struct serve_item_class : annotate_position {};
struct workload_class : annotate_position {};
struct target_entry_class : annotate_position {};
struct calibration_name_class;
struct calibration_word_class;
struct calibration_quantity_class : annotate_position {};
struct calibration_value_class : annotate_position {};
struct calibration_setting_class : annotate_position {};
struct calibration_class : annotate_position {};
// Lists after `>`, named so that "expected ..." says what the list holds.
struct expression_list_class;
struct target_names_class;
struct target_name_class;
struct tensor_list_class;

x3::rule<identifier_class, ast::Identifier> const identifier = "a name";
x3::rule<number_class, ast::Number> const number = "a number";
x3::rule<string_class, ast::String> const string = "a string";
x3::rule<expression_class, ast::Expression> const expression = "an expression";
x3::rule<primary_class, ast::Operand> const primary = "an expression";
x3::rule<call_class, ast::Call> const call = "a function call";
x3::rule<negation_class, ast::Unary> const negation = "an expression";
x3::rule<unary_class, ast::Operand> const unary = "an expression";
x3::rule<operation_class, ast::Operation> const operation = "an operator";
x3::rule<unit_class, ast::Unit> const unit = "a unit";
x3::rule<quantity_class, ast::Quantity> const quantity = "a quantity";
x3::rule<field_value_class, ast::FieldValue> const field_value = "a string or a quantity";
x3::rule<field_class, ast::Field> const field = "a hardware field";
x3::rule<tensor_class, ast::Tensor> const tensor = "an operand like bf16[B, D]";
x3::rule<dim_class, ast::Dim> const dim = "an axis name";
x3::rule<shards_class, std::vector<ast::Identifier>> const shards = "a mesh axis or a list like (X, Y)";
x3::rule<link_class, std::string> const link = "'ici', 'nvlink' or 'dcn'";
x3::rule<topology_class, std::string> const topology = "'ring' or 'line'";
x3::rule<mesh_axis_class, ast::MeshAxisDecl> const mesh_axis = "a mesh axis like tp = 8 over nvlink";
x3::rule<mesh_class, ast::MeshStmt> const mesh_stmt = "a mesh statement";
x3::rule<mesh_axes_class, std::vector<ast::MeshAxisDecl>> const mesh_axes = "a mesh axis like tp = 8 over nvlink";
x3::rule<axis_names_class, std::vector<ast::Identifier>> const axis_names = "a mesh axis";
x3::rule<collective_class, ast::CollectiveStmt> const collective_stmt = "a collective statement";
x3::rule<slo_class, ast::SloStmt> const slo_stmt = "an slo statement";
x3::rule<size_unit_class, std::string> const size_unit = "'bits' or 'bytes'";
x3::rule<step_kind_class, std::string> const step_kind = "'step' or 'times'";
x3::rule<sweep_step_class, ast::SweepStep> const sweep_step = "'step' or 'times'";
x3::rule<sweep_range_class, ast::SweepRange> const sweep_range = "a range like 1 .. 512";
x3::rule<sweep_list_class, ast::SweepList> const sweep_list = "a list like [1, 2, 4]";
x3::rule<sweep_spec_class, ast::SweepSpec> const sweep_spec = "a range or a list";
x3::rule<scenario_class, ast::ScenarioStmt> const scenario_stmt = "a scenario statement";
x3::rule<include_class, ast::IncludeStmt> const include_stmt = "an include statement";
x3::rule<dtype_class, ast::DtypeStmt> const dtype_stmt = "a dtype statement";
x3::rule<hardware_class, ast::HardwareStmt> const hardware_stmt = "a hardware statement";
x3::rule<target_class, ast::TargetStmt> const target_stmt = "a target statement";
x3::rule<alias_class, ast::AliasStmt> const alias_stmt = "an alias statement";
x3::rule<let_class, ast::LetStmt> const let_stmt = "a let statement";
x3::rule<sweep_class, ast::SweepStmt> const sweep_stmt = "a sweep statement";
x3::rule<matmul_class, ast::MatmulStmt> const matmul_stmt = "a matmul statement";
x3::rule<layer_class, ast::LayerStmt> const layer_stmt = "a layer statement";
x3::rule<role_class, std::string> const role = "'weight' or 'cache'";
x3::rule<elementwise_class, ast::ElementwiseStmt> const elementwise_stmt = "an elementwise statement";
x3::rule<resident_class, ast::ResidentStmt> const resident_stmt = "a resident statement";
x3::rule<tokens_class, ast::TokensStmt> const tokens_stmt = "a tokens statement";
x3::rule<argument_class, ast::Argument> const argument = "an argument like D = 4096";
x3::rule<use_class, ast::UseStmt> const use_stmt = "a use statement";
x3::rule<parameter_class, ast::Parameter> const parameter = "a parameter name";
x3::rule<template_class, ast::TemplateStmt> const template_stmt = "a template statement";
x3::rule<kernel_class, ast::KernelStmt> const kernel_stmt = "a kernel statement";
x3::rule<request_class, ast::RequestStmt> const request_stmt = "a request statement";
x3::rule<tokens_name_class, ast::Identifier> const tokens_name = "a name";
x3::rule<reads_class, ast::Expression> const reads = "a number, a name or a parenthesized expression";
x3::rule<expression_list_class, std::vector<ast::Expression>> const expression_list = "an expression";
x3::rule<target_names_class, std::vector<ast::TargetName>> const target_names = "a hardware name";
x3::rule<target_entry_class, ast::TargetName> const target_entry = "a hardware name";
x3::rule<calibration_name_class, ast::Identifier> const calibration_name = "a calibration name";
x3::rule<calibration_word_class, ast::Identifier> const calibration_word = "a word";
x3::rule<target_name_class, ast::Identifier> const target_name = "a hardware name";
x3::rule<tensor_list_class, std::vector<ast::Tensor>> const tensor_list = "an operand like bf16[B, D]";
x3::rule<fleet_class, ast::FleetStmt> const fleet_stmt = "a fleet statement";
x3::rule<fleet_rate_class, ast::Expression> const fleet_rate = "an expression";
x3::rule<serve_class, ast::ServeStmt> const serve_stmt = "a serve statement";
x3::rule<serve_trace_class, ast::ServeTrace> const serve_trace = "trace \"file.csv\"";
x3::rule<serve_value_class, ast::ServeValue> const serve_value = "an expression or trace \"file.csv\"";
x3::rule<serve_setting_class, ast::ServeSetting> const serve_setting = "a serve setting";
x3::rule<serve_part_class, ast::ServePart> const serve_part = "a serve part";
x3::rule<serve_pool_class, ast::ServePool> const serve_pool = "a pool like prefill_pool(replicas = 1, TP = 4)";
x3::rule<serve_item_class, ast::ServeItem> const serve_item = "a serve setting or part";
x3::rule<workload_class, ast::WorkloadStmt> const workload_stmt = "a request, serve, fleet or calibration statement";
x3::rule<calibration_quantity_class, ast::Quantity> const calibration_quantity = "a number or a time like 14 us";
x3::rule<calibration_value_class, ast::FieldValue> const calibration_value = "a number, a time like 14 us or a string";
x3::rule<calibration_setting_class, ast::CalibrationSetting> const calibration_setting = "a calibration setting";
x3::rule<calibration_class, ast::CalibrationStmt> const calibration_stmt = "a calibration statement";
statement_type const statement = "a statement";

}  // namespace roofline::grammar
