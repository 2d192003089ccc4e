#include "diff_csv.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace roofline::diff {

DiffCsvWriter::DiffCsvWriter(std::string const& path, Matcher const& matcher)
    : path_(path), matcher_(matcher), buffer_(1 << 20) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    std::setvbuf(file_, buffer_.data(), _IOFBF, buffer_.size());
    rows_ = std::make_unique<output::CsvRows>(file_, "cannot write '" + path + "'");
    for (char const* name : {"status", "op", "layer", "hardware_a", "hardware_b"}) rows_->text(name);
    for (auto const& v : matcher.sweep_names()) rows_->text(v);
    for (char const* name : {"compute_dtype_a", "compute_dtype_b", "intensity_a", "intensity_b",
                             "ridge_a", "ridge_b", "t_lower_a", "t_lower_b", "speedup", "bound_a",
                             "bound_b", "flip", "attained_a", "attained_b"})
        rows_->text(name);
    for (std::size_t v = 0; v < matcher.sweep_names().size(); ++v) {
        if (matcher.sweep_of_dtypes(v)) continue;  // no critical value
        rows_->text("critical_" + matcher.sweep_names()[v] + "_a");
        rows_->text("critical_" + matcher.sweep_names()[v] + "_b");
    }
    rows_->end_row();
}

DiffCsvWriter::~DiffCsvWriter() {
    if (file_) std::fclose(file_);
}

void DiffCsvWriter::add(DiffCase const& c) {
    auto const& matmul = matcher_.ops()[c.op];
    auto const& pair = matcher_.pairing().pairs[c.pair];
    bool has_a = c.status != Status::only_b, has_b = c.status != Status::only_a;
    auto const& dtypes = matcher_.dtypes();
    rows_->text(status_name(c.status));
    rows_->text(matmul.op);
    rows_->text(matmul.layer);
    rows_->text(has_a ? pair.a : "");
    rows_->text(has_b ? pair.b : "");
    for (std::size_t v = 0; v < c.sweep.size(); ++v) {
        if (matcher_.sweep_of_dtypes(v) && !std::isnan(c.sweep[v]))
            rows_->text(matcher_.sweep_text(v, c.sweep[v]));
        else
            rows_->number(c.sweep[v]);
    }
    rows_->text(has_a ? dtypes[c.a.dtype] : "");
    rows_->text(has_b ? dtypes[c.b.dtype] : "");
    for (double v : {c.a.intensity, c.b.intensity, c.a.ridge, c.b.ridge, c.a.t_lower, c.b.t_lower,
                     c.speedup()})
        rows_->number(v);
    rows_->text(has_a ? bound_name(c.a.bound) : "");
    rows_->text(has_b ? bound_name(c.b.bound) : "");
    rows_->text(!c.flipped() ? std::string()
                             : std::string(bound_name(c.a.bound)).append("->").append(bound_name(c.b.bound)));
    rows_->number(c.a.attained);
    rows_->number(c.b.attained);
    for (std::size_t v = 0; v < c.sweep.size(); ++v) {
        if (matcher_.sweep_of_dtypes(v)) continue;
        rows_->number(c.critical_a[v]);
        rows_->number(c.critical_b[v]);
    }
    rows_->end_row();
}

void DiffCsvWriter::close() {
    std::FILE* file = file_;
    file_ = nullptr;
    bool failed = std::fflush(file) != 0 || std::ferror(file);
    if (std::fclose(file) != 0 || failed)
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
}

}  // namespace roofline::diff
