#pragma once
// The chart models of a scenario as `run` makes them, and the mesh scenario
// of the chart tests (test_chart_mesh.cpp), by hand.
#include "roofline/report/chart_writer.hpp"

#include "command.hpp"
#include "helpers.hpp"
#include "sandbox.hpp"

#include "output/chart.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <optional>
#include <string>

namespace roofline::test::charts {

namespace fs = std::filesystem;
using test::read_file;

struct Rendered {
    std::unique_ptr<test::Checked> checked;
    test::Sandbox box;  // holds the folder
    fs::path folder;
    std::set<std::string> files;  // names in the folder
};

// Evaluates the checked scenario through the streaming pass, as `run` does,
// and renders its charts into a fresh `folder`.
inline void render(test::Checked& checked, fs::path const& folder, Rendered* out = nullptr) {
    INFO(checked.errors());
    REQUIRE_FALSE(checked.diagnostics.has_errors());
    auto grid = engine::prepare(checked.scenario, checked.diagnostics);
    REQUIRE(grid);
    report::ReportInfo info;
    info.name = "charts_test";
    report::ReportContext context{checked.scenario, *grid, info};
    report::ChartData data(context);
    report::SummaryBuilder summary(context);
    REQUIRE(engine::stream_cases(checked.scenario, *grid, checked.diagnostics,
                                 [&](engine::Case const& c) {
                                     data.add(c);
                                     summary.add(c);
                                 }));
    fs::remove_all(folder);
    report::render_charts(folder.string(), context, data, summary.summary());
    if (out) {
        out->folder = folder;
        for (auto const& entry : fs::directory_iterator(folder))
            out->files.insert(entry.path().filename().string());
    }
}

inline Rendered render_text(std::string const& text, std::string const& name) {
    Rendered r;
    r.checked = test::check_text(text);
    render(*r.checked, r.box / name, &r);
    return r;
}

// Well-formed XML (xmllint, from libxml2-utils, which make deps installs) whose
// root element is <svg>.
inline void check_svg(fs::path const& path) {
    INFO(path.string());
    auto xmllint = test::run_command("xmllint --noout --nonet " + test::quoted(path));
    INFO(xmllint.err);
    CHECK(xmllint.exit_code == 0);
    std::string text = read_file(path);
    std::size_t at = 0;
    // Skip the prolog: <?xml ...?>, comments, <!DOCTYPE ...>.
    while ((at = text.find('<', at)) != std::string::npos &&
           (text.compare(at, 2, "<?") == 0 || text.compare(at, 2, "<!") == 0))
        ++at;
    REQUIRE(at != std::string::npos);
    CHECK(text.compare(at, 5, "<svg ") == 0);
}

// The PNG signature, then the IHDR chunk with the width and height.
inline void check_png(fs::path const& path, std::uint32_t width, std::uint32_t height) {
    INFO(path.string());
    std::string bytes = read_file(path);
    REQUIRE(bytes.size() > 24);
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(bytes.compare(12, 4, "IHDR") == 0);
    auto be32 = [&](std::size_t i) {
        std::uint32_t v = 0;
        for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes[i + k]);
        return v;
    };
    CHECK(be32(16) == width);
    CHECK(be32(20) == height);
}

inline void check_files(Rendered const& r) {
    for (auto const& name : r.files) {
        if (name.ends_with(".svg")) check_svg(r.folder / name);
        if (name.ends_with(".png")) check_png(r.folder / name, 1000, 700);
    }
}

