// `roofline import` against hostile configs (issue 25): no text of a config
// becomes a statement of the scenario; numbers out of range, keys given twice
// and deep nesting are input errors at their place; the config must be a
// regular file of at most 16 MiB. Expected messages and places worked out by
// hand from the texts below.
#include "command.hpp"
#include "helpers.hpp"
#include "import_error.hpp"
#include "sandbox.hpp"

#include "roofline/importer/import_config.hpp"
#include "roofline/model/load.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace roofline;
using roofline::test::contains;
using roofline::test::import_error;

namespace {

// A Llama config with the fields import reads, and `extra` (JSON members,
// each followed by a comma) first.
std::string llama_config(std::string const& extra = "") {
    return "{" + extra + R"(
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "intermediate_size": 14336,
  "max_position_embeddings": 8192,
  "num_attention_heads": 32,
  "num_hidden_layers": 32,
  "num_key_value_heads": 8,
  "vocab_size": 128256
})";
}

// The lines of a scenario's text that are not comments: its statements.
std::vector<std::string> statements(std::string const& text) {
    std::vector<std::string> lines;
    std::size_t begin = 0;
    while (begin < text.size()) {
        auto end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        auto line = text.substr(begin, end - begin);
        if (line.rfind("#", 0) != 0) lines.push_back(line);
        begin = end + 1;
    }
    return lines;
}

bool has_control_byte(std::string const& text) {
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && c != '\n') || byte == 0x7f) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("import: hostile keys and values stay in comments, the statements are a clean config's",
          "[reliability][hardening][import-hardening]") {
    std::string const long_key(100000, 'k');
    // JSON escapes: each key below decodes to a newline, a CR, a NUL, an ESC...
    std::string hostile = llama_config(
        R"(
  "x\nhardware evil { hbm_bandwidth = 1e12 B/s  peak bf16 = 1e30 FLOP/s }\ntarget evil\n#": 1,
  "y\rinclude \"/etc/passwd\"\r#": 2,
  "z\u0000w": 3,
  "\u001b[31mred": 4,
  "q\"uote": 5,
  "del\u007f c1\u009b": 6,
  ")" + long_key + R"(": 7,)");
    // A value that is recorded in the header: the architectures' list.
    hostile.replace(hostile.find(R"(["LlamaForCausalLM"])"), 20,
                    R"(["LlamaForCausalLM", "\ntarget evil", "\u007f\u009b"])");
    auto clean = model::import_config(llama_config(), "config.json").text;
    auto text = model::import_config(hostile, "config.json").text;
    INFO(text.substr(0, 4000));

    CHECK(statements(text) == statements(clean));
    CHECK_FALSE(has_control_byte(text));
    CHECK_FALSE(contains(text, "\xc2\x9b"));
    // Each shown visibly in the "Not read" line.
    CHECK(contains(text, " x\\nhardware evil { hbm_bandwidth"));
    CHECK(contains(text, "\\ntarget evil\\n#,"));
    CHECK(contains(text, " y\\rinclude \"/etc/passwd\"\\r#,"));
    CHECK(contains(text, " z\\x00w\n"));  // the last, in byte order
    CHECK(contains(text, " \\x1b[31mred,"));
    CHECK(contains(text, " q\"uote,"));
    CHECK(contains(text, " del\\x7f c1\\u009b,"));
    // The long key: its first 200 characters and its size.
    std::string const shown_key = std::string(" ").append(200, 'k').append("... (100000 bytes),");
    CHECK(contains(text, shown_key));  // appends: GCC 12 -O3's false -Wrestrict on " " + a temporary
    CHECK_FALSE(contains(text, std::string(201, 'k')));
    // The value, as JSON (dump's escapes) with DEL and the C1 control made visible.
    CHECK(contains(text, "#   architectures = [\"LlamaForCausalLM\",\"\\ntarget evil\",\"\\x7f\\u009b\"]\n"));

    // The scenario checks, and targets what a clean one does: no `evil`.
    Diagnostics diagnostics;
    auto loaded = model::load_scenario("imported.roof", text, {}, {}, diagnostics);
    INFO(format(diagnostics));
    REQUIRE_FALSE(diagnostics.has_errors());
    std::vector<std::string> targets;
    for (int t : loaded.scenario.targets)
        targets.push_back(loaded.scenario.hardware[static_cast<std::size_t>(t)].id);
    CHECK(targets == std::vector<std::string>{"h100_sxm", "h200", "mi300x", "tpu_v5p"});

    // Through the command line: written, then checked as a user would.
    roofline::test::Sandbox box;
    box.write("hostile.json", hostile);
    auto imported = roofline::test::run_roofline(box.path, "import hostile.json -o h.roof");
    INFO(imported.err);
    CHECK(imported.exit_code == 0);
    CHECK(statements(roofline::test::read_file(box / "h.roof")) == statements(clean));
    CHECK(roofline::test::run_roofline(box.path, "check h.roof").exit_code == 0);
}

