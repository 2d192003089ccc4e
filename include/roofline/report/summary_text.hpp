#pragma once
// summary.txt (reports.md, "summary.txt"): the terminal tables of a version,
// what `run` printed after publishing it, kept so that `roofline show` and an
// up-to-date `run` print them again as they were, whatever the inputs have
// become since.

#include "roofline/report/manifest.hpp"

#include <stdexcept>
#include <string>

namespace roofline::report {

inline constexpr char const* summary_text_file = "summary.txt";

// The version has no summary.txt (published before roofline kept one, or
// by the library without tables), or it does not match its manifest. The
// message names the folder and says what to do.
class SummaryTextError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The text of `folder`/summary.txt, checked against the SHA-256 that
// `manifest` (the version's) lists for it, made terminal-safe (newlines
// kept). Throws SummaryTextError.
std::string read_summary_text(std::string const& folder, Manifest const& manifest);

}  // namespace roofline::report
