// Reading the silicon-sample CSV: RFC 4180 fields, every error at its line
// and column (measured_csv.hpp).
#include "measured_csv.hpp"

#include "roofline/calibrate/predict.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace roofline::calibrate {

namespace {

char const* const required[] = {"id", "backend", "backend_version", "model_path", "system", "mode",
                                "isl", "osl", "gemm_quant_mode", "moe_quant_mode", "batch_size",
                                "tp_size", "pp_size", "attention_dp_size", "moe_tp_size", "moe_ep_size",
                                "silicon_ttft_ms", "silicon_tpot_ms"};

struct Field {
    std::string text;
    std::uint32_t column = 1;  // 1-based, of its first character
};

struct Line {
    std::vector<Field> fields;
    std::uint32_t number = 0;
    std::string text;  // the physical line, for the caret
};

[[noreturn]] void fail(std::string const& path, Line const& line, std::uint32_t column, std::string const& message) {
    std::ostringstream out;
    out << path << ':' << line.number << ':' << column << ": error: " << message << '\n';
    out << line.text << '\n' << std::string(column > 0 ? column - 1 : 0, ' ') << "^\n";
    throw MeasuredError(out.str());
}

// Splits the text into records; a quoted field may hold commas and doubled
// quotes (never a newline in this format: an unterminated quote is an error
// at its line).
std::vector<Line> split_lines(std::string const& path, std::string const& text) {
    std::vector<Line> lines;
    std::size_t at = 0;
    std::uint32_t number = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        std::string raw = text.substr(at, end - at);
        at = end + 1;
        ++number;
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        if (raw.empty()) continue;
        Line line;
        line.number = number;
        line.text = raw;
        Field field;
        bool quoted = false, was_quoted = false;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            char const c = raw[i];
            if (quoted) {
                if (c == '"' && i + 1 < raw.size() && raw[i + 1] == '"') field.text += '"', ++i;
                else if (c == '"') quoted = false;
                else field.text += c;
            } else if (c == '"' && field.text.empty() && !was_quoted) {
                quoted = was_quoted = true;
            } else if (c == ',') {
                line.fields.push_back(field);
                field = Field{{}, static_cast<std::uint32_t>(i + 2)};
                was_quoted = false;
            } else {
                field.text += c;
            }
        }
        if (quoted) fail(path, line, field.column, "a quoted field is not closed on its line");
        line.fields.push_back(field);
        lines.push_back(std::move(line));
    }
    return lines;
}

double number_at(std::string const& path, Line const& line, Field const& f, std::string const& column) {
    double value = 0;
    auto const* first = f.text.data();
    auto const* last = first + f.text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (f.text.empty() || ec != std::errc() || ptr != last || !std::isfinite(value))
        fail(path, line, f.column, "column '" + column + "' must be a number, but it is '" + f.text + "'");
    return value;
}

std::uint32_t whole_at(std::string const& path, Line const& line, Field const& f, std::string const& column,
                       bool empty_is_one) {
    if (f.text.empty() && empty_is_one) return 1;
    double v = number_at(path, line, f, column);
    if (v == 0 && empty_is_one) return 1;  // a parallel size of 0: none (the sample writes it for dense models)
    if (!(v >= 1 && v <= 1e9 && v == std::floor(v)))
        fail(path, line, f.column, "column '" + column + "' must be a positive integer, but it is '" + f.text + "'");
    return static_cast<std::uint32_t>(v);
}

}  // namespace

