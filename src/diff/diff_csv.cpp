#include "roofline/diff/diff_csv.hpp"

#include "roofline/report/csv_writer.hpp"

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
    for (char const* name : {"status", "op", "layer", "hardware_a", "hardware_b"}) text(name);
    for (auto const& v : matcher.sweep_names()) text(v);
    for (char const* name : {"compute_dtype_a", "compute_dtype_b", "intensity_a", "intensity_b",
                             "ridge_a", "ridge_b", "t_lower_a", "t_lower_b", "speedup", "bound_a",
                             "bound_b", "flip", "attained_a", "attained_b"})
        text(name);
    for (auto const& v : matcher.sweep_names()) {
        text("critical_" + v + "_a");
        text("critical_" + v + "_b");
    }
    end_row();
}

DiffCsvWriter::~DiffCsvWriter() {
    if (file_) std::fclose(file_);
}

void DiffCsvWriter::text(std::string_view s) {
    if (!row_.empty()) row_ += ',';
    if (s.find_first_of(",\"\r\n=+-@") == std::string_view::npos)
        row_ += s;
    else
        row_ += report::csv_field(s);
}

void DiffCsvWriter::number(double v) {
    if (!row_.empty()) row_ += ',';
    if (std::isnan(v)) return;
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    row_.append(buf, r.ptr);
}

void DiffCsvWriter::end_row() {
    row_ += "\r\n";
    if (std::fwrite(row_.data(), 1, row_.size(), file_) != row_.size())
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
    row_.clear();
}

void DiffCsvWriter::add(DiffCase const& c) {
    auto const& matmul = matcher_.ops()[c.op];
    auto const& pair = matcher_.pairing().pairs[c.pair];
    bool has_a = c.status != Status::only_b, has_b = c.status != Status::only_a;
    auto const& dtypes = matcher_.dtypes();
    text(status_name(c.status));
    text(matmul.op);
    text(matmul.layer);
    text(has_a ? pair.a : "");
    text(has_b ? pair.b : "");
    for (double v : c.sweep) number(v);
    text(has_a ? dtypes[c.a.dtype] : "");
    text(has_b ? dtypes[c.b.dtype] : "");
    for (double v : {c.a.intensity, c.b.intensity, c.a.ridge, c.b.ridge, c.a.t_lower, c.b.t_lower,
                     c.speedup()})
        number(v);
    text(has_a ? bound_name(c.a.bound) : "");
    text(has_b ? bound_name(c.b.bound) : "");
    text(!c.flipped() ? "" : c.b.bound == Bound::compute ? "memory->compute" : "compute->memory");
    number(c.a.attained);
    number(c.b.attained);
    for (std::size_t v = 0; v < c.sweep.size(); ++v) {
        number(c.critical_a[v]);
        number(c.critical_b[v]);
    }
    end_row();
}

void DiffCsvWriter::close() {
    std::FILE* file = file_;
    file_ = nullptr;
    bool failed = std::fflush(file) != 0 || std::ferror(file);
    if (std::fclose(file) != 0 || failed)
        throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
}

}  // namespace roofline::diff
