#pragma once
// The Hardware sheet's columns and cells, from the hardware fields table
// (model/hardware_fields.hpp): what the sheet shows, and the cells that the
// workbook's formulas name as `{hw.<field>}`.

#include "roofline/model/hardware_fields.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::report {

inline constexpr std::size_t no_column = static_cast<std::size_t>(-1);

// A column per field the sheet shows, in the table's order; the peak (the
// per_dtype field) spreads to a peak column per compute dtype, then a ridge
// column (peak / hbm_bandwidth) per compute dtype.
struct HardwareColumns {
    std::vector<std::string> headers;
    std::vector<std::size_t> first;  // per table field: its (first) column, or no_column
    std::size_t peak0 = 0, ridge0 = 0, slots = 0;

    // The column of field `name` (of the peak, the first peak column);
    // std::logic_error for a field the table lacks or the sheet leaves out.
    std::size_t column(std::string_view name) const;
};

HardwareColumns hardware_columns(std::vector<std::string> const& compute_dtype_names);

// `{hw.<name>}` in a workbook formula: the field's index in the table;
// std::logic_error for a field the table lacks or the Hardware sheet leaves out.
std::size_t formula_field(std::string_view name);

// Per field, the absolute reference of each target's cell ("Hardware!$C$2"),
// "" where the chip has no value, so that a formula falls back on the
// engine's value; the peak's per target and compute dtype slot.
struct HardwareCells {
    std::vector<std::vector<std::string>> refs;  // [field][target], the peak's [target * slots + slot]
    std::size_t slots = 0;

    std::string const& of(std::size_t field, std::size_t target, std::size_t slot) const;
};

HardwareCells hardware_cells(HardwareColumns const& columns,
                             std::vector<model::Hardware const*> const& targets,
                             std::vector<int> const& compute_dtypes);

}  // namespace roofline::report
