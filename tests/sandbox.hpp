#pragma once
// Test scaffolding on disk: a temporary folder of one's own (removed when the
// test is done), and reading and writing whole files.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace roofline::test {

// The whole file, byte for byte ("" when it cannot be read).
inline std::string read_file(std::filesystem::path const& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Writes `text` to `path` (whose folder must exist), byte for byte; returns `path`.
inline std::filesystem::path write_file(std::filesystem::path const& path,
                                        std::string const& text) {
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A fresh, empty folder under the system's temporary folder, its name unique
// to this process and this instance; it is removed, with all it holds, when
// the Sandbox goes away.
class Sandbox {
public:
    std::filesystem::path path;

    Sandbox() {
        static std::atomic<unsigned> count = 0;
        path = std::filesystem::temp_directory_path() /
               ("roofline-test-" + std::to_string(::getpid()) + "-" + std::to_string(count++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    Sandbox(Sandbox&& other) noexcept : path(std::exchange(other.path, {})) {}
    Sandbox(Sandbox const&) = delete;
    Sandbox& operator=(Sandbox const&) = delete;
    Sandbox& operator=(Sandbox&&) = delete;
    ~Sandbox() {
        std::error_code ignored;
        if (!path.empty()) std::filesystem::remove_all(path, ignored);
    }

    // A path inside the folder: `box / "out/v1"`.
    std::filesystem::path operator/(std::filesystem::path const& relative) const {
        return path / relative;
    }
    // Writes the file `name` inside the folder; returns its path.
    std::filesystem::path write(std::filesystem::path const& name, std::string const& text) const {
        return write_file(path / name, text);
    }
};

}  // namespace roofline::test
