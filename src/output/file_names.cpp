#include "output/file_names.hpp"

#include <cerrno>
#include <csignal>
#include <sys/types.h>

namespace roofline::output {

std::string file_part(std::string_view name) {
    std::string out;
    for (char ch : name) {
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
        out += ok ? ch : '_';
    }
    return out.empty() || out[0] == '.' ? "_" + out : out;
}

bool process_alive(long pid) {
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace roofline::output
