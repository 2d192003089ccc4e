#include "output/durable.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace roofline::output {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(std::string const& what, int error) {
    throw std::runtime_error(what + ": " + std::strerror(error));
}

}  // namespace

void sync_path(std::string const& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ELOOP) return;  // a symbolic link: its folder's sync covers it
        fail("cannot open '" + path + "' to sync it", errno);
    }
    int r;
    while ((r = ::fsync(fd)) != 0 && errno == EINTR) {
    }
    int error = errno;
    ::close(fd);
    if (r != 0 && error != EINVAL && error != EROFS) fail("cannot sync '" + path + "'", error);
}

void sync_tree(std::string const& folder) {
    std::error_code ec;
    std::vector<std::string> folders;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        auto status = it->symlink_status(ec);
        if (ec) break;
        if (fs::is_directory(status)) folders.push_back(it->path().string());
        else if (fs::is_regular_file(status)) sync_path(it->path().string());
    }
    if (ec) throw std::runtime_error("cannot list '" + folder + "' to sync it: " + ec.message());
    // Deepest first, so that each folder is synced after what it holds.
    for (auto it = folders.rbegin(); it != folders.rend(); ++it) sync_path(*it);
    sync_path(folder);
}

std::string sync_after_rename(std::string const& folder, std::string const& what) {
    try {
        sync_path(folder);
        return "";
    } catch (std::exception const& e) {
        return what + " is published, but may not survive a power loss: " + e.what();
    }
}

void make_folders(std::string const& folder) {
    fs::path path(folder);
    std::vector<fs::path> missing;
    std::error_code ec;
    for (fs::path p = path; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path()) break;
    }
    fs::create_directories(path, ec);
    if (ec) throw std::runtime_error("cannot create '" + folder + "': " + ec.message());
    if (!fs::is_directory(path, ec))
        throw std::runtime_error("cannot create '" + folder + "': it exists and is not a folder");
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        auto parent = it->parent_path();
        sync_path(parent.empty() ? std::string(".") : parent.string());
    }
}

void refuse_symbolic_link(std::string const& path, std::string const& what) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        throw std::runtime_error("'" + path + "' is a symbolic link; " + what +
                                 " must be a plain folder (remove the link)");
}

bool rename_new(std::string const& from, std::string const& to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0)
        return true;
    if (errno == EEXIST) return false;
    if (errno != EINVAL && errno != ENOSYS)
        fail("cannot rename '" + from + "' to '" + to + "'", errno);
    // A file system without RENAME_NOREPLACE: check, then rename (the caller
    // holds the folder's lock against other roofline runs).
    struct stat st {};
    if (::lstat(to.c_str(), &st) == 0) return false;
    if (::rename(from.c_str(), to.c_str()) != 0)
        fail("cannot rename '" + from + "' to '" + to + "'", errno);
    return true;
}

}  // namespace roofline::output
