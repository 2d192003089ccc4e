#pragma once
// When a report or a diff was made, for its manifest. Private to the core
// library.

#include <string>

namespace roofline::output {

// Now, as ISO 8601 UTC: "2026-11-30T02:51:47Z".
std::string utc_now();

}  // namespace roofline::output
