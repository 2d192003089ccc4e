// Expressions: names looked up through the scopes, an AST expression
// compiled into a model::Expr (precedence applied), constants evaluated.
#include "checker.hpp"

#include "dtypes.hpp"

#include "roofline/model/limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace roofline::model {
namespace x3 = boost::spirit::x3;

int Checker::lookup_value(int scope, std::string const& name) const {
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent) {
        auto const& values = scopes[static_cast<std::size_t>(s)].values;
        if (auto it = values.find(name); it != values.end()) return it->second;
    }
    return -1;
}

std::vector<std::string_view> Checker::visible_values(int scope) const {
    // Innermost scope first; within one, in the order declared (by slot).
    std::vector<std::string_view> names;
    for (int s = scope; s >= 0; s = scopes[static_cast<std::size_t>(s)].parent) {
        std::vector<std::pair<int, std::string_view>> declared;
        for (auto const& [name, slot] : scopes[static_cast<std::size_t>(s)].values)
            declared.emplace_back(slot, name);
        std::sort(declared.begin(), declared.end());
        for (auto const& [slot, name] : declared) names.push_back(name);
    }
    return names;
}

namespace {

struct Compiler {
    Checker& checker;
    ParsedFile const& file;
    int scope;
    Expr& out;
    bool ok = true;

    void emit(OpCode op, Span span, double value = 0, int slot = -1) {
        out.code.push_back(Instruction{op, slot, value, span});
    }

    void operator()(ast::Number const& number) {
        std::string digits;
        for (char c : number.text)
            if (c != '_') digits += c;
        double value = std::strtod(digits.c_str(), nullptr);
        Span span = file.span_of(number);
        if (std::isinf(value)) {
            checker.diagnostics.error(span, "number '" + number.text + "' is too large");
            ok = false;
        }
        emit(OpCode::number, span, value);
    }

    // The values visible here and the dtypes: `let wdt = bf17` meant bf16.
    std::vector<std::string_view> known_names() const {
        auto names = checker.visible_values(scope);
        for (auto const& builtin : builtin_dtypes()) names.push_back(builtin.name);
        for (auto const& declared : checker.declared_dtypes) names.push_back(declared);
        return names;
    }

    void operator()(ast::Identifier const& id) {
        Span span = file.span_of(id);
        int slot = checker.lookup_value(scope, id.name);
        if (slot < 0) {
            if (checker.is_dtype_name(id.name) || checker.is_dtype_parameter(scope, id.name))
                checker.diagnostics.error(span, "'" + id.name + "' is a dtype, not a value");
            else if (checker.is_mesh_name(scope, id.name))
                checker.diagnostics.error(span, "'" + id.name + "' is a mesh axis, not a value");
            else if (auto const* place = serve_name_place(id.name))
                checker.diagnostics.error(span, "unknown name '" + id.name + "': " + place);
            else
                checker.diagnostics.error(span, "unknown name '" + id.name + "'" +
                                                    did_you_mean(id.name, known_names()));
            ok = false;
        }
        emit(OpCode::slot, span, 0, slot);
    }

    void operator()(ast::Call const& call) {
        static std::vector<std::string_view> const functions = {"min", "max", "ceil", "floor"};
        Span span = file.span_of(call.function);
        auto const& name = call.function.name;
        std::size_t arity = name == "min" || name == "max" ? 2 : 1;
        if (std::find(functions.begin(), functions.end(), name) == functions.end()) {
            checker.diagnostics.error(span, "unknown function '" + name + "'" +
                                                did_you_mean(name, functions));
            ok = false;
            return;
        }
        if (call.arguments.size() != arity) {
            checker.diagnostics.error(span, "'" + name + "' takes " + std::to_string(arity) +
                                                " argument" + (arity == 1 ? "" : "s") + ", not " +
                                                std::to_string(call.arguments.size()));
            ok = false;
            return;
        }
        for (auto const& argument : call.arguments) (*this)(argument);
        OpCode op = name == "min" ? OpCode::min : name == "max" ? OpCode::max
                  : name == "ceil" ? OpCode::ceil : OpCode::floor;
        emit(op, file.span_of(call));
    }

    // Operator precedence, loosest first; unary minus binds looser than '^'
    // (-2^2 is -(2^2)) and tighter than '*' ((-2)*3), and '^' is
    // right-associative.
    static constexpr int negation = 3;
    static int precedence(char op) {
        return op == '^' ? 4 : op == '*' || op == '/' ? 2 : 1;
    }
    static OpCode code(char op) {
        return op == '+' ? OpCode::add : op == '-' ? OpCode::sub : op == '*' ? OpCode::mul
             : op == '/' ? OpCode::div : OpCode::pow;
    }

