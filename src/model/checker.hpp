#pragma once
// State shared by the checking passes (check*.cpp). Not a public header.

#include "roofline/lang/suggest.hpp"
#include "roofline/model/check.hpp"

#include <map>
#include <unordered_map>
#include <string>
#include <vector>

namespace roofline::model {

struct Checker {
    Checker(Program const& program, CheckOptions const& options, Diagnostics& diagnostics)
        : program(program), options(options), diagnostics(diagnostics) {}

    Program const& program;
    CheckOptions const& options;
    Diagnostics& diagnostics;
    Scenario scenario;

    // A name scope: the top level or a layer body.
    struct Scope {
        int parent = -1;
        std::string path;  // layer path, "" at top level
        double count = 1;  // product of the repeat counts down to here
        std::unordered_map<std::string, int> values;  // let/sweep name -> slot
        std::map<std::string, Span> matmuls, layers;
    };
    std::vector<Scope> scopes;
    Span title_span;  // of the `scenario` statement, once seen
    std::vector<bool> override_used;  // parallel to options.overrides

    template <typename Node>
    struct Pending {
        ParsedFile const* file;
        Node const* node;
        int scope;
    };
    std::vector<Pending<ast::LetStmt>> lets;   // parallel to the let slots
    std::vector<int> let_slots;
    std::vector<Pending<ast::SweepStmt>> sweeps;
    std::vector<Pending<ast::DtypeStmt>> dtypes;
    std::vector<Pending<ast::HardwareStmt>> hardware;
    std::vector<Pending<ast::TargetStmt>> targets;
    std::vector<Pending<ast::MatmulStmt>> matmuls;
    std::vector<Pending<ast::LayerStmt>> layers;  // parallel to layer_scopes
    std::vector<int> layer_scopes;
    std::vector<bool> bad_slot;  // a slot whose value could not be computed
    std::vector<double> constant_values;  // per slot: the constant, once check_lets has run

    // check.cpp
    void collect(std::vector<StatementRef> const& statements);
    void collect_in_layer(ParsedFile const& file, std::vector<ast::Statement> const& body,
                          int scope);
    void collect_statement(ParsedFile const& file, ast::Statement const& statement, int scope);
    void define(std::map<std::string, Span>& names, ast::Identifier const& id, Span span,
                char const* what);

    // check_values.cpp
    bool compile(ParsedFile const& file, ast::Expression const& expr, int scope, Expr& out);
    std::optional<double> constant(ParsedFile const& file, ast::Expression const& expr,
                                   int scope, char const* what);
    int lookup_value(int scope, std::string const& name) const;
    std::vector<std::string_view> visible_values(int scope) const;
    void check_lets();
    void check_sweeps();
    void check_layer_counts();

    // check_hardware.cpp
    void check_dtypes();
    void check_hardware();
    void check_targets();
    int lookup_dtype(std::string const& name) const;
    std::vector<std::string_view> dtype_names() const;

    // check_matmuls.cpp
    void check_matmuls();
    void warn_unsupported();
};

}  // namespace roofline::model
