#pragma once
// A file written through stdio whose every failure is an error: opening it,
// and at the end flushing and closing it (a full disk shows there, not at
// fprintf). Private to the core library; serve.csv and the diff tables use it.

#include <cstdio>
#include <memory>
#include <string>

namespace roofline::output {

using WrittenFile = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// Opens `path` for writing (truncating); throws std::runtime_error naming it.
WrittenFile create_file(std::string const& path);
// Flushes and closes `file`; throws std::runtime_error naming `path`.
void finish_file(WrittenFile& file, std::string const& path);

}  // namespace roofline::output
