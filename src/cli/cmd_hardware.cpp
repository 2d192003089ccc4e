// `roofline hardware [NAME]`: the shipped catalog, or one chip in full.
#include <cmath>
#include "commands.hpp"
#include "options.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/lang/suggest.hpp"

#include <iostream>

namespace roofline::cli {
namespace {

std::string peaks_text(model::Scenario const& s, model::Hardware const& hw) {
    std::string text;
    for (auto const& p : hw.peaks)
        text.append(text.empty() ? "" : "  ")
            .append(s.dtypes[static_cast<std::size_t>(p.dtype)].name)
            .append("=")
            .append(output::format_si_count(p.flops_per_s, ""));
    return text;
}

// On-chip memories come in KiB and MiB: "128 MiB", "30096 KiB".
std::string format_binary_bytes(double value) {
    for (auto [unit, name] : {std::pair{1024.0 * 1024 * 1024, "GiB"}, std::pair{1024.0 * 1024, "MiB"},
                              std::pair{1024.0, "KiB"}})
        if (value >= unit && std::fmod(value, unit) == 0) return format_count(value / unit) + " " + name;
    return format_bytes(value);
}

void print_one(model::Scenario const& s, model::Hardware const& hw) {
    std::vector<std::vector<std::string>> rows = {
        {"id", hw.id},
        {"name", hw.display_name},
        {"hbm_bandwidth", output::format_si(hw.hbm_bytes_per_s, "B/s")},
        {"hbm_capacity", hw.hbm_capacity_bytes
                             ? format_bytes(*hw.hbm_capacity_bytes) + " (" +
                                   output::format_thousands(*hw.hbm_capacity_bytes) + " B)"
                             : "-"},
    };
    // The interconnect fields the chip has, a latency with its link's
    // bandwidth (every chip has the default latencies).
    if (hw.ici_bytes_per_s)
        rows.push_back({"ici_bandwidth", output::format_si(*hw.ici_bytes_per_s, "B/s")});
    if (hw.ici_wraparound) rows.push_back({"ici_wraparound", format_count(*hw.ici_wraparound)});
    if (hw.ici_bytes_per_s) rows.push_back({"ici_latency", format_seconds(hw.ici_latency_s)});
    if (hw.nvlink_bytes_per_s)
        rows.push_back({"nvlink_bandwidth", output::format_si(*hw.nvlink_bytes_per_s, "B/s")});
    if (hw.nvlink_domain) rows.push_back({"nvlink_domain", format_count(*hw.nvlink_domain)});
    if (hw.nvlink_bytes_per_s) rows.push_back({"nvlink_latency", format_seconds(hw.nvlink_latency_s)});
    if (hw.dcn_bytes_per_s) {
        rows.push_back({"dcn_bandwidth", output::format_si(*hw.dcn_bytes_per_s, "B/s")});
        rows.push_back({"dcn_latency", format_seconds(hw.dcn_latency_s)});
    }
    if (hw.onchip_capacity_bytes)
        rows.push_back({"onchip_capacity", format_binary_bytes(*hw.onchip_capacity_bytes) + " (" +
                                               output::format_thousands(*hw.onchip_capacity_bytes) +
                                               " B)"});
    if (hw.onchip_bytes_per_s)
        rows.push_back({"onchip_bandwidth",
                        output::format_si(*hw.onchip_bytes_per_s, "B/s") + ", " +
                            format_general(*hw.onchip_bytes_per_s / hw.hbm_bytes_per_s) +
                            " x HBM"});
    if (!hw.base.empty()) rows.push_back({"extends", hw.base});
    for (auto const& p : hw.peaks) {
        auto const& dtype = s.dtypes[static_cast<std::size_t>(p.dtype)].name;
        rows.push_back({"peak " + dtype, output::format_si(p.flops_per_s, "FLOP/s") + ", ridge " +
                                             format_general(p.flops_per_s / hw.hbm_bytes_per_s) +
                                             " FLOP/byte"});
    }
    rows.push_back({"source", hw.source.empty() ? "-" : hw.source});
    std::cout << render_table(rows, {false, false});
}

}  // namespace

int cmd_hardware(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        (include_option, repeated(), include_help);
    auto parsed = parse_options("hardware", args, options, {"name", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;

    Diagnostics diagnostics;
    auto checked = model::load_scenario("<catalog>", "include \"hardware/catalog.roof\"\n",
                                  parsed->vm["include"].as<std::vector<std::string>>(), {},
                                  diagnostics);
    print_diagnostics(diagnostics);
    if (diagnostics.has_errors()) return invalid_input;
    auto const& s = checked.scenario;

    if (parsed->vm.count("name")) {
        auto const& name = parsed->vm["name"].as<std::string>();
        int index = s.find_hardware(name);
        if (index < 0) {
            std::vector<std::string_view> names;
            for (auto const& hw : s.hardware) names.push_back(hw.id);
            std::cerr << "roofline: error: unknown hardware '" << name << "'"
                      << did_you_mean(name, names) << "\n";
            return invalid_input;
        }
        print_one(s, s.hardware[static_cast<std::size_t>(index)]);
        return ok;
    }
    std::vector<std::vector<std::string>> rows = {
        {"id", "name", "hbm bandwidth", "hbm capacity", "peaks (FLOP/s or OP/s)"}};
    for (auto const& hw : s.hardware)
        rows.push_back({hw.id, hw.display_name, output::format_si(hw.hbm_bytes_per_s, "B/s"),
                        hw.hbm_capacity_bytes ? format_bytes(*hw.hbm_capacity_bytes) : "-",
                        peaks_text(s, hw)});
    std::cout << render_table(rows, {false, false, true, true, false});
    return ok;
}

}  // namespace roofline::cli
