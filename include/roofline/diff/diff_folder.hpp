#pragma once
// Where a diff is published: OUT/diffs/<A>-v<N>--<B>-v<M>/ (plus the hardware
// pairs when --pair chose other pairs than the default would). The two
// versions never change, so neither does their diff: a folder that exists is
// up to date. Published atomically like a report version: written into a
// hidden temporary folder beside it (.tmp-<pid>-<name>) and renamed into
// place when complete; an error or a kill leaves no partial diff, and the
// temporary folders of processes that died are removed by the next diff.
// (report::Publisher numbers versions; a diff's name is fixed instead.)

#include "roofline/diff/match.hpp"

#include <string>

namespace roofline::diff {

// "<A>-v<N>--<B>-v<M>", with "--<a>=<b>,..." (sorted) for explicit pairs, or
// "--pairs-<hash>" when that would be long. Characters other than letters,
// digits, '_', '-' and '.' in report names become '_', and a name longer than
// output::max_name_bytes is shortened with a hash (output::file_name).
std::string diff_name(ComparedReport const& a, ComparedReport const& b, Pairing const& pairing);

class DiffFolder {
public:
    DiffFolder(std::string const& out_root, std::string const& name);
    ~DiffFolder();  // removes the temporary folder unless committed
    DiffFolder(DiffFolder const&) = delete;
    DiffFolder& operator=(DiffFolder const&) = delete;

    std::string const& path() const { return path_; }  // OUT/diffs/<name>
    bool exists() const;

    // Makes the temporary folder (and OUT/diffs), after removing stale ones.
    // Throws std::runtime_error.
    std::string const& begin();
    // Renames the temporary folder to path(). False when another diff
    // published the same folder meanwhile (the temporary one is removed).
    bool commit();

private:
    std::string dir_, name_, path_, temp_;
};

}  // namespace roofline::diff
