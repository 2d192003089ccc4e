#include "roofline/lang/templates_dir.hpp"

#include <filesystem>
#include <system_error>

// The templates folder relative to the installed binary's folder (from
// CMake's GNUInstallDirs); the build tree's folder as the fallback.
#ifndef ROOFLINE_INSTALLED_TEMPLATES
#define ROOFLINE_INSTALLED_TEMPLATES "../share/roofline/templates"
#endif

namespace roofline {
namespace {

std::string find_templates_dir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    // /proc/self/exe, not argv[0]: right whatever PATH or symbolic link ran us.
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path installed = exe.parent_path() / ROOFLINE_INSTALLED_TEMPLATES;
        if (fs::is_directory(installed, ec)) {
            fs::path canonical = fs::weakly_canonical(installed, ec);
            return (ec ? installed : canonical).string();
        }
    }
    return ROOFLINE_TEMPLATES_DIR;
}

}  // namespace

std::string templates_dir() {
    static std::string const dir = find_templates_dir();
    return dir;
}

}  // namespace roofline
