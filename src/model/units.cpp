#include "roofline/model/units.hpp"

#include "roofline/model/expr.hpp"
#include "roofline/model/limits.hpp"

#include <stdexcept>

namespace roofline::model {
namespace {

constexpr double kB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12, PB = 1e15;
constexpr double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;

// A unit of a family: its factor (and divisor) to the family's base unit.
struct Scale {
    std::string_view name;
    double factor;
    double divisor = 1;
};

// One entry per family: the base unit's symbol (the family's key), its name
// in diagnostics ("'x' is in bytes/s, but ..."), the range of a value in base
// units, and its units. A new family is one more entry.
struct Family {
    std::string_view base, name;
    double low, high;
    std::vector<Scale> units;
};

std::vector<Family> const& families() {
    // clang-format off
    static std::vector<Family> const table = {
        {"B", "bytes", min_rate, max_rate, {{"B", 1}, {"KB", kB}, {"MB", MB}, {"GB", GB}, {"TB", TB},
                                            {"KiB", KiB}, {"MiB", MiB}, {"GiB", GiB}, {"TiB", TiB}}},
        {"B/s", "bytes/s", min_rate, max_rate, {{"B/s", 1}, {"KB/s", kB}, {"MB/s", MB}, {"GB/s", GB}, {"TB/s", TB}}},
        {"FLOP/s", "FLOP/s", min_rate, max_rate, {{"FLOP/s", 1}, {"GFLOP/s", GB}, {"TFLOP/s", TB}, {"PFLOP/s", PB},
                                                  {"OP/s", 1}, {"GOP/s", GB}, {"TOP/s", TB}, {"POP/s", PB}}},
        {"s", "seconds", min_seconds, max_seconds, {{"s", 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}}},
        {"W", "watts", min_rate, max_rate, {{"W", 1}, {"kW", kB}}},
        // A chip's price per hour (the hardware field `price`), in US dollars.
        {"USD/h", "US dollars per hour", min_rate, max_rate, {{"USD/h", 1}}},
    };
    // clang-format on
    return table;
}

Family const* find_family(UnitFamily family) {
    for (auto const& f : families())
        if (f.base == family.base) return &f;
    return nullptr;
}

Family const& family_of(UnitFamily family) {
    if (auto const* f = find_family(family)) return *f;
    throw std::logic_error("no unit family '" + std::string(family.base) + "'");
}

}  // namespace

std::optional<Unit> find_unit(std::string_view name) {
    for (auto const& family : families())
        for (auto const& unit : family.units)
            if (unit.name == name) return Unit{unit.name, {family.base}, unit.factor, unit.divisor};
    return std::nullopt;
}

std::vector<std::string_view> unit_names() {
    std::vector<std::string_view> names;
    for (auto const& family : families())
        for (auto const& unit : family.units) names.push_back(unit.name);
    return names;
}

std::vector<std::string_view> unit_names(UnitFamily family) {
    std::vector<std::string_view> names;
    for (auto const& unit : family_of(family).units) names.push_back(unit.name);
    return names;
}

std::string_view family_name(UnitFamily family) { return family_of(family).name; }

bool is_unit_family(UnitFamily family) { return find_family(family) != nullptr; }

std::optional<std::string> range_problem(UnitFamily family, double base_value) {
    auto const& f = family_of(family);
    if (base_value >= f.low && base_value <= f.high) return std::nullopt;
    std::string unit = std::string(" ").append(f.base);
    return "from " + format_number(f.low) + unit + " to " + format_number(f.high) + unit + ", not " +
           format_number(base_value) + unit;
}

}  // namespace roofline::model
