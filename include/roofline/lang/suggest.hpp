#pragma once
// "did you mean" hints: the closest candidate by edit distance, if close enough.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

std::optional<std::string> closest_name(std::string_view name,
                                        std::vector<std::string_view> const& candidates);

// "; did you mean 'X'?" or "".
std::string did_you_mean(std::string_view name, std::vector<std::string_view> const& candidates);

}  // namespace roofline
