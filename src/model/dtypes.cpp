#include "dtypes.hpp"

namespace roofline::model {

std::vector<BuiltinDtype> const& builtin_dtypes() {
    static std::vector<BuiltinDtype> const table = {
        {"fp64", 8},     {"fp32", 4},     {"tf32", 4},     {"bf16", 2},
        {"fp16", 2},     {"fp8", 1},      {"fp8_e4m3", 1}, {"fp8_e5m2", 1},
        {"int8", 1},     {"int4", 0.5},   {"fp4", 0.5},
    };
    return table;
}

}  // namespace roofline::model
