#include "roofline/lang/diagnostics.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace roofline {

Diagnostic& Diagnostics::add(Severity severity, Span span, std::string message) {
    std::optional<InstanceContext> context;
    if (make_context_) context = make_context_();
    // Once per place and message (a template's own mistake shows in its
    // first instance only), and inside an instance once per message (G = 5.6
    // is one mistake, however many operands use G).
    std::string place = span.file ? std::to_string(reinterpret_cast<std::uintptr_t>(span.file)) +
                                        ":" + std::to_string(span.offset) + ":" +
                                        std::to_string(span.length) + ":" + message
                                  : std::string();
    std::string instance = context ? std::string("instance ")
                                          .append(std::to_string(context->instance))
                                          .append(":")
                                          .append(message)
                                    : std::string();
    if ((!place.empty() && seen_.count(place)) || (!instance.empty() && seen_.count(instance))) {
        overflow_ = Diagnostic{};
        return overflow_;
    }
    if (!place.empty()) seen_.insert(std::move(place));
    if (!instance.empty()) seen_.insert(std::move(instance));
    if (severity == Severity::error) {
        ++error_count_;
        if (error_count_ > max_errors) {
            overflow_ = Diagnostic{};
            return overflow_;
        }
        // A line with many errors (junk, or a line of megabytes) gets one
        // summary instead of the rest: each shown error costs its line's length.
        Span shown = context ? context->use : span;
        std::size_t on_line = count_on_line(shown);
        if (on_line > max_errors_per_line) {
            if (on_line == max_errors_per_line + 1)
                list_.push_back(Diagnostic{severity, shown,
                                           "more errors on this line are not shown (at most " +
                                               std::to_string(max_errors_per_line) + " a line)",
                                           {}});
            overflow_ = Diagnostic{};
            return overflow_;
        }
    }
    if (!context) {
        list_.push_back(Diagnostic{severity, span, std::move(message), {}});
        return list_.back();
    }
    auto& d = list_.emplace_back(
        Diagnostic{severity, context->use, context->prefix + message, {}});
    if (span.file) d.notes.push_back(note(span, context->here));
    d.notes.insert(d.notes.end(), context->notes.begin(), context->notes.end());
    return d;
}

std::size_t Diagnostics::count_on_line(Span shown) {
    if (!shown.file) return 0;
    return ++errors_on_line_[{shown.file, shown.file->line_of(shown.offset)}];
}

Diagnostic& Diagnostics::error(Span span, std::string message) {
    return add(Severity::error, span, std::move(message));
}

Diagnostic& Diagnostics::warning(Span span, std::string message) {
    return add(Severity::warning, span, std::move(message));
}

Diagnostic Diagnostics::note(Span span, std::string message) {
    return Diagnostic{Severity::note, span, std::move(message), {}};
}

namespace {

char const* severity_name(Severity severity) {
    switch (severity) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::note: return "note";
    }
    return "error";
}

// The source line as shown: control bytes and broken UTF-8 become '?', so that
// a diagnostic about binary junk cannot corrupt the terminal; a line longer
// than `window` characters is cut to `window` of them around the caret,
// marked "...". Only that window is read, so a line of megabytes costs no more
// than a short one.
constexpr std::size_t window = 120;

struct ShownLine {
    std::string text;  // the line, '\n', and the indent of the caret
    std::size_t caret_length = 1;
};

bool starts_character(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) != 0x80; }

// The bytes of the character at `i` as shown, and how many bytes it takes.
std::pair<std::string_view, std::size_t> shown_character(std::string_view line, std::size_t i) {
    auto byte = static_cast<unsigned char>(line[i]);
    std::size_t n = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3
                                 : (byte >> 3) == 0x1E ? 4 : 0;
    bool valid = n > 0 && i + n <= line.size();
    for (std::size_t k = 1; valid && k < n; ++k) valid = !starts_character(line[i + k]);
    if (!valid || (n == 1 && byte < 0x20 && byte != '\t')) return {"?", 1};
    return {line.substr(i, n), n};
}

// Characters (as SourceFile::line_col counts them) in `text`, counted up to `cap`.
std::size_t characters(std::string_view text, std::size_t cap) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < text.size() && n < cap; ++i) n += starts_character(text[i]);
    return n;
}

