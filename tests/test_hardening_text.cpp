// Hardening, second pass: text from a scenario or a report on its way to the
// outputs. Control characters reach neither the XML of a workbook (chart
// titles, document properties) nor the terminal raw; the strings a report's
// manifest keeps are bounded, so that the tool can read its own reports
// back; on a full disk the tool's message is the only one.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "output/xlsx_cells.hpp"
#include "roofline/model/check.hpp"
#include "roofline/output/terminal_text.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::test;
namespace fs = std::filesystem;

namespace {

// What a terminal acts on: a bell, a clear screen, a window title.
std::string const hostile = "\x01\x07\x1b[2J\x1b]0;evil\x07";

// A chip with a hostile name and source (identifiers are letters and digits
// only; the name and the source are any text of one line).
std::string hostile_chip(std::string const& id = "chip") {
    return "hardware " + id + " {\n  name = \"Chip" + hostile + "One\"\n  source = \"src" +
           hostile + "\"\n  hbm_bandwidth = 1e12 B/s\n  peak bf16 = 1e15 FLOP/s\n}\n";
}

std::string hostile_scenario() {
    return "scenario \"T" + hostile + "itle\"\n" + hostile_chip() +
           "target chip\nsweep B = [1, 2]\nlet D = 64\nlet F = 128\n"
           "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
}

// The parts of a zip (an .xlsx) that do not parse as XML, one per line with
// the parser's message; empty when every part parses.
std::string unparsable_parts(fs::path const& xlsx) {
    Sandbox box;
    box.write("check.py",
              "import sys, zipfile, xml.dom.minidom\n"
              "z = zipfile.ZipFile(sys.argv[1])\n"
              "names = [n for n in z.namelist() if n.endswith(('.xml', '.rels'))]\n"
              "assert names, 'no XML parts'\n"
              "for n in names:\n"
              "    try: xml.dom.minidom.parseString(z.read(n))\n"
              "    except Exception as e: print(n, e)\n");
    auto r = run_command(python3() + " " + quoted(box / "check.py") + " " + quoted(xlsx));
    return r.exit_code == 0 ? r.out : "check.py failed: " + r.err;
}

// The bytes a terminal would act on: below 0x20 other than newline and
// tab, and DEL; each as its offset and value, for the message.
std::string terminal_controls(std::string const& text) {
    std::string found;
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
            found += std::to_string(i) + ":" + std::to_string(c) + " ";
    }
    return found;
}

}  // namespace

TEST_CASE("text: terminal_safe shows control characters and bytes that are not UTF-8 as escapes",
          "[reliability][hardening][escaping]") {
    using output::terminal_safe;
    // Ordinary text, UTF-8 included, is returned as it is.
    CHECK(terminal_safe("H100 SXM µs → α_β \\x") == "H100 SXM µs → α_β \\x");
    CHECK(terminal_safe("") == "");
    // C0 controls (tab and newline too, on one line), DEL, ESC.
    CHECK(terminal_safe("a\x01" "b\tc\nd\x7f" "e\x1b[2J") == "a\\x01b\\x09c\\x0ad\\x7fe\\x1b[2J");
    // Newlines stay in text of several lines; the other controls do not.
    CHECK(terminal_safe("a\nb\x07", true) == "a\nb\\x07");
    // C1 controls (U+009B is CSI) as their code points; U+00A0 is shown.
    CHECK(terminal_safe("x\xc2\x9b" "1m\xc2\x80\xc2\xa0") == "x\\u009b1m\\u0080\xc2\xa0");
    // Bytes that are not UTF-8: a stray continuation, a lead without its
    // continuation, an overlong form.
    CHECK(terminal_safe("T\x80" "e\xe2\x82" "f\xc0\xaf") == "T\\x80e\\xe2\\x82f\\xc0\\xaf");
    // Tables escape their cells and pad by what is shown.
    CHECK(output::render_table({{"id", "x"}, {"a\x1b", "y"}}, {false, false}) ==
          "id     x\na\\x1b  y\n");
}

