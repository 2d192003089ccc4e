#include "roofline/model/expr.hpp"

#include <charconv>
#include <cmath>

namespace roofline::model {

EvalResult evaluate(Expr const& expr, std::span<double const> slots) {
    // Expressions are shallow (brackets nest at most 256 deep), so a small
    // stack suffices; it grows only for long operator chains.
    std::vector<double> stack;
    stack.reserve(16);
    for (auto const& in : expr.code) {
        double result;
        switch (in.op) {
            case OpCode::number: stack.push_back(in.value); continue;
            case OpCode::slot: stack.push_back(slots[static_cast<std::size_t>(in.slot)]); continue;
            case OpCode::neg: stack.back() = -stack.back(); continue;
            case OpCode::ceil: result = std::ceil(stack.back()); stack.pop_back(); break;
            case OpCode::floor: result = std::floor(stack.back()); stack.pop_back(); break;
            default: {
                double rhs = stack.back();
                stack.pop_back();
                double lhs = stack.back();
                stack.pop_back();
                switch (in.op) {
                    case OpCode::add: result = lhs + rhs; break;
                    case OpCode::sub: result = lhs - rhs; break;
                    case OpCode::mul: result = lhs * rhs; break;
                    case OpCode::div:
                        if (rhs == 0) return EvalError{in.span, "division by zero"};
                        result = lhs / rhs;
                        break;
                    case OpCode::pow: result = std::pow(lhs, rhs); break;
                    case OpCode::min: result = std::min(lhs, rhs); break;
                    case OpCode::max: result = std::max(lhs, rhs); break;
                    default: result = 0; break;
                }
            }
        }
        if (std::isnan(result)) return EvalError{in.span, "result is not a number"};
        if (std::isinf(result)) return EvalError{in.span, "result overflows to infinity"};
        stack.push_back(result);
    }
    return stack.empty() ? 0.0 : stack.back();
}

std::string format_number(double value) {
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

}  // namespace roofline::model
