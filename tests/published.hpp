#pragma once
// Checks of a published report version, shared by the run and fault tests.

#include "sandbox.hpp"

#include "roofline/output/sha256.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace roofline::test {

// Every file the version's manifest lists exists with the hash it records.
inline void check_complete(std::filesystem::path const& version) {
    INFO(version);
    REQUIRE(std::filesystem::is_regular_file(version / "manifest.json"));
    auto manifest = nlohmann::json::parse(read_file(version / "manifest.json"));
    REQUIRE(manifest["outputs"].size() >= 3);
    for (auto const& output : manifest["outputs"]) {
        auto path = version / output["path"].get<std::string>();
        INFO(path);
        REQUIRE(std::filesystem::exists(path));
        CHECK(output::sha256_file(path.string()) == output["sha256"].get<std::string>());
    }
}

}  // namespace roofline::test
