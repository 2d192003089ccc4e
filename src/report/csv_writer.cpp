#include "roofline/report/csv_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace roofline::report {

std::string csv_field(std::string_view text) {
    bool formula_like = !text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' ||
                                          text[0] == '@');
    if (!formula_like && text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

CsvWriter::CsvWriter(std::FILE* out, ReportContext const& context) : out_(out), context_(context) {
    row_.reserve(512);
    for (char const* name : {"op", "layer", "count", "hardware", "compute_dtype"}) field(name);
    for (auto const& sweep : context.scenario.sweeps) field(sweep.name);
    for (char const* name : {"flops", "bytes_read", "bytes_written", "intensity", "peak", "ridge",
                             "t_math", "t_comms", "t_lower", "t_upper", "bound", "attained",
                             "peak_fraction"})
        field(name);
    for (auto const& sweep : context.scenario.sweeps) field("critical_" + sweep.name);
    end_row();
}

void CsvWriter::field(std::string_view text) {
    if (!row_.empty()) row_ += ',';
    if (text.find_first_of(",\"\r\n=+-@") == std::string_view::npos) row_ += text;
    else row_ += csv_field(text);
}

void CsvWriter::number(double value) {
    if (!row_.empty()) row_ += ',';
    if (std::isnan(value)) return;
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    row_.append(buffer, result.ptr);
}

void CsvWriter::end_row() {
    row_ += "\r\n";  // RFC 4180 line ends
    if (std::fwrite(row_.data(), 1, row_.size(), out_) != row_.size())
        throw std::runtime_error(std::string("cannot write cases.csv: ") + std::strerror(errno));
    row_.clear();
}

void CsvWriter::add(engine::Case const& c) {
    auto const& s = context_.scenario;
    auto const& matmul = s.ops[c.op];
    auto const& m = c.metrics;
    field(matmul.name);
    field(matmul.layer);
    number(matmul.count);
    field(context_.target(c.target).id);
    field(context_.dtype_name(matmul.compute_dtype));
    for (std::size_t v = 0; v < context_.grid.sweep_count; ++v)
        number(context_.grid.sweep_value(c, v));
    for (double value : {m.counts.flops, m.counts.bytes_read, m.counts.bytes_written, m.intensity,
                         m.peak, m.ridge, m.t_math, m.t_comms, m.t_lower, m.t_upper})
        number(value);
    field(engine::bound_name(m.bound));
    number(m.attained);
    number(m.peak_fraction);
    for (std::size_t v = 0; v < context_.grid.sweep_count; ++v)
        number(context_.grid.critical_value(c, v));
    end_row();
}

void CsvWriter::flush() {
    if (std::fflush(out_) != 0 || std::ferror(out_))
        throw std::runtime_error(std::string("cannot write cases.csv: ") + std::strerror(errno));
}

}  // namespace roofline::report
