#pragma once
// Names on disk that come from data (report names, hardware ids, sweep
// names), and the liveness of the process that left a temporary folder.
// Private to the core library.

#include <string>
#include <string_view>

namespace roofline::output {

// `name` as a part of a file name: bytes other than letters, digits, '_',
// '.' and '-' become '_'; an empty name, or one that starts with '.' (a
// hidden file, "." or ".."), gets a leading '_'.
std::string file_part(std::string_view name);

// Whether process `pid` still runs (it may belong to another user).
bool process_alive(long pid);

// The name of a temporary folder of this process beside what it publishes:
// ".tmp-<pid>-<name>".
std::string temporary_name(std::string_view name);
// Whether `entry` is such a temporary folder of a process that is gone.
bool dead_temporary(std::string_view entry);

}  // namespace roofline::output
