#include "roofline/model/units.hpp"

#include "roofline/model/expr.hpp"
#include "roofline/model/limits.hpp"

#include <array>

namespace roofline::model {
namespace {

constexpr double kB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12, PB = 1e15;
constexpr double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;

using F = UnitFamily;
// clang-format off
constexpr std::array<Unit, 25> units{{
    {"B", F::bytes, 1}, {"KB", F::bytes, kB}, {"MB", F::bytes, MB}, {"GB", F::bytes, GB},
    {"TB", F::bytes, TB},
    {"KiB", F::bytes, KiB}, {"MiB", F::bytes, MiB}, {"GiB", F::bytes, GiB}, {"TiB", F::bytes, TiB},
    {"B/s", F::bytes_per_s, 1}, {"KB/s", F::bytes_per_s, kB}, {"MB/s", F::bytes_per_s, MB},
    {"GB/s", F::bytes_per_s, GB}, {"TB/s", F::bytes_per_s, TB},
    {"FLOP/s", F::ops_per_s, 1}, {"GFLOP/s", F::ops_per_s, GB}, {"TFLOP/s", F::ops_per_s, TB},
    {"PFLOP/s", F::ops_per_s, PB},
    {"OP/s", F::ops_per_s, 1}, {"GOP/s", F::ops_per_s, GB}, {"TOP/s", F::ops_per_s, TB},
    {"s", F::seconds, 1}, {"ms", F::seconds, 1, 1e3}, {"us", F::seconds, 1, 1e6}, {"ns", F::seconds, 1, 1e9},
}};
// clang-format on
constexpr Unit pops{"POP/s", UnitFamily::ops_per_s, PB};

}  // namespace

std::optional<Unit> find_unit(std::string_view name) {
    for (auto const& unit : units)
        if (unit.name == name) return unit;
    if (name == pops.name) return pops;
    return std::nullopt;
}

std::vector<std::string_view> unit_names() {
    std::vector<std::string_view> names;
    for (auto const& unit : units) names.push_back(unit.name);
    names.push_back(pops.name);
    return names;
}

std::string_view family_name(UnitFamily family) {
    switch (family) {
        case UnitFamily::bytes: return "bytes";
        case UnitFamily::bytes_per_s: return "bytes/s";
        case UnitFamily::ops_per_s: return "FLOP/s";
        case UnitFamily::seconds: return "seconds";
    }
    return "";
}

std::optional<std::string> range_problem(UnitFamily family, double base_value) {
    bool const time = family == UnitFamily::seconds;
    double const low = time ? min_seconds : min_rate, high = time ? max_seconds : max_rate;
    if (base_value >= low && base_value <= high) return std::nullopt;
    std::string unit = family == UnitFamily::bytes         ? " B"
                       : family == UnitFamily::bytes_per_s ? " B/s"
                       : family == UnitFamily::ops_per_s   ? " FLOP/s"
                                                           : " s";
    return "from " + format_number(low) + unit + " to " + format_number(high) + unit + ", not " +
           format_number(base_value) + unit;
}

}  // namespace roofline::model
