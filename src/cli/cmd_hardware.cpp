// `roofline hardware [NAME]`: the shipped catalog, or one chip in full.
#include <cmath>
#include "commands.hpp"
#include "options.hpp"

#include "roofline/cli/format.hpp"
#include "roofline/model/hardware_fields.hpp"
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

// A field's value as `roofline hardware NAME` prints it.
std::string field_value(model::Hardware const& hw, model::HardwareField const& field) {
    using T = model::TerminalFormat;
    if (field.kind == model::FieldKind::text) {
        auto const& text = model::field_text(hw, field);
        return text.empty() ? "-" : text;
    }
    auto value = model::field_number(hw, field);
    if (!value) return "-";
    std::string const unit(field.family.base);
    switch (field.terminal) {
        case T::si: return output::format_si(*value, unit);
        case T::si_times_hbm:
            return output::format_si(*value, unit) + ", " +
                   format_general(*value / hw.hbm_bytes_per_s) + " x HBM";
        case T::bytes_exact: return format_bytes(*value) + " (" + output::format_thousands(*value) + " B)";
        case T::binary_bytes_exact:
            return format_binary_bytes(*value) + " (" + output::format_thousands(*value) + " B)";
        case T::count: return format_count(*value);
        case T::seconds: return format_seconds(*value);
        case T::text:
        case T::peak_and_ridge: break;
    }
    return format_general(*value);
}

// A line per dtype: "peak bf16  989 TFLOP/s, ridge 295 FLOP/byte".
void add_peaks(model::Scenario const& s, model::Hardware const& hw,
               model::HardwareField const& field, std::vector<std::vector<std::string>>& rows) {
    for (auto const& p : hw.peaks) {
        auto const& dtype = s.dtypes[static_cast<std::size_t>(p.dtype)].name;
        rows.push_back({std::string(field.name).append(" ").append(dtype),
                        output::format_si(p.flops_per_s, std::string(field.family.base)) + ", ridge " +
                            format_general(p.flops_per_s / hw.hbm_bytes_per_s) + " FLOP/byte"});
    }
}

// The fields in the table's order, each where the chip has it (a latency
// with its link's bandwidth: every chip has the default latencies); the
// peaks, long lines, after the others but the last (the source).
void print_one(model::Scenario const& s, model::Hardware const& hw) {
    using Show = model::TerminalShow;
    auto const fields = model::hardware_fields();
    std::vector<std::vector<std::string>> rows;
    model::HardwareField const* peaks = nullptr;
    for (auto const& field : fields) {
        if (&field == &fields.back() && peaks) add_peaks(s, hw, *peaks, rows);
        if (field.kind == model::FieldKind::per_dtype) {
            peaks = &field;
            continue;
        }
        bool const shown = field.show == Show::always ||
                           model::has_field(hw, field.show == Show::with ? model::hardware_field(field.with)
                                                                          : field);
        if (shown) rows.push_back({std::string(field.name), field_value(hw, field)});
    }
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
            std::cerr << "roofline: error: unknown hardware '" << name << "'"
                      << did_you_mean(name, s.hardware_names()) << "\n";
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
    // The other names of the entries (`alias NAME = HW`), as `NAME = HW`.
    std::string aliases;
    for (auto const& [alias, id] : s.hardware_aliases)
        aliases.append(aliases.empty() ? "aliases: " : ", ").append(alias).append(" = ").append(id);
    if (!aliases.empty()) std::cout << aliases << "\n";
    return ok;
}

}  // namespace roofline::cli
