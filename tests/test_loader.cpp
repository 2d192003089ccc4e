// Includes: search order, read-once, cycles, all through an in-memory file system.
#include "helpers.hpp"

#include <catch2/catch.hpp>

using namespace roofline;

TEST_CASE("include: relative to the including file, then the search path", "[loader]") {
    MemoryFileSystem fs;
    fs.add("main.roof", "include \"lib/a.roof\"\ninclude \"common.roof\"\n");
    fs.add("lib/a.roof", "include \"b.roof\"\nlet A = 1\n");  // b.roof next to a.roof
    fs.add("lib/b.roof", "let B = 2\n");
    fs.add("search/common.roof", "let C = 3\n");
    Diagnostics diagnostics;
    auto program = load_program("main.roof", fs, LoadOptions{{"search"}}, diagnostics);
    INFO(format(diagnostics));
    REQUIRE_FALSE(diagnostics.has_errors());
    REQUIRE(program.files.size() == 4);
    CHECK(program.files[1]->source->path == "lib/a.roof");
    CHECK(program.files[2]->source->path == "lib/b.roof");
    CHECK(program.files[3]->source->path == "search/common.roof");
    // Statements in reading order, includes expanded in place: B, A, C.
    REQUIRE(program.statements.size() == 3);
    CHECK(boost::get<ast::LetStmt>(program.statements[0].statement->get()).name.name == "B");
    CHECK(boost::get<ast::LetStmt>(program.statements[1].statement->get()).name.name == "A");
}

TEST_CASE("include: a file included twice is read once", "[loader]") {
    MemoryFileSystem fs;
    fs.add("main.roof", "include \"x.roof\"\ninclude \"./x.roof\"\ninclude \"y.roof\"\n");
    fs.add("x.roof", "let X = 1\n");
    fs.add("y.roof", "include \"x.roof\"\n");
    Diagnostics diagnostics;
    auto program = load_program("main.roof", fs, LoadOptions{}, diagnostics);
    CHECK_FALSE(diagnostics.has_errors());
    CHECK(program.files.size() == 3);
    CHECK(program.statements.size() == 1);
}

TEST_CASE("include: a cycle is an error that prints the chain", "[loader]") {
    MemoryFileSystem fs;
    fs.add("a.roof", "include \"b.roof\"\n");
    fs.add("b.roof", "let B = 1\ninclude \"a.roof\"\n");
    Diagnostics diagnostics;
    auto program = load_program("a.roof", fs, LoadOptions{}, diagnostics);
    CHECK(format(diagnostics) ==
          "b.roof:2:9: error: include cycle: a.roof -> b.roof -> a.roof\n"
          "include \"a.roof\"\n"
          "        ^~~~~~~~\n");
}

TEST_CASE("include: a missing file names what was searched", "[loader]") {
    MemoryFileSystem fs;
    fs.add("dir/main.roof", "include \"nope.roof\"\n");
    Diagnostics diagnostics;
    auto program = load_program("dir/main.roof", fs, LoadOptions{{"lib"}}, diagnostics);
    CHECK(format(diagnostics).rfind(
              "dir/main.roof:1:9: error: cannot find include file 'nope.roof' (searched 'dir', 'lib')\n",
              0) == 0);
}

TEST_CASE("an unreadable main file is an error without a position", "[loader]") {
    MemoryFileSystem fs;
    Diagnostics diagnostics;
    auto program = load_program("missing.roof", fs, LoadOptions{}, diagnostics);
    CHECK(program.files.empty());
    CHECK(format(diagnostics) ==
          "roofline: error: cannot read 'missing.roof': No such file or directory\n");
}
