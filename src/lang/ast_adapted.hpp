#pragma once
// Fusion adaptation of the AST, kept apart so that only the grammar sees it.
#include "roofline/lang/ast.hpp"

#include <boost/fusion/include/adapt_struct.hpp>

BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Unary, op, operand)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Operation, op, operand)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Expression, first, rest)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Call, function, arguments)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Quantity, value, unit)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Field, key, qualifier, value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::ScenarioStmt, title)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::IncludeStmt, path)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::DtypeStmt, name, size, unit)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::HardwareStmt, name, base, fields)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::TargetStmt, names)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::LetStmt, name, value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::SweepStep, kind, value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::SweepRange, low, high, step)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::SweepList, items)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::SweepStmt, name, spec)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Tensor, role, dtype, axes)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::MatmulStmt, name, lhs, rhs, out, compute)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::LayerStmt, name, count, body)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::ElementwiseStmt, name, inputs, out, flops, compute)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::ResidentStmt, name, tensor)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::TokensStmt, value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Argument, name, value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::UseStmt, name, arguments, alias, count)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::Parameter, name, default_value)
BOOST_FUSION_ADAPT_STRUCT(roofline::ast::TemplateStmt, name, parameters, body)
