#pragma once
// "did you mean" hints: the closest candidates by edit distance, if close enough.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// A name longer than this gets no suggestion: no one mistypes a name that long
// into one that is close to another, and the search stays cheap on junk.
inline constexpr std::size_t max_suggested_name = 100;
// At most this many equally close names are suggested (the first given).
inline constexpr std::size_t max_suggestions = 5;

// Every candidate as close to `name` as the closest one (none when none is
// close enough), in the order of `candidates` (give them in the order the
// names are declared), each once.
std::vector<std::string> closest_names(std::string_view name,
                                       std::vector<std::string_view> const& candidates);

// The first of closest_names.
std::optional<std::string> closest_name(std::string_view name,
                                        std::vector<std::string_view> const& candidates);

// The words as a sentence lists them: "a", "a or b", "a, b or c" (`last`: " or ",
// " and "); `between` for clauses that hold commas themselves ("; ").
std::string joined(std::vector<std::string> const& words, std::string_view last,
                   std::string_view between = ", ");

// "; did you mean 'X'?", "; did you mean 'X' or 'Y'?" (up to max_suggestions) or "".
std::string did_you_mean(std::string_view name, std::vector<std::string_view> const& candidates);

}  // namespace roofline
