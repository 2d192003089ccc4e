#include "hardware_columns.hpp"

#include "output/xlsx_cells.hpp"

#include <stdexcept>

namespace roofline::report {

using model::FieldKind;
using model::hardware_fields;
using model::SheetStyle;

HardwareColumns hardware_columns(std::vector<std::string> const& compute_dtype_names) {
    HardwareColumns columns;
    columns.slots = compute_dtype_names.size();
    for (auto const& field : hardware_fields()) {
        if (field.sheet == SheetStyle::none) {
            columns.first.push_back(no_column);
            continue;
        }
        columns.first.push_back(columns.headers.size());
        if (field.kind != FieldKind::per_dtype) {
            columns.headers.emplace_back(field.header);
            continue;
        }
        std::string const unit = std::string(" (").append(field.family.base).append(")");
        columns.peak0 = columns.headers.size();
        for (auto const& d : compute_dtype_names)
            columns.headers.push_back(std::string(field.header).append(" ").append(d).append(unit));
        columns.ridge0 = columns.headers.size();
        for (auto const& d : compute_dtype_names) columns.headers.push_back("ridge " + d + " (FLOP/B)");
    }
    return columns;
}

std::size_t HardwareColumns::column(std::string_view name) const {
    std::size_t c = first[model::hardware_field_index(name)];
    if (c == no_column)
        throw std::logic_error("the Hardware sheet leaves out hardware field '" + std::string(name) + "'");
    return c;
}

std::size_t formula_field(std::string_view name) {
    std::size_t index = model::hardware_field_index(name);
    if (hardware_fields()[index].sheet == SheetStyle::none)
        throw std::logic_error("a formula names hardware field '" + std::string(name) +
                               "', which the Hardware sheet leaves out");
    return index;
}

std::string const& HardwareCells::of(std::size_t field, std::size_t target, std::size_t slot) const {
    bool const per_dtype = hardware_fields()[field].kind == FieldKind::per_dtype;
    return refs[field][per_dtype ? target * slots + slot : target];
}

HardwareCells hardware_cells(HardwareColumns const& columns,
                             std::vector<model::Hardware const*> const& targets,
                             std::vector<int> const& compute_dtypes) {
    auto const fields = hardware_fields();
    HardwareCells cells;
    cells.slots = compute_dtypes.size();
    cells.refs.resize(fields.size());
    auto ref = [](std::size_t column, std::string const& row) {
        return std::string("Hardware!$").append(output::column_letters(column)).append("$").append(row);
    };
    for (std::size_t t = 0; t < targets.size(); ++t) {
        auto const& hw = *targets[t];
        std::string const row = std::to_string(t + 2);
        for (std::size_t f = 0; f < fields.size(); ++f) {
            std::size_t const c = columns.first[f];
            auto& refs = cells.refs[f];
            if (fields[f].kind == FieldKind::per_dtype) {
                for (std::size_t k = 0; k < compute_dtypes.size(); ++k)
                    refs.push_back(hw.peak_for(compute_dtypes[k]) ? ref(c + k, row) : std::string());
                continue;
            }
            bool const cell = c != no_column && fields[f].kind != FieldKind::text && model::has_field(hw, fields[f]);
            refs.push_back(cell ? ref(c, row) : std::string());
        }
    }
    return cells;
}

}  // namespace roofline::report
