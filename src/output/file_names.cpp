#include "output/file_names.hpp"

#include "roofline/report/sha256.hpp"

namespace roofline::output {

std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) {
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
        out += ok ? ch : '_';
    }
    return out.empty() || out[0] == '.' ? "_" + out : out;
}

std::string bounded_name(std::string name, std::string_view original, std::size_t max_bytes) {
    constexpr std::size_t hash_chars = 16;
    if (name.size() <= max_bytes) return name;
    std::size_t keep = max_bytes > hash_chars + 1 ? max_bytes - hash_chars - 1 : 0;
    name.resize(keep);
    return name + (keep ? "-" : "") + report::sha256_hex(original).substr(0, hash_chars);
}

std::string file_name(std::string_view name, std::size_t max_bytes) {
    return bounded_name(file_part(name), name, max_bytes);
}

std::string file_name(std::initializer_list<std::string_view> parts, std::size_t max_bytes) {
    std::string name, original;
    for (auto part : parts) {
        if (!name.empty()) name += '-';  // not "-" + a temporary: GCC 12's false -Wrestrict
        name += file_part(part);
        // Length-prefixed, so that different parts never hash alike.
        original += std::to_string(part.size()) + ":";
        original += part;
    }
    return bounded_name(std::move(name), original, max_bytes);
}

}  // namespace roofline::output
