#pragma once
// Versioned report folders: out/<name>/v1, v2, ... and a `latest` link.
//
// A version is written into a hidden temporary folder beside the versions and
// renamed into place only when every file is complete, so an error, a kill or
// a full disk never leaves a partial version and never touches an earlier
// one. Version numbers are reserved up front (the workbook and the manifest
// carry theirs) with a marker file created exclusively under a lock, so two
// runs at once get two distinct versions; markers and temporary folders of
// processes that died are cleaned up by the next run.

#include <optional>
#include <string>

namespace roofline::report {

class Publisher {
public:
    // Creates out_root/name if needed. Throws std::runtime_error on I/O errors.
    Publisher(std::string out_root, std::string name);
    ~Publisher();  // abandons a reservation that was not committed
    Publisher(Publisher const&) = delete;
    Publisher& operator=(Publisher const&) = delete;

    std::string const& report_dir() const { return dir_; }
    std::optional<int> latest_version() const;  // what `latest` points to
    std::string version_dir(int version) const;  // out/<name>/v<version>

    // Reserves the next version number and makes its temporary folder.
    int reserve();
    std::string const& temp_dir() const { return temp_; }

    // Renames the temporary folder to v<N> and points `latest` at the newest
    // version. Returns the version's folder.
    std::string commit();
    // Removes the temporary folder and the reservation.
    void abandon();

private:
    int highest_version_locked() const;
    void clean_stale() const;

    std::string dir_;
    std::string temp_;
    std::string marker_;
    int version_ = 0;
};

}  // namespace roofline::report