    // An operator waiting for its right operand: a binary one from the
    // expression's flat list, or a unary minus (OpCode::neg).
    struct Waiting {
        OpCode op;
        int precedence;
        Span span;
    };

    // One operand of the flat list: its unary minuses wait on `waiting`,
    // however many there are (no recursion), then the operand itself.
    void operand(ast::Operand const& first, std::vector<Waiting>& waiting) {
        ast::Operand const* current = &first;
        while (auto const* unary = boost::get<x3::forward_ast<ast::Unary>>(&current->get())) {
            waiting.push_back({OpCode::neg, negation, file.span_of(unary->get())});
            current = &unary->get().operand;
        }
        boost::apply_visitor(*this, current->get());
    }

    // Operator precedence parsing of the flat list (shunting-yard), with an
    // explicit stack, so that a chain like 2^-2^-2^... of any length compiles
    // without recursion. Only brackets recurse, and the parser bounds them.
    void operator()(ast::Expression const& expr) {
        std::vector<Waiting> waiting;
        operand(expr.first, waiting);
        for (auto const& operation : expr.rest) {
            int p = precedence(operation.op);
            bool right_associative = operation.op == '^';
            while (!waiting.empty() && (waiting.back().precedence > p ||
                                        (waiting.back().precedence == p && !right_associative))) {
                emit(waiting.back().op, waiting.back().span);
                waiting.pop_back();
            }
            // The error for "a / 0" points at the operator and its right operand.
            waiting.push_back({code(operation.op), p, file.span_of(operation)});
            operand(operation.operand, waiting);
        }
        for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) emit(it->op, it->span);
    }

    // Not reached (operand() takes unary minuses apart); complete all the same.
    void operator()(ast::Unary const& unary) {
        std::vector<Waiting> waiting;
        waiting.push_back({OpCode::neg, negation, file.span_of(unary)});
        operand(unary.operand, waiting);
        for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) emit(it->op, it->span);
    }

    template <typename T>
    void operator()(x3::forward_ast<T> const& node) { (*this)(node.get()); }
};

}  // namespace

bool Checker::compile(ParsedFile const& file, ast::Expression const& expr, int scope, Expr& out) {
    out.code.clear();
    out.span = file.span_of(expr);
    Compiler compiler{*this, file, scope, out};
    compiler(expr);
    return compiler.ok;
}

std::optional<double> Checker::constant(ParsedFile const& file, ast::Expression const& expr,
                                        int scope, char const* what) {
    Expr compiled;
    if (!compile(file, expr, scope, compiled)) return std::nullopt;
    for (auto const& in : compiled.code) {
        if (in.op != OpCode::slot) continue;
        auto const& slot = scenario.slots[static_cast<std::size_t>(in.slot)];
        if (bad_slot[static_cast<std::size_t>(in.slot)]) return std::nullopt;
        if (slot.depends_on != 0) {
            diagnostics.error(in.span, std::string(what) + " must not depend on a sweep, but '" +
                                           slot.name + "' does");
            return std::nullopt;
        }
    }
    auto result = evaluate(compiled, constant_values);
    if (auto const* error = std::get_if<EvalError>(&result)) {
        diagnostics.error(error->span, error->message);
        return std::nullopt;
    }
    return std::get<double>(result);
}

void Checker::note_set_by_option(Diagnostic& d, Slot const& value) {
    if (value.span.file && value.span.file->path.rfind("<--set ", 0) == 0)
        d.notes.push_back(Diagnostics::note(value.span, "'" + value.name + "' is set by --set"));
}

void Checker::note_set_by_option(Diagnostic& d, ParsedFile const& file, ast::Expression const& expr,
                                 int scope) {
    Expr compiled;
    if (!compile(file, expr, scope, compiled)) return;
    // The lets it names and the lets they name, each once; without
    // recursion (a chain of lets may be long).
    std::vector<int> pending;
    std::set<int> seen;
    auto add_slots = [&](Expr const& e) {
        for (auto const& in : e.code)
            if (in.op == OpCode::slot && seen.insert(in.slot).second) pending.push_back(in.slot);
    };
    add_slots(compiled);
    while (!pending.empty()) {
        auto const& slot = scenario.slots[static_cast<std::size_t>(pending.back())];
        pending.pop_back();
        note_set_by_option(d, slot);
        if (slot.sweep < 0) add_slots(slot.expr);
    }
}

std::optional<double> Constants::operator()(ParsedFile const& file, ast::Expression const& expr,
                                            char const* what) const {
    return checker_.constant(file, expr, 0, what);
}

void Constants::note_set_by_option(Diagnostic& d, ParsedFile const& file,
                                   ast::Expression const& expr) const {
    checker_.note_set_by_option(d, file, expr, 0);
}

}  // namespace roofline::model
