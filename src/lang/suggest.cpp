#include "roofline/lang/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>
#include <utility>

namespace roofline {
namespace {

bool same_letter(char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
}

// Optimal string alignment distance (Levenshtein plus the swap of two
// neighbouring letters as one edit: 'bf61' is one edit from 'bf16'),
// case-insensitive; `limit + 1` for anything past `limit`. Only the band of
// cells with |i - j| <= limit can be within the limit, so only it is computed:
// O(|a| * limit), not O(|a| * |b|).
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
    std::size_t const far = limit + 1;
    if (a.size() > b.size() + limit || b.size() > a.size() + limit) return far;
    // Three rows: the one two above (for swaps), the one above, this one.
    // Each row also writes `far` just outside its band, where the next row reads.
    std::vector<std::size_t> before(b.size() + 2, far), above(b.size() + 2, far),
        row(b.size() + 2, far);
    for (std::size_t j = 0; j <= std::min(b.size(), limit); ++j) above[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t lo = i > limit ? i - limit : 1, hi = std::min(b.size(), i + limit);
        row[lo - 1] = lo == 1 ? std::min(i, far) : far;
        for (std::size_t j = lo; j <= hi; ++j) {
            row[j] = std::min({above[j] + 1, row[j - 1] + 1,
                               above[j - 1] + (same_letter(a[i - 1], b[j - 1]) ? 0 : 1)});
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]))
                row[j] = std::min(row[j], before[j - 2] + 1);
            row[j] = std::min(row[j], far);
        }
        row[hi + 1] = far;
        std::swap(before, above);
        std::swap(above, row);
    }
    return above[b.size()];
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() > prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), same_letter);
}

// The candidates best by `rank` (smaller is better; nullopt: not a match).
template <typename Rank>
std::vector<std::string> best_by(std::vector<std::string_view> const& candidates, Rank rank) {
    std::vector<std::string> best;
    std::invoke_result_t<Rank&, std::string_view> best_rank;  // an optional
    for (auto candidate : candidates) {
        auto r = rank(candidate);
        if (!r || (best_rank && *best_rank < *r)) continue;
        if (!best_rank || *r < *best_rank) best.clear();
        best_rank = r;
        // In the candidates' order (the order the names are declared), each once.
        if (std::find(best.begin(), best.end(), candidate) == best.end()) best.emplace_back(candidate);
    }
    return best;
}

}  // namespace

std::vector<std::string> closest_names(std::string_view name,
                                       std::vector<std::string_view> const& candidates) {
    if (name.size() > max_suggested_name) return {};
    // A name that begins a candidate is a short form of it ('h100' for
    // 'h100_sxm'), closer than any one-letter slip ('h200'): the shortest
    // such candidates win. Three letters at least, so that 'b' does not
    // suggest every name that starts with b.
    if (name.size() >= 3) {
        auto shortest = best_by(candidates, [&](std::string_view candidate) {
            return starts_with(candidate, name) ? std::optional(candidate.size()) : std::nullopt;
        });
        if (!shortest.empty()) return shortest;
    }
    // Close enough: at most a third of the name's letters differ (at least 1);
    // a one-letter name only matches another case ('b' for 'B').
    std::size_t limit = name.size() <= 1 ? 0 : std::max<std::size_t>(1, name.size() / 3);
    // On a tie, the longer common prefix wins ('fp8x' -> 'fp8', not 'bp8x').
    auto common_prefix = [&](std::string_view candidate) {
        std::size_t n = 0;
        while (n < name.size() && n < candidate.size() && name[n] == candidate[n]) ++n;
        return n;
    };
    return best_by(candidates, [&](std::string_view candidate) {
        std::size_t d = candidate == name ? limit + 1 : distance(name, candidate, limit);
        // Smaller is better: the distance, then the longer prefix.
        return d <= limit ? std::optional(std::pair(d, name.size() - common_prefix(candidate)))
                          : std::nullopt;
    });
}

std::optional<std::string> closest_name(std::string_view name,
                                        std::vector<std::string_view> const& candidates) {
    auto best = closest_names(name, candidates);
    if (best.empty()) return std::nullopt;
    return best.front();
}

std::string joined(std::vector<std::string> const& words, std::string_view last,
                   std::string_view between) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) text.append(i + 1 == words.size() ? last : between);
        text.append(words[i]);
    }
    return text;
}

std::string did_you_mean(std::string_view name, std::vector<std::string_view> const& candidates) {
    auto best = closest_names(name, candidates);
    if (best.size() > max_suggestions) best.resize(max_suggestions);
    if (best.empty()) return {};
    for (auto& name : best) name = std::string("'").append(name).append("'");
    return std::string("; did you mean ").append(joined(best, " or ")).append("?");
}

}  // namespace roofline