TEST_CASE("text: xml_safe_text and cell_text give text that XML 1.0 can hold",
          "[reliability][hardening][escaping]") {
    using output::xml_safe_text;
    std::string const fffd = "\xef\xbf\xbd";  // U+FFFD
    CHECK(xml_safe_text("Roofline: H100 (h100) µ & <x>") == "Roofline: H100 (h100) µ & <x>");
    CHECK(xml_safe_text("a\tb\nc\rd") == "a\tb\nc\rd");
    CHECK(xml_safe_text("a\x01" "b\x1b" "c") == "a" + fffd + "b" + fffd + "c");
    // U+FFFE and U+FFFF are valid UTF-8 that XML cannot hold; a stray byte is no UTF-8.
    CHECK(xml_safe_text("\xef\xbf\xbe\xef\xbf\xbf" "x\x80") == fffd + fffd + "x" + fffd);
    // DEL and C1 controls are XML characters: kept.
    CHECK(xml_safe_text("\x7f\xc2\x9b") == "\x7f\xc2\x9b");
    // Cells: the _xHHHH_ form for what XML cannot hold, U+FFFD for bytes.
    CHECK(output::cell_text("a\x07" "b\xef\xbf\xbe" "c\x80" "d") == "a_x0007_b_xFFFE_c" + fffd + "d");
}

TEST_CASE("text: control characters from a scenario reach neither the workbook's XML nor the "
          "terminal raw",
          "[reliability][hardening][escaping]") {
    Sandbox box;
    box.write("a.roof", hostile_scenario());
    box.write("b.roof", hostile_scenario());
    // A catalog of hostile chips for `hardware` and `eval`, found through -I.
    fs::create_directories(box / "inc/hardware");
    box.write("inc/hardware/catalog.roof", hostile_chip("chip") + hostile_chip("chip2"));
    std::string terminal;
    auto run = [&](std::string const& args) {
        auto r = run_roofline(box.path, args);
        INFO(args << "\n" << r.out << r.err);
        CHECK(r.exit_code == 0);
        terminal += r.out + r.err;
        return r;
    };
    run("check a.roof");
    run("run a.roof");  // with charts
    run("run b.roof --no-charts");
    run("hardware -I inc");
    run("hardware -I inc chip");
    run("eval 'bf16[B, D] * bf16[D, F] -> bf16[B, F]' --set B=4 --set D=64 --set F=128 "
        "--target chip -I inc");
    run("diff out/a out/b");
    // The hostile text did reach the commands: each printed the chip's name, escaped.
    CHECK(contains(terminal, "Chip\\x01\\x07\\x1b[2J\\x1b]0;evil\\x07One"));
    CHECK(contains(terminal, "src\\x01"));  // `hardware chip` shows the source
    INFO(output::terminal_safe(terminal, true));
    CHECK(terminal_controls(terminal) == "");

    for (auto const* xlsx : {"out/a/v1/report.xlsx", "out/b/v1/report.xlsx"}) {
        INFO(xlsx);
        CHECK(unparsable_parts(box / xlsx) == "");
    }
    fs::path diff_folder;
    for (auto const& entry : fs::directory_iterator(box / "out/diffs"))
        if (entry.path().filename().string().front() != '.') diff_folder = entry.path();
    REQUIRE(fs::exists(diff_folder / "diff.xlsx"));
    CHECK(unparsable_parts(diff_folder / "diff.xlsx") == "");
}

TEST_CASE("text: a forged manifest's names reach neither diff.xlsx's XML nor the terminal raw",
          "[reliability][hardening][escaping]") {
    Sandbox box;
    std::string const plain =
        "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\ntarget chip\n"
        "sweep B = [1, 2]\nlet D = 64\nlet F = 128\n"
        "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    box.write("a.roof", plain);
    box.write("b.roof", plain);
    for (auto const* file : {"a.roof", "b.roof"})
        REQUIRE(run_roofline(box.path, std::string("run --no-charts ") + file).exit_code == 0);
    // The report's name, a target's name and the title as anyone may write
    // them into a manifest: JSON's \u escapes hold any control character,
    // and U+FFFE.
    auto path = box / "out/a/v1/manifest.json";
    auto manifest = nlohmann::json::parse(read_file(path));
    manifest["report"] = "a" + hostile + "\xc2\x9b" "1m\xef\xbf\xbe";
    manifest["title"] = "t" + hostile;
    manifest["targets"][0]["name"] = "n" + hostile;
    write_file(path, manifest.dump(2));
    auto r = run_roofline(box.path, "diff out/a/v1 out/b/v1");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "A: a\\x01\\x07\\x1b[2J\\x1b]0;evil\\x07\\u009b1m"));
    CHECK(terminal_controls(r.out + r.err) == "");
    CHECK(!contains(r.out, "\xc2\x9b"));
    fs::path diff_folder;
    for (auto const& entry : fs::directory_iterator(box / "out/diffs"))
        if (entry.path().filename().string().front() != '.') diff_folder = entry.path();
    REQUIRE(fs::exists(diff_folder / "diff.xlsx"));
    CHECK(unparsable_parts(diff_folder / "diff.xlsx") == "");
}

