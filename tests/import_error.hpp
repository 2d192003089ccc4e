#pragma once
// The message model::import_config throws for a config, for the import tests.

#include "roofline/importer/import_config.hpp"

#include <string>

namespace roofline::test {

// The whole message import_config throws for `config`, read as
// "config.json" ("" if it does not throw).
inline std::string import_error(std::string const& config, model::ImportOptions const& options = {}) {
    try {
        model::import_config(config, "config.json", options);
    } catch (model::ImportError const& e) {
        return e.what();
    }
    return "";
}

}  // namespace roofline::test
