#pragma once
// Where the shipped templates (hardware catalog, layer templates) are read
// from: the installed copy beside the binary (<prefix>/bin/roofline ->
// <prefix>/share/roofline/templates) when there is one, else the templates/
// folder of the source tree the binary was built from.

#include <string>

namespace roofline {

std::string templates_dir();

}  // namespace roofline