TEST_CASE("import: a config's path with control characters stays in its comment",
          "[reliability][hardening][import-hardening]") {
    auto text = model::import_config(llama_config(), "a\nb\rc\x1b.json").text;
    CHECK(contains(text, "imported from a\\nb\\rc\\x1b.json by"));
    CHECK_FALSE(has_control_byte(text));
}

TEST_CASE("import: config text in messages is escaped and bounded",
          "[reliability][hardening][import-hardening]") {
    auto escape = import_error(R"({"architectures": ["\u001b[2J\nX"]})");
    CHECK(contains(escape, "error: unknown architecture '\\x1b[2J\\nX' (field 'architectures')"));
    CHECK_FALSE(has_control_byte(escape));
    auto config = llama_config("\n  \"hidden_act\": \"" + std::string(100000, 'g') + "\",");
    auto long_value = import_error(config);
    CHECK(contains(long_value, "error: field 'hidden_act' is '" + std::string(200, 'g') +
                                   "... (100000 bytes)'; LlamaForCausalLM is imported with 'silu' only"));
    CHECK(long_value.size() < 400);
}

TEST_CASE("import: a number out of range is an input error at its place, with a caret",
          "[reliability][hardening][import-hardening]") {
    CHECK(import_error(R"({"a": 1e400})") ==
          "config.json:1:7: error: invalid JSON: the number 1e400 is out of range (a double's "
          "largest is about 1.8e308)\n"
          "{\"a\": 1e400}\n"
          "      ^~~~~");
    CHECK(import_error("{\n  \"b\": [1, -2e999]\n}").rfind(
              "config.json:2:12: error: invalid JSON: the number -2e999 is out of range", 0) == 0);
    // Underflow is no error: 1e-400 is 0.
    CHECK_FALSE(contains(import_error(llama_config(R"("rms_norm_eps": 1e-400,)")), "invalid JSON"));

    roofline::test::Sandbox box;
    box.write("big.json", llama_config("\n  \"rope_theta\": 1e400,"));
    auto r = roofline::test::run_roofline(box.path, "import big.json");
    CHECK(r.exit_code == 1);
    CHECK(r.err.rfind("big.json:2:17: error: invalid JSON: the number 1e400 is out of range", 0) == 0);
    CHECK(contains(r.err, "\n  \"rope_theta\": 1e400,\n                ^~~~~\n"));
    CHECK_FALSE(contains(r.err, "json.exception"));
    CHECK(r.out.empty());
}

TEST_CASE("import: a key given twice, at any depth, is an error naming both places",
          "[reliability][hardening][import-hardening]") {
    CHECK(import_error("{\n  \"a\": 1,\n  \"b\": {\"c\": 1, \"c\": 2},\n  \"a\": 3\n}") ==
          "config.json:3:17: error: invalid JSON: duplicate key 'c' (first at 3:9): which one is meant?\n"
          "  \"b\": {\"c\": 1, \"c\": 2},\n"
          "                ^~~\n"
          "config.json:3:9: note: the first 'c' is here\n"
          "  \"b\": {\"c\": 1, \"c\": 2},\n"
          "        ^~~");
    CHECK(import_error(R"({"a": 1, "a": 2})").rfind(
              "config.json:1:10: error: invalid JSON: duplicate key 'a' (first at 1:2)", 0) == 0);
    // The same key however it is spelled; escaped quotes and backslashes in it.
    CHECK(import_error(R"({"a": 1, "\u0061": 2})").rfind(
              "config.json:1:10: error: invalid JSON: duplicate key 'a' (first at 1:2)", 0) == 0);
    CHECK(import_error(R"({"a\"b": 1, "a\"b": 2})").rfind(
              "config.json:1:13: error: invalid JSON: duplicate key 'a\"b' (first at 1:2)", 0) == 0);
    CHECK(import_error(R"({"a\\": 1, "a\\": 2})").rfind(
              "config.json:1:12: error: invalid JSON: duplicate key 'a\\' (first at 1:2)", 0) == 0);
    // In a list of objects, and in a real config.
    CHECK(import_error(R"({"l": [{"k": 1}, {"k": 1, "k": 2}]})").rfind(
              "config.json:1:27: error: invalid JSON: duplicate key 'k' (first at 1:19)", 0) == 0);
    CHECK(contains(import_error(llama_config("\n  \"hidden_size\": 2048,")),
                   "config.json:4:3: error: invalid JSON: duplicate key 'hidden_size' (first at 2:3)"));
    // One key in two objects is no duplicate.
    CHECK_FALSE(contains(import_error(R"({"x": {"a": 1}, "y": {"a": 2}})"), "duplicate"));
}

