#include "output/workbook.hpp"

#include "output/xlsx_cells.hpp"

#include <zlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <thread>

namespace roofline::output {

namespace {

// Fixed document time (2000-01-01T00:00:00Z). When a report was made is in
// its manifest only: two runs of the same inputs give the same bytes.
constexpr std::time_t document_time = 946684800;

char* or_null(std::string& s) { return s.empty() ? nullptr : s.data(); }

// Times in seconds, the cells' values, so that formulas stay right. A number
// format cannot multiply (only % scales, by 100), so "42.4 ms" is out of
// reach; instead each range reads at a glance: from 1 s plain seconds
// ("12.345 s"), from 1 ms seconds with five decimals, aligned on the point
// so that a column of steps compares by eye ("0.04241 s" is 42.41 ms), and
// below 1 ms engineering notation, whose exponent is -6 or -9 and reads as
// µs or ns ("40.07E-6 s"). reports.md, "Number formats".
constexpr char const* time_format = "[>=1]#,##0.000\" s\";[>=0.001]0.00000\" s\";##0.00E+0\" s\"";
constexpr char const* ratio_format = "#,##0.00";  // FLOP/byte, ratios
constexpr lxw_color_t muted_text = 0x808080, header_fill = 0xD9E1F2;

// libxlsxwriter reports a failure twice: as the lxw_error that becomes our
// WriteError naming the file, and as "[ERROR][./src/packager.c:...]" lines it
// prints with fprintf(stderr). While it closes a workbook its `stderr` is
// /dev/null (in glibc, stderr is an ordinary variable); std::cerr and the
// progress line keep the stream they were made with, the real one.
class LibraryMessagesSilenced {
public:
    LibraryMessagesSilenced() : null_(std::fopen("/dev/null", "w")) {
        if (null_) std::swap(stderr, null_);
    }
    ~LibraryMessagesSilenced() {
        if (!null_) return;
        std::swap(stderr, null_);
        std::fclose(null_);
    }
    LibraryMessagesSilenced(LibraryMessagesSilenced const&) = delete;
    LibraryMessagesSilenced& operator=(LibraryMessagesSilenced const&) = delete;

private:
    std::FILE* null_;
};

lxw_error close_quietly(lxw_workbook* wb) {
    LibraryMessagesSilenced silenced;
    return workbook_close(wb);
}

}  // namespace

void Workbook::Closer::operator()(lxw_workbook* wb) const { close_quietly(wb); }

Workbook::Workbook(std::string path, DocumentProperties const& properties, bool zip64)
    : path_(std::move(path)) {
    auto dir = std::filesystem::path(path_).parent_path();
    tmpdir_ = dir.empty() ? std::string(".") : dir.string();
    // libxlsxwriter falls back to another folder for its temporary files:
    // find an unwritable place now.
    if (std::FILE* probe = std::fopen(path_.c_str(), "wb"))
        std::fclose(probe);
    else
        throw WriteError(path_ + ": creating the file: " + std::strerror(errno));
    lxw_workbook_options options{};
    options.constant_memory = LXW_TRUE;
    options.tmpdir = tmpdir_.data();
    options.use_zip64 = zip64 ? LXW_TRUE : LXW_FALSE;
    wb_.reset(workbook_new_opt(path_.c_str(), &options));
    if (!wb_) throw WriteError(path_ + ": creating the workbook: out of memory");

    // libxlsxwriter writes these into docProps/ as they are.
    DocumentProperties p{xml_safe_text(properties.title), xml_safe_text(properties.subject),
                         xml_safe_text(properties.author), xml_safe_text(properties.comments)};
    lxw_doc_properties props{};
    props.title = or_null(p.title);
    props.subject = or_null(p.subject);
    props.author = or_null(p.author);
    props.comments = or_null(p.comments);
    props.created = document_time;
    check(workbook_set_properties(wb_.get(), &props), "setting the document properties");

    // Formats are numbered in the order cells first use them, not made: the
    // ones a workbook leaves unused cost nothing.
    auto& f = formats_;
    f.title = add_format();
    format_set_bold(f.title);
    format_set_font_size(f.title, 14);
    f.bold = add_format();
    format_set_bold(f.bold);
    f.header = add_format();
    format_set_bold(f.header);
    format_set_bg_color(f.header, header_fill);
    format_set_bottom(f.header, LXW_BORDER_THIN);
    f.header_number = add_format();
    format_set_bold(f.header_number);
    format_set_bg_color(f.header_number, header_fill);
    format_set_bottom(f.header_number, LXW_BORDER_THIN);
    format_set_align(f.header_number, LXW_ALIGN_RIGHT);
    f.note = add_format();
    format_set_italic(f.note);
    format_set_font_color(f.note, muted_text);
    f.time = number_format(time_format);
    f.ratio = number_format(ratio_format);
}

Workbook::~Workbook() = default;  // the Closer closes an unclosed workbook

void Workbook::fail(std::string const& step, lxw_error err) const {
    throw WriteError(path_ + ": " + step + ": " + lxw_strerror(err));
}

void Workbook::fail_cell(lxw_worksheet const* ws, std::size_t row, std::size_t col,
                         lxw_error err) const {
    fail(std::string("writing ") + ws->name + "!" + cell_name(row, col), err);
}

lxw_worksheet* Workbook::add_sheet(std::string const& name) {
    lxw_worksheet* ws = workbook_add_worksheet(wb_.get(), name.c_str());
    if (!ws)
        throw WriteError(path_ + ": adding sheet " + name +
                         ": cannot create it (out of memory, or no temporary file in " + tmpdir_ +
                         ")");
    sheets_.push_back(ws);
    return ws;
}

lxw_format* Workbook::add_format() {
    lxw_format* f = workbook_add_format(wb_.get());
    if (!f) throw WriteError(path_ + ": adding a cell format: out of memory");
    return f;
}

lxw_format* Workbook::number_format(char const* code) {
    lxw_format* f = add_format();
    format_set_num_format(f, code);
    return f;
}

void Workbook::text(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string_view text,
                    lxw_format* format) {
    check_cell(worksheet_write_string(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                      cell_text(text).c_str(), format),
               ws, row, col);
}

void Workbook::number(lxw_worksheet* ws, std::size_t row, std::size_t col, double value,
                      lxw_format* format) {
    if (!std::isfinite(value)) return;  // not available: an empty cell
    check_cell(worksheet_write_number(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                      value, format),
               ws, row, col);
}

void Workbook::formula(lxw_worksheet* ws, std::size_t row, std::size_t col, char const* formula,
                       double value, lxw_format* format) {
    auto r = static_cast<lxw_row_t>(row);
    auto c = static_cast<lxw_col_t>(col);
    check_cell(std::isfinite(value) ? worksheet_write_formula_num(ws, r, c, formula, format, value)
                                    : worksheet_write_formula(ws, r, c, formula, format),
               ws, row, col);
}

void Workbook::formula_text(lxw_worksheet* ws, std::size_t row, std::size_t col,
                            std::string const& formula, std::string const& result,
                            lxw_format* format) {
    check_cell(worksheet_write_formula_str(ws, static_cast<lxw_row_t>(row),
                                           static_cast<lxw_col_t>(col), formula.c_str(), format,
                                           result.c_str()),
               ws, row, col);
}

void Workbook::width(lxw_worksheet* ws, std::size_t first, std::size_t last, double chars,
                     lxw_format* format) {
    check(worksheet_set_column(ws, static_cast<lxw_col_t>(first), static_cast<lxw_col_t>(last),
                               chars, format),
          std::string("setting column widths of ") + ws->name);
}

namespace {

// What the .xlsx will weigh: the sheets' XML (the bulk of it) times the ratio
// at which deflate shrinks a sample of it, plus the small parts. Only for a
// percentage on the way; a wrong guess shows as a jump to the end.
double estimated_size(std::vector<lxw_worksheet*> const& sheets) {
    double xml = 0;
    std::FILE* largest = nullptr;
    long largest_size = 0;
    for (lxw_worksheet* ws : sheets) {
        if (!ws->optimize_tmpfile) continue;
        long size = std::ftell(ws->optimize_tmpfile);
        if (size <= 0) continue;
        xml += static_cast<double>(size);
        if (size > largest_size) largest = ws->optimize_tmpfile, largest_size = size;
    }
    double ratio = 0.15;  // typical of the Cases rows, if no sample can be read
    if (largest) {
        // A sample from the middle of the largest sheet, read without moving
        // the file position libxlsxwriter relies on.
        std::vector<unsigned char> in(static_cast<std::size_t>(std::min(largest_size, 1L << 18)));
        auto got = ::pread(fileno(largest), in.data(), in.size(), (largest_size - static_cast<long>(in.size())) / 2);
        if (got > 4096) {
            uLongf out_size = compressBound(static_cast<uLong>(got));
            std::vector<unsigned char> out(out_size);
            if (compress2(out.data(), &out_size, in.data(), static_cast<uLong>(got), Z_DEFAULT_COMPRESSION) == Z_OK)
                ratio = static_cast<double>(out_size) / static_cast<double>(got);
        }
    }
    return xml * ratio + 32768;
}

}  // namespace

void Workbook::close(std::function<void(double fraction)> const& progress) {
    for (lxw_worksheet* ws : sheets_)
        if (ws->optimize_tmpfile &&
            (std::fflush(ws->optimize_tmpfile) != 0 || std::ferror(ws->optimize_tmpfile)))
            throw WriteError(path_ + ": writing the temporary data of sheet " + ws->name + " in " +
                             tmpdir_ + ": " + std::strerror(errno));
    if (!progress) {
        check(close_quietly(wb_.release()), "closing the workbook");
        return;
    }
    // libxlsxwriter writes the zip straight into path_: its size on disk
    // tells how far deflating has come.
    double const expected = estimated_size(sheets_);
    std::mutex mutex;
    std::condition_variable stop_signal;
    bool stop = false;
    std::thread watcher([&] {
        using namespace std::chrono_literals;
        std::unique_lock lock(mutex);
        do {
            std::error_code ec;
            auto size = std::filesystem::file_size(path_, ec);
            double fraction = ec ? 0 : static_cast<double>(size) / expected;
            progress(std::clamp(fraction, 0.0, 0.99));
        } while (!stop_signal.wait_for(lock, 100ms, [&] { return stop; }));
    });
    auto result = close_quietly(wb_.release());
    {
        std::lock_guard lock(mutex);
        stop = true;
    }
    stop_signal.notify_all();
    watcher.join();
    check(result, "closing the workbook");
}

}  // namespace roofline::output
