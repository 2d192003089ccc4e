#pragma once
// Errors are data: every phase appends Diagnostics, one formatter prints them
//   file:line:col: error: message
//   <the source line>
//           ^~~~
// Messages are lower-case and quote the names they are about.

#include "roofline/lang/source.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace roofline {

enum class Severity { error, warning, note };

struct Diagnostic {
    Severity severity = Severity::error;
    Span span;  // span.file == nullptr: not about a place in a file
    std::string message;
    std::vector<Diagnostic> notes;  // printed right after, e.g. "previous definition is here"
};

class Diagnostics {
public:
    static constexpr std::size_t max_errors = 50;

    // Adds a diagnostic and returns it so that notes can be attached. Errors
    // past max_errors are counted but not kept.
    Diagnostic& error(Span span, std::string message);
    Diagnostic& warning(Span span, std::string message);
    static Diagnostic note(Span span, std::string message);

    // A note added to every error and warning until cleared: where the text
    // being checked was instantiated ("in layer 'a', an instance of ...").
    void set_context(std::optional<Diagnostic> note) { context_ = std::move(note); }

    // A phase that stops early because full() records that more errors were
    // left unreported, so that the output says so.
    void mark_truncated() { truncated_ = true; }
    bool truncated() const { return truncated_ || error_count_ > max_errors; }

    bool has_errors() const { return error_count_ > 0; }
    std::size_t error_count() const { return error_count_; }
    bool full() const { return error_count_ >= max_errors; }
    std::vector<Diagnostic> const& all() const { return list_; }

private:
    Diagnostic& add(Severity severity, Span span, std::string message);
    std::vector<Diagnostic> list_;
    // An error at one place with one message is reported once, however many
    // template instances contain that place.
    std::unordered_set<std::string> seen_;
    std::optional<Diagnostic> context_;
    Diagnostic overflow_;
    std::size_t error_count_ = 0;
    bool truncated_ = false;
};

// One diagnostic (with its notes) as text, each line ending in '\n'.
std::string format(Diagnostic const& diagnostic);
// All of them in reading order, then a "too many errors" line when errors
// past max_errors were dropped.
std::string format(Diagnostics const& diagnostics);

}  // namespace roofline
