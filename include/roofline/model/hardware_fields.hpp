#pragma once
// The hardware fields as one table: what the checker accepts (with its unit),
// where the value lives in Hardware, how `roofline hardware NAME` prints it
// and the Hardware sheet's column. A new field is one entry of
// hardware_fields.cpp (and, if it needs one, a member of Hardware).

#include "roofline/model/scenario.hpp"
#include "roofline/model/units.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace roofline::model {

// What a field holds: a string, a quantity in a unit family, a count of
// chips (a positive integer without a unit), or a quantity per dtype
// (`peak bf16 = ...`, the one per_dtype field: Hardware::peaks).
enum class FieldKind { text, quantity, count, per_dtype };

// How `roofline hardware NAME` prints the value.
enum class TerminalFormat {
    text,                // as written, "-" when empty
    si,                  // SI prefixes on the family's base unit: "3.35 TB/s"
    bytes_exact,         // "80 GB (80,000,000,000 B)"
    binary_bytes_exact,  // "128 MiB (134,217,728 B)"
    count,               // "256"
    seconds,             // "1 µs"
    si_times_hbm,        // si, then its ratio to hbm_bandwidth: "..., 12.3 x HBM"
    peak_and_ridge,      // a line per dtype: "989 TFLOP/s, ridge 295 FLOP/byte"
};

// When `roofline hardware NAME` prints the line.
enum class TerminalShow {
    always,    // "-" when the chip has no value
    when_set,  // the chip has a value
    with,      // the chip has a value of the field named `with` (a latency, with its link)
};

// The Hardware sheet's cell style; none: the sheet leaves the field out.
enum class SheetStyle { none, plain, indent, sci, whole };

// Where a field's value lives in Hardware: a member, or (in_table) the
// field's slot of Hardware::table_values, so that a new optional quantity
// needs no member.
struct InTable {};
inline constexpr InTable in_table{};
using FieldPlace = std::variant<std::string Hardware::*, double Hardware::*,
                                std::optional<double> Hardware::*, std::vector<Peak> Hardware::*,
                                InTable>;

struct HardwareField {
    std::string_view name;  // in the language, `roofline hardware` and `{hw.<name>}`
    FieldKind kind;
    FieldPlace place;
    UnitFamily family;        // of a quantity
    std::string_view header;  // in the Hardware sheet
    SheetStyle sheet;
    TerminalFormat terminal;
    TerminalShow show;
    std::string_view with = {};  // of TerminalShow::with
    bool settable = true;        // a field of a hardware block (not id, nor extends)
    std::size_t max_bytes = 0;   // of a text
};

// Every field, in the Hardware sheet's order (docs/architecture.md, "Add a
// hardware field"). The peak (per_dtype) spreads in the sheet to a peak
// column per compute dtype, then a ridge column per compute dtype.
std::span<HardwareField const> hardware_fields();

HardwareField const* find_hardware_field(std::string_view name);  // nullptr: none
HardwareField const& hardware_field(std::string_view name);       // throws std::logic_error
std::size_t hardware_field_index(std::string_view name);          // throws std::logic_error

// The value of a text field, or of a quantity or count field (nothing where
// the chip has none); whether the chip has a value (a text: not empty; the
// peak: some dtype's).
std::string const& field_text(Hardware const& hw, HardwareField const& field);
std::optional<double> field_number(Hardware const& hw, HardwareField const& field);
bool has_field(Hardware const& hw, HardwareField const& field);

void set_field_text(Hardware& hw, HardwareField const& field, std::string value);
void set_field_number(Hardware& hw, HardwareField const& field, double value);

}  // namespace roofline::model
