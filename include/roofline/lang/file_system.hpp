#pragma once
// The loader reads files through this interface, so that tests parse from
// strings and never touch the disk.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// The largest source file (a scenario, or a file it includes) that is read.
inline constexpr std::uintmax_t max_source_bytes = std::uintmax_t{64} << 20;  // 64 MiB

// The bytes of a regular file of at most `max_bytes` bytes, or nullopt with
// `error` set to the reason. `refused` (when given) is set when the file is
// there but is not one to read: a folder, a device (/dev/zero), a pipe or a
// socket, or a file larger than `max_bytes`: the input's fault rather than an
// I/O failure. Never waits on a pipe, never reads more than max_bytes + 1.
std::optional<std::string> read_regular_file(std::string const& path, std::uintmax_t max_bytes,
                                             std::string& error, bool* refused = nullptr);

class FileSystem {
public:
    virtual ~FileSystem() = default;
    // The file's bytes, or nullopt with `error` set to the reason.
    virtual std::optional<std::string> read(std::string const& path, std::string& error) = 0;
    // Why `path` is there but is no file to read (not a regular file, or
    // larger than max_source_bytes), or nullopt. An I/O failure is read's.
    virtual std::optional<std::string> refusal(std::string const& /*path*/) { return std::nullopt; }
    virtual bool is_file(std::string const& path) = 0;
    // A key that is equal for two paths naming the same file.
    virtual std::string identity(std::string const& path) = 0;
    // The .roof files below `dir` (at most max_listed_depth folders down, at
    // most max_listed_files of them) as paths relative to `dir`: what an
    // include that is not found may have meant.
    virtual std::vector<std::string> roof_files_below(std::string const& /*dir*/) { return {}; }
    static constexpr int max_listed_depth = 2;
    static constexpr std::size_t max_listed_files = 2000;
};

class DiskFileSystem final : public FileSystem {
public:
    std::optional<std::string> read(std::string const& path, std::string& error) override;
    std::optional<std::string> refusal(std::string const& path) override;
    bool is_file(std::string const& path) override;
    std::string identity(std::string const& path) override;
    std::vector<std::string> roof_files_below(std::string const& dir) override;
};

class MemoryFileSystem final : public FileSystem {
public:
    void add(std::string path, std::string text) { files_[normalize(path)] = std::move(text); }
    std::optional<std::string> read(std::string const& path, std::string& error) override;
    bool is_file(std::string const& path) override;
    std::string identity(std::string const& path) override { return normalize(path); }
    std::vector<std::string> roof_files_below(std::string const& dir) override;

private:
    static std::string normalize(std::string const& path);
    std::map<std::string, std::string> files_;
};

// `dir/name` with "." and ".." resolved lexically; `name` if it is absolute.
std::string join_path(std::string const& dir, std::string const& name);
std::string parent_dir(std::string const& path);

}  // namespace roofline
