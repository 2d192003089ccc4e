#include "roofline/lang/source.hpp"

#include <algorithm>

namespace roofline {

SourceFile::SourceFile(std::string path_, std::string text_)
    : path(std::move(path_)), text(std::move(text_)) {
    line_starts_.push_back(0);
    for (std::uint32_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_starts_.push_back(i + 1);
}

std::uint32_t SourceFile::line_of(std::uint32_t offset) const {
    offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text.size()));
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return static_cast<std::uint32_t>(it - line_starts_.begin());
}

SourceFile::LineCol SourceFile::line_col(std::uint32_t offset) const {
    offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text.size()));
    auto line = line_of(offset);
    std::uint32_t column = 1;
    // Characters, not bytes: UTF-8 continuation bytes do not start a character.
    for (std::uint32_t i = line_starts_[line - 1]; i < offset; ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
    return {line, column};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
    if (line == 0 || line > line_starts_.size()) return {};
    std::uint32_t begin = line_starts_[line - 1];
    std::uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1
                                                   : static_cast<std::uint32_t>(text.size());
    std::string_view view(text.data() + begin, end - begin);
    if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
    return view;
}

}  // namespace roofline
