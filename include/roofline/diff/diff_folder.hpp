#pragma once
// Where a diff is published: OUT/diffs/<A>-v<N>--<B>-v<M>/ (plus the hardware
// pairs when --pair chose other pairs than the default would). The two
// versions never change, so neither does their diff: a folder that exists is
// up to date. Published atomically like a report version: written into a
// hidden temporary folder beside it (.tmp-<pid>-<name>), synced, and renamed
// into place when complete; an error or a kill leaves no partial diff. The
// diff holds an flock on the temporary folder's lock file
// (.tmp-<pid>-<name>.lock) while it works, and the next diff removes the
// temporary folders whose lock nobody holds (docs/reliability.md).
// (report::Publisher numbers versions; a diff's name is fixed instead.)

#include "roofline/diff/match.hpp"

#include <memory>
#include <string>
#include <vector>

namespace roofline::output {
class LockFile;
}

namespace roofline::diff {

// "<A>-v<N>--<B>-v<M>", with "--<a>=<b>,..." (sorted) for explicit pairs, or
// "--pairs-<hash>" when that would be long. Characters other than letters,
// digits, '_', '-' and '.' in report names become '_'; when any did (or a
// report name holds "--" or ends with '-', which would read as the
// separator), '-' and 8 hex digits of a hash of the names as given follow, so
// that different diffs never share a folder; a name longer than
// output::max_name_bytes is shortened with a hash (output::file_name).
std::string diff_name(ComparedReport const& a, ComparedReport const& b, Pairing const& pairing);

class DiffFolder {
public:
    DiffFolder(std::string const& out_root, std::string const& name);
    ~DiffFolder();  // removes the temporary folder unless committed
    DiffFolder(DiffFolder const&) = delete;
    DiffFolder& operator=(DiffFolder const&) = delete;

    std::string const& path() const { return path_; }  // OUT/diffs/<name>
    // Whether the diff is there already. Throws std::runtime_error when it,
    // or OUT/diffs, is a symbolic link: never followed.
    bool exists() const;

    // Makes the temporary folder (and OUT/diffs), after removing stale ones.
    // Throws std::runtime_error (OUT/diffs a symbolic link among the reasons).
    std::string const& begin();
    // Syncs the temporary folder and renames it to path(). False when another
    // diff published the same folder meanwhile (the temporary one is
    // removed). Throws std::runtime_error when it cannot.
    bool commit();
    // What went wrong after the diff was in place (syncing OUT/diffs).
    std::vector<std::string> const& warnings() const { return warnings_; }

private:
    std::string dir_, name_, path_, temp_;
    std::unique_ptr<output::LockFile> owner_;  // the lock of temp_
    std::vector<std::string> warnings_;
};

}  // namespace roofline::diff
