#include "roofline/lang/file_system.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace roofline {
namespace fs = std::filesystem;

std::optional<std::string> DiskFileSystem::read(std::string const& path, std::string& error) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        error = "is a directory";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    return std::move(text).str();
}

bool DiskFileSystem::is_file(std::string const& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

std::string DiskFileSystem::identity(std::string const& path) {
    std::error_code ec;
    auto canonical = fs::weakly_canonical(path, ec);
    return ec ? fs::path(path).lexically_normal().string() : canonical.string();
}

std::string MemoryFileSystem::normalize(std::string const& path) {
    return fs::path(path).lexically_normal().string();
}

std::optional<std::string> MemoryFileSystem::read(std::string const& path, std::string& error) {
    auto it = files_.find(normalize(path));
    if (it == files_.end()) {
        error = std::strerror(ENOENT);
        return std::nullopt;
    }
    return it->second;
}

bool MemoryFileSystem::is_file(std::string const& path) {
    return files_.count(normalize(path)) > 0;
}

std::string join_path(std::string const& dir, std::string const& name) {
    fs::path p(name);
    if (p.is_absolute() || dir.empty()) return p.lexically_normal().string();
    return (fs::path(dir) / p).lexically_normal().string();
}

std::string parent_dir(std::string const& path) {
    return fs::path(path).parent_path().string();
}

}  // namespace roofline
