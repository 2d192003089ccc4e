#include "output/lock_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace roofline::output {

namespace {

[[noreturn]] void fail(std::string const& what, int error) {
    throw std::runtime_error(what + ": " + std::strerror(error));
}

// Opens a lock file: never through a symbolic link, and only a regular file.
int open_lock(std::string const& path, int flags) {
    int fd = ::open(path.c_str(), flags | O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) {
        int error = errno;
        if (error == ELOOP)
            throw std::runtime_error("'" + path +
                                     "' is a symbolic link; a lock file must be a plain file "
                                     "(remove the link)");
        if (error == EEXIST && (flags & O_EXCL)) return -1;
        fail("cannot open lock file '" + path + "'", error);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw std::runtime_error("'" + path + "' is not a plain file; a lock file must be one");
    }
    return fd;
}

void lock(int fd, std::string const& path) {
    while (::flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int error = errno;
        ::close(fd);
        fail("cannot lock '" + path + "'", error);
    }
}

}  // namespace

LockFile LockFile::wait(std::string path) {
    int fd = open_lock(path, O_CREAT);
    lock(fd, path);
    return LockFile(std::move(path), fd);
}

std::optional<LockFile> LockFile::create(std::string path) {
    int fd = open_lock(path, O_CREAT | O_EXCL);
    if (fd < 0) return std::nullopt;
    lock(fd, path);  // a file just made: nobody else has it open to lock
    return LockFile(std::move(path), fd);
}

bool LockFile::held(std::string const& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    bool held = false;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        int r;
        while ((r = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
        }
        // EWOULDBLOCK: someone holds it. Any other failure counts as held
        // too: better a leftover than a live folder removed.
        held = r != 0;
    }
    ::close(fd);  // releases the lock if it was taken
    return held;
}

LockFile::LockFile(LockFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

LockFile::~LockFile() {
    if (fd_ >= 0) ::close(fd_);
}

void LockFile::remove() const { ::unlink(path_.c_str()); }

}  // namespace roofline::output
