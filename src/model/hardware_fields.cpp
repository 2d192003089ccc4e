#include "roofline/model/hardware_fields.hpp"

#include "roofline/model/check.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace roofline::model {
namespace {

using H = Hardware;
using K = FieldKind;
using T = TerminalFormat;
using S = SheetStyle;
using Show = TerminalShow;
constexpr UnitFamily none{""};
constexpr UnitFamily bytes = UnitFamily::bytes, rate = UnitFamily::bytes_per_s,
                     seconds = UnitFamily::seconds;

// clang-format off
HardwareField const fields[] = {
    // name              kind          place                     family  header                    sheet      terminal               show
    {"id",               K::text,      &H::id,                   none,   "id",                     S::plain,  T::text,               Show::always,   {}, false},
    {"name",             K::text,      &H::display_name,         none,   "name",                   S::plain,  T::text,               Show::always,   {}, true, max_name_bytes},
    {"hbm_bandwidth",    K::quantity,  &H::hbm_bytes_per_s,      rate,   "hbm_bandwidth (B/s)",    S::sci,    T::si,                 Show::always},
    {"hbm_capacity",     K::quantity,  &H::hbm_capacity_bytes,   bytes,  "hbm_capacity (B)",       S::sci,    T::bytes_exact,        Show::always},
    {"ici_bandwidth",    K::quantity,  &H::ici_bytes_per_s,      rate,   "ici_bandwidth (B/s)",    S::sci,    T::si,                 Show::when_set},
    {"ici_wraparound",   K::count,     &H::ici_wraparound,       none,   "ici_wraparound",         S::whole,  T::count,              Show::when_set},
    {"ici_latency",      K::quantity,  &H::ici_latency_s,        seconds, {},                      S::none,   T::seconds,            Show::with, "ici_bandwidth"},
    {"nvlink_bandwidth", K::quantity,  &H::nvlink_bytes_per_s,   rate,   "nvlink_bandwidth (B/s)", S::sci,    T::si,                 Show::when_set},
    {"nvlink_domain",    K::count,     &H::nvlink_domain,        none,   "nvlink_domain",          S::whole,  T::count,              Show::when_set},
    {"nvlink_latency",   K::quantity,  &H::nvlink_latency_s,     seconds, {},                      S::none,   T::seconds,            Show::with, "nvlink_bandwidth"},
    {"dcn_bandwidth",    K::quantity,  &H::dcn_bytes_per_s,      rate,   "dcn_bandwidth (B/s)",    S::sci,    T::si,                 Show::when_set},
    {"dcn_latency",      K::quantity,  &H::dcn_latency_s,        seconds, {},                      S::none,   T::seconds,            Show::with, "dcn_bandwidth"},
    {"peak",             K::per_dtype, &H::peaks,                UnitFamily::ops_per_s, "peak",    S::sci,    T::peak_and_ridge,     Show::when_set},
    {"onchip_capacity",  K::quantity,  &H::onchip_capacity_bytes, bytes, "onchip_capacity (B)",    S::sci,    T::binary_bytes_exact, Show::when_set},
    {"onchip_bandwidth", K::quantity,  &H::onchip_bytes_per_s,   rate,   "onchip_bandwidth (B/s)", S::sci,    T::si_times_hbm,       Show::when_set},
    {"power",            K::quantity,  in_table,                 UnitFamily{"W"}, "power (W)",     S::sci,    T::si,                 Show::when_set},
    {"price",            K::quantity,  in_table,                 UnitFamily{"USD/h"}, "price (USD/h)", S::sci, T::si,                Show::when_set},
    {"extends",          K::text,      &H::base,                 none,   "extends",                S::indent, T::text,               Show::when_set, {}, false},
    {"source",           K::text,      &H::source,               none,   "source",                 S::indent, T::text,               Show::always,   {}, true, max_text_bytes},
};
// clang-format on

[[noreturn]] void wrong_place(HardwareField const& field, char const* wanted) {
    throw std::logic_error("hardware field '" + std::string(field.name) + "' is not " + wanted);
}

// The field's index in the table (its slot of Hardware::table_values).
std::size_t index_of(HardwareField const& field) {
    return static_cast<std::size_t>(&field - std::begin(fields));
}

}  // namespace

std::span<HardwareField const> hardware_fields() { return fields; }

HardwareField const* find_hardware_field(std::string_view name) {
    auto it = std::find_if(std::begin(fields), std::end(fields), [&](auto const& f) { return f.name == name; });
    return it == std::end(fields) ? nullptr : it;
}

HardwareField const& hardware_field(std::string_view name) {
    return fields[hardware_field_index(name)];
}

std::size_t hardware_field_index(std::string_view name) {
    if (auto const* field = find_hardware_field(name)) return index_of(*field);
    throw std::logic_error("no hardware field '" + std::string(name) + "'");
}

std::string const& field_text(Hardware const& hw, HardwareField const& field) {
    if (auto const* member = std::get_if<std::string H::*>(&field.place)) return hw.*(*member);
    wrong_place(field, "a text");
}

std::optional<double> field_number(Hardware const& hw, HardwareField const& field) {
    if (auto const* member = std::get_if<double H::*>(&field.place)) return hw.*(*member);
    if (auto const* member = std::get_if<std::optional<double> H::*>(&field.place)) return hw.*(*member);
    if (std::holds_alternative<InTable>(field.place)) {
        std::size_t const slot = index_of(field);
        return slot < hw.table_values.size() ? hw.table_values[slot] : std::nullopt;
    }
    wrong_place(field, "a number");
}

bool has_field(Hardware const& hw, HardwareField const& field) {
    if (std::holds_alternative<InTable>(field.place)) return field_number(hw, field).has_value();
    return std::visit(
        [&](auto member) {
            if constexpr (std::is_same_v<decltype(member), InTable>) {
                return false;
            } else {
                auto const& value = hw.*member;
                using V = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<V, double>) return true;
                else if constexpr (std::is_same_v<V, std::optional<double>>) return value.has_value();
                else return !value.empty();
            }
        },
        field.place);
}

void set_field_text(Hardware& hw, HardwareField const& field, std::string value) {
    if (auto const* member = std::get_if<std::string H::*>(&field.place)) {
        hw.*(*member) = std::move(value);
        return;
    }
    wrong_place(field, "a text");
}

void set_field_number(Hardware& hw, HardwareField const& field, double value) {
    if (auto const* member = std::get_if<double H::*>(&field.place)) hw.*(*member) = value;
    else if (auto const* optional = std::get_if<std::optional<double> H::*>(&field.place)) hw.*(*optional) = value;
    else if (std::holds_alternative<InTable>(field.place)) {
        std::size_t const slot = index_of(field);
        if (hw.table_values.size() <= slot) hw.table_values.resize(slot + 1);
        hw.table_values[slot] = value;
    } else {
        wrong_place(field, "a number");
    }
}

}  // namespace roofline::model
