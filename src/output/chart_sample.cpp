#include "output/chart_sample.hpp"

namespace roofline::output {

std::size_t sample_index(std::size_t n, std::size_t count, std::size_t k, Sampling sampling) {
    std::size_t const half = sampling == Sampling::nearest ? (count - 1) / 2 : 0;
    return (k * (n - 1) + half) / (count - 1);
}

std::vector<std::size_t> even_sample(std::size_t n, std::size_t count, Sampling sampling) {
    std::vector<std::size_t> kept;
    if (n <= count) {
        for (std::size_t i = 0; i < n; ++i) kept.push_back(i);
        return kept;
    }
    // n > count: the spacing exceeds one item, so no item comes twice.
    for (std::size_t k = 0; k < count; ++k) kept.push_back(sample_index(n, count, k, sampling));
    return kept;
}

}  // namespace roofline::output
