#include "roofline/report/publish.hpp"

#include "output/durable.hpp"
#include "output/lock_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace roofline::report {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view reserve_prefix = ".reserve-", temp_prefix = ".tmp-",
                           latest_temp_prefix = "latest.tmp";

bool starts_with(std::string_view s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// "v12" -> 12; 0 for anything else: no sign, no leading zero, at most nine
// digits (so no overflow, whatever a foreign entry is called).
int version_of(std::string_view name) {
    if (name.size() < 2 || name.size() > 10 || name[0] != 'v' || name[1] == '0') return 0;
    int version = 0;
    for (char ch : name.substr(1)) {
        if (ch < '0' || ch > '9') return 0;
        version = version * 10 + (ch - '0');
    }
    return version;
}

// The version of a temporary folder ".tmp-<anything>-v<N>", or 0.
int temp_version(std::string_view name) {
    auto dash = name.rfind('-');
    return dash == std::string_view::npos ? 0 : version_of(name.substr(dash + 1));
}

// The reservation of `version` in `dir`: ".reserve-v<N>".
fs::path reservation_of(std::string const& dir, int version) {
    return fs::path(dir) / (std::string(reserve_prefix) + std::string("v").append(std::to_string(version)));
}

bool exists_here(fs::path const& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 || errno != ENOENT;
}

}  // namespace

Publisher::Publisher(std::string out_root, std::string const& folder)
    : dir_((fs::path(out_root) / folder).string()) {
    output::refuse_symbolic_link(dir_, "a report folder");
    output::make_folders(dir_);
}

Publisher::~Publisher() {
    try {
        abandon();
    } catch (...) {
    }
}

output::LockFile Publisher::lock() const { return output::LockFile::wait(dir_ + "/.lock"); }

std::optional<int> Publisher::latest_version() const {
    std::error_code ec;
    auto target = fs::read_symlink(fs::path(dir_) / "latest", ec);
    if (ec) return std::nullopt;
    int version = version_of(target.filename().string());
    // A version that is a symbolic link is not one: never read or counted.
    auto folder = fs::path(dir_) / target.filename();
    if (version == 0 || !fs::is_directory(fs::symlink_status(folder, ec)))
        return std::nullopt;
    return version;
}

std::string Publisher::version_dir(int version) const {
    return (fs::path(dir_) / (std::string("v").append(std::to_string(version)))).string();
}

// The number after every version this tool made: `latest`, the published
// versions (a folder v<N> with its manifest.json) and the live reservations.
// A foreign entry that only looks like a version (a folder without a
// manifest, a file) is never counted, and its number is skipped: it neither
// blocks publishing nor gets overwritten.
int Publisher::next_version_locked() const {
    int highest = latest_version().value_or(0);
    std::error_code ec, ignored;
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        auto name = entry.path().filename().string();
        if (int v = version_of(name);
            v > highest && fs::is_directory(entry.symlink_status(ignored)) &&
            fs::is_regular_file(entry.path() / "manifest.json", ignored))
            highest = v;
        else if (starts_with(name, reserve_prefix))
            highest = std::max(highest, version_of(name.substr(reserve_prefix.size())));
    }
    if (ec) throw std::runtime_error("cannot list '" + dir_ + "': " + ec.message());
    for (int v = highest + 1; v > 0 && v <= max_version; ++v) {
        auto name = std::string("v").append(std::to_string(v));
        if (!exists_here(fs::path(dir_) / name) && !exists_here(reservation_of(dir_, v)))
            return v;
    }
    throw std::runtime_error("no version number is left in '" + dir_ + "' (the highest is v" +
                             std::to_string(max_version) + ")");
}

