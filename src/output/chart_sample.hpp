#pragma once
// The one sampler of a chart's series: which of n items (sweep points, values
// of a sweep, tokens of a request) a series of at most `count` points keeps,
// evenly spread, the first and the last always kept. The report's charts
// (ChartData, the step and request charts) and the workbook's Charts sheet
// both sample with it. Private to the core library.

#include <cstddef>
#include <vector>

namespace roofline::output {

// How item k of `count` falls between two items. The PNG charts take the
// nearest, the workbook's charts the one below: both are kept as they are,
// since changing either would move the points its charts have always drawn
// (their bytes are pinned by scripts/output-digests.sh).
enum class Sampling { nearest, down };

// Item k (0 .. count - 1) of `count` spread over n items, n > count >= 2:
// round or floor of k (n - 1) / (count - 1).
std::size_t sample_index(std::size_t n, std::size_t count, std::size_t k,
                         Sampling sampling = Sampling::nearest);

// The items a series keeps, in increasing order, none twice: every one when
// n <= count, else sample_index for k = 0 .. count - 1.
std::vector<std::size_t> even_sample(std::size_t n, std::size_t count,
                                     Sampling sampling = Sampling::nearest);

}  // namespace roofline::output
