#include "roofline/diff/cases_reader.hpp"

#include "roofline/report/case_columns.hpp"
#include "roofline/output/sha256.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <limits>
#include <optional>

namespace roofline::diff {

std::string number_text(double value) {
    if (std::isnan(value)) return "";
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

namespace {

// The longest row read (a row of a real cases.csv is a few hundred bytes):
// a file that is one endless row (/dev/zero, a damaged file) stops here.
constexpr std::size_t max_row_bytes = std::size_t{64} << 20;

}  // namespace

struct CasesReader::Impl {
    ComparedReport const& report;
    std::string path;
    std::FILE* file = nullptr;
    std::vector<char> buf = std::vector<char>(1 << 20);
    std::size_t pos = 0, end = 0;
    bool eof = false;
    output::Sha256 sha;
    std::size_t line = 1, next_line = 1, row_line = 0, rows = 0;
    std::vector<std::string_view> fields;
    std::deque<std::string> scratch;  // unescaped quoted fields; a deque keeps them in place

    // Column of each needed value.
    std::size_t header_size = 0;
    std::vector<std::string> header;
    std::size_t c_op = 0, c_layer = 0, c_hardware = 0, c_dtype = 0, c_bound = 0, c_intensity = 0,
                c_peak = 0, c_ridge = 0, c_t_lower = 0, c_attained = 0, c_count = 0;
    std::optional<std::size_t> c_t_step;  // a mesh report's; else t_lower
    std::vector<std::size_t> c_sweep, c_critical;
    std::vector<std::size_t> c_unread;  // the other numeric columns: checked, not kept
    static constexpr std::size_t no_column = SIZE_MAX;
    // Per sweep: a dtype sweep's names -> their index in the manifest's list.
    std::vector<std::unordered_map<std::string_view, std::size_t>> dtype_positions;

    explicit Impl(ComparedReport const& r) : report(r), path(r.cases_path()) {}

    [[noreturn]] void bad(std::string const& what) const {
        throw ReportError(path + ":" + std::to_string(line) + ": " + what);
    }

    void refill() {
        if (pos > 0) {
            std::memmove(buf.data(), buf.data() + pos, end - pos);
            end -= pos;
            pos = 0;
        }
        if (end == buf.size()) {  // one row larger than the buffer
            if (buf.size() >= max_row_bytes)
                bad("a row longer than " + std::to_string(max_row_bytes >> 20) +
                    " MiB: not a cases.csv roofline writes");
            buf.resize(buf.size() * 2);
        }
        std::size_t n = std::fread(buf.data() + end, 1, buf.size() - end, file);
        if (n == 0) {
            if (std::ferror(file))
                throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
            eof = true;
        }
        sha.update(std::string_view(buf.data() + end, n));
        end += n;
    }

    // Splits the record at `p` into `fields`; the position after it, or
    // nullopt when the buffer ends inside it (and more may come).
    std::optional<std::size_t> parse(std::size_t p) {
        fields.clear();
        next_line = line + 1;
        char const* b = buf.data();
        for (std::size_t index = 0;; ++index) {
            if (index == scratch.size()) scratch.emplace_back();
            if (p < end && b[p] == '"') {
                std::string& text = scratch[index];
                text.clear();
                std::size_t start = p + 1;
                for (;;) {
                    auto const* quote =
                        static_cast<char const*>(std::memchr(b + start, '"', end - start));
                    if (!quote) {
                        if (eof) bad("a quoted field is not closed");
                        return std::nullopt;
                    }
                    std::size_t at = static_cast<std::size_t>(quote - b);
                    if (at + 1 == end && !eof) return std::nullopt;
                    text.append(b + start, at - start);
                    if (at + 1 < end && b[at + 1] == '"') {
                        text += '"';
                        start = at + 2;
                        continue;
                    }
                    p = at + 1;
                    break;
                }
                next_line += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
                fields.emplace_back(text);
                if (p < end && b[p] != ',' && b[p] != '\r' && b[p] != '\n')
                    bad("text after the closing quote of a field");
            } else {
                std::size_t q = p;
                while (q < end && b[q] != ',' && b[q] != '\r' && b[q] != '\n' && b[q] != '"') ++q;
                if (q < end && b[q] == '"') bad("a quote inside an unquoted field");
                if (q == end && !eof) return std::nullopt;
                fields.emplace_back(b + p, q - p);
                p = q;
            }
            if (p == end) return p;  // the last record, without a line end
            if (b[p] == ',') {
                ++p;
                continue;
            }
            if (b[p] == '\r') {
                if (p + 1 == end && !eof) return std::nullopt;
                if (p + 1 < end && b[p + 1] == '\n') ++p;
            }
            return p + 1;
        }
    }

    // The next record's fields; false at the end of the file.
    bool next_record() {
        for (;;) {
            if (pos == end && eof) return false;
            if (pos < end && (buf[pos] == '\n' || buf[pos] == '\r')) {  // a blank line
                ++pos;
                if (buf[pos - 1] == '\n') ++line;
                continue;
            }
            if (pos < end) {
                if (auto after = parse(pos)) {
                    pos = *after;
                    return true;
                }
            }
            refill();
        }
    }

    double number(std::size_t column) const {
        auto text = fields[column];
        if (text.empty()) return std::numeric_limits<double>::quiet_NaN();
        double value = 0;
        auto r = std::from_chars(text.data(), text.data() + text.size(), value);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size())
            bad("column '" + header[column] + "': '" + std::string(text) + "' is not a number");
        // from_chars reads "inf" and "nan"; roofline publishes neither (a
        // figure it cannot give is an empty cell), and a diff of one would
        // put it in diff.csv.
        if (!std::isfinite(value))
            bad("column '" + header[column] + "': '" + std::string(text) +
                "' is not a finite number (not a cases.csv roofline writes)");
        return value;
    }

    void read_header() {
        if (!next_record()) bad("empty file: no header row");
        header_size = fields.size();
        header.assign(fields.begin(), fields.end());
        // The columns by their names in case_columns.hpp, wherever they stand.
        // (A map, not a search per column: a forged header may be long.)
        std::unordered_map<std::string_view, std::size_t> columns;
        for (std::size_t c = 0; c < header.size(); ++c) columns.try_emplace(header[c], c);
        auto column = [&](std::string_view spec, std::string const& sweep = {}) {
            std::string name = std::string(report::case_column_spec(spec).name) + sweep;
            auto it = columns.find(name);
            if (it == columns.end()) bad("the header has no column '" + name + "'");
            return it->second;
        };
        c_op = column("op"), c_layer = column("layer"), c_hardware = column("hardware");
        c_dtype = column("compute_dtype"), c_bound = column("bound");
        c_intensity = column("intensity"), c_peak = column("peak"), c_ridge = column("ridge");
        c_t_lower = column("t_lower"), c_attained = column("attained");
        c_count = column("count");
        if (auto it = columns.find(report::case_column_spec("t_step").name); it != columns.end())
            c_t_step = it->second;
        // Every number in the file is checked, also those the diff does not use.
        std::size_t const used[] = {c_count, c_intensity, c_peak, c_ridge, c_t_lower, c_attained,
                                    c_t_step.value_or(c_t_lower)};
        for (auto const& spec : report::case_column_specs()) {
            auto it = spec.text() || spec.per_sweep ? columns.end() : columns.find(spec.name);
            if (it == columns.end()) continue;  // text, or a level this report does not have
            if (std::find(std::begin(used), std::end(used), it->second) == std::end(used))
                c_unread.push_back(it->second);
        }
        for (auto const& sweep : report.sweeps) {
            c_sweep.push_back(column("", sweep.name));
            // A dtype sweep has no critical column.
            c_critical.push_back(sweep.dtypes.empty() ? column("critical_", sweep.name) : no_column);
            auto& positions = dtype_positions.emplace_back();
            for (std::size_t k = 0; k < sweep.dtypes.size(); ++k)
                positions.try_emplace(sweep.dtypes[k], k);
            if (!sweep.dtypes.empty() && sweep.dtypes.size() != sweep.points)
                throw ReportError(path + ": manifest.json lists " + std::to_string(sweep.dtypes.size()) +
                                  " dtypes for sweep '" + sweep.name + "' of " +
                                  std::to_string(sweep.points) + " points");
        }
        line = next_line;
    }
};

CasesReader::CasesReader(ComparedReport const& report) : impl_(std::make_unique<Impl>(report)) {
    // O_NONBLOCK: a pipe in its place does not make the open wait.
    int fd = ::open(impl_->path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT) throw ReportError(report.folder + ": cases.csv is missing");
        throw std::runtime_error("cannot open '" + impl_->path + "': " + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw ReportError(impl_->path + ": not a regular file (a device, a pipe or a folder)");
    }
    impl_->file = ::fdopen(fd, "rb");
    if (!impl_->file) {
        ::close(fd);
        throw std::runtime_error("cannot open '" + impl_->path + "': " + std::strerror(errno));
    }
    impl_->read_header();
}

CasesReader::~CasesReader() {
    if (impl_->file) std::fclose(impl_->file);
}

bool CasesReader::next(CaseRow& row) {
    auto& d = *impl_;
    if (!d.next_record()) return false;
    if (d.fields.size() != d.header_size)
        d.bad(std::to_string(d.fields.size()) + " fields, but the header has " +
              std::to_string(d.header_size));
    row.op = d.fields[d.c_op];
    row.layer = d.fields[d.c_layer];
    row.hardware = d.fields[d.c_hardware];
    row.compute_dtype = d.fields[d.c_dtype];
    auto bound = engine::parse_bound(d.fields[d.c_bound]);
    if (!bound)
        d.bad("column 'bound': '" + std::string(d.fields[d.c_bound]) +
              "' is not memory, compute or unsupported");
    row.bound = *bound;
    row.count = d.number(d.c_count);
    row.intensity = d.number(d.c_intensity);
    row.peak = d.number(d.c_peak);
    row.ridge = d.number(d.c_ridge);
    row.t_lower = d.number(d.c_t_lower);
    row.t_step = d.c_t_step ? d.number(*d.c_t_step) : row.t_lower;
    row.attained = d.number(d.c_attained);
    for (std::size_t c : d.c_unread) (void)d.number(c);
    std::size_t sweeps = d.c_sweep.size();
    row.sweep.resize(sweeps);
    row.critical.resize(sweeps);
    for (std::size_t v = 0; v < sweeps; ++v) {
        auto const& dtypes = d.report.sweeps[v].dtypes;
        if (dtypes.empty()) {
            row.sweep[v] = d.number(d.c_sweep[v]);
            row.critical[v] = d.number(d.c_critical[v]);
            continue;
        }
        // A dtype's name: its position in the manifest's list of the sweep.
        auto text = d.fields[d.c_sweep[v]];
        auto const& positions = d.dtype_positions[v];
        auto it = positions.find(text);
        if (it == positions.end())
            d.bad("column '" + d.header[d.c_sweep[v]] + "': '" + std::string(text) +
                  "' is not one of the dtypes manifest.json lists for sweep '" +
                  d.report.sweeps[v].name + "'");
        row.sweep[v] = static_cast<double>(it->second);
        row.critical[v] = std::numeric_limits<double>::quiet_NaN();
    }
    ++d.rows;
    d.row_line = d.line;
    d.line = d.next_line;
    return true;
}

void CasesReader::finish() {
    auto& d = *impl_;
    if (d.rows != d.report.cases)
        throw ReportError(d.path + ": " + std::to_string(d.rows) +
                          " cases, but manifest.json says " + std::to_string(d.report.cases) +
                          " (a truncated or edited file)");
    if (!d.report.cases_sha256.empty() && d.sha.hex() != d.report.cases_sha256)
        throw ReportError(d.path +
                          ": its SHA-256 differs from the one in manifest.json (the file "
                          "was changed or damaged after the report was published)");
}

std::string CasesReader::where() const {
    return impl_->path + ":" + std::to_string(impl_->row_line);
}

}  // namespace roofline::diff
