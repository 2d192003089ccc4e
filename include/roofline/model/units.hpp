#pragma once
// Units of quantities in hardware fields. Decimal prefixes are powers of 1000,
// binary ones powers of 1024; a hardware quantity needs its unit (check_hardware.cpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::model {

// A family of units, named by the symbol of its base unit ("B", "B/s",
// "FLOP/s", "s"). The families and their units are one table in units.cpp:
// a new family (watts, dollars per hour) is a line there, and a hardware
// field names it by its symbol, UnitFamily{"W"}.
struct UnitFamily {
    std::string_view base;
    constexpr bool operator==(UnitFamily const&) const = default;
    static UnitFamily const bytes, bytes_per_s, ops_per_s, seconds;
};
inline constexpr UnitFamily UnitFamily::bytes{"B"};
inline constexpr UnitFamily UnitFamily::bytes_per_s{"B/s"};
inline constexpr UnitFamily UnitFamily::ops_per_s{"FLOP/s"};
inline constexpr UnitFamily UnitFamily::seconds{"s"};

struct Unit {
    std::string_view name;
    UnitFamily family;
    double factor;        // to base units: bytes, bytes/s, FLOP/s, seconds
    double divisor = 1;   // of a unit below the base (ms, us, ns): factor is 1
    // A value in base units: 500 ns is 500 / 1e9 = 5e-7 exactly as written,
    // which 500 * 1e-9 is not.
    double to_base(double value) const { return value * factor / divisor; }
};

std::optional<Unit> find_unit(std::string_view name);
std::vector<std::string_view> unit_names();
std::vector<std::string_view> unit_names(UnitFamily family);  // of one family, in the table's order
std::string_view family_name(UnitFamily family);  // "bytes", "bytes/s", "FLOP/s", "seconds"
bool is_unit_family(UnitFamily family);           // one of units.cpp's table

// Where a positive quantity of `family`, in base units, is outside the range
// that keeps every published figure finite and normal (limits.hpp): "from
// 0.001 B/s to 1e+30 B/s, not 1e+300 B/s", to follow "must be"; nothing
// when it is inside.
std::optional<std::string> range_problem(UnitFamily family, double base_value);

}  // namespace roofline::model
