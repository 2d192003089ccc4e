#pragma once
// Lock files: an exclusive flock(2) on a regular file, held for the lifetime
// of a LockFile. A flock belongs to the open file, not to a process id: it
// works between processes in different PID namespaces that share a folder
// (containers), and the kernel drops it when its holder dies, however it
// dies. So "nobody holds this lock" is the test for "whoever made this is
// gone", with no process ids to compare. Private to the core library.
//
// Lock files are opened with O_NOFOLLOW: a symbolic link in their place is
// refused (a dangling one would otherwise make a file wherever it points).

#include <optional>
#include <string>

namespace roofline::output {

class LockFile {
public:
    // Opens `path`, creating it if needed, and waits for its lock. Throws
    // std::runtime_error (a symbolic link or anything but a regular file in
    // its place, or an I/O error).
    static LockFile wait(std::string path);
    // Creates `path` exclusively and locks it: nullopt when it exists. Throws
    // std::runtime_error on other errors.
    static std::optional<LockFile> create(std::string path);
    // Whether some open file holds the lock of `path` now. False when the
    // file is gone, is not a regular file, or nobody holds its lock.
    static bool held(std::string const& path);

    LockFile(LockFile&& other) noexcept;
    LockFile& operator=(LockFile&&) = delete;
    LockFile(LockFile const&) = delete;
    LockFile& operator=(LockFile const&) = delete;
    ~LockFile();  // releases the lock (closes the file)

    std::string const& path() const { return path_; }
    int fd() const { return fd_; }
    // Removes the file, still holding its lock (the lock goes with the
    // object). Errors are ignored: a leftover file is cleaned up later.
    void remove() const;

private:
    LockFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    std::string path_;
    int fd_ = -1;
};

}  // namespace roofline::output
