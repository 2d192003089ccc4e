#pragma once
// The fuzz targets' shipped templates: the templates folder as it is on disk,
// under the same absolute paths, read once into a MemoryFileSystem that each
// input copies, so that `include "hardware/catalog.roof"` works and nothing
// else on disk is read.
#include "roofline/lang/file_system.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace roofline::fuzz {

inline MemoryFileSystem const& templates() {
    static MemoryFileSystem const files = [] {
        MemoryFileSystem result;
        std::error_code ec;
        for (auto const& entry :
             std::filesystem::recursive_directory_iterator(ROOFLINE_TEMPLATES_DIR, ec)) {
            if (!entry.is_regular_file()) continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::stringstream text;
            text << in.rdbuf();
            result.add(entry.path().string(), text.str());
        }
        return result;
    }();
    return files;
}

}  // namespace roofline::fuzz