TEST_CASE("import: objects and lists nest at most 256 deep",
          "[reliability][hardening][import-hardening]") {
    // The root object is level 1; the 256th '[' (column 6 + 256) opens level 257.
    auto deep = "{\"a\": " + std::string(300, '[') + std::string(300, ']') + "}";
    CHECK(import_error(deep).rfind("config.json:1:262: error: invalid JSON: objects and lists nested "
                                   "too deeply (more than 256 levels)",
                                   0) == 0);
    auto fits = "{\"a\": " + std::string(255, '[') + std::string(255, ']') + "}";
    CHECK_FALSE(contains(import_error(fits), "nested"));
    // A million deep in a field whose error shows the value: one error, no crash.
    roofline::test::Sandbox box;
    box.write("deep.json", "{\"architectures\": [" + std::string(1000000, '[') +
                               std::string(1000000, ']') + "]}");
    auto r = roofline::test::run_roofline(box.path, "import deep.json");
    CHECK(r.exit_code == 1);
    CHECK(r.err.rfind("deep.json:1:274: error: invalid JSON: objects and lists nested too deeply", 0) == 0);
}

TEST_CASE("import: the config must be a regular file of at most 16 MiB",
          "[reliability][hardening][import-hardening]") {
    roofline::test::Sandbox box;
    // `timeout`: a pipe that is waited on fails the test instead of hanging it.
    auto cli = [&](std::string const& args) {
        return roofline::test::run_roofline(box.path, args, "timeout 60");
    };
    auto zero = cli("import /dev/zero");
    CHECK(zero.exit_code == 1);
    CHECK(zero.err == "roofline import: error: cannot read '/dev/zero': not a regular file (a "
                      "device, a pipe or a socket); give a file\n");

    REQUIRE(::mkfifo((box / "fifo.json").c_str(), 0600) == 0);
    auto fifo = cli("import fifo.json");
    CHECK(fifo.exit_code == 1);
    CHECK(contains(fifo.err, "cannot read 'fifo.json': not a regular file"));

    std::filesystem::create_directory(box / "folder.json");
    auto folder = cli("import folder.json");
    CHECK(folder.exit_code == 1);
    CHECK(folder.err == "roofline import: error: cannot read 'folder.json': is a directory\n");

    // 16 MiB exactly is read (and is then no model); one byte more is refused.
    std::string config = llama_config();
    auto padded = [&](std::size_t size) {
        return config.substr(0, config.size() - 1) + std::string(size - config.size(), ' ') + "}";
    };
    box.write("limit.json", padded(std::size_t{16} << 20));
    auto limit = cli("import limit.json");
    CHECK(limit.exit_code == 0);
    box.write("over.json", padded((std::size_t{16} << 20) + 1));
    auto over = cli("import over.json");
    CHECK(over.exit_code == 1);
    CHECK(over.err == "roofline import: error: cannot read 'over.json': larger than the limit of 16 MiB\n");
    CHECK(over.out.empty());

    CHECK(cli("import missing.json").exit_code == 3);
}
