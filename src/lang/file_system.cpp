#include "roofline/lang/file_system.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline {
namespace fs = std::filesystem;

namespace {

std::string mib(std::uintmax_t bytes) {
    return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                  : std::to_string(bytes) + " bytes";
}

// Why a file of this mode and size is not one to read, or "".
std::string refusal_of(struct stat const& st, std::uintmax_t max_bytes) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (!S_ISREG(st.st_mode))
        return "not a regular file (a device, a pipe or a socket); give a file";
    if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
        return "larger than the limit of " + mib(max_bytes);
    return "";
}

}  // namespace

std::optional<std::string> read_regular_file(std::string const& path, std::uintmax_t max_bytes,
                                             std::string& error, bool* refused) {
    if (refused) *refused = false;
    // O_NONBLOCK: opening a pipe does not wait for a writer.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    auto refuse = [&](std::string why) -> std::optional<std::string> {
        ::close(fd);
        error = std::move(why);
        if (refused) *refused = true;
        return std::nullopt;
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return std::nullopt;
    }
    if (auto why = refusal_of(st, max_bytes); !why.empty()) return refuse(why);
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t size = 0;
    for (;;) {
        if (size == text.size()) {
            // The file grew since fstat: read on, but no further than the limit.
            if (size > max_bytes) return refuse("larger than the limit of " + mib(max_bytes));
            text.resize(std::min<std::uintmax_t>(max_bytes + 1, size + (1 << 16)));
        }
        ssize_t n = ::read(fd, text.data() + size, text.size() - size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = std::strerror(errno);
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        size += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(size);
    return text;
}

std::optional<std::string> DiskFileSystem::read(std::string const& path, std::string& error) {
    return read_regular_file(path, max_source_bytes, error);
}

std::optional<std::string> DiskFileSystem::refusal(std::string const& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;  // read says why
    auto why = refusal_of(st, max_source_bytes);
    if (why.empty()) return std::nullopt;
    return why;
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

std::vector<std::string> DiskFileSystem::roof_files_below(std::string const& dir) {
    std::vector<std::string> found;
    std::error_code ec;
    fs::path root = dir.empty() ? fs::path(".") : fs::path(dir);
    // Neither symbolic links to folders nor unreadable folders are entered;
    // the walk stops early in a large folder (the working folder may be one).
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    std::size_t visited = 0;
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (++visited > 10 * max_listed_files || found.size() >= max_listed_files) break;
        if (it.depth() >= max_listed_depth) it.disable_recursion_pending();
        std::error_code type_ec;
        if (it->path().extension() == ".roof" && it->is_regular_file(type_ec))
            found.push_back(it->path().lexically_relative(root).generic_string());
    }
    return found;
}

std::vector<std::string> MemoryFileSystem::roof_files_below(std::string const& dir) {
    std::vector<std::string> found;
    fs::path root = normalize(dir.empty() ? "." : dir);
    for (auto const& [path, text] : files_) {
        auto relative = fs::path(path).lexically_relative(root);
        if (relative.empty() || *relative.begin() == "..") continue;
        if (relative.extension() == ".roof") found.push_back(relative.generic_string());
    }
    return found;
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