TEST_CASE("text: a title, name or source past its limit is an error at the string, so that the "
          "manifest stays readable",
          "[reliability][hardening][escaping]") {
    Sandbox box;
    auto body = [](std::string const& id, std::string const& fields) {
        return "hardware " + id + " { " + fields +
               " hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\ntarget " + id +
               "\nsweep B = [1, 2]\nlet D = 64\nlet F = 128\n"
               "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n";
    };
    std::string const text_max(model::max_text_bytes, 't'), name_max(model::max_name_bytes, 'n');
    // At the limits: a working report whose manifest reads back ("up to date").
    box.write("at.roof", "scenario \"" + text_max + "\"\n" +
                             body(name_max, "name = \"" + name_max + "\" source = \"" + text_max + "\""));
    auto r = run_roofline(box.path, "run --no-charts -q at.roof");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    r = run_roofline(box.path, "run --no-charts -q at.roof");
    CHECK(contains(r.out, "up to date"));

    // One byte more: an error at the string or the name, which gives the
    // length and not the text; a title of a megabyte the same. (30 MB of title
    // on one line, inside the 64 MiB file limit, is refused before parsing:
    // a line holds at most 1 MiB.)
    std::string const big(1'000'000, 't');
    struct Case {
        char const* file;
        std::string text, message;
    };
    std::vector<Case> const cases = {
        {"title", "scenario \"" + text_max + "t\"\n" + body("chip", ""),
         "title.roof:1:10: error: title too long (4097 bytes; at most 4096)"},
        {"big", "scenario \"" + big + "\"\n" + body("chip", ""),
         "big.roof:1:10: error: title too long (1000000 bytes; at most 4096)"},
        {"huge", "scenario \"" + std::string(30'000'000, 't') + "\"\n" + body("chip", ""),
         "huge.roof:1:1048577: error: line longer than 1048576 bytes (1 MiB)"},
        {"name", body("chip", "name = \"" + name_max + "n\""),
         "name.roof:1:24: error: name too long (1025 bytes; at most 1024)"},
        {"source", body("chip", "source = \"" + text_max + "s\""),
         "source.roof:1:26: error: source too long (4097 bytes; at most 4096)"},
        {"id", body(name_max + "i", ""),
         "id.roof:1:10: error: hardware identifier too long (1025 bytes; at most 1024)"},
        {"sweep", "sweep " + name_max + "s = [1]\n" + body("chip", ""),
         "sweep.roof:1:7: error: sweep name too long (1025 bytes; at most 1024)"},
        {"dtype", "dtype " + name_max + "d = 1 bytes\n" + body("chip", ""),
         "dtype.roof:1:7: error: dtype name too long (1025 bytes; at most 1024)"},
    };
    for (auto const& c : cases) {
        box.write(std::string(c.file) + ".roof", c.text);
        auto e = run_roofline(box.path, std::string("run --no-charts -q ") + c.file + ".roof");
        INFO(c.file << ": " << e.err.substr(0, 2000));
        CHECK(e.exit_code == 1);
        CHECK(contains(e.err, c.message));
        CHECK(e.err.size() < 2000);  // the caret line is cut; the text is not quoted
        CHECK(!fs::exists(box / "out" / c.file));
    }
}

TEST_CASE("text: on a full disk the tool's message is the only one, libxlsxwriter's are silenced",
          "[reliability][hardening][escaping]") {
    Sandbox box;
    box.write("s.roof",
              "hardware chip { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e15 FLOP/s }\n"
              "target chip\nsweep B = 1 .. 4096\nlet D = 64\nlet F = 128\n"
              "matmul proj = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    // The disk fills up while the Cases sheet is written (the tool's message,
    // then libxlsxwriter's as the unclosed workbook is closed), and while the
    // workbook is zipped (libxlsxwriter's, then the tool's).
    for (auto const* fault : {"ROOFLINE_FAULT_AFTER_BYTES=2000000", "ROOFLINE_FAULT_AFTER_BYTES=8000000"}) {
        auto r = run_roofline(box.path, "run s.roof --no-charts --force",
                              std::string("env ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=") +
                                  quoted(ROOFLINE_IO_FAIL) + " " + fault);
        INFO(fault << "\n" << r.err);
        CHECK(r.exit_code == 3);
        CHECK(contains(r.err, "report.xlsx"));
        CHECK(!contains(r.err, "[ERROR]"));
        CHECK(!contains(r.err, "[WARNING]"));
    }
}
