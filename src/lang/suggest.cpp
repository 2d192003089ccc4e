#include "roofline/lang/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace roofline {
namespace {

// Optimal string alignment distance (Levenshtein plus the swap of two
// neighbouring letters as one edit: 'bf61' is one edit from 'bf16'),
// case-insensitive; gives up past `limit`.
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
    if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
    auto same = [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    };
    // Three rows: the one two above (for swaps), the one above, this one.
    std::vector<std::size_t> before(b.size() + 1), above(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) above[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            row[j] = std::min({above[j] + 1, row[j - 1] + 1,
                               above[j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, above);
        std::swap(above, row);
    }
    return above[b.size()];
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() > prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

std::optional<std::string> closest_name(std::string_view name,
                                        std::vector<std::string_view> const& candidates) {
    // Close enough: at most a third of the name's letters differ (at least 1);
    // a one-letter name only matches another case ('b' for 'B').
    std::size_t limit = name.size() <= 1 ? 0 : std::max<std::size_t>(1, name.size() / 3);
    // On a tie, the longer common prefix wins ('tpu_v5' -> 'tpu_v5e', not 'tpu_v3').
    auto common_prefix = [&](std::string_view candidate) {
        std::size_t n = 0;
        while (n < name.size() && n < candidate.size() && name[n] == candidate[n]) ++n;
        return n;
    };
    // A name that begins a candidate is a short form of it ('h100' for
    // 'h100_sxm'), closer than any one-letter slip ('h200'): the shortest
    // such candidate wins, then the first alphabetically. Three letters at
    // least, so that 'b' does not suggest every name that starts with b.
    if (name.size() >= 3) {
        std::optional<std::string> shortest;
        for (auto candidate : candidates)
            if (starts_with(candidate, name) &&
                (!shortest || candidate.size() < shortest->size() ||
                 (candidate.size() == shortest->size() && candidate < *shortest)))
                shortest = std::string(candidate);
        if (shortest) return shortest;
    }
    std::optional<std::string> best;
    std::size_t best_distance = limit + 1, best_prefix = 0;
    for (auto candidate : candidates) {
        if (candidate == name) continue;
        std::size_t d = distance(name, candidate, limit);
        std::size_t prefix = common_prefix(candidate);
        // Candidates may come in any order (hash maps): ties end alphabetically.
        bool better = d < best_distance ||
                      (d == best_distance && d <= limit &&
                       (prefix > best_prefix || (prefix == best_prefix && best && candidate < *best)));
        if (better) {
            best_distance = d;
            best_prefix = prefix;
            best = std::string(candidate);
        }
    }
    return best;
}

std::string did_you_mean(std::string_view name, std::vector<std::string_view> const& candidates) {
    auto best = closest_name(name, candidates);
    return best ? "; did you mean '" + *best + "'?" : std::string();
}

}  // namespace roofline
