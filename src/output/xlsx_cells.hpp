#pragma once
// Cell addresses and cell contents of a workbook, shared by the sheet
// writers of report.xlsx and diff.xlsx. Private to the core library.

#include <cctype>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace roofline::output {

// The letters of 0-based column `col`: "A" .. "Z", "AA", ...
std::string column_letters(std::size_t col);
// The A1-style name of a 0-based (row, col): cell_name(1, 2) is "C2".
std::string cell_name(std::size_t row, std::size_t col);
// The shortest text that reads back as `value`.
std::string shortest(double value);
// The width of UTF-8 text in characters.
double text_width(std::string_view s);

// A formula assembled in a fixed buffer: no allocation per row.
class Formula {
public:
    Formula& operator<<(std::string_view s) {
        if (size_ + s.size() >= sizeof buf_) throw std::logic_error("xlsx formula too long");
        std::memcpy(buf_ + size_, s.data(), s.size());
        size_ += s.size();
        return *this;
    }
    Formula& operator<<(char c) { return *this << std::string_view(&c, 1); }
    void clear() { size_ = 0; }
    std::string_view view() const { return {buf_, size_}; }
    char const* c_str() {
        buf_[size_] = '\0';
        return buf_;
    }

private:
    char buf_[1024];  // a critical_V formula takes about 500
    std::size_t size_ = 0;
};

// Excel's limit on the text of one cell, in characters.
inline constexpr std::size_t max_cell_chars = 32'767;

// A string as a cell must hold it: Excel reads _xHHHH_ in cell text as an
// escaped character, so control characters (which XML 1.0 cannot hold) take
// that form (U+FFFE and U+FFFF too), a byte that is not UTF-8 becomes U+FFFD,
// and a literal "_x0041_" keeps its underscore as _x005F_. Text
// longer than max_cell_chars (escapes counted) is cut to fit, with a visible
// "… (N characters)" at the end, N the length of the whole text: a cell
// never makes a workbook fail (the CSV and the manifest keep it whole).
std::string cell_text(std::string_view s);

// Text from a scenario or a report as XML 1.0 can hold it, for what
// libxlsxwriter writes without the _xHHHH_ escapes of cells (chart titles,
// document properties): the characters XML forbids (controls other than tab,
// newline and carriage return, U+FFFE, U+FFFF) and bytes that are not UTF-8
// become U+FFFD. Any other text is returned as it is.
std::string xml_safe_text(std::string_view s);

// XML text content: &, < and > as entities.
std::string xml_escape(std::string_view s);

// A string cell's content: as the API takes it (libxlsxwriter adds the XML
// entities) and as the inline-string XML of the direct rows.
struct Text {
    std::string api, escaped, xml;
    Text() = default;
    explicit Text(std::string_view raw) : api(cell_text(raw)), escaped(xml_escape(api)) {
        bool preserve = !raw.empty() && (std::isspace(static_cast<unsigned char>(raw.front())) ||
                                         std::isspace(static_cast<unsigned char>(raw.back())));
        xml = std::string(" t=\"inlineStr\"><is><t") + (preserve ? " xml:space=\"preserve\"" : "") +
              ">" + escaped + "</t></is></c>";
    }
};

}  // namespace roofline::output
