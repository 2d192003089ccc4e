#pragma once
// Names on disk that come from data (report names, hardware ids, sweep
// names). Every such name goes through file_part (one piece) and file_name
// (a whole name, bounded): nothing from a scenario or a manifest can name a
// path outside the folder it is meant for. Private to the core library.

#include <cstddef>
#include <initializer_list>
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

// `name` through file_part, and, when that is longer than `max_bytes`, its
// first bytes, '-' and the first 16 hex digits of the SHA-256 of `name` as
// given: a long name stays recognizable, and two long names that differ
// anywhere stay distinct. Names of at most `max_bytes` bytes of safe
// characters come back unchanged.
std::string file_name(std::string_view name, std::size_t max_bytes = max_name_bytes);

// The parts, each through file_part, joined with '-', and bounded as
// file_name does (the hash is over the parts as given):
// file_name({"sweep", "B", "h100"}) is "sweep-B-h100".
std::string file_name(std::initializer_list<std::string_view> parts,
                      std::size_t max_bytes = max_name_bytes);

// `name`, already safe (file_part's characters), bounded to `max_bytes` with
// a hash of `original` as file_name does.
std::string bounded_name(std::string name, std::string_view original,
                         std::size_t max_bytes = max_name_bytes);

}  // namespace roofline::output