MeasuredFile parse_measured(std::string const& path, std::string text) {
    MeasuredFile file;
    file.path = path;
    file.text = std::move(text);
    auto lines = split_lines(path, file.text);
    if (lines.empty()) throw MeasuredError(path + ": error: the file is empty (no header row)\n");
    Line const& header = lines.front();
    std::map<std::string, std::size_t, std::less<>> index;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        if (index.count(header.fields[i].text))
            fail(path, header, header.fields[i].column, "column '" + header.fields[i].text + "' is named twice");
        index[header.fields[i].text] = i;
    }
    for (char const* name : required)
        if (!index.count(name))
            fail(path, header, 1,
                 std::string("missing column '") + name +
                     "' (the silicon-sample format: id, backend, model_path, system, mode, isl, osl, "
                     "batch_size, the parallel sizes, silicon_ttft_ms, silicon_tpot_ms, ...)");
    std::set<std::string, std::less<>> ids;
    for (std::size_t l = 1; l < lines.size(); ++l) {
        Line const& line = lines[l];
        if (line.fields.size() != header.fields.size())
            fail(path, line, line.fields.back().column,
                 "this row has " + std::to_string(line.fields.size()) + " fields, the header " +
                     std::to_string(header.fields.size()));
        MeasuredRow row;
        for (auto const& [name, i] : index) row.fields[name] = line.fields[i].text;
        auto field = [&](char const* name) -> Field const& { return line.fields[index.at(name)]; };
        auto& k = row.key;
        k.id = field("id").text;
        if (k.id.empty()) fail(path, line, field("id").column, "a row without an id");
        if (!ids.insert(k.id).second) fail(path, line, field("id").column, "id '" + k.id + "' is used by an earlier row");
        k.model = field("model_path").text;
        k.system = field("system").text;
        k.backend = field("backend").text;
        k.backend_version = field("backend_version").text;
        k.mode = field("mode").text;
        k.precision = index.count("precision") ? field("precision").text : field("moe_quant_mode").text;
        k.line = line.number;
        if (k.mode != "agg" && k.mode != "disagg")
            fail(path, line, field("mode").column, "column 'mode' must be agg or disagg, but it is '" + k.mode + "'");
        k.isl = whole_at(path, line, field("isl"), "isl", false);
        k.osl = whole_at(path, line, field("osl"), "osl", false);
        bool const agg = k.mode == "agg";
        k.batch = agg ? whole_at(path, line, field("batch_size"), "batch_size", false) : 0;
        if (agg) {
            row.tp = whole_at(path, line, field("tp_size"), "tp_size", true);
            row.pp = whole_at(path, line, field("pp_size"), "pp_size", true);
            row.dp = whole_at(path, line, field("attention_dp_size"), "attention_dp_size", true);
            row.moe_tp = whole_at(path, line, field("moe_tp_size"), "moe_tp_size", true);
            row.moe_ep = whole_at(path, line, field("moe_ep_size"), "moe_ep_size", true);
            k.layout = "tp " + std::to_string(row.tp);
            if (row.pp > 1) k.layout += " pp " + std::to_string(row.pp);
            if (row.dp > 1) k.layout += " dp " + std::to_string(row.dp);
            if (row.moe_ep > 1) k.layout += " ep " + std::to_string(row.moe_ep);
            if (row.moe_tp > 1 && row.moe_tp != row.tp) k.layout += " etp " + std::to_string(row.moe_tp);
        } else {
            auto size = [&](char const* name) {
                return index.count(name) ? field(name).text : std::string();
            };
            k.layout = "prefill " + size("prefill_num_workers") + " x tp " + size("prefill_tp_size") +
                       ", decode " + size("decode_num_workers") + " x tp " + size("decode_tp_size");
        }
        for (auto [name, out] : {std::pair{"silicon_ttft_ms", &row.ttft_s}, {"silicon_tpot_ms", &row.tpot_s}}) {
            double ms = number_at(path, line, field(name), name);
            if (!(ms > 0)) fail(path, line, field(name).column, std::string("column '") + name + "' must be positive, but it is '" + field(name).text + "'");
            *out = ms / 1000;
        }
        if (index.count("config")) row.config = field("config").text;
        file.rows.push_back(std::move(row));
    }
    return file;
}

MeasuredFile read_measured(std::string const& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw MeasuredError(path + ": error: cannot open the measured file\n");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_measured(path, text.str());
}

}  // namespace roofline::calibrate
