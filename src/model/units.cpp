#include "roofline/model/units.hpp"

#include <array>

namespace roofline::model {
namespace {

constexpr double kB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12, PB = 1e15;
constexpr double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;

constexpr std::array<Unit, 21> units{{
    {"B", UnitFamily::bytes, 1},
    {"KB", UnitFamily::bytes, kB},
    {"MB", UnitFamily::bytes, MB},
    {"GB", UnitFamily::bytes, GB},
    {"TB", UnitFamily::bytes, TB},
    {"KiB", UnitFamily::bytes, KiB},
    {"MiB", UnitFamily::bytes, MiB},
    {"GiB", UnitFamily::bytes, GiB},
    {"TiB", UnitFamily::bytes, TiB},
    {"B/s", UnitFamily::bytes_per_s, 1},
    {"KB/s", UnitFamily::bytes_per_s, kB},
    {"MB/s", UnitFamily::bytes_per_s, MB},
    {"GB/s", UnitFamily::bytes_per_s, GB},
    {"TB/s", UnitFamily::bytes_per_s, TB},
    {"FLOP/s", UnitFamily::ops_per_s, 1},
    {"GFLOP/s", UnitFamily::ops_per_s, GB},
    {"TFLOP/s", UnitFamily::ops_per_s, TB},
    {"PFLOP/s", UnitFamily::ops_per_s, PB},
    {"OP/s", UnitFamily::ops_per_s, 1},
    {"GOP/s", UnitFamily::ops_per_s, GB},
    {"TOP/s", UnitFamily::ops_per_s, TB},
}};
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
    }
    return "";
}

}  // namespace roofline::model
