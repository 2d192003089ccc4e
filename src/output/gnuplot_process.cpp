#include "output/gnuplot_process.hpp"

#include "roofline/output/errors.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <iomanip>
#include <locale>

extern char** environ;

namespace roofline::output {

namespace {

// A file in memory, at a descriptor above the ones a child's are moved to.
int memory_file(char const* name) {
    int fd = ::memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0 && fd < 10) {
        int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
        ::close(fd);
        fd = high;
    }
    if (fd < 0)
        throw ChartError(std::string("cannot make a gnuplot script: ") + std::strerror(errno));
    return fd;
}

struct SpawnActions {
    posix_spawn_file_actions_t actions;
    SpawnActions() { posix_spawn_file_actions_init(&actions); }
    ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
    SpawnActions(SpawnActions const&) = delete;
    SpawnActions& operator=(SpawnActions const&) = delete;
};

}  // namespace

Script::Script() : file_(memory_file("roofline-gnuplot-script")) {
    int copy = ::fcntl(file_.fd, F_DUPFD_CLOEXEC, 0);
    FILE* stream = copy < 0 ? nullptr : ::fdopen(copy, "w");
    if (!stream) {
        if (copy >= 0) ::close(copy);
        throw ChartError(std::string("cannot make a gnuplot script: ") + std::strerror(errno));
    }
    gnuplot_ = std::make_unique<Gnuplot>(stream);  // closes `stream`
    gnuplot_->imbue(std::locale::classic());
    // Ten digits place a point within 1e-10 of the plot, far below a pixel.
    *gnuplot_ << std::setprecision(10);
}

void Script::end() {
    *gnuplot_ << "exit\n";
    gnuplot_->flush();
    bool failed = gnuplot_->fail();
    gnuplot_.reset();
    if (failed)
        throw ChartError("cannot write a gnuplot script: " + std::string(std::strerror(errno)));
}

GnuplotProcess::GnuplotProcess(Script const& script, std::string const& folder)
    : errors_(memory_file("roofline-gnuplot-stderr")) {
    SpawnActions spawn;
    posix_spawn_file_actions_addopen(&spawn.actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&spawn.actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&spawn.actions, errors_.fd, 2);
    posix_spawn_file_actions_adddup2(&spawn.actions, script.fd(), 3);
    if (!folder.empty()) posix_spawn_file_actions_addchdir_np(&spawn.actions, folder.c_str());
    std::string program = "gnuplot", option = "-d", path = "/dev/fd/3";
    char* argv[] = {program.data(), option.data(), path.data(), nullptr};
    int rc = ::posix_spawnp(&pid_, "gnuplot", &spawn.actions, nullptr, argv, environ);
    if (rc == ENOENT)
        throw ChartError(
            "gnuplot not found on PATH; the charts need it (Debian: apt-get install "
            "gnuplot-nox)");
    if (rc != 0) throw ChartError(std::string("cannot start gnuplot: ") + std::strerror(rc));
}

GnuplotProcess::~GnuplotProcess() {
    if (pid_ > 0) finish();
}

Finished GnuplotProcess::finish() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    std::string errors;
    std::array<char, 4096> buf;
    for (off_t at = 0; errors.size() < 65536;) {
        ssize_t n = ::pread(errors_.fd, buf.data(), buf.size(), at);
        if (n <= 0) break;
        errors.append(buf.data(), static_cast<std::size_t>(n));
        at += n;
    }
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok && errors.find_first_not_of(" \n") == std::string::npos)
        errors = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                     : "exit status " + std::to_string(WEXITSTATUS(status));
    return {ok, errors};
}

bool gnuplot_available() {
    try {
        Script script;
        script.gp() << "set terminal svg\nset terminal pngcairo\n";
        script.end();
        return GnuplotProcess(script, "").finish().ok;
    } catch (ChartError const&) {
        return false;
    }
}

}  // namespace roofline::output
