#pragma once
// Units of quantities in hardware fields. Decimal prefixes are powers of 1000,
// binary ones powers of 1024; a bare number is in base units.

#include <optional>
#include <string_view>
#include <vector>

namespace roofline::model {

enum class UnitFamily { bytes, bytes_per_s, ops_per_s };

struct Unit {
    std::string_view name;
    UnitFamily family;
    double factor;  // to base units: bytes, bytes/s, FLOP/s
};

std::optional<Unit> find_unit(std::string_view name);
std::vector<std::string_view> unit_names();
std::string_view family_name(UnitFamily family);  // "bytes", "bytes/s", "FLOP/s"

}  // namespace roofline::model
