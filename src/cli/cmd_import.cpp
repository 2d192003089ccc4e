// `roofline import CONFIG.json [-o FILE.roof] [--mode decode|prefill|both]
// [--target HW]... [--dtype WDT] [--kv-dtype KVDT] [--tp N] [--dp N] [--ep N] [--etp N]
// [--pp N] [--flash] [--request P,G] [--serve]`: a scenario from a model's Hugging Face
// config.json (model::import_config does the work; docs/import.md). The
// scenario is checked before it is written or printed.
#include "commands.hpp"
#include "options.hpp"
#include "quant_file.hpp"

#include "roofline/importer/import_config.hpp"
#include "roofline/lang/file_system.hpp"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>
#include <fstream>
#include <iostream>

namespace roofline::cli {

int cmd_import(std::vector<std::string> const& args) {
    po::options_description options("options");
    options.add_options()
        ("output,o", po::value<std::string>(), "write the scenario to FILE.roof (default: stdout); "
         "with --mode both, FILE-decode.roof and FILE-prefill.roof")
        ("mode", po::value<std::string>()->default_value("decode"), "decode, prefill or both")
        ("target", repeated(), "hardware to target (repeatable; default: h100_sxm, h200, mi300x, tpu_v5p)")
        ("dtype", po::value<std::string>()->default_value("bf16"),
         "the weights' dtype (the templates' wdt); given, it overrides the checkpoint's quantization")
        ("kv-dtype", po::value<std::string>(), "the KV cache's dtype (the templates' kvdt)")
        // ModelOpt's hf_quant_config.json (default: beside the config, below)
        ("quant", po::value<std::string>(), "the checkpoint's hf_quant_config.json (default: the one "
         "beside CONFIG, its name with config.json replaced by hf_quant_config.json)")
        ("tp", po::value<std::string>(), "tensor-parallel GPUs: heads and widths split (tp_size)")
        ("dp", po::value<std::string>(), "attention data-parallel GPUs: sequences split (attention_dp_size)")
        ("ep", po::value<std::string>(), "expert-parallel GPUs: experts split (moe_ep_size)")
        ("etp", po::value<std::string>(), "expert tensor-parallel GPUs: each expert's width split (moe_tp_size)")
        ("pp", po::value<std::string>(), "pipeline stages: the scenario is one stage (pp_size)")
        ("flash", po::bool_switch(), "use the flash-attention templates")
        ("request", po::value<std::string>(), "P,G: a request of P prompt and G generated tokens")
        ("serve", po::bool_switch(), "a serve statement (continuous batching) instead of the mode's uses")
        (include_option, repeated(), include_help);
    auto parsed = parse_options("import", args, options, {"config", 1});
    if (!parsed) return usage_error;
    if (parsed->help) return ok;
    auto const& vm = parsed->vm;

    auto const& mode = vm["mode"].as<std::string>();
    std::vector<model::ImportMode> modes;
    if (mode == "decode" || mode == "both") modes.push_back(model::ImportMode::decode);
    if (mode == "prefill" || mode == "both") modes.push_back(model::ImportMode::prefill);
    if (modes.empty()) {
        return usage_error_of("import", "--mode takes decode, prefill or both, not '" + mode + "'");
    }
    bool to_file = vm.count("output") > 0;
    if (modes.size() == 2 && !to_file) {
        return usage_error_of("import", "--mode both writes two scenarios and needs -o FILE.roof");
    }

    auto const& path = vm["config"].as<std::string>();
    // A regular file of at most max_config_bytes: a device, a pipe or a folder
    // is refused before it is read (a pipe never waited on), as scenarios are.
    std::string error;
    bool refused = false;
    auto config_text = read_regular_file(path, model::max_config_bytes, error, &refused);
    if (!config_text) {
        std::cerr << "roofline import: error: cannot read '" << path << "': " << error << "\n";
        return refused ? invalid_input : io_error;
    }

    model::ImportOptions import_options;
    // A size: a positive integer of at most 2^20 GPUs.
    auto size_of = [](std::string const& text) -> std::optional<std::int64_t> {
        if (text.empty() || text.size() > 7) return std::nullopt;
        for (char ch : text)
            if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
        auto v = std::stoll(text);
        if (v < 1 || v > (1 << 20)) return std::nullopt;
        return v;
    };
    auto& layout = import_options.layout;
    for (auto [name, field] : {std::pair{"tp", &layout.tp}, {"dp", &layout.dp}, {"ep", &layout.ep},
                               {"etp", &layout.etp}, {"pp", &layout.pp}}) {
        if (!vm.count(name)) continue;
        auto const& text = vm[name].as<std::string>();
        *field = size_of(text);
        if (!*field)
            return usage_error_of("import", std::string("--") + name + " takes a number of GPUs from 1 to "
                                  "1048576, not '" + text + "'");
    }
    import_options.flash = vm["flash"].as<bool>();
    import_options.serve = vm["serve"].as<bool>();
    if (import_options.serve && !vm["mode"].defaulted())
        return usage_error_of("import", "--serve writes one scenario (a serve statement, its decode "
                              "and prefill parts together): --mode does not go with it");
    if (vm.count("request")) {
        auto const& text = vm["request"].as<std::string>();
        auto comma = text.find(',');
        std::optional<std::int64_t> p, g;
        if (comma != std::string::npos) {
            p = size_of(text.substr(0, comma));
            g = size_of(text.substr(comma + 1));
        }
        if (!p || !g)
            return usage_error_of("import", "--request takes P,G: the prompt's and the generated "
                                  "tokens, each from 1 to 1048576, not '" + text + "'");
        if (mode != "decode" && !import_options.serve)
            return usage_error_of("import", "--request writes one scenario (its prefill and its "
                                  "decode): --mode " + mode + " does not go with it");
        import_options.request = model::ImportRequest{*p, *g};
    }
    auto const& targets = vm["target"].as<std::vector<std::string>>();
    if (!targets.empty()) import_options.targets = targets;
    import_options.weight_dtype = vm["dtype"].as<std::string>();
    import_options.weight_dtype_given = !vm["dtype"].defaulted();
    if (vm.count("kv-dtype")) import_options.kv_cache_dtype = vm["kv-dtype"].as<std::string>();
    // the quantization file: --quant, or beside the config.
    if (auto quant = quant_config_path(path, vm.count("quant") ? vm["quant"].as<std::string>() : "")) {
        auto text = read_regular_file(*quant, model::max_config_bytes, error, &refused);
        if (!text) {
            std::cerr << "roofline import: error: cannot read '" << *quant << "': " << error << "\n";
            return refused ? invalid_input : io_error;
        }
        import_options.quant_config = *text;
        import_options.quant_file = *quant;
    }
    // Names go into the scenario's text as they are: they must be names.
    auto is_name = [](std::string const& name) {
        bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
        for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
        return ok;
    };
    std::vector<std::string> names = import_options.targets;
    names.push_back(import_options.weight_dtype);
    if (!import_options.kv_cache_dtype.empty()) names.push_back(import_options.kv_cache_dtype);
    for (auto const& name : names)
        if (!is_name(name)) {
            return usage_error_of("import", "'" + name + "' is not a hardware or dtype name");
        }

    // Every scenario is made and checked before anything is written.
    std::vector<std::pair<std::string, std::string>> outputs;  // path, text
    for (auto m : modes) {
        import_options.mode = m;
        model::ImportedScenario imported;
        try {
            imported = model::import_config(*config_text, path, import_options);
        } catch (model::ImportError const& e) {
            std::cerr << e.what() << "\n";
            return invalid_input;
        }
        std::string out = "<stdout>";
        if (to_file) {
            out = vm["output"].as<std::string>();
            if (modes.size() == 2) {
                auto stem = out.size() > 5 && out.substr(out.size() - 5) == ".roof"
                                ? out.substr(0, out.size() - 5)
                                : out;
                out = stem + (m == model::ImportMode::decode ? "-decode.roof" : "-prefill.roof");
            }
        }
        // A --target or --dtype that the catalog does not know shows here,
        // at the generated line.
        // (The diagnostics point into `checked`'s program: keep it alive.)
        Diagnostics diagnostics;
        auto checked = model::load_scenario(out, imported.text, vm["include"].as<std::vector<std::string>>(),
                             {}, diagnostics);
        print_diagnostics(diagnostics);
        if (diagnostics.has_errors()) return invalid_input;
        outputs.emplace_back(out, imported.text);
    }

    for (auto const& [out, text] : outputs) {
        if (!to_file) {
            std::cout << text;
            continue;
        }
        std::ofstream file(out, std::ios::binary);
        file << text;
        file.close();
        if (!file) {
            std::cerr << "roofline import: error: cannot write '" << out << "'\n";
            return io_error;
        }
        std::cerr << "roofline import: wrote " << out << "\n";
    }
    return ok;
}

}  // namespace roofline::cli
