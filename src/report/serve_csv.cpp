#include "serve_csv.hpp"

#include "roofline/report/serve_columns.hpp"

#include "output/csv_rows.hpp"
#include "output/written_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace roofline::report {

namespace {

using File = output::WrittenFile;

}  // namespace

void write_serve_csv(std::string const& path, ReportContext const& context) {
    File file = output::create_file(path);
    auto const columns = serve_columns(context.scenario);
    output::CsvRows rows(file.get(), "cannot write serve.csv");
    for (auto const& column : columns) rows.text(column.csv);
    rows.end_row();
    if (context.serve) {
        for (auto const& r : *context.serve) {
            ServeRow const row{context, r};
            for (auto const& column : columns) {
                if (serve_is_text(column, row)) rows.text(column.spec->text(row, column.index));
                else rows.number(column.spec->number(row, column.index));
            }
            rows.end_row();
        }
    }
    output::finish_file(file, path);
}

void write_fleet_csv(std::string const& path, ReportContext const& context) {
    File file = output::create_file(path);
    std::vector<FleetColumn> columns;
    for (auto& column : fleet_columns(context.scenario))
        if (column.spec->per_sweep || !column.csv.empty()) columns.push_back(std::move(column));
    output::CsvRows rows(file.get(), "cannot write fleet.csv");
    for (auto const& column : columns) rows.text(column.csv);
    rows.end_row();
    if (context.fleet) {
        for (auto const& f : *context.fleet) {
            FleetRowView const row{context, f};
            for (auto const& column : columns) {
                if (fleet_is_text(column, row)) rows.text(column.spec->text(row, column.sweep));
                else rows.number(column.spec->number(row, column.sweep));
            }
            rows.end_row();
        }
    }
    output::finish_file(file, path);
}

}  // namespace roofline::report
