#pragma once
// gnuplot: gnuplot-iostream writes each script (commands and inline data)
// into a file in memory, which a gnuplot process then runs as its script.
// Not a pipe to its stdin: gnuplot reads a piped stdin one byte per read(2)
// and gnuplot-iostream flushes after every data row, which together made the
// charts of a 330,000-case report four times slower.
// Private to the core library.

#include "roofline/output/gnuplot.hpp"

#include <gnuplot-iostream.h>

#include <sys/types.h>
#include <unistd.h>

#include <memory>
#include <string>

namespace roofline::output {

// An open file descriptor, closed with its owner.
struct Fd {
    int fd = -1;
    explicit Fd(int f = -1) : fd(f) {}
    Fd(Fd const&) = delete;
    Fd& operator=(Fd const&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// A gnuplot script (commands and inline data) in a file in memory, written
// through gp(). Throws ChartError.
class Script {
public:
    Script();
    Gnuplot& gp() { return *gnuplot_; }
    // Closes the writing side; the script is complete.
    void end();
    int fd() const { return file_.fd; }

private:
    Fd file_;
    std::unique_ptr<Gnuplot> gnuplot_;
};

// How a gnuplot run ended.
struct Finished {
    bool ok;
    std::string errors;  // gnuplot's stderr
};

class GnuplotProcess {
public:
    // Runs `gnuplot -d /dev/fd/3` (no init file; the script as fd 3, stdin
    // empty) in `folder`, which must exist, so that output file names need no
    // path. Throws ChartError.
    GnuplotProcess(Script const& script, std::string const& folder);
    ~GnuplotProcess();
    GnuplotProcess(GnuplotProcess const&) = delete;
    GnuplotProcess& operator=(GnuplotProcess const&) = delete;

    // Waits for gnuplot to exit. gnuplot stops at the first error in a script.
    Finished finish();

private:
    pid_t pid_ = -1;
    Fd errors_;
};

}  // namespace roofline::output
