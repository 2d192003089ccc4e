#include "roofline/lang/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace roofline {
namespace {

// Levenshtein distance, case-insensitive; gives up past `limit`.
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
    if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
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
