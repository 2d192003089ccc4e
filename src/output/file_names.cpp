#include "output/file_names.hpp"

#include "roofline/output/sha256.hpp"

#include <algorithm>

namespace roofline::output {

namespace {

bool safe_char(char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '.' || ch == '-';
}

// The hex digits appended to a name that file_part changed.
constexpr std::size_t changed_hash_chars = 8;

}  // namespace

std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) out += safe_char(ch) ? ch : '_';
    return out.empty() || out[0] == '.' ? "_" + out : out;
}

bool is_plain(std::string_view name) {
    return !name.empty() && name[0] != '.' && std::all_of(name.begin(), name.end(), safe_char);
}

std::string distinct_name(std::string name, std::string_view original, bool plain,
                          std::size_t max_bytes) {
    if (!plain) name.append("-").append(output::sha256_hex(original).substr(0, changed_hash_chars));
    return bounded_name(std::move(name), original, max_bytes);
}

std::string bounded_name(std::string name, std::string_view original, std::size_t max_bytes) {
    constexpr std::size_t hash_chars = 16;
    if (name.size() <= max_bytes) return name;
    std::size_t keep = max_bytes > hash_chars + 1 ? max_bytes - hash_chars - 1 : 0;
    name.resize(keep);
    return name + (keep ? "-" : "") + output::sha256_hex(original).substr(0, hash_chars);
}

std::string file_name(std::string_view name, std::size_t max_bytes) {
    return distinct_name(file_part(name), name, is_plain(name), max_bytes);
}

std::string file_name(std::span<std::string_view const> parts, std::size_t max_bytes) {
    std::string name, original;
    bool plain = true;
    for (auto part : parts) {
        if (!name.empty()) name += '-';  // not "-" + a temporary: GCC 12's false -Wrestrict
        name += file_part(part);
        // A '-' inside a part would read as the joint: {"a-b", "c"} and {"a", "b-c"}.
        plain = plain && is_plain(part) && part.find('-') == std::string_view::npos;
        // Length-prefixed, so that different parts never hash alike.
        original += std::to_string(part.size()) + ":";
        original += part;
    }
    return distinct_name(std::move(name), original, plain, max_bytes);
}

std::string file_name(std::initializer_list<std::string_view> parts, std::size_t max_bytes) {
    return file_name(std::span<std::string_view const>(parts.begin(), parts.size()), max_bytes);
}

}  // namespace roofline::output
