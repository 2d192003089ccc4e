#pragma once
// Versioned report folders: out/<name>/v1, v2, ... and a `latest` link
// (docs/reports.md, "Versions and publishing"; docs/reliability.md).
//
// A version is written into a hidden temporary folder beside the versions,
// synced to disk, and renamed into place only when every file is complete, so
// an error, a kill, a full disk or a power loss never leaves a partial version
// and never touches an earlier one. Version numbers are reserved up front
// (the workbook and the manifest carry theirs) with a reservation file made
// exclusively while holding the lock of out/<name>/.lock; the run holds an
// flock on its reservation for its whole life, so reservations and temporary
// folders whose lock nobody holds are leftovers of a run that died, and the
// next run removes them (process ids play no part: this works between PID
// namespaces sharing a folder).

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline::output {
class LockFile;
}

namespace roofline::report {

class Publisher {
public:
    // The highest version number: v1 .. v999999999.
    static constexpr int max_version = 999'999'999;

    // `folder` is the report's folder name, safe as a file name (made by
    // output::file_name). Creates out_root/folder if needed. Throws
    // std::runtime_error on I/O errors, and when out_root/folder is a
    // symbolic link (never followed; out_root itself may be one).
    Publisher(std::string out_root, std::string const& folder);
    ~Publisher();  // abandons a reservation that was not committed
    Publisher(Publisher const&) = delete;
    Publisher& operator=(Publisher const&) = delete;

    std::string const& report_dir() const { return dir_; }
    // What `latest` points to: a folder v<N> here, not a symbolic link.
    std::optional<int> latest_version() const;
    std::string version_dir(int version) const;  // out/<name>/v<version>

    // Removes the leftovers of runs that died (under the folder's lock), as
    // far as it can: a folder it cannot lock or write is left as it is.
    void clean() noexcept;
    // Reserves the next version number and makes its temporary folder.
    int reserve();
    std::string const& temp_dir() const { return temp_; }

    // Syncs the temporary folder, renames it to v<N> and points `latest` at
    // the newest version. Returns the version's folder. Throws
    // std::runtime_error when the version could not be put in place (then
    // nothing is published); a failure after that (replacing `latest`,
    // syncing the folder) does not undo the version: it becomes a warning.
    std::string commit();
    // What went wrong after the version was in place (see commit).
    std::vector<std::string> const& warnings() const { return warnings_; }
    // Removes the temporary folder and the reservation.
    void abandon();

private:
    output::LockFile lock() const;
    int next_version_locked() const;
    void clean_locked() const;
    void update_latest(int version);

    std::string dir_;
    std::string temp_;
    std::unique_ptr<output::LockFile> reservation_;
    int version_ = 0;
    std::vector<std::string> warnings_;
};

}  // namespace roofline::report
