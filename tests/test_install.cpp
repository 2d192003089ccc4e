// `cmake --install` (README.md, "Install"): the binary in PREFIX/bin, the
// templates in PREFIX/share/roofline/templates, and the installed binary
// reading its templates from there, wherever the prefix is moved.
#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace roofline::test;

TEST_CASE("install: into a prefix, moved, runs a scenario on the installed templates",
          "[install]") {
    Sandbox box;
    auto build = fs::path(ROOFLINE_BINARY).parent_path();
    auto installed = run_command(std::string("cmake --install ")
                                     .append(quoted(build))
                                     .append(" --prefix ")
                                     .append(quoted(box / "prefix")));
    INFO(installed.out << installed.err);
    REQUIRE(installed.exit_code == 0);
    CHECK(fs::is_regular_file(box / "prefix/bin/roofline"));
    std::string const source_templates = std::string(ROOFLINE_SOURCE_DIR) + "/templates";
    for (auto const* file : {"hardware/catalog.roof", "hardware/nvidia.roof", "layers/dense.roof"})
        CHECK(read_file(box / "prefix/share/roofline/templates" / file) ==
              read_file(fs::path(source_templates) / file));

    // Moved after installing: the binary looks beside itself, not where it
    // was installed to nor where it was built.
    fs::rename(box / "prefix", box / "moved");
    auto binary = box / "moved/bin/roofline";
    auto templates = fs::weakly_canonical(box / "moved/share/roofline/templates");
    auto version = run_command(quoted(binary) + " --version");
    CHECK(version.exit_code == 0);
    CHECK(version.out == std::string("roofline " ROOFLINE_VERSION "\ntemplates: ") +
                             templates.string() + "\n");

    // A chip only the installed copy has, beside the shipped catalog: found
    // only if the installed folder is searched, and the catalog's files come
    // from it, not from the source tree the binary was built in.
    write_file(templates / "hardware/only_installed.roof",
               "hardware installed_chip { hbm_bandwidth = 2 TB/s  peak bf16 = 1 PFLOP/s }\n");
    fs::create_directories(box / "work");
    box.write("work/s.roof", "include \"hardware/catalog.roof\"\n"
                             "include \"hardware/only_installed.roof\"\n"
                             "target h100_sxm, installed_chip\n"
                             "let B = 8\nlet D = 64\nlet F = 32\n"
                             "matmul m = bf16[B, D] * bf16[D, F] -> bf16[B, F]\n");
    auto r = run_command(std::string("cd ")
                             .append(quoted(box / "work"))
                             .append(" && env -u ROOFLINE_PATH ")
                             .append(quoted(binary))
                             .append(" run s.roof --no-charts"));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("published out/s/v1: 2 cases", 0) == 0);  // 1 matmul x 2 targets
    auto manifest = nlohmann::json::parse(read_file(box / "work/out/s/v1/manifest.json"));
    std::size_t from_templates = 0;
    for (auto const& input : manifest["inputs"]) {
        auto source = input["source"].get<std::string>();
        INFO(source);
        CHECK(source.rfind(source_templates, 0) != 0);
        from_templates += source.rfind(templates.string() + "/hardware/", 0) == 0;
    }
    // catalog.roof, nvidia.roof, amd.roof, tpu.roof and only_installed.roof.
    CHECK(from_templates == 5);
}