// `at`: the caret's byte in `line`; `column`: its character (0-based);
// `length`: the characters under the caret.
ShownLine show_line(std::string_view line, std::size_t at, std::size_t column, std::size_t length) {
    at = std::min(at, line.size());
    bool long_line = column + characters(line.substr(at), window + 1) > window;
    std::size_t begin = long_line && column > window / 2 ? column - window / 2 : 0;
    // The byte of character `begin`: back from the caret over column - begin characters.
    std::size_t from = at;
    for (std::size_t back = column - begin; back > 0 && from > 0;)
        if (starts_character(line[--from])) --back;
    if (begin == 0) from = 0;
    std::string chars, indent;
    std::size_t count = 0, i = from;
    for (; i < line.size() && (!long_line || count < window); ++count) {
        auto [shown, bytes] = shown_character(line, i);
        chars += shown;
        // Tabs in the line keep their width under the caret.
        if (count < column - begin) indent += shown == "\t" ? '\t' : ' ';
        i += bytes;
    }
    ShownLine result;
    if (begin > 0) result.text += "...";
    result.text += chars;
    if (i < line.size()) result.text += "...";
    std::size_t end = begin + count;
    std::size_t room = column < end ? end - column : 1;
    result.caret_length = std::max<std::size_t>(1, std::min(length, room));
    result.text += '\n';
    result.text += (begin > 0 ? std::string("   ") : std::string()) + indent;
    return result;
}

// The characters under the caret: the span's, when it ends on its first line
// (counted up to the window, all that can be shown), else 1.
std::size_t caret_characters(SourceFile const& file, Span span) {
    std::size_t size = file.text.size();
    std::size_t offset = std::min<std::size_t>(span.offset, size);
    std::size_t end = std::min<std::size_t>(offset + span.length, size);
    std::size_t line_end = file.text.find('\n', offset);
    if (line_end != std::string::npos && end > line_end) return 1;
    return std::max<std::size_t>(
        1, characters(std::string_view(file.text).substr(offset, end - offset), window + 1));
}

void append(std::string& out, Diagnostic const& d) {
    if (d.span.file == nullptr) {
        out += "roofline: ";
        out += severity_name(d.severity);
        out += ": " + d.message + "\n";
    } else {
        auto const& file = *d.span.file;
        auto where = file.line_col(d.span.offset);
        out += file.path + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
               ": " + severity_name(d.severity) + ": " + d.message + "\n";
        auto line = file.line_text(where.line);
        std::size_t at = std::min<std::size_t>(d.span.offset, file.text.size()) -
                         static_cast<std::size_t>(line.data() - file.text.data());
        auto shown = show_line(line, at, where.column - 1, caret_characters(file, d.span));
        out += shown.text + "^" + std::string(shown.caret_length - 1, '~') + "\n";
    }
    for (auto const& n : d.notes) append(out, n);
}

}  // namespace

std::string format(Diagnostic const& diagnostic) {
    std::string out;
    append(out, diagnostic);
    return out;
}

std::string format(Diagnostics const& diagnostics) {
    // In reading order: each file's diagnostics by position, files in the
    // order they first appear; diagnostics without a place come first.
    std::vector<Diagnostic const*> sorted;
    std::vector<SourceFile const*> files;
    for (auto const& d : diagnostics.all()) {
        sorted.push_back(&d);
        if (d.span.file && std::find(files.begin(), files.end(), d.span.file) == files.end())
            files.push_back(d.span.file);
    }
    auto key = [&](Diagnostic const* d) {
        std::size_t file = d->span.file ? 1 + static_cast<std::size_t>(
                                                  std::find(files.begin(), files.end(), d->span.file) -
                                                  files.begin())
                                        : 0;
        return std::pair{file, d->span.offset};
    };
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](auto const* a, auto const* b) { return key(a) < key(b); });
    std::string out;
    for (auto const* d : sorted) append(out, *d);
    if (diagnostics.truncated())
        out += "roofline: error: too many errors; only the first " +
               std::to_string(Diagnostics::max_errors) + " are shown\n";
    return out;
}

}  // namespace roofline
