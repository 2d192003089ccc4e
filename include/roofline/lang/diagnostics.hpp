#pragma once
// Errors are data: every phase appends Diagnostics, one formatter prints them
//   file:line:col: error: message
//   <the source line>
//           ^~~~
// Messages are lower-case and quote the names they are about.

#include "roofline/lang/source.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
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

// Where the text being checked was instantiated, when it is inside a template
// instance. Errors there are the user's to fix at their own `use` (the
// outermost one): they are reported at it, with a note at the place inside
// the template, a note per `use` in between and the values the template got.
struct InstanceContext {
    Span use;                       // the outermost `use`: the user's own line
    std::string prefix;             // "in layer 'decoder', an instance of template 'dense_decode': "
    std::string here;               // the note's text at the place inside the template
    std::vector<Diagnostic> notes;  // after it: the uses in between, then the values
    int instance = 0;               // one message is reported once per instance
};

class Diagnostics {
public:
    static constexpr std::size_t max_errors = 50;
    // Errors shown on one line of a file; the next one on it says that more
    // are not shown, and later ones there are counted but not kept.
    static constexpr std::size_t max_errors_per_line = 10;

    // Adds a diagnostic and returns it so that notes can be attached. Errors
    // past max_errors are counted but not kept.
    Diagnostic& error(Span span, std::string message);
    Diagnostic& warning(Span span, std::string message);
    static Diagnostic note(Span span, std::string message);

    // Until cleared (nullptr), errors and warnings are inside the template
    // instance this makes (see InstanceContext; nullopt: none) and reported at
    // its `use`. Made only when one is added.
    using ContextMaker = std::function<std::optional<InstanceContext>()>;
    void set_context(ContextMaker make) { make_context_ = std::move(make); }

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
    // Counts one more error shown at `shown`'s line; the count so far (0: no line).
    std::size_t count_on_line(Span shown);
    std::vector<Diagnostic> list_;
    // An error at one place with one message is reported once; inside a
    // template instance, one message once per instance (at its `use`).
    std::unordered_set<std::string> seen_;
    std::map<std::pair<SourceFile const*, std::uint32_t>, std::size_t> errors_on_line_;
    ContextMaker make_context_;
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
