#include "kernels_csv_writer.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace roofline::report {

KernelsCsvWriter::KernelsCsvWriter(std::FILE* out, ReportContext const& context)
    : out_(out),
      context_(context),
      columns_(kernel_columns(context.scenario)),
      members_(context.scenario, context.grid),
      rows_(std::make_unique<output::CsvRows>(out, "cannot write kernels.csv")) {
    for (auto const& column : columns_) rows_->text(column.header);
    rows_->end_row();
}

KernelsCsvWriter::~KernelsCsvWriter() = default;

void KernelsCsvWriter::add(engine::Case const& c) {
    engine::Case member_case = c;
    for (auto const& member : members_.of(c)) {
        member_case.metrics = member.metrics;
        KernelRow const row{context_.scenario, context_.grid, member_case, member};
        for (auto const& column : columns_) {
            if (column.text) rows_->text(kernel_text(column, row));
            else rows_->number(kernel_number(column, row));
        }
        rows_->end_row();
    }
}

void KernelsCsvWriter::flush() {
    if (std::fflush(out_) != 0 || std::ferror(out_))
        throw std::runtime_error(std::string("cannot write kernels.csv: ") + std::strerror(errno));
}

}  // namespace roofline::report
