#include "output/csv_rows.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace roofline::output {

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

void CsvRows::text(std::string_view text) {
    if (!row_.empty()) row_ += ',';
    if (text.find_first_of(",\"\r\n=+-@") == std::string_view::npos) row_ += text;
    else row_ += csv_field(text);
}

void CsvRows::number(double value) {
    if (!row_.empty()) row_ += ',';
    if (std::isnan(value)) return;
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    row_.append(buffer, result.ptr);
}

void CsvRows::end_row() {
    row_ += "\r\n";
    if (std::fwrite(row_.data(), 1, row_.size(), out_) != row_.size())
        throw std::runtime_error(what_ + ": " + std::strerror(errno));
    row_.clear();
}

}  // namespace roofline::output
