// The help of the command line, written for people (README.md, "Usage"):
// `roofline help [COMMAND]`, `roofline COMMAND --help`, and the usage line
// printed with a usage error.
#include "command.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

using roofline::test::contains;

roofline::test::CommandResult cli(std::string const& args) {
    return roofline::test::run_roofline(ROOFLINE_SOURCE_DIR, args);
}

constexpr char const* commands[] = {"run", "check", "eval", "hardware", "diff", "calibrate", "validate", "import", "show"};

}  // namespace

TEST_CASE("help: 'help COMMAND' and 'COMMAND --help' print the command's own help", "[cli][help]") {
    for (auto const* command : commands) {
        INFO(command);
        auto help = cli(std::string("help ") + command);
        CHECK(help.exit_code == 0);
        CHECK(help.err.empty());
        CHECK(help.out.rfind(std::string("usage: roofline ") + command + " ", 0) == 0);
        CHECK(cli(std::string(command) + " --help").out == help.out);
        CHECK(cli(std::string(command) + " -h").out == help.out);
        // None of the option library's own notation, none of the hidden
        // options that carry the arguments ("--config " with its space:
        // validate's --configs is an option of its own).
        for (auto const* internal : {" arg", "[ --", "--scenario", "--files", "--matmul",
                                     "--name", "--reports", "--config ", "--measured"})
            CHECK_FALSE(contains(help.out, internal));
        CHECK(contains(help.out, "  -h, --help "));
    }
    // `help run` is run's help, not the list of commands (as it was).
    auto run = cli("help run").out;
    CHECK_FALSE(contains(run, "commands:"));
    // The usage line lists every option run takes, --no-charts and -I among them.
    CHECK(contains(run, "usage: roofline run SCENARIO.roof [-o OUT] [--set NAME=VALUE]... "
                        "[--target HW]... [-I DIR]... [--force] [--formats LIST] [--no-charts] "
                        "[--quiet]\n"));
    for (auto const* option : {"-o, --output OUT", "--set NAME=VALUE", "--target HW",
                               "-I, --include DIR", "--force", "--formats LIST", "--no-charts",
                               "-q, --quiet"})
        CHECK(contains(run, std::string("\n  ") + option + " "));
}

TEST_CASE("help: the list of commands, and help of what is no command", "[cli][help]") {
    for (auto const* args : {"help", "--help", "-h"}) {
        auto r = cli(args);
        CHECK(r.exit_code == 0);
        CHECK(r.out.rfind("usage: roofline COMMAND", 0) == 0);
        for (auto const* command : commands) CHECK(contains(r.out, std::string("\n  ") + command + " "));
    }
    auto unknown = cli("help frobnicate");
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "roofline help: error: unknown command 'frobnicate'\n"));
    CHECK(cli("help run check").exit_code == 2);
    auto nothing = cli("");
    CHECK(nothing.exit_code == 2);
    CHECK(nothing.err.rfind("usage: roofline COMMAND", 0) == 0);
}

TEST_CASE("help: a missing argument is named as the usage line names it", "[cli][help]") {
    // Each: the message, then the usage line, then where the help is; exit 2.
    struct Case {
        char const* args;
        char const* message;
    };
    for (auto const& c : {Case{"run", "roofline run: error: missing SCENARIO.roof\n"
                                      "usage: roofline run SCENARIO.roof [-o OUT]"},
                          Case{"run --no-charts", "roofline run: error: missing SCENARIO.roof\n"},
                          Case{"check", "roofline check: error: missing SCENARIO.roof\n"
                                        "usage: roofline check SCENARIO.roof... [-I DIR]...\n"
                                        "(see 'roofline help check')\n"},
                          Case{"eval --set B=1", "roofline eval: error: missing the matmul \"A * B -> C\"\n"},
                          Case{"import", "roofline import: error: missing CONFIG.json\n"},
                          Case{"diff", "roofline diff: error: missing REPORT_A REPORT_B\n"},
                          Case{"calibrate", "roofline calibrate: error: missing MEASURED.csv\n"},
                          Case{"validate", "roofline validate: error: missing MEASURED.csv\n"}}) {
        INFO(c.args);
        auto r = cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.err.rfind(c.message, 0) == 0);
        CHECK_FALSE(contains(r.err, "is required"));
    }
    // Other usage errors keep the option's name and show the usage line.
    auto r = cli("run x.roof --no-such-option");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "roofline run: error: unrecognised option '--no-such-option'\n"
                          "usage: roofline run SCENARIO.roof"));
}

TEST_CASE("help: --version names the templates folder in use", "[cli][help]") {
    // The binary in the build tree has no installed copy beside it
    // (build/../share/roofline/templates): the source tree's templates.
    auto r = cli("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out == std::string("roofline " ROOFLINE_VERSION "\ntemplates: ") +
                       ROOFLINE_SOURCE_DIR + "/templates\n");
}
