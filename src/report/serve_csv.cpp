#include "serve_csv.hpp"

#include "roofline/report/serve_columns.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace roofline::report {

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File create(std::string const& path) {
    File file(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    return file;
}

void finish(File& file, std::string const& path) {
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace

void write_serve_csv(std::string const& path, ReportContext const& context) {
    File file = create(path);
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
    finish(file, path);
}

void write_fleet_csv(std::string const& path, ReportContext const& context) {
    File file = create(path);
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
    finish(file, path);
}

}  // namespace roofline::report
