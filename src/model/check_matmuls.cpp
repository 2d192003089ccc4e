// Matmuls: dtypes, named axes resolved in the matmul's scope, the contraction
// rules of the language, the compute dtype, constant axis sizes.
#include "checker.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::model {
namespace {

bool is_positive_integer(double value) { return value >= 1 && value == std::floor(value); }

}  // namespace

void Checker::check_matmuls() {
    for (auto const& pending : matmuls) {
        auto const& stmt = *pending.node;
        auto const& file = *pending.file;
        auto const& scope = scopes[static_cast<std::size_t>(pending.scope)];
        Matmul matmul;
        matmul.name = stmt.name.name;
        matmul.layer = scope.path;
        matmul.count = scope.count;
        matmul.span = file.span_of(stmt.name);
        bool ok = true;

        auto resolve_dtype = [&](ast::Identifier const& id) {
            int dtype = lookup_dtype(id.name);
            if (dtype < 0) {
                diagnostics.error(file.span_of(id), "unknown dtype '" + id.name + "'" +
                                                        did_you_mean(id.name, dtype_names()));
                ok = false;
            }
            return dtype;
        };
        auto resolve_tensor = [&](ast::Tensor const& t, Tensor& out, bool is_output) {
            out.span = file.span_of(t);
            out.dtype = resolve_dtype(t.dtype);
            for (std::size_t i = 0; i < t.axes.size(); ++i) {
                auto const& id = t.axes[i];
                Span span = file.span_of(id);
                for (std::size_t k = 0; k < i; ++k) {
                    if (t.axes[k].name == id.name) {
                        diagnostics.error(span, "axis '" + id.name + "' appears twice in one operand");
                        ok = false;
                    }
                }
                auto existing = std::find_if(matmul.axes.begin(), matmul.axes.end(),
                                             [&](Axis const& a) { return a.name == id.name; });
                if (existing != matmul.axes.end()) {
                    out.axes.push_back(static_cast<int>(existing - matmul.axes.begin()));
                    continue;
                }
                if (is_output) {
                    diagnostics.error(span, "output axis '" + id.name +
                                                "' appears in neither input");
                    ok = false;
                    continue;
                }
                int slot = lookup_value(pending.scope, id.name);
                if (slot < 0) {
                    diagnostics.error(span, "unknown axis '" + id.name + "'" +
                                                did_you_mean(id.name, visible_values(pending.scope)));
                    ok = false;
                    // Still an axis of the matmul, so that the output does not
                    // repeat the error as "appears in neither input".
                    matmul.axes.push_back(Axis{id.name, -1, span});
                    out.axes.push_back(static_cast<int>(matmul.axes.size() - 1));
                    continue;
                }
                auto const& value = scenario.slots[static_cast<std::size_t>(slot)];
                if (!bad_slot[static_cast<std::size_t>(slot)]) {
                    if (value.depends_on == 0 && !is_positive_integer(value.constant)) {
                        diagnostics.error(span, "axis '" + id.name +
                                                    "' must be a positive integer, but " +
                                                    value.name + " = " +
                                                    format_number(value.constant));
                        ok = false;
                    } else if (value.sweep >= 0) {
                        for (double v : scenario.sweeps[static_cast<std::size_t>(value.sweep)].values) {
                            if (is_positive_integer(v)) continue;
                            diagnostics.error(span, "axis '" + id.name +
                                                        "' must be a positive integer, but sweep " +
                                                        value.name + " takes the value " +
                                                        format_number(v));
                            ok = false;
                            break;
                        }
                    }
                }
                matmul.axes.push_back(Axis{id.name, slot, span});
                out.axes.push_back(static_cast<int>(matmul.axes.size() - 1));
            }
        };
        matmul.inputs.resize(2);
        resolve_tensor(stmt.lhs, matmul.inputs[0], false);
        resolve_tensor(stmt.rhs, matmul.inputs[1], false);
        resolve_tensor(stmt.out, matmul.out, true);
        auto const& lhs_t = matmul.inputs[0];
        auto const& rhs_t = matmul.inputs[1];
        if (stmt.compute) {
            matmul.compute_dtype = resolve_dtype(*stmt.compute);
        } else if (lhs_t.dtype >= 0 && rhs_t.dtype >= 0) {
            // The wider input; on a tie, the left one.
            double lhs = scenario.dtypes[static_cast<std::size_t>(lhs_t.dtype)].bytes;
            double rhs = scenario.dtypes[static_cast<std::size_t>(rhs_t.dtype)].bytes;
            matmul.compute_dtype = rhs > lhs ? rhs_t.dtype : lhs_t.dtype;
        }
        if (ok) scenario.matmuls.push_back(std::move(matmul));
    }
}

void Checker::warn_unsupported() {
    std::vector<std::pair<int, int>> warned;  // (dtype, hardware)
    for (auto const& matmul : scenario.matmuls) {
        for (int target : scenario.targets) {
            auto const& hw = scenario.hardware[static_cast<std::size_t>(target)];
            if (hw.peak_for(matmul.compute_dtype)) continue;
            std::pair<int, int> key{matmul.compute_dtype, target};
            if (std::find(warned.begin(), warned.end(), key) != warned.end()) continue;
            warned.push_back(key);
            auto const& dtype = scenario.dtypes[static_cast<std::size_t>(matmul.compute_dtype)].name;
            diagnostics.warning(matmul.span, "hardware '" + hw.id + "' has no peak for " + dtype +
                                                 "; its " + dtype +
                                                 " cases are evaluated as unsupported");
        }
    }
}

}  // namespace roofline::model