// Leftovers of runs that died: reservations whose lock nobody holds,
// temporary folders without a live reservation, and `latest.tmp*` links (a
// run makes one only while it holds the folder's lock, as the caller does).
void Publisher::clean_locked() const {
    std::error_code ec;
    std::vector<fs::path> temps;
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        auto name = entry.path().filename().string();
        if (starts_with(name, reserve_prefix)) {
            if (!output::LockFile::held(entry.path().string())) fs::remove_all(entry.path(), ec);
        } else if (starts_with(name, latest_temp_prefix)) {
            fs::remove_all(entry.path(), ec);
        } else if (starts_with(name, temp_prefix)) {
            temps.push_back(entry.path());
        }
        ec.clear();
    }
    for (auto const& temp : temps) {
        int version = temp_version(temp.filename().string());
        if (version == 0 || !output::LockFile::held(reservation_of(dir_, version).string()))
            fs::remove_all(temp, ec);
    }
}

void Publisher::clean() noexcept {
    try {
        auto held = lock();
        clean_locked();
    } catch (...) {
        // A folder that cannot be locked (read-only, say) keeps its leftovers.
    }
}

int Publisher::reserve() {
    auto held = lock();
    clean_locked();
    version_ = next_version_locked();
    auto marker = reservation_of(dir_, version_).string();
    auto reservation = output::LockFile::create(marker);
    if (!reservation) throw std::runtime_error("cannot reserve '" + marker + "': it exists");
    reservation_ = std::make_unique<output::LockFile>(std::move(*reservation));
    // For people looking at the folder: which process holds it. Only the
    // lock counts, so a failed write is no error.
    auto pid = std::to_string(::getpid()) + "\n";
    if (::write(reservation_->fd(), pid.data(), pid.size()) < 0) {
        // nothing to do
    }
    temp_ = (fs::path(dir_) / (std::string(temp_prefix) + std::to_string(::getpid()) + "-v" +
                               std::to_string(version_)))
                .string();
    std::error_code ec;
    fs::remove_all(temp_, ec);
    if (!fs::create_directory(temp_, ec) || ec)
        throw std::runtime_error("cannot create '" + temp_ + "': " +
                                 (ec ? ec.message() : std::string("it exists")));
    return version_;
}

std::string Publisher::commit() {
    output::sync_tree(temp_);  // every file and folder of the version, before it appears
    auto final_dir = version_dir(version_);
    {
        auto held = lock();
        if (!output::rename_new(temp_, final_dir))
            throw std::runtime_error("cannot publish '" + final_dir +
                                     "': something else made it while this version was written");
        temp_.clear();
        if (auto warning = output::sync_after_rename(dir_, final_dir); !warning.empty())
            warnings_.push_back(warning);
        reservation_->remove();
        reservation_.reset();
        update_latest(version_);
    }
    return final_dir;
}

// `latest` -> the newest version, replaced atomically by renaming a fresh
// link over it. The version is in place already: a failure here is a warning,
// and its leftover link is removed (or by the next run).
void Publisher::update_latest(int version) {
    int newest = std::max(version, latest_version().value_or(0));
    if (latest_version() == newest) return;
    auto pid = std::to_string(::getpid());
    auto link = (fs::path(dir_) / (std::string(latest_temp_prefix) + "-" + pid)).string();
    auto latest = (fs::path(dir_) / "latest").string();
    std::error_code ec;
    fs::remove(link, ec);
    std::string failure;
    if (::symlink((std::string("v").append(std::to_string(newest))).c_str(), link.c_str()) != 0)
        failure = "cannot create '" + link + "': " + std::strerror(errno);
    else if (::rename(link.c_str(), latest.c_str()) != 0)
        failure = "cannot replace '" + latest + "': " + std::strerror(errno);
    if (!failure.empty()) {
        fs::remove(link, ec);
        warnings_.push_back(version_dir(version) + " is published, but 'latest' still points to " +
                            (latest_version() ? std::string("v").append(std::to_string(*latest_version()))
                                              : std::string("no version")) +
                            ": " + failure);
        return;
    }
    auto warning =
        output::sync_after_rename(dir_, "'" + latest + "' -> v" + std::to_string(newest));
    if (!warning.empty()) warnings_.push_back(warning);
}

void Publisher::abandon() {
    std::error_code ec;
    if (!temp_.empty()) fs::remove_all(temp_, ec);
    temp_.clear();
    if (reservation_) reservation_->remove();
    reservation_.reset();
}

}  // namespace roofline::report
