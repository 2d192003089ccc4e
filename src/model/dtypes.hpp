#pragma once
// Element types: the built-in table, bytes per element (real numbers: an int4
// element is 0.5 bytes).

#include <string_view>
#include <vector>

namespace roofline::model {

struct BuiltinDtype {
    std::string_view name;
    double bytes;
};

std::vector<BuiltinDtype> const& builtin_dtypes();

}  // namespace roofline::model
