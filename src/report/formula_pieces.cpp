#include "formula_pieces.hpp"

#include <stdexcept>

namespace roofline::report {

std::vector<FormulaPiece> split_formula(
    std::string_view formula, std::function<std::optional<std::size_t>(std::string_view)> const& column_of,
    std::string_view table) {
    std::vector<FormulaPiece> pieces;
    while (!formula.empty()) {
        auto open = formula.find('{');
        if (open != 0) {
            pieces.push_back({FormulaPiece::literal, std::string(formula.substr(0, open))});
            if (open == std::string_view::npos) break;
        }
        auto close = formula.find('}', open);
        auto name = formula.substr(open + 1, close - open - 1);
        if (name.substr(0, 3) == "hw.") {
            pieces.push_back({FormulaPiece::hardware, std::string(name.substr(3))});
        } else if (auto column = column_of(name)) {
            pieces.push_back({FormulaPiece::cell, {}, *column});
        } else {
            throw std::logic_error(std::string("a ").append(table).append(" formula names no column: ").append(name));
        }
        formula.remove_prefix(close + 1);
    }
    return pieces;
}

}  // namespace roofline::report
