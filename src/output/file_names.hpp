#pragma once
// Names on disk that come from data (report names, hardware ids, sweep
// names). Every such name goes through file_part (one piece) and file_name
// (a whole name, bounded): nothing from a scenario or a manifest can name a
// path outside the folder it is meant for. Private to the core library.

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace roofline::output {

// `name` as a part of a file name: bytes other than letters, digits, '_',
// '.' and '-' become '_'; an empty name, or one that starts with '.' (a
// hidden file, "." or ".."), gets a leading '_'. So the result has no '/', is
// never "." or "..", and never starts with '.'.
std::string file_part(std::string_view name);

// The longest name file_name gives, in bytes. File names may have 255 bytes
// (NAME_MAX); this leaves room for what is put around a name (".tmp-<pid>-",
// ".lock", "-v<N>--", ".svg").
inline constexpr std::size_t max_name_bytes = 200;

// Whether file_part leaves `name` as it is: not empty, not starting with
// '.', only safe characters.
bool is_plain(std::string_view name);

// `name` through file_part; when that changed it, '-' and the first 8 hex
// digits of the SHA-256 of `name` as given ("a b", "a_b" and "a+b" would all
// be "a_b": they are "a_b-<hash of each>", "a_b", "a_b-<...>"); and, when
// that is longer than `max_bytes`, its first bytes, '-' and the first 16 hex
// digits of the SHA-256 of `name` as given: a long name stays recognizable,
// and two names that differ anywhere stay distinct. Plain names of at most
// `max_bytes` bytes come back unchanged.
std::string file_name(std::string_view name, std::size_t max_bytes = max_name_bytes);

// The parts, each through file_part, joined with '-', with the hash when a
// part is not plain or holds a '-' (which would read as the joint), and
// bounded as file_name does (the hashes are over the parts as given):
// file_name({"sweep", "B", "h100"}) is "sweep-B-h100".
std::string file_name(std::span<std::string_view const> parts,
                      std::size_t max_bytes = max_name_bytes);
std::string file_name(std::initializer_list<std::string_view> parts,
                      std::size_t max_bytes = max_name_bytes);

// `name`, already safe, with file_name's 8-digit hash of `original` when not
// `plain`, then bounded as bounded_name does.
std::string distinct_name(std::string name, std::string_view original, bool plain,
                          std::size_t max_bytes = max_name_bytes);

// `name`, already safe (file_part's characters), bounded to `max_bytes` with
// a hash of `original` as file_name does.
std::string bounded_name(std::string name, std::string_view original,
                         std::size_t max_bytes = max_name_bytes);

}  // namespace roofline::output
