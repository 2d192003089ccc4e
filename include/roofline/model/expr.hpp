#pragma once
// Compiled expressions: postfix code over value slots (lets and sweeps), so
// evaluation needs no recursion and no name lookups. Errors (division by zero,
// overflow, NaN) carry the span of the operation that produced them.

#include "roofline/lang/source.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace roofline::model {

enum class OpCode : std::uint8_t { number, slot, neg, add, sub, mul, div, pow, min, max, ceil, floor };

struct Instruction {
    OpCode op;
    std::int32_t slot = -1;  // OpCode::slot
    double value = 0;        // OpCode::number
    Span span;
};

struct Expr {
    std::vector<Instruction> code;
    Span span;  // the whole expression
};

struct EvalError {
    Span span;
    std::string message;
    bool at_every_point = false;  // no sweep changes it: an error at a point names none
};

using EvalResult = std::variant<double, EvalError>;

// `slots` holds the current value of every slot the code refers to.
EvalResult evaluate(Expr const& expr, std::span<double const> slots);

// Shortest text that reads back to the same double ("4096", "0.5", "8.2e+11").
std::string format_number(double value);

}  // namespace roofline::model
