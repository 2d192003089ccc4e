#include "roofline/lang/diagnostics.hpp"

#include <algorithm>
#include <cstdint>

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
// a diagnostic about binary junk cannot corrupt the terminal; long lines are
// cut to a window around the caret. Returns the shown text and the caret's
// character column inside it.
struct ShownLine {
    std::string text;
    std::size_t caret_column = 0;  // 0-based, in characters
    std::size_t caret_length = 1;
};

ShownLine show_line(std::string_view line, std::size_t column, std::size_t length) {
    std::vector<std::string> chars;  // one entry per character
    for (std::size_t i = 0; i < line.size();) {
        auto byte = static_cast<unsigned char>(line[i]);
        std::size_t n = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3
                                       : (byte >> 3) == 0x1E ? 4 : 0;
        bool valid = n > 0 && i + n <= line.size();
        for (std::size_t k = 1; valid && k < n; ++k)
            valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
        if (!valid) {
            chars.emplace_back("?");
            ++i;
        } else if (n == 1 && byte < 0x20 && byte != '\t') {
            chars.emplace_back("?");
            ++i;
        } else {
            chars.emplace_back(line.substr(i, n));
            i += n;
        }
    }
    constexpr std::size_t window = 120;
    std::size_t begin = 0, end = chars.size();
    if (chars.size() > window) {
        begin = column > window / 2 ? column - window / 2 : 0;
        end = std::min(chars.size(), begin + window);
    }
    ShownLine shown;
    if (begin > 0) shown.text += "...";
    for (std::size_t i = begin; i < end; ++i) shown.text += chars[i];
    if (end < chars.size()) shown.text += "...";
    shown.caret_column = column - begin + (begin > 0 ? 3 : 0);
    std::size_t room = column < end ? end - column : 1;
    shown.caret_length = std::max<std::size_t>(1, std::min(length, room));
    // Tabs in the line keep their width under the caret.
    std::string indent;
    std::size_t seen = 0;
    for (std::size_t i = begin; i < chars.size() && seen < column - begin; ++i, ++seen)
        indent += chars[i] == "\t" ? '\t' : ' ';
    shown.text += '\n';
    shown.text += (begin > 0 ? std::string("   ") : std::string()) + indent;
    return shown;
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
        // The caret covers the span's characters, up to the end of its first line.
        auto end = file.line_col(d.span.offset + d.span.length);
        std::size_t length = end.line == where.line && end.column > where.column
                                 ? end.column - where.column
                                 : std::size_t{1};
        auto shown = show_line(file.line_text(where.line), where.column - 1, length);
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
