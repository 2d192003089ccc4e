#pragma once
// The loader reads files through this interface, so that tests parse from
// strings and never touch the disk.

#include <map>
#include <optional>
#include <string>

namespace roofline {

class FileSystem {
public:
    virtual ~FileSystem() = default;
    // The file's bytes, or nullopt with `error` set to the reason.
    virtual std::optional<std::string> read(std::string const& path, std::string& error) = 0;
    virtual bool is_file(std::string const& path) = 0;
    // A key that is equal for two paths naming the same file.
    virtual std::string identity(std::string const& path) = 0;
};

class DiskFileSystem final : public FileSystem {
public:
    std::optional<std::string> read(std::string const& path, std::string& error) override;
    bool is_file(std::string const& path) override;
    std::string identity(std::string const& path) override;
};

class MemoryFileSystem final : public FileSystem {
public:
    void add(std::string path, std::string text) { files_[normalize(path)] = std::move(text); }
    std::optional<std::string> read(std::string const& path, std::string& error) override;
    bool is_file(std::string const& path) override;
    std::string identity(std::string const& path) override { return normalize(path); }

private:
    static std::string normalize(std::string const& path);
    std::map<std::string, std::string> files_;
};

// `dir/name` with "." and ".." resolved lexically; `name` if it is absolute.
std::string join_path(std::string const& dir, std::string const& name);
std::string parent_dir(std::string const& path);

}  // namespace roofline
