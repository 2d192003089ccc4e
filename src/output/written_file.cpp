// Files written through stdio (written_file.hpp).
#include "written_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace roofline::output {

WrittenFile create_file(std::string const& path) {
    WrittenFile file(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    return file;
}

void finish_file(WrittenFile& file, std::string const& path) {
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace roofline::output
