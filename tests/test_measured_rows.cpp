// The measured data's models on the layouts they were measured with
// (issue 22): every published config of tests/measured/configs imports and
// checks, and one measured row per family (tests/measured/rows.csv, verbatim)
// becomes a scenario by `import` with the row's chip, layout and precision,
// runs, and holds what it holds within the chip's HBM at the row's batch and
// longest context (isl + osl). The bounds are by construction, not the
// program's output: a worker's GPUs hold at least the whole model between
// them and each at most all of it, and what one holds fits in its HBM (the
// row was served).
#include "evaluated.hpp"

#include "roofline/importer/import_config.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace roofline;

namespace {

std::string const measured = std::string(ROOFLINE_SOURCE_DIR) + "/tests/measured";

std::string read_file(std::string const& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// rows.csv: no field holds a comma inside quotes but silicon_data_source,
// which is quoted only when it has one; split honouring quotes.
std::vector<std::map<std::string, std::string>> read_rows() {
    std::istringstream in(read_file(measured + "/rows.csv"));
    auto split = [](std::string const& line) {
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (char ch : line) {
            if (ch == '"') quoted = !quoted;
            else if (ch == ',' && !quoted) fields.emplace_back();
            else if (ch != '\r') fields.back() += ch;
        }
        return fields;
    };
    std::string line;
    std::getline(in, line);
    auto header = split(line);
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto fields = split(line);
        REQUIRE(fields.size() == header.size());
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

// Replace the first `from` line prefix's line with `to`.
void replace_line(std::string& text, std::string const& from, std::string const& to) {
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, text.find('\n', at) - at, to);
}

std::optional<std::int64_t> size_of(std::string const& field) {
    if (field.empty() || field == "1" || field == "0") return std::nullopt;
    return std::stoll(field);
}

}  // namespace

TEST_CASE("measured: every published config imports and checks, decode and prefill",
          "[measured][import]") {
    int configs = 0;
    for (auto const& entry : std::filesystem::directory_iterator(measured + "/configs")) {
        auto name = entry.path().filename().string();
        if (name.find("hf_quant_config") != std::string::npos) continue;  // not a model
        for (auto mode : {model::ImportMode::decode, model::ImportMode::prefill}) {
            INFO(name);
            model::ImportOptions options;
            options.mode = mode;
            options.targets = {"b200"};
            auto imported = model::import_config(read_file(entry.path().string()), name, options);
            test::evaluated::evaluate_text(imported.text);
        }
        ++configs;
    }
    CHECK(configs == 12);
}

TEST_CASE("measured: a row of each family on its own layout fits its chip's HBM",
          "[measured][layout]") {
    auto rows = read_rows();
    REQUIRE(rows.size() == 10);
    for (auto const& row : rows) {
        INFO(row.at("id"));
        model::ImportOptions options;
        options.targets = {row.at("system")};  // the sample's name: an alias or an entry
        // The row's layout; a one-GPU row is imported on one chip.
        options.layout.tp = size_of(row.at("tp_size"));
        options.layout.dp = size_of(row.at("attention_dp_size"));
        options.layout.ep = size_of(row.at("moe_ep_size"));
        // The row's precision: the checkpoint's own quantization where the
        // config has it in that format (fp8 blocks, Kimi's int4 with a bf16
        // scale per 32), else --dtype of the experts' precision (most of the
        // weights of a MoE model).
        std::string precision = row.at("moe_quant_mode");
        auto config = read_file(measured + "/configs/" + row.at("config"));
        bool fp8_checkpoint = config.find("\"quant_method\": \"fp8\"") != std::string::npos;
        bool own = precision == "int4_wo" ||
                   ((precision == "fp8" || precision == "fp8_block") && fp8_checkpoint);
        if (!own) {
            options.weight_dtype = precision.empty() ? "bf16" : precision;
            options.weight_dtype_given = true;
        }
        auto text = model::import_config(config, row.at("config"), options).text;
        // The row's batch (requests per worker) and the longest context a
        // request reaches.
        auto batch = row.at("batch_size");
        auto context = std::stoll(row.at("isl")) + std::stoll(row.at("osl"));
        replace_line(text, "sweep B = ", "sweep B = [" + batch + "]");
        replace_line(text, "let S = ", "let S = " + std::to_string(context));
        INFO(text);
        auto r = test::evaluated::evaluate_text(text);

        // The same checkpoint on one chip: the whole model's weights.
        model::ImportOptions one = options;
        one.layout = {};
        one.targets = {"b200"};
        auto whole_text = model::import_config(config, row.at("config"), one).text;
        replace_line(whole_text, "sweep B = ", "sweep B = [" + batch + "]");
        replace_line(whole_text, "let S = ", "let S = " + std::to_string(context));
        auto whole = test::evaluated::evaluate_text(whole_text);

        double gpus = 1;
        for (auto const& field : {"tp_size", "attention_dp_size"})
            if (auto n = size_of(row.at(field))) gpus *= static_cast<double>(*n);
        auto const& facts = r->facts_at(0);
        double all = whole->facts_at(0).weight_bytes;
        CHECK(facts.weight_bytes * gpus >= all);  // the GPUs hold the model between them
        CHECK(facts.weight_bytes <= all);         // none holds more than all of it
        auto const& chip = r->scenario.hardware[static_cast<std::size_t>(r->scenario.targets[0])];
        REQUIRE(chip.hbm_capacity_bytes);
        CHECK(facts.resident_bytes() <= *chip.hbm_capacity_bytes);
    }
}
