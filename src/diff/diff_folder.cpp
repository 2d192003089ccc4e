#include "roofline/diff/diff_folder.hpp"

#include "output/file_names.hpp"

#include "roofline/report/sha256.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace roofline::diff {
namespace fs = std::filesystem;

using output::file_part;

std::string diff_name(ComparedReport const& a, ComparedReport const& b, Pairing const& pairing) {
    std::string name = file_part(a.name) + "-v" + std::to_string(a.version) + "--" +
                       file_part(b.name) + "-v" + std::to_string(b.version);
    std::string original = std::to_string(a.name.size()) + ":" + a.name + "-v" +
                           std::to_string(a.version) + "--" + std::to_string(b.name.size()) + ":" +
                           b.name + "-v" + std::to_string(b.version);
    if (pairing.explicit_pairs) {
        std::vector<std::string> pairs;
        for (auto const& p : pairing.pairs) pairs.push_back(file_part(p.a) + "=" + file_part(p.b));
        std::sort(pairs.begin(), pairs.end());
        std::string joined;
        for (auto const& p : pairs) joined += (joined.empty() ? "" : ",") + p;
        if (name.size() + joined.size() > 200)
            joined = "pairs-" + report::sha256_hex(joined).substr(0, 16);
        name += "--" + joined;
        std::vector<std::string> given;
        for (auto const& p : pairing.pairs)
            given.push_back(std::to_string(p.a.size()) + ":" + p.a + "=" + p.b);
        std::sort(given.begin(), given.end());
        for (auto const& p : given) original += "|" + p;
    }
    return output::bounded_name(std::move(name), original);
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
}

bool DiffFolder::exists() const {
    std::error_code ec;
    return fs::is_directory(path_, ec);
}

std::string const& DiffFolder::begin() {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw std::runtime_error("cannot create '" + dir_ + "': " + ec.message());
    for (auto const& entry : fs::directory_iterator(dir_, ec)) {
        if (output::dead_temporary(entry.path().filename().string()))
            fs::remove_all(entry.path(), ec);
    }
    temp_ = (fs::path(dir_) / output::temporary_name(name_)).string();
    fs::remove_all(temp_, ec);
    if (!fs::create_directory(temp_, ec) || ec)
        throw std::runtime_error("cannot create '" + temp_ +
                                 "': " + (ec ? ec.message() : "it exists"));
    return temp_;
}

bool DiffFolder::commit() {
    if (::rename(temp_.c_str(), path_.c_str()) == 0) {
        temp_.clear();
        return true;
    }
    if (errno == EEXIST || errno == ENOTEMPTY) return false;  // the destructor removes ours
    throw std::runtime_error("cannot publish '" + path_ + "': " + std::strerror(errno));
}

}  // namespace roofline::diff
