#include "output/file_names.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <unistd.h>
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

std::string temporary_name(std::string_view name) {
    return ".tmp-" + std::to_string(::getpid()) + "-" + std::string(name);
}

bool dead_temporary(std::string_view entry) {
    if (entry.rfind(".tmp-", 0) != 0) return false;
    return !process_alive(std::strtol(std::string(entry.substr(5)).c_str(), nullptr, 10));
}

}  // namespace roofline::output
