#include "roofline/report/csv_writer.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace roofline::report {

CsvWriter::CsvWriter(std::FILE* out, ReportContext const& context)
    : out_(out),
      context_(context),
      columns_(case_columns(context.scenario)),
      rows_(std::make_unique<output::CsvRows>(out, "cannot write cases.csv")) {
    for (auto const& column : columns_) rows_->text(column.header);
    rows_->end_row();
}

CsvWriter::~CsvWriter() = default;

void CsvWriter::add(engine::Case const& c) {
    CaseRow const row{context_.scenario, context_.grid, c};
    for (auto const& column : columns_) {
        if (column.text) rows_->text(case_text(column, row));
        else rows_->number(case_number(column, row));
    }
    rows_->end_row();
}

void CsvWriter::flush() {
    if (std::fflush(out_) != 0 || std::ferror(out_))
        throw std::runtime_error(std::string("cannot write cases.csv: ") + std::strerror(errno));
}

}  // namespace roofline::report
