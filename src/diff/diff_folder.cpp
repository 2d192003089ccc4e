#include "roofline/diff/diff_folder.hpp"

#include "output/durable.hpp"
#include "output/file_names.hpp"
#include "output/lock_file.hpp"

#include "roofline/output/sha256.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace roofline::diff {
namespace fs = std::filesystem;

using output::file_part;

namespace {

constexpr std::string_view temp_prefix = ".tmp-", lock_suffix = ".lock";

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Whether `name` reads back unchanged from "<A>-v<N>--<B>-v<M>": plain, and
// without the "--" that separates A from B (nor a last '-' that makes one).
bool plain_in_diff_name(std::string_view name) {
    return output::is_plain(name) && name.find("--") == std::string_view::npos &&
           name.back() != '-';
}

}  // namespace

std::string diff_name(ComparedReport const& a, ComparedReport const& b, Pairing const& pairing) {
    std::string name = file_part(a.name) + "-v" + std::to_string(a.version) + "--" +
                       file_part(b.name) + "-v" + std::to_string(b.version);
    bool plain = plain_in_diff_name(a.name) && plain_in_diff_name(b.name);
    std::string original = std::to_string(a.name.size()) + ":" + a.name + "-v" +
                           std::to_string(a.version) + "--" + std::to_string(b.name.size()) + ":" +
                           b.name + "-v" + std::to_string(b.version);
    if (pairing.explicit_pairs) {
        std::vector<std::string> pairs;
        for (auto const& p : pairing.pairs) {
            pairs.push_back(file_part(p.a) + "=" + file_part(p.b));
            plain = plain && output::is_plain(p.a) && output::is_plain(p.b);
        }
        std::sort(pairs.begin(), pairs.end());
        std::string joined;
        for (auto const& p : pairs) joined += (joined.empty() ? "" : ",") + p;
        if (name.size() + joined.size() > 200)
            joined = "pairs-" + output::sha256_hex(joined).substr(0, 16);
        name += "--" + joined;
        std::vector<std::string> given;
        for (auto const& p : pairing.pairs)
            given.push_back(std::to_string(p.a.size()) + ":" + p.a + "=" + p.b);
        std::sort(given.begin(), given.end());
        for (auto const& p : given) original += "|" + p;
    }
    return output::distinct_name(std::move(name), original, plain);
}

DiffFolder::DiffFolder(std::string const& out_root, std::string const& name)
    : dir_((fs::path(out_root) / "diffs").string()),
      name_(name),
      path_((fs::path(dir_) / name).string()) {}

DiffFolder::~DiffFolder() {
    if (!temp_.empty()) {
        std::error_code ec;
        fs::remove_all(temp_, ec);
    }
    if (owner_) owner_->remove();
}

bool DiffFolder::exists() const {
    output::refuse_symbolic_link(dir_, "the folder of diffs");
    output::refuse_symbolic_link(path_, "a diff folder");
    std::error_code ec;
    return fs::is_directory(path_, ec);
}

std::string const& DiffFolder::begin() {
    output::refuse_symbolic_link(dir_, "the folder of diffs");
    output::make_folders(dir_);
    auto held = output::LockFile::wait(dir_ + "/.lock");
    // Leftovers of diffs that died: a temporary folder is live while some
    // diff holds the lock of "<folder>.lock" (made before the folder, removed
    // after it, and only while holding OUT/diffs/.lock, as here).
    std::error_code ec;
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        auto name = entry.path().filename().string();
        if (name.rfind(temp_prefix, 0) != 0) continue;
        auto status = entry.symlink_status(ec);
        bool lock_file = fs::is_regular_file(status) && ends_with(name, lock_suffix);
        auto lock = lock_file ? entry.path().string() : entry.path().string() + ".lock";
        if (!output::LockFile::held(lock)) fs::remove_all(entry.path(), ec);
        ec.clear();
    }
    // A name of our own: another diff of the same reports may be writing
    // (with our pid, in another PID namespace).
    for (int k = 0;; ++k) {
        // Appended, not "." + a temporary: GCC 12's false -Wrestrict at -O3.
        auto name = std::string(temp_prefix).append(std::to_string(::getpid()));
        if (k) name.append(".").append(std::to_string(k));
        name.append("-").append(name_);
        auto temp = (fs::path(dir_) / name).string();
        auto owner = output::LockFile::create(temp + ".lock");
        if (!owner) continue;
        if (fs::create_directory(temp, ec) && !ec) {
            owner_ = std::make_unique<output::LockFile>(std::move(*owner));
            temp_ = temp;
            return temp_;
        }
        owner->remove();
        if (!fs::exists(temp) || k > 1000)
            throw std::runtime_error("cannot create '" + temp + "': " +
                                     (ec ? ec.message() : std::string("it exists")));
        ec.clear();
    }
}

bool DiffFolder::commit() {
    output::sync_tree(temp_);  // every file of the diff, before it appears
    if (!output::rename_new(temp_, path_)) return false;  // the destructor removes ours
    temp_.clear();
    if (auto warning = output::sync_after_rename(dir_, path_); !warning.empty())
        warnings_.push_back(warning);
    return true;
}

}  // namespace roofline::diff
