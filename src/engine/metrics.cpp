#include "roofline/engine/metrics.hpp"

namespace roofline::engine {

std::string_view bound_name(Bound bound) {
    switch (bound) {
        case Bound::memory: return "memory";
        case Bound::compute: return "compute";
        case Bound::unsupported: return "unsupported";
    }
    return "";
}

namespace {

long double elements(model::Tensor const& tensor, std::span<double const> axis_sizes) {
    long double n = 1;
    for (int axis : tensor.axes) n *= static_cast<long double>(axis_sizes[static_cast<std::size_t>(axis)]);
    return n;
}

}  // namespace

Counts count_matmul(model::Matmul const& matmul, std::span<double const> axis_sizes,
                    std::span<model::Dtype const> dtypes) {
    long double all = 2;
    for (double size : axis_sizes) all *= static_cast<long double>(size);
    auto bytes = [&](model::Tensor const& t) {
        return elements(t, axis_sizes) *
               static_cast<long double>(dtypes[static_cast<std::size_t>(t.dtype)].bytes);
    };
    return Counts{static_cast<double>(all),
                  static_cast<double>(bytes(matmul.lhs) + bytes(matmul.rhs)),
                  static_cast<double>(bytes(matmul.out))};
}

}  // namespace roofline::engine
