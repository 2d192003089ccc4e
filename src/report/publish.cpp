#include "roofline/report/publish.hpp"

#include "output/file_names.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace roofline::report {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(std::string const& what) {
    throw std::runtime_error(what + ": " + std::strerror(errno));
}

// An exclusive flock on out/<name>/.lock for the lifetime of the object.
class DirLock {
public:
    explicit DirLock(std::string const& dir) {
        auto path = dir + "/.lock";
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) fail("cannot open '" + path + "'");
        while (::flock(fd_, LOCK_EX) != 0)
            if (errno != EINTR) fail("cannot lock '" + path + "'");
    }
    ~DirLock() { ::close(fd_); }
    DirLock(DirLock const&) = delete;
    DirLock& operator=(DirLock const&) = delete;

private:
    int fd_;
};

// "v12" -> 12, anything else -> 0.
int version_of(std::string const& name) {
    if (name.size() < 2 || name[0] != 'v' || name.size() > 10) return 0;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return 0;
    return std::stoi(name.substr(1));
}

}  // namespace

Publisher::Publisher(std::string out_root, std::string name)
    : dir_((fs::path(out_root) / name).string()) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw std::runtime_error("cannot create '" + dir_ + "': " + ec.message());
}

Publisher::~Publisher() {
    if (!temp_.empty()) {
        try {
            abandon();
        } catch (...) {
        }
    }
}

std::optional<int> Publisher::latest_version() const {
    std::error_code ec;
    auto target = fs::read_symlink(fs::path(dir_) / "latest", ec);
    if (ec) return std::nullopt;
    int version = version_of(target.filename().string());
    if (version == 0 || !fs::is_directory(fs::path(dir_) / target.filename(), ec))
        return std::nullopt;
    return version;
}

std::string Publisher::version_dir(int version) const {
    // std::string("v").append(...), not "v" + ...: GCC 12 at -O3 gives a false
    // -Wrestrict for a string literal + a temporary std::string.
    return (fs::path(dir_) / std::string("v").append(std::to_string(version))).string();
}

int Publisher::highest_version_locked() const {
    int highest = 0;
    std::error_code ec;
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        auto name = entry.path().filename().string();
        highest = std::max(highest, version_of(name));
        if (name.rfind(".reserve-", 0) == 0) highest = std::max(highest, version_of(name.substr(9)));
    }
    return highest;
}

// Reservations (.reserve-v<N>, holding a pid) and temporary folders
// (.tmp-<pid>-v<N>) of processes that are gone.
void Publisher::clean_stale() const {
    std::error_code ec;
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        auto name = entry.path().filename().string();
        if (name.rfind(".reserve-", 0) == 0) {
            long pid = 0;
            std::ifstream(entry.path()) >> pid;
            if (!output::process_alive(pid)) fs::remove(entry.path(), ec);
        } else if (output::dead_temporary(name)) {
            fs::remove_all(entry.path(), ec);
        }
    }
}

int Publisher::reserve() {
    DirLock lock(dir_);
    clean_stale();
    version_ = highest_version_locked() + 1;
    // Appended, not "v" + std::to_string(...): GCC 12 at -O3 gives a false
    // -Wrestrict for a string literal + a temporary std::string.
    marker_ = (fs::path(dir_) / std::string(".reserve-v").append(std::to_string(version_))).string();
    int fd = ::open(marker_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot reserve '" + marker_ + "'");
    auto pid = std::to_string(::getpid());
    bool written = ::write(fd, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size());
    ::close(fd);
    if (!written) fail("cannot write '" + marker_ + "'");
    temp_ = (fs::path(dir_) / output::temporary_name(std::string("v").append(std::to_string(version_)))).string();
    std::error_code ec;
    fs::remove_all(temp_, ec);
    if (!fs::create_directory(temp_, ec) || ec)
        throw std::runtime_error("cannot create '" + temp_ + "': " + ec.message());
    return version_;
}

std::string Publisher::commit() {
    DirLock lock(dir_);
    auto final_dir = version_dir(version_);
    if (::rename(temp_.c_str(), final_dir.c_str()) != 0) fail("cannot publish '" + final_dir + "'");
    temp_.clear();
    std::error_code ec;
    fs::remove(marker_, ec);
    // `latest` -> the newest published version, replaced atomically by
    // renaming a fresh link over it.
    int newest = 0;
    for (auto const& entry : fs::directory_iterator(dir_, ec))
        if (entry.is_directory()) newest = std::max(newest, version_of(entry.path().filename().string()));
    auto link = (fs::path(dir_) / ("latest.tmp-" + std::to_string(::getpid()))).string();
    fs::remove(link, ec);
    if (::symlink(std::string("v").append(std::to_string(newest)).c_str(), link.c_str()) != 0)
        fail("cannot create link '" + link + "'");
    auto latest = (fs::path(dir_) / "latest").string();
    if (::rename(link.c_str(), latest.c_str()) != 0) fail("cannot update '" + latest + "'");
    return final_dir;
}

void Publisher::abandon() {
    std::error_code ec;
    if (!temp_.empty()) fs::remove_all(temp_, ec);
    temp_.clear();
    if (!marker_.empty()) fs::remove(marker_, ec);
    marker_.clear();
}

}  // namespace roofline::report
