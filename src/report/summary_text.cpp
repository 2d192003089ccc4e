#include "roofline/report/summary_text.hpp"

#include "roofline/lang/file_system.hpp"
#include "roofline/output/sha256.hpp"
#include "roofline/output/terminal_text.hpp"

namespace roofline::report {

std::string read_summary_text(std::string const& folder, Manifest const& manifest) {
    auto const listed = manifest.output_sha256(summary_text_file);
    if (listed.empty())
        throw SummaryTextError(folder + " holds no summary.txt (published by a roofline that did "
                                        "not keep the tables); 'roofline run --force' on its "
                                        "scenario publishes a version that does");
    std::string const path = folder + "/" + summary_text_file;
    std::string error;
    // The tables are small; a file this large is not the one written.
    auto text = read_regular_file(path, max_manifest_bytes, error);
    if (!text) throw SummaryTextError(path + ": cannot be read: " + error);
    if (output::sha256_hex(*text) != listed)
        throw SummaryTextError(path + " changed since it was published (its SHA-256 is not the "
                                      "manifest's)");
    // run wrote terminal-safe text, but a version rewritten with its
    // manifest could hold anything: it is shown as text still.
    return output::terminal_safe(*text, true);
}

}  // namespace roofline::report
