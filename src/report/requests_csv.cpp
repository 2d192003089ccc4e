#include "requests_csv.hpp"

#include "roofline/report/request_columns.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace roofline::report {

std::string_view request_fits(ReportContext const& context, engine::RequestResult const& result) {
    auto const& capacity = context.target(result.target).hbm_capacity_bytes;
    if (!capacity) return "";
    return result.weight_bytes + result.cache_bytes <= *capacity ? "yes" : "no";
}

void write_requests_csv(std::string const& path, ReportContext const& context) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                          &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    auto const columns = request_columns(context.scenario);
    output::CsvRows rows(file.get(), "cannot write requests.csv");
    for (auto const& column : columns) rows.text(column.csv);
    rows.end_row();
    if (context.requests) {
        for (auto const& r : *context.requests) {
            RequestRow const row{context, r};
            for (auto const& column : columns) {
                if (request_is_text(column, row)) rows.text(column.spec->text(row, column.sweep));
                else rows.number(column.spec->number(row, column.sweep));
            }
            rows.end_row();
        }
    }
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace roofline::report
