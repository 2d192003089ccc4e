// The dtypes pass: the built-in dtypes, then each `dtype` statement.
#include "passes.hpp"

#include "dtypes.hpp"
#include "roofline/model/limits.hpp"
#include "roofline/model/units.hpp"

#include <algorithm>

namespace roofline::model {

void check_dtypes(Context const& context, std::vector<Pending<ast::DtypeStmt>> const& statements,
                  Constants const& constant, std::vector<Dtype>& dtypes) {
    auto& diagnostics = context.diagnostics;
    for (auto const& builtin : builtin_dtypes())
        dtypes.push_back(Dtype{std::string(builtin.name), builtin.bytes, Span{}});
    for (auto const& pending : statements) {
        auto const& stmt = *pending.node;
        Span span = pending.file->span_of(stmt.name);
        if (!within_limit(diagnostics, stmt.name.name, max_name_bytes, span, "dtype name")) continue;
        auto previous = std::find_if(dtypes.begin(), dtypes.end(),
                                     [&](Dtype const& d) { return d.name == stmt.name.name; });
        if (previous != dtypes.end()) {
            if (previous->span.file == nullptr) {
                diagnostics.error(span, "redefinition of built-in dtype '" + stmt.name.name + "'");
            } else {
                diagnostics.error(span, "redefinition of dtype '" + stmt.name.name + "'")
                    .notes.push_back(Diagnostics::note(previous->span, "previous definition is here"));
            }
            continue;
        }
        auto size = constant(*pending.file, stmt.size, "a dtype size");
        if (!size) continue;
        if (*size <= 0) {
            diagnostics.error(pending.file->span_of(stmt.size),
                              "dtype size must be positive, not " + format_number(*size));
            continue;
        }
        double bytes = stmt.unit == "bits" ? *size / 8 : *size;
        if (bytes < min_dtype_bytes || bytes > max_dtype_bytes) {
            diagnostics.error(pending.file->span_of(stmt.size),
                              std::string("dtype size must be ") +
                                  (bytes < min_dtype_bytes ? "at least 1/1024 bit"
                                                           : "at most 65536 bytes") +
                                  ", not " + format_number(*size) + " " + stmt.unit);
            continue;
        }
        dtypes.push_back(Dtype{stmt.name.name, bytes, span});
    }
}

}  // namespace roofline::model