// Two ops on a chip whose NVLink is slow, tensor-parallel over TP = 2 (the
// first value) and 1, B = 100 and 1000, tokens = B.
// chip: 1e12 B/s HBM, bf16 1e14 FLOP/s, NVLink 1e10 B/s (latency 1 µs).
// up   = bf16[B, D] x bf16[D, F@tp] -> bf16[B, F@tp]: no collective.
// down = bf16[B, F@tp] x bf16[F@tp, D] -> bf16[B, D]: an AllReduce over tp
//        of V = 2 B D bytes: each chip receives 2 (N-1)/N V, in
//        2 (N-1)/N V / 1e10 s (over the 2 (N-1) µs floor here).
// D = 1000, F = 4000. At TP = 2, per chip:
//   B = 100   up    flops 2 100 1000 2000 = 4e8: 4e-6 s; bytes 2 (1e5 + 2e6) + 2 (2e5) = 4.6e6: 4.6e-6 s   memory
//             down  flops 4e8: 4e-6 s; bytes 2 (2e5 + 2e6) + 2 (1e5) = 4.6e6: 4.6e-6 s;
//                   net 2e5 B, t_net 2e5 / 1e10 = 2e-5 s                                   network
//             step 4.6e-6 + 2e-5 = 2.46e-5: compute 0, memory 4.6e-6, network 2e-5
//   B = 1000  up    flops 4e9: 4e-5 s; bytes 2 (1e6 + 2e6) + 2 (2e6) = 1e7: 1e-5 s          compute
//             down  flops 4e9: 4e-5 s; bytes 2 (2e6 + 2e6) + 2 (1e6) = 1e7: 1e-5 s;
//                   net 2e6 B, t_net 2e-4 s                                                network
//             step 4e-5 + 2e-4 = 2.4e-4: compute 4e-5, memory 0, network 2e-4
// At TP = 1 (one chip, no collective):
//   B = 100   each op flops 8e8: 8e-6 s; bytes 2 (1e5 + 4e6) + 2 (4e5) = 9e6: 9e-6 s      memory
//             step 1.8e-5
//   B = 1000  each op flops 8e9: 8e-5 s; bytes 2 (1e6 + 4e6) + 2 (4e6) = 1.8e7: 1.8e-5 s  compute
//             step 1.6e-4
// tokens/s per chip = B / step / chips:
//   TP = 2: 100 / 2.46e-5 / 2 = 2,032,520.3; 1000 / 2.4e-4 / 2 = 2,083,333.3
//   TP = 1: 100 / 1.8e-5 = 5,555,555.6;      1000 / 1.6e-4 = 6,250,000
inline std::string mesh_scenario(std::string const& mesh, std::string const& sweep_tp) {
    return R"roof(
        scenario "Two ops on a slow switch"
        hardware slow {
            hbm_bandwidth = 1e12 B/s  peak bf16 = 1e14 FLOP/s
            nvlink_bandwidth = 1e10 B/s  nvlink_domain = 8
        }
        target slow
        sweep B = [100, 1000]
        )roof" + sweep_tp + "\n" + mesh + R"roof(
        let D = 1000
        let F = 4000
        tokens = B
        matmul up = bf16[B, D] * weight bf16[D, F@tp] -> bf16[B, F@tp]
        matmul down = bf16[B, F@tp] * weight bf16[F@tp, D] -> bf16[B, D])roof";
}

// The chart models of a scenario, from the streaming pass as `run` makes them.
struct Models {
    std::unique_ptr<test::Checked> checked;
    std::optional<engine::CaseGrid> grid;
    report::ReportInfo info;
    std::unique_ptr<report::ReportContext> context;
    std::unique_ptr<report::ChartData> data;
    std::unique_ptr<report::SummaryBuilder> summary;

    explicit Models(std::string const& text) : Models(test::check_text(text)) {}
    explicit Models(std::unique_ptr<test::Checked> c) : checked(std::move(c)) {
        INFO(checked->errors());
        REQUIRE_FALSE(checked->diagnostics.has_errors());
        auto prepared = engine::prepare(checked->scenario, checked->diagnostics);
        REQUIRE(prepared);
        grid.emplace(std::move(*prepared));
        context = std::make_unique<report::ReportContext>(
            report::ReportContext{checked->scenario, *grid, info});
        data = std::make_unique<report::ChartData>(*context);
        summary = std::make_unique<report::SummaryBuilder>(*context);
        REQUIRE(engine::stream_cases(checked->scenario, *grid, checked->diagnostics,
                                     [&](engine::Case const& c) {
                                         data->add(c);
                                         summary->add(c);
                                     }));
    }
};

inline output::Series const* titled(output::Chart const& chart, std::string const& title) {
    for (auto const& s : chart.series)
        if (s.title == title) return &s;
    return nullptr;
}

}  // namespace roofline::test::charts
