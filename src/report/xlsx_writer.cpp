#include "roofline/report/xlsx_writer.hpp"

#include <xlsxwriter.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string_view>
#include <vector>

namespace roofline::report {

namespace {

// Times in seconds: engineering notation below a second, so that the exponent
// is always -9, -6 or -3 and reads as ns, us or ms ("21.79E-6 s" is 21.79 us).
// Excel number formats cannot multiply by 1e6 (only % scales, by 100), so a
// literal " us" suffix on the unscaled value would lie; conditions pick the
// notation instead: [<1] engineering, plain seconds from 1 s up.
constexpr char const* time_format = "[<1]##0.00E+0\" s\";#,##0.000\" s\"";
constexpr char const* sci_format = "0.00E+00";          // FLOPs, bytes, FLOP/s, B/s
constexpr char const* ratio_format = "#,##0.00";        // FLOP/byte
constexpr char const* fraction_format = "0.0%";         // attained / peak

// Fixed document time (2000-01-01T00:00:00Z). The report's creation time is
// in manifest.json only: two runs of the same inputs give the same bytes.
constexpr std::time_t document_time = 946684800;

// Colours: blue for compute-bound, orange for memory-bound (tell apart also
// for the common colour-vision deficiencies), grey for unsupported.
constexpr lxw_color_t compute_tint = 0xDDEBF7, compute_strong = 0x9BC2E6, compute_ink = 0x1F3864;
constexpr lxw_color_t memory_tint = 0xFCE4D6, memory_strong = 0xF4B084, memory_ink = 0x833C0B;
constexpr lxw_color_t muted_text = 0x808080, header_fill = 0xD9E1F2;

std::string column_letters(std::size_t col) {
    std::string s;
    for (std::size_t n = col + 1; n > 0; n = (n - 1) / 26)
        s.insert(s.begin(), static_cast<char>('A' + (n - 1) % 26));
    return s;
}

std::string cell_name(std::size_t row, std::size_t col) {
    return column_letters(col) + std::to_string(row + 1);
}

std::string shortest(double value) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

double text_width(std::string_view s) {
    // UTF-8 continuation bytes take no width of their own.
    double n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) == 0x80 ? 0 : 1;
    return n;
}

// A formula assembled in a fixed buffer: no allocation per row.
class Formula {
public:
    Formula& operator<<(std::string_view s) {
        if (size_ + s.size() >= sizeof buf_) throw std::logic_error("xlsx formula too long");
        std::memcpy(buf_ + size_, s.data(), s.size());
        size_ += s.size();
        return *this;
    }
    Formula& operator<<(char c) { return *this << std::string_view(&c, 1); }
    void clear() { size_ = 0; }
    std::string_view view() const { return {buf_, size_}; }
    char const* c_str() {
        buf_[size_] = '\0';
        return buf_;
    }

private:
    char buf_[256];
    std::size_t size_ = 0;
};

// A string as a cell must hold it: Excel reads _xHHHH_ in cell text as an
// escaped character, so control characters (which XML 1.0 cannot hold) take
// that form and a literal "_x0041_" keeps its underscore as _x005F_.
std::string cell_text(std::string_view s) {
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char ch = s[i];
        auto u = static_cast<unsigned char>(ch);
        if (u < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "_x%04X_", u);
            out += buf;
        } else if (ch == '_' && i + 6 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) &&
                   hex(s[i + 3]) && hex(s[i + 4]) && hex(s[i + 5]) && s[i + 6] == '_') {
            out += "_x005F";
            out += ch;
        } else {
            out += ch;
        }
    }
    return out;
}

// XML text content: &, < and > as entities.
std::string xml_escape(std::string_view s) {
    std::string out;
    for (char ch : s) {
        if (ch == '&') out += "&amp;";
        else if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else out += ch;
    }
    return out;
}

// A string cell's content: as the API takes it (libxlsxwriter adds the XML
// entities) and as the inline-string XML of the direct rows.
struct Text {
    std::string api, escaped, xml;
    Text() = default;
    explicit Text(std::string_view raw) : api(cell_text(raw)), escaped(xml_escape(api)) {
        bool preserve = !raw.empty() && (std::isspace(static_cast<unsigned char>(raw.front())) ||
                                         std::isspace(static_cast<unsigned char>(raw.back())));
        xml = std::string(" t=\"inlineStr\"><is><t") + (preserve ? " xml:space=\"preserve\"" : "") +
              ">" + escaped + "</t></is></c>";
    }
};

// A cell format, and its style attribute for the XML written directly.
struct Style {
    lxw_format* format = nullptr;
    std::string attr;  // ` s="7"`, or empty for the default style
};

// libxlsxwriter 1.x in constant-memory mode copies each sheet's temporary
// file verbatim into <sheetData>; the Cases rows are written there directly
// (see State::add). Other versions fall back to the cell API.
#if defined(LXW_VERSION_ID) && LXW_VERSION_ID >= 100 && LXW_VERSION_ID < 200
constexpr bool direct_rows_supported = true;
#else
constexpr bool direct_rows_supported = false;
#endif

struct WorkbookCloser {
    void operator()(lxw_workbook* wb) const { workbook_close(wb); }
};

}  // namespace

struct XlsxWriter::State {
    ReportContext const& ctx;
    XlsxOptions options;
    std::string path, tmpdir;
    std::unique_ptr<lxw_workbook, WorkbookCloser> wb;
    bool finished = false;

    lxw_worksheet* summary = nullptr;
    lxw_worksheet* hardware = nullptr;
    lxw_worksheet* charts = nullptr;
    std::vector<lxw_worksheet*> cases;
    std::vector<std::string> cases_names;

    struct Formats {
        lxw_format *title, *label, *header, *section, *note, *sci, *ratio, *time, *fraction,
            *center, *indent, *compute, *memory, *unsupported, *never;
        lxw_format *cf_compute_row, *cf_memory_row, *cf_unsupported_row;
        lxw_format *cf_compute_cell, *cf_memory_cell, *cf_unsupported_cell;
    } fmt{};

    // The scenario, flattened once.
    std::size_t targets = 0, sweeps = 0, points = 0, matmuls = 0, total_cases = 0;
    std::vector<int> dtypes;             // compute dtypes used, first-use order
    std::vector<std::size_t> slot_of;    // matmul -> index into dtypes
    std::vector<std::string> op_label;   // matmul -> "layer/op" (charts)
    std::vector<std::string> dtype_names;  // per slot

    // Cases sheet columns.
    struct Cols {
        std::size_t op = 0, layer = 1, count = 2, hardware = 3, dtype = 4, sweep0 = 5, flops,
                    bytes_read, bytes_written, intensity, peak, ridge, t_math, t_comms, t_lower,
                    t_upper, bound, attained, peak_fraction, critical0, last;
    } col;
    std::vector<std::string> letters;  // per Cases column
    std::vector<std::string> bw_ref;    // per target: Hardware!$C$2
    std::vector<std::string> peak_ref;  // [target * slots + slot]: Hardware!$F$2, "" if none
    std::vector<Text> op_text, layer_text, hw_text, dtype_text;
    Text compute_text{"compute"}, memory_text{"memory"}, unsupported_text{"unsupported"};
    struct Styles {
        Style none, sci, ratio, time, fraction, center, indent;
    } style;

    // Hardware sheet columns.
    std::size_t hw_peak0 = 5, hw_ridge0 = 0, hw_extends = 0, hw_source = 0;

    // Streaming state: the row being written.
    std::size_t next_case = 0;
    std::size_t row_sheet = static_cast<std::size_t>(-1), row_index = 0;
    lxw_worksheet* row_ws = nullptr;
    char row_digits[16];
    std::string_view digits;  // row_index + 1 in decimal
    Formula f;                // the formula of the cell being written, without '='
    // Direct rows: the Cases XML, buffered and appended to the temporary file
    // of the sheet (libxlsxwriter's constant-memory storage).
    bool direct = false;
    std::vector<char> xml;
    std::size_t xml_size = 0;
    std::string row_spans;  // `" spans="1:20">`

    // Chart samples: [matmul * targets + target] -> (intensity, attained).
    std::vector<std::vector<std::pair<double, double>>> samples;
    std::uint64_t sample_k = 0;  // the next sampled point is sample_k (P-1) / (N-1)

    std::size_t summary_row = 0;

    State(std::string const& p, ReportContext const& c, XlsxOptions const& o)
        : ctx(c), options(o), path(p) {}

    // ---- errors -------------------------------------------------------------
    [[noreturn]] void fail(std::string const& step, lxw_error err) const {
        throw WriteError(path + ": " + step + ": " + lxw_strerror(err));
    }
    [[noreturn]] void fail_cell(lxw_worksheet const* ws, std::size_t row, std::size_t col,
                                lxw_error err) const {
        fail(std::string("writing ") + ws->name + "!" + cell_name(row, col), err);
    }
    void check(lxw_error err, lxw_worksheet const* ws, std::size_t row, std::size_t col) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail_cell(ws, row, col, err);
    }
    void check(lxw_error err, std::string_view step) const {
        if (err != LXW_NO_ERROR) [[unlikely]]
            fail(std::string(step), err);
    }

    // ---- cells of the small sheets --------------------------------------------
    void str(lxw_worksheet* ws, std::size_t row, std::size_t col, std::string const& s,
             lxw_format* format = nullptr) {
        check(worksheet_write_string(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                     cell_text(s).c_str(), format),
              ws, row, col);
    }
    void num(lxw_worksheet* ws, std::size_t row, std::size_t col, double v,
             lxw_format* format = nullptr) {
        if (!std::isfinite(v)) return;  // NaN: not available, an empty cell
        check(worksheet_write_number(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                                     v, format),
              ws, row, col);
    }
    void formula(lxw_worksheet* ws, std::size_t row, std::size_t col, char const* text, double v,
                 lxw_format* format) {
        auto r = static_cast<lxw_row_t>(row);
        auto c = static_cast<lxw_col_t>(col);
        check(std::isfinite(v) ? worksheet_write_formula_num(ws, r, c, text, format, v)
                               : worksheet_write_formula(ws, r, c, text, format),
              ws, row, col);
    }
    void width(lxw_worksheet* ws, std::size_t col, double chars, lxw_format* format = nullptr) {
        check(worksheet_set_column(ws, static_cast<lxw_col_t>(col), static_cast<lxw_col_t>(col),
                                   chars, format),
              std::string("setting a column width of ") + ws->name);
    }

    lxw_format* add_format() {
        lxw_format* f = workbook_add_format(wb.get());
        if (!f) throw WriteError(path + ": adding a cell format: out of memory");
        return f;
    }
    lxw_format* number_format(char const* code) {
        lxw_format* f = add_format();
        format_set_num_format(f, code);
        return f;
    }
    lxw_worksheet* add_sheet(std::string const& name) {
        lxw_worksheet* ws = workbook_add_worksheet(wb.get(), name.c_str());
        if (!ws)
            throw WriteError(path + ": adding sheet " + name +
                             ": cannot create it (out of memory, or no temporary file in " +
                             tmpdir + ")");
        return ws;
    }

    void open();
    void make_formats();
    void layout();
    void write_hardware();
    void write_cases_headers();
    void write_summary_head();
    void add(engine::Case const& c);
    void begin_sheet(std::size_t sheet);
    void flush_rows();
    State& put(std::string_view s);
    State& operator<<(std::string_view s) { return put(s); }
    void put_number(double v);
    void put_formula();
    void open_cell(std::size_t column, Style const& st);
    void text_cell(std::size_t column, Text const& t, Style const& st);
    void number_cell(std::size_t column, double v, Style const& st);
    void formula_cell(std::size_t column, double v, Style const& st);
    void formula_text_cell(std::size_t column, Text const& result, Style const& st);
    void sample(engine::Case const& c);
    void write_summary_tables(Summary const& summary);
    void write_charts();
    void finish_rows();
    void close();
    ~State();
};

// ---- opening ----------------------------------------------------------------

void XlsxWriter::State::open() {
    auto const& grid = ctx.grid;
    targets = grid.target_count;
    sweeps = grid.sweep_count;
    points = grid.point_count;
    matmuls = grid.matmul_count;
    total_cases = grid.case_count();
    if (options.rows_per_cases_sheet == 0 || options.rows_per_cases_sheet > 1'048'575)
        throw std::invalid_argument("rows_per_cases_sheet must be in 1 .. 1048575");
    options.chart_points_per_series = std::max<std::size_t>(options.chart_points_per_series, 2);

    auto dir = std::filesystem::path(path).parent_path();
    tmpdir = dir.empty() ? std::string(".") : dir.string();
    // libxlsxwriter opens the output only when closing, and falls back to
    // another folder for its temporary files: find an unwritable place now.
    if (std::FILE* probe = std::fopen(path.c_str(), "wb"))
        std::fclose(probe);
    else
        throw WriteError(path + ": creating the file: " + std::strerror(errno));
    lxw_workbook_options wo{};
    wo.constant_memory = LXW_TRUE;
    wo.tmpdir = tmpdir.data();
    // ZIP64 only where offsets could pass 4 GB (a few million cases): older
    // Excel versions warn about ZIP64 archives.
    wo.use_zip64 = total_cases > 4'000'000 ? LXW_TRUE : LXW_FALSE;
    wb.reset(workbook_new_opt(path.c_str(), &wo));
    if (!wb) throw WriteError(path + ": creating the workbook: out of memory");

    std::string title = ctx.scenario.title.empty() ? ctx.info.name : ctx.scenario.title;
    std::string subject = "roofline report " + ctx.info.name + " v" + std::to_string(ctx.info.version);
    std::string author = "roofline " + ctx.info.tool_version;
    std::string comments = "inputs SHA-256 " + ctx.info.inputs_sha256;
    lxw_doc_properties props{};
    props.title = title.data();
    props.subject = subject.data();
    props.author = author.data();
    props.comments = comments.data();
    props.created = document_time;
    check(workbook_set_properties(wb.get(), &props), "setting the document properties");

    make_formats();
    layout();

    // Sheet order: Summary, Hardware, Cases..., Charts. Every Cases sheet is
    // created now (the case count is known) so that Charts comes last.
    summary = add_sheet("Summary");
    hardware = add_sheet("Hardware");
    std::size_t per_sheet = options.rows_per_cases_sheet;
    std::size_t sheets = std::max<std::size_t>(1, (total_cases + per_sheet - 1) / per_sheet);
    for (std::size_t s = 0; s < sheets; ++s) {
        cases_names.push_back(s == 0 ? std::string("Cases") : "Cases (" + std::to_string(s + 1) + ")");
        cases.push_back(add_sheet(cases_names.back()));
    }
    charts = add_sheet("Charts");

    samples.resize(matmuls * targets);
    write_hardware();
    write_cases_headers();
    write_summary_head();
}

void XlsxWriter::State::make_formats() {
    auto& F = fmt;
    F.title = add_format();
    format_set_bold(F.title);
    format_set_font_size(F.title, 14);
    F.label = add_format();
    format_set_bold(F.label);
    F.section = add_format();
    format_set_bold(F.section);
    format_set_font_size(F.section, 12);
    F.header = add_format();
    format_set_bold(F.header);
    format_set_bg_color(F.header, header_fill);
    format_set_bottom(F.header, LXW_BORDER_THIN);
    F.note = add_format();
    format_set_italic(F.note);
    format_set_font_color(F.note, muted_text);
    F.sci = number_format(sci_format);
    F.ratio = number_format(ratio_format);
    F.time = number_format(time_format);
    F.fraction = number_format(fraction_format);
    F.indent = add_format();  // text right after a right-aligned number
    format_set_indent(F.indent, 1);
    F.center = add_format();
    format_set_align(F.center, LXW_ALIGN_CENTER);

    // Static bound cells (Summary).
    auto bound_cell = [&](lxw_color_t fill, lxw_color_t text) {
        lxw_format* f = add_format();
        format_set_align(f, LXW_ALIGN_CENTER);
        format_set_bg_color(f, fill);
        format_set_font_color(f, text);
        return f;
    };
    F.compute = bound_cell(compute_strong, compute_ink);
    F.memory = bound_cell(memory_strong, memory_ink);
    F.unsupported = add_format();
    format_set_align(F.unsupported, LXW_ALIGN_CENTER);
    format_set_italic(F.unsupported);
    format_set_font_color(F.unsupported, muted_text);
    F.never = F.unsupported;

    // Conditional formats (Cases): a tint over the row, the bound cell strong.
    auto tint = [&](lxw_color_t fill) {
        lxw_format* f = add_format();
        format_set_bg_color(f, fill);
        return f;
    };
    F.cf_compute_row = tint(compute_tint);
    F.cf_memory_row = tint(memory_tint);
    F.cf_unsupported_row = add_format();
    format_set_font_color(F.cf_unsupported_row, muted_text);
    F.cf_compute_cell = tint(compute_strong);
    format_set_font_color(F.cf_compute_cell, compute_ink);
    format_set_bold(F.cf_compute_cell);
    F.cf_memory_cell = tint(memory_strong);
    format_set_font_color(F.cf_memory_cell, memory_ink);
    format_set_bold(F.cf_memory_cell);
    F.cf_unsupported_cell = add_format();
    format_set_font_color(F.cf_unsupported_cell, muted_text);
    format_set_italic(F.cf_unsupported_cell);
}

void XlsxWriter::State::layout() {
    auto const& s = ctx.scenario;
    dtypes = ctx.compute_dtypes();
    for (int d : dtypes) dtype_names.push_back(ctx.dtype_name(d));
    for (auto const& m : s.matmuls) {
        slot_of.push_back(static_cast<std::size_t>(
            std::find(dtypes.begin(), dtypes.end(), m.compute_dtype) - dtypes.begin()));
        op_label.push_back(m.layer.empty() ? m.name : m.layer + "/" + m.name);
    }

    auto& c = col;
    std::size_t n = c.sweep0 + sweeps;
    c.flops = n++;
    c.bytes_read = n++;
    c.bytes_written = n++;
    c.intensity = n++;
    c.peak = n++;
    c.ridge = n++;
    c.t_math = n++;
    c.t_comms = n++;
    c.t_lower = n++;
    c.t_upper = n++;
    c.bound = n++;
    c.attained = n++;
    c.peak_fraction = n++;
    c.critical0 = n;
    c.last = n + sweeps - 1;
    for (std::size_t i = 0; i <= c.last; ++i) letters.push_back(column_letters(i));

    std::size_t slots = dtypes.size();
    hw_peak0 = 5;
    hw_ridge0 = hw_peak0 + slots;
    hw_extends = hw_ridge0 + slots;
    hw_source = hw_extends + 1;
    for (std::size_t t = 0; t < targets; ++t) {
        std::string row = std::to_string(t + 2);
        bw_ref.push_back("Hardware!$C$" + row);
        auto const& hw = ctx.target(t);
        for (std::size_t k = 0; k < slots; ++k)
            peak_ref.push_back(hw.peak_for(dtypes[k])
                                   ? "Hardware!$" + column_letters(hw_peak0 + k) + "$" + row
                                   : std::string());
        hw_text.emplace_back(hw.id);
    }
    for (auto const& m : s.matmuls) {
        op_text.emplace_back(m.name);
        layer_text.emplace_back(m.layer);
    }
    for (auto const& d : dtype_names) dtype_text.emplace_back(d);
    row_spans = "\" spans=\"1:" + std::to_string(c.last + 1) + "\">";

    direct = direct_rows_supported && options.direct_rows;
    if (direct) xml.resize(1 << 20);
    auto make_style = [&](lxw_format* format) {
        Style st{format, {}};
        if (format) st.attr = " s=\"" + std::to_string(lxw_format_get_xf_index(format)) + "\"";
        return st;
    };
    style = {make_style(nullptr),  make_style(fmt.sci),      make_style(fmt.ratio),
             make_style(fmt.time), make_style(fmt.fraction), make_style(fmt.center),
             make_style(fmt.indent)};
}

// ---- Hardware ------------------------------------------------------------------

void XlsxWriter::State::write_hardware() {
    lxw_worksheet* ws = hardware;
    std::vector<std::string> headers = {"id", "name", "hbm_bandwidth (B/s)", "hbm_capacity (B)",
                                        "ici_bandwidth (B/s)"};
    for (auto const& d : dtype_names) headers.push_back("peak " + d + " (FLOP/s)");
    for (auto const& d : dtype_names) headers.push_back("ridge " + d + " (FLOP/B)");
    headers.push_back("extends");
    headers.push_back("source");
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) {
        str(ws, 0, i, headers[i], fmt.header);
        widths[i] = text_width(headers[i]) + 2;
    }
    for (std::size_t t = 0; t < targets; ++t) {
        auto const& hw = ctx.target(t);
        std::size_t r = t + 1;
        str(ws, r, 0, hw.id);
        str(ws, r, 1, hw.display_name);
        num(ws, r, 2, hw.hbm_bytes_per_s, fmt.sci);
        if (hw.hbm_capacity_bytes) num(ws, r, 3, *hw.hbm_capacity_bytes, fmt.sci);
        if (hw.ici_bytes_per_s) num(ws, r, 4, *hw.ici_bytes_per_s, fmt.sci);
        std::string bw = "C" + std::to_string(r + 1);
        for (std::size_t k = 0; k < dtypes.size(); ++k) {
            auto peak = hw.peak_for(dtypes[k]);
            if (!peak) continue;
            num(ws, r, hw_peak0 + k, *peak, fmt.sci);
            std::string ridge = "=" + cell_name(r, hw_peak0 + k) + "/" + bw;
            formula(ws, r, hw_ridge0 + k, ridge.c_str(), *peak / hw.hbm_bytes_per_s, fmt.ratio);
        }
        if (!hw.base.empty()) str(ws, r, hw_extends, hw.base, fmt.indent);
        if (!hw.source.empty()) str(ws, r, hw_source, hw.source, fmt.indent);
        widths[0] = std::max(widths[0], text_width(hw.id) + 2);
        widths[1] = std::max(widths[1], text_width(hw.display_name) + 2);
        widths[hw_extends] = std::max(widths[hw_extends], text_width(hw.base) + 2);
        widths[hw_source] = std::max(widths[hw_source], text_width(hw.source) + 2);
    }
    str(ws, targets + 2, 0,
        "These cells are the inputs of the formulas in the Cases sheets: edit a bandwidth or a "
        "peak and every case of that target recalculates.",
        fmt.note);
    for (std::size_t i = 0; i < widths.size(); ++i) width(ws, i, std::min(widths[i], 80.0));
    worksheet_freeze_panes(ws, 1, 1);
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

// ---- Cases -----------------------------------------------------------------------

void XlsxWriter::State::write_cases_headers() {
    auto const& s = ctx.scenario;
    auto const& c = col;
    std::vector<std::string> headers = {"op", "layer", "count", "hardware", "compute_dtype"};
    for (auto const& sw : s.sweeps) headers.push_back(sw.name);
    for (char const* h : {"flops", "bytes_read", "bytes_written", "intensity", "peak", "ridge",
                          "t_math", "t_comms", "t_lower", "t_upper", "bound", "attained",
                          "peak_fraction"})
        headers.push_back(h);
    for (auto const& sw : s.sweeps) headers.push_back("critical_" + sw.name);

    // Widths: the header plus room for the filter button, or the widest value.
    std::vector<double> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i) widths[i] = text_width(headers[i]) + 3;
    auto widen = [&](std::size_t i, double w) { widths[i] = std::max(widths[i], w); };
    for (auto const& m : s.matmuls) {
        widen(c.op, text_width(m.name) + 1);
        widen(c.layer, text_width(m.layer) + 1);
    }
    for (std::size_t t = 0; t < targets; ++t) widen(c.hardware, text_width(ctx.target(t).id) + 1);
    for (auto const& d : dtype_names) widen(c.dtype, text_width(d) + 1);
    for (std::size_t v = 0; v < sweeps; ++v) {
        // The widest value is among the extremes (a sweep may have 1e8 values).
        auto const& values = s.sweeps[v].values;
        double w = 4;
        if (!values.empty()) {
            auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            for (double x : {values.front(), values.back(), *lo, *hi})
                w = std::max(w, text_width(shortest(x)) + 1);
        }
        widen(c.sweep0 + v, std::min(w, 13.0));
        widen(c.critical0 + v, 11);
    }
    for (std::size_t i : {c.flops, c.bytes_read, c.bytes_written, c.peak, c.attained}) widen(i, 10);
    for (std::size_t i : {c.intensity, c.ridge}) widen(i, 11);
    for (std::size_t i : {c.t_math, c.t_comms, c.t_lower, c.t_upper}) widen(i, 12);
    widen(c.bound, 13);

    std::size_t per_sheet = options.rows_per_cases_sheet;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        lxw_worksheet* ws = cases[k];
        for (std::size_t i = 0; i < headers.size(); ++i) {
            str(ws, 0, i, headers[i], fmt.header);
            width(ws, i, std::min(widths[i], 60.0));
        }
        worksheet_freeze_panes(ws, 1, 0);
        worksheet_set_landscape(ws);
        worksheet_fit_to_pages(ws, 1, 0);
        check(worksheet_repeat_rows(ws, 0, 0), "repeating the header row of " + cases_names[k]);

        std::size_t rows = std::min(per_sheet, total_cases - std::min(total_cases, k * per_sheet));
        auto last_row = static_cast<lxw_row_t>(rows);
        auto last_col = static_cast<lxw_col_t>(c.last);
        check(worksheet_autofilter(ws, 0, 0, last_row, last_col),
              "setting the autofilter of " + cases_names[k]);
        if (rows == 0) continue;

        // The bound column strongly coloured, the rest of the row tinted. Two
        // rules that do not overlap, so that every viewer shows the same.
        std::string bound_range = cell_name(1, c.bound) + ":" + cell_name(rows, c.bound);
        std::string row_ranges = "A2:" + cell_name(rows, c.bound - 1);
        if (c.bound < c.last) row_ranges += " " + cell_name(1, c.bound + 1) + ":" + cell_name(rows, c.last);
        std::string first_bound = "$" + letters[c.bound] + "2";
        struct Rule {
            char const* text;
            lxw_format* row;
            lxw_format* cell;
        };
        for (Rule rule : {Rule{"compute", fmt.cf_compute_row, fmt.cf_compute_cell},
                          Rule{"memory", fmt.cf_memory_row, fmt.cf_memory_cell},
                          Rule{"unsupported", fmt.cf_unsupported_row, fmt.cf_unsupported_cell}}) {
            std::string quoted = std::string("\"") + rule.text + "\"";
            lxw_conditional_format cell{};
            cell.type = LXW_CONDITIONAL_TYPE_CELL;
            cell.criteria = LXW_CONDITIONAL_CRITERIA_EQUAL_TO;
            cell.value_string = quoted.data();
            cell.format = rule.cell;
            check(worksheet_conditional_format_range(ws, 1, static_cast<lxw_col_t>(c.bound),
                                                     last_row, static_cast<lxw_col_t>(c.bound),
                                                     &cell),
                  "setting the conditional format of " + cases_names[k] + "!" + bound_range);
            std::string test = first_bound + "=" + quoted;
            lxw_conditional_format row{};
            row.type = LXW_CONDITIONAL_TYPE_FORMULA;
            row.value_string = test.data();
            row.multi_range = row_ranges.data();
            row.format = rule.row;
            check(worksheet_conditional_format_range(ws, 1, 0, last_row,
                                                     static_cast<lxw_col_t>(c.bound - 1), &row),
                  "setting the conditional format of " + cases_names[k] + "!" + row_ranges);
        }
    }
}

void XlsxWriter::State::add(engine::Case const& cs) {
    if (finished) throw std::logic_error("XlsxWriter::add after finish");
    if (next_case >= total_cases)
        throw std::logic_error("XlsxWriter::add: more cases than the grid announced");
    std::size_t index = next_case++;
    std::size_t per_sheet = options.rows_per_cases_sheet;
    std::size_t sheet = index / per_sheet;
    if (sheet != row_sheet) begin_sheet(sheet);
    row_index = index % per_sheet + 1;
    auto end = std::to_chars(row_digits, row_digits + sizeof row_digits, row_index + 1).ptr;
    digits = std::string_view(row_digits, static_cast<std::size_t>(end - row_digits));
    if (direct) put("<row r=\"") << digits << row_spans;

    auto const& x = cs.metrics;
    auto const& c = col;
    auto at = [&](std::size_t column) -> Formula& { return f << letters[column] << digits; };

    // Inputs: plain values; names always as text.
    text_cell(c.op, op_text[cs.matmul], style.none);
    if (!layer_text[cs.matmul].api.empty()) text_cell(c.layer, layer_text[cs.matmul], style.none);
    number_cell(c.count, ctx.scenario.matmuls[cs.matmul].count, style.none);
    text_cell(c.hardware, hw_text[cs.target], style.indent);
    text_cell(c.dtype, dtype_text[slot_of[cs.matmul]], style.none);
    for (std::size_t v = 0; v < sweeps; ++v)
        number_cell(c.sweep0 + v, ctx.grid.sweep_value(cs, v), style.none);
    number_cell(c.flops, x.counts.flops, style.sci);
    number_cell(c.bytes_read, x.counts.bytes_read, style.sci);
    number_cell(c.bytes_written, x.counts.bytes_written, style.sci);

    // Derived: formulas over this row and the target's Hardware cells, with
    // the engine's values as cached results.
    std::string const& bw = bw_ref[cs.target];
    at(c.flops) << "/(";
    at(c.bytes_read) << '+';
    at(c.bytes_written) << ')';
    formula_cell(c.intensity, x.intensity, style.ratio);
    bool supported = x.bound != engine::Bound::unsupported;
    if (supported) {
        f << peak_ref[cs.target * dtypes.size() + slot_of[cs.matmul]];
        formula_cell(c.peak, x.peak, style.sci);
        at(c.peak) << '/' << bw;
        formula_cell(c.ridge, x.ridge, style.ratio);
        at(c.flops) << '/';
        at(c.peak);
        formula_cell(c.t_math, x.t_math, style.time);
    }
    f << '(';
    at(c.bytes_read) << '+';
    at(c.bytes_written) << ")/" << bw;
    formula_cell(c.t_comms, x.t_comms, style.time);
    if (supported) {
        f << "MAX(";
        at(c.t_math) << ',';
        at(c.t_comms) << ')';
        formula_cell(c.t_lower, x.t_lower, style.time);
        at(c.t_math) << '+';
        at(c.t_comms);
        formula_cell(c.t_upper, x.t_upper, style.time);
        f << "IF(";
        at(c.t_math) << ">=";
        at(c.t_comms) << ",\"compute\",\"memory\")";
        formula_text_cell(c.bound, x.bound == engine::Bound::compute ? compute_text : memory_text,
                          style.center);
        at(c.flops) << '/';
        at(c.t_lower);
        formula_cell(c.attained, x.attained, style.sci);
        at(c.attained) << '/';
        at(c.peak);
        formula_cell(c.peak_fraction, x.peak_fraction, style.fraction);
    } else {
        text_cell(c.bound, unsupported_text, style.center);
    }
    for (std::size_t v = 0; v < sweeps; ++v)
        number_cell(c.critical0 + v, ctx.grid.critical_value(cs, v), style.none);

    if (direct) put("</row>");
    sample(cs);
}

// ---- Cases cells: through the API, or straight into the sheet's temporary file.

void XlsxWriter::State::begin_sheet(std::size_t sheet) {
    if (direct) {
        flush_rows();
        // The header row, written through the API, is still buffered in
        // libxlsxwriter's one-row cache: write it out before our rows.
        lxw_worksheet_write_single_row(cases[sheet]);
    }
    row_sheet = sheet;
    row_ws = cases[sheet];
}

void XlsxWriter::State::flush_rows() {
    if (!direct || xml_size == 0 || row_sheet >= cases.size()) return;
    std::FILE* file = cases[row_sheet]->optimize_tmpfile;
    if (std::fwrite(xml.data(), 1, xml_size, file) != xml_size)
        throw WriteError(path + ": writing the temporary data of sheet " + cases_names[row_sheet] +
                         " in " + tmpdir + ": " + std::strerror(errno));
    xml_size = 0;
}

XlsxWriter::State& XlsxWriter::State::put(std::string_view s) {
    if (xml_size + s.size() > xml.size()) {
        flush_rows();
        if (s.size() > xml.size()) xml.resize(s.size());
    }
    std::memcpy(xml.data() + xml_size, s.data(), s.size());
    xml_size += s.size();
    return *this;
}

void XlsxWriter::State::put_number(double v) {
    char buf[32];
    auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
}

void XlsxWriter::State::put_formula() {
    // Formulas hold references, operators and two quoted words: only '>' (and
    // never '&' or '<') needs escaping.
    std::string_view text = f.view();
    for (std::size_t i = 0; i < text.size();) {
        std::size_t j = text.find('>', i);
        if (j == std::string_view::npos) j = text.size();
        put(text.substr(i, j - i));
        if (j < text.size()) put("&gt;");
        i = j + 1;
    }
}

void XlsxWriter::State::open_cell(std::size_t column, Style const& st) {
    put("<c r=\"") << letters[column] << digits << "\"" << st.attr;
}

void XlsxWriter::State::text_cell(std::size_t column, Text const& t, Style const& st) {
    if (direct) {
        open_cell(column, st);
        put(t.xml);
        return;
    }
    check(worksheet_write_string(row_ws, static_cast<lxw_row_t>(row_index),
                                 static_cast<lxw_col_t>(column), t.api.c_str(), st.format),
          row_ws, row_index, column);
}

void XlsxWriter::State::number_cell(std::size_t column, double v, Style const& st) {
    if (!std::isfinite(v)) return;  // not available: an empty cell
    if (direct) {
        open_cell(column, st);
        put("><v>");
        put_number(v);
        put("</v></c>");
        return;
    }
    check(worksheet_write_number(row_ws, static_cast<lxw_row_t>(row_index),
                                 static_cast<lxw_col_t>(column), v, st.format),
          row_ws, row_index, column);
}

void XlsxWriter::State::formula_cell(std::size_t column, double v, Style const& st) {
    if (direct) {
        open_cell(column, st);
        put("><f>");
        put_formula();
        if (std::isfinite(v)) {
            put("</f><v>");
            put_number(v);
            put("</v></c>");
        } else {
            put("</f></c>");
        }
    } else {
        formula(row_ws, row_index, column, f.c_str(), v, st.format);
    }
    f.clear();
}

void XlsxWriter::State::formula_text_cell(std::size_t column, Text const& result,
                                          Style const& st) {
    if (direct) {
        open_cell(column, st);
        put(" t=\"str\"><f>");
        put_formula();
        put("</f><v>") << result.escaped << "</v></c>";
    } else {
        check(worksheet_write_formula_str(row_ws, static_cast<lxw_row_t>(row_index),
                                          static_cast<lxw_col_t>(column), f.c_str(), st.format,
                                          result.api.c_str()),
              row_ws, row_index, column);
    }
    f.clear();
}

// Keeps (intensity, attained) of evenly spaced sweep points for the charts:
// point floor(k (P-1) / (N-1)) for k = 0 .. N-1, every point when P <= N.
void XlsxWriter::State::sample(engine::Case const& cs) {
    auto const& x = cs.metrics;
    if (x.bound == engine::Bound::unsupported) return;
    std::uint64_t cap = options.chart_points_per_series, p = cs.point;
    if (points > cap) {
        auto point_of = [&](std::uint64_t k) { return k * (points - 1) / (cap - 1); };
        while (sample_k < cap && point_of(sample_k) < p) ++sample_k;
        if (sample_k >= cap || point_of(sample_k) != p) return;
    }
    samples[cs.matmul * targets + cs.target].emplace_back(x.intensity, x.attained);
}

// ---- Summary ---------------------------------------------------------------------

namespace {

std::string point_label(ReportContext const& ctx, std::size_t point) {
    std::string s;
    for (std::size_t v = 0; v < ctx.grid.sweep_count; ++v) {
        if (v) s += ", ";
        s += ctx.scenario.sweeps[v].name + " = " + shortest(ctx.grid.sweep_value(point, v));
    }
    return s;
}

}  // namespace

void XlsxWriter::State::write_summary_head() {
    lxw_worksheet* ws = summary;
    auto const& s = ctx.scenario;
    std::size_t r = 0;
    str(ws, r++, 0, s.title.empty() ? ctx.info.name : s.title, fmt.title);
    auto pair = [&](char const* key, std::string const& value) {
        str(ws, r, 0, key, fmt.label);
        str(ws, r++, 1, value);
    };
    pair("report", ctx.info.name + " v" + std::to_string(ctx.info.version));
    pair("tool", "roofline " + ctx.info.tool_version);
    pair("inputs SHA-256", ctx.info.inputs_sha256);
    std::string ids;
    for (std::size_t t = 0; t < targets; ++t) ids += (t ? ", " : "") + ctx.target(t).id;
    pair("targets", ids);
    for (auto const& sw : s.sweeps) {
        std::string values = sw.values.empty() ? std::string()
                                               : shortest(sw.values.front()) + " .. " +
                                                     shortest(sw.values.back()) + " (" +
                                                     std::to_string(sw.values.size()) + " values)";
        pair(("sweep " + sw.name).c_str(), values);
    }
    pair("cases", std::to_string(matmuls) + " matmuls x " + std::to_string(targets) +
                      " targets x " + std::to_string(points) + " sweep points = " +
                      std::to_string(total_cases));
    summary_row = r;

    // Widths for the tables written by finish(): names are known now.
    double a = 16, b = 10, hw = 10;
    for (auto const& m : s.matmuls) {
        a = std::max(a, text_width(m.name) + 2);
        a = std::max(a, text_width(m.layer) + 2);
        b = std::max(b, text_width(m.layer) + 2);
    }
    for (std::size_t t = 0; t < targets; ++t) {
        hw = std::max(hw, text_width(ctx.target(t).id) + 2);
        a = std::max(a, hw);
        b = std::max(b, hw);
    }
    double label = 12;
    if (points > 0) label = std::max(label, text_width("t_lower at " + point_label(ctx, 0)) + 2);
    width(ws, 0, std::min(a, 60.0));
    width(ws, 1, std::min(b, 60.0));
    width(ws, 2, std::min(std::max(hw, label), 60.0));
    for (std::size_t i = 3; i < 6 + 2 * sweeps; ++i) width(ws, i, std::min(label, 60.0));
    worksheet_set_landscape(ws);
    worksheet_fit_to_pages(ws, 1, 0);
}

void XlsxWriter::State::write_summary_tables(Summary const& sum) {
    lxw_worksheet* ws = summary;
    auto const& s = ctx.scenario;
    std::size_t r = summary_row;
    if (sum.unsupported_count) {
        str(ws, r, 0, "unsupported cases", fmt.label);
        num(ws, r, 1, static_cast<double>(sum.unsupported_count));
        str(ws, r++, 2, "no peak for the compute dtype: no times, shown as \"unsupported\"",
            fmt.note);
    }
    std::vector<std::size_t> at_points;
    if (points > 0) at_points.push_back(0);
    if (points > 1) at_points.push_back(points - 1);
    auto at = [&](char const* what, std::size_t p) {
        return points > 1 ? std::string(what) + " at " + point_label(ctx, p) : std::string(what);
    };
    auto bound_cell = [&](std::size_t row, std::size_t column, engine::Bound b) {
        lxw_format* f = b == engine::Bound::compute  ? fmt.compute
                        : b == engine::Bound::memory ? fmt.memory
                                                     : fmt.unsupported;
        str(ws, row, column, std::string(engine::bound_name(b)), f);
    };

    // Per target and matmul.
    ++r;
    str(ws, r++, 0, "Per target and matmul", fmt.section);
    str(ws, r++, 0,
        "critical_V: the smallest V at which the matmul is compute-bound, the other sweep "
        "variables at their first value",
        fmt.note);
    std::vector<std::string> headers = {"op", "layer", "hardware", "compute_dtype"};
    for (auto const& sw : s.sweeps) headers.push_back("critical_" + sw.name);
    for (std::size_t p : at_points) headers.push_back(at("bound", p));
    for (std::size_t i = 0; i < headers.size(); ++i) str(ws, r, i, headers[i], fmt.header);
    ++r;
    for (std::size_t t = 0; t < targets; ++t) {
        for (std::size_t m = 0; m < matmuls; ++m, ++r) {
            auto const& mm = s.matmuls[m];
            auto const& op = sum.op_targets[m * targets + t];
            str(ws, r, 0, mm.name);
            if (!mm.layer.empty()) str(ws, r, 1, mm.layer);
            str(ws, r, 2, ctx.target(t).id);
            str(ws, r, 3, dtype_names[slot_of[m]]);
            for (std::size_t v = 0; v < sweeps; ++v) {
                double crit = v < op.critical.size() ? op.critical[v] : engine::not_available;
                if (std::isfinite(crit))
                    num(ws, r, 4 + v, crit);
                else
                    str(ws, r, 4 + v, op.bound_first == engine::Bound::unsupported ? "unsupported" : "never",
                        fmt.never);
            }
            bound_cell(r, 4 + sweeps, op.bound_first);
            if (at_points.size() > 1) bound_cell(r, 5 + sweeps, op.bound_last);
        }
    }

    // Per layer.
    ++r;
    str(ws, r++, 0, "Per layer: sum of count x t_lower", fmt.section);
    str(ws, r++, 0,
        "count is the product of the enclosing layer repeat counts; unsupported cases add nothing",
        fmt.note);
    headers = {"layer", "hardware"};
    for (std::size_t p : at_points) headers.push_back(at("t_lower", p));
    for (std::size_t i = 0; i < headers.size(); ++i) str(ws, r, i, headers[i], fmt.header);
    ++r;
    for (std::size_t l = 0; l < sum.layers.size(); ++l) {
        for (std::size_t t = 0; t < targets; ++t, ++r) {
            str(ws, r, 0, sum.layers[l].empty() ? std::string("(top level)") : sum.layers[l],
                sum.layers[l].empty() ? fmt.note : nullptr);
            str(ws, r, 1, ctx.target(t).id);
            for (std::size_t i = 0; i < at_points.size(); ++i)
                num(ws, r, 2 + i, sum.layer_t_lower[(l * 2 + (i == 0 ? 0 : 1)) * targets + t],
                    fmt.time);
        }
    }

    // Whole scenario.
    ++r;
    str(ws, r++, 0, "Whole scenario: sum of count x time over supported cases", fmt.section);
    headers = {"hardware"};
    for (std::size_t p : at_points) headers.push_back(at("t_lower", p));
    for (std::size_t p : at_points) headers.push_back(at("t_upper", p));
    for (std::size_t i = 0; i < headers.size(); ++i) str(ws, r, i, headers[i], fmt.header);
    ++r;
    for (std::size_t t = 0; t < targets; ++t, ++r) {
        str(ws, r, 0, ctx.target(t).id);
        for (std::size_t i = 0; i < at_points.size(); ++i) {
            std::size_t p = at_points[i];
            num(ws, r, 1 + i, sum.t_lower_total[p * targets + t], fmt.time);
            num(ws, r, 1 + at_points.size() + i, sum.t_upper_total[p * targets + t], fmt.time);
        }
    }
    summary_row = r;
}

// ---- Charts ------------------------------------------------------------------------

void XlsxWriter::State::write_charts() {
    lxw_worksheet* ws = charts;
    std::size_t const cap = options.chart_points_per_series;
    // Charts on the left (columns A..N), their data on the right from column P.
    constexpr std::size_t data_col0 = 14, data_row0 = 4, chart_rows = 24;

    struct Series {
        std::size_t target;
        std::string name;
        std::vector<std::pair<double, double>> const* points = nullptr;  // cases
        std::vector<std::pair<double, double>> roof;                     // or a roof
        int roof_index = -1;
        std::size_t col = 0;
        std::size_t size() const { return points ? points->size() : roof.size(); }
        std::pair<double, double> at(std::size_t i) const { return points ? (*points)[i] : roof[i]; }
    };
    struct Plot {
        std::size_t target;
        double x_min, x_max, y_min, y_max;
        std::vector<std::size_t> series;
    };
    std::vector<Series> all;
    std::vector<Plot> plots;
    auto decade_down = [](double v) { return std::pow(10.0, std::floor(std::log10(v))); };
    auto decade_up = [](double v) { return std::pow(10.0, std::ceil(std::log10(v))); };

    for (std::size_t t = 0; t < targets; ++t) {
        auto const& hw = ctx.target(t);
        double lo = INFINITY, hi = 0, ylo = INFINITY, yhi = 0;
        std::vector<std::size_t> slots;
        for (std::size_t k = 0; k < dtypes.size(); ++k) {
            auto peak = hw.peak_for(dtypes[k]);
            if (!peak) continue;
            slots.push_back(k);
            double ridge = *peak / hw.hbm_bytes_per_s;
            lo = std::min(lo, ridge / 4);
            hi = std::max(hi, ridge * 4);
            yhi = std::max(yhi, *peak);
        }
        for (std::size_t m = 0; m < matmuls; ++m)
            for (auto [i, a] : samples[m * targets + t]) {
                lo = std::min(lo, i);
                hi = std::max(hi, i);
                ylo = std::min(ylo, a);
                yhi = std::max(yhi, a);
            }
        if (slots.empty()) continue;  // nothing to plot on this target
        Plot plot{t, decade_down(lo), decade_up(hi), 0, 0, {}};
        if (plot.x_max <= plot.x_min) plot.x_max = plot.x_min * 10;
        ylo = std::min(ylo, hw.hbm_bytes_per_s * plot.x_min);
        plot.y_min = decade_down(ylo);
        plot.y_max = decade_up(yhi * 1.01);
        int roof_index = 0;
        for (std::size_t k : slots) {
            double peak = *hw.peak_for(dtypes[k]);
            double ridge = peak / hw.hbm_bytes_per_s;
            Series sr{t, "roof " + dtype_names[k], nullptr,
                      {{plot.x_min, hw.hbm_bytes_per_s * plot.x_min}, {ridge, peak}, {plot.x_max, peak}},
                      roof_index++};
            plot.series.push_back(all.size());
            all.push_back(std::move(sr));
        }
        for (std::size_t m = 0; m < matmuls; ++m) {
            auto const& pts = samples[m * targets + t];
            if (pts.empty()) continue;
            plot.series.push_back(all.size());
            all.push_back(Series{t, op_label[m], &pts, {}, -1});
        }
        plots.push_back(std::move(plot));
    }

    // The data table, row by row (constant-memory mode).
    str(ws, 0, 0, "Roofline of each target: attained FLOP/s against intensity (FLOP/byte), log-log",
        fmt.section);
    str(ws, 0, data_col0,
        "Chart data: up to " + std::to_string(cap) +
            " sweep points per series, evenly spaced over the sweep (first and last included)",
        fmt.note);
    str(ws, 1, 0,
        "Each matmul's cases as points; the roof is the bandwidth slope up to the ridge, then the "
        "peak.",
        fmt.note);
    std::size_t rows = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i].col = data_col0 + 2 * i;
        rows = std::max(rows, all[i].size());
    }
    for (auto const& sr : all) str(ws, 1, sr.col, ctx.target(sr.target).id, fmt.label);
    for (auto const& sr : all) str(ws, 2, sr.col, sr.name, fmt.label);
    for (auto const& sr : all) {
        str(ws, 3, sr.col, "intensity", fmt.header);
        str(ws, 3, sr.col + 1, "attained", fmt.header);
        width(ws, sr.col, 11);
        width(ws, sr.col + 1, 11);
    }
    for (std::size_t i = 0; i < rows; ++i)
        for (auto const& sr : all)
            if (i < sr.size()) {
                auto [x, y] = sr.at(i);
                num(ws, data_row0 + i, sr.col, x, fmt.ratio);
                num(ws, data_row0 + i, sr.col + 1, y, fmt.sci);
            }

    static constexpr std::uint8_t markers[] = {
        LXW_CHART_MARKER_CIRCLE, LXW_CHART_MARKER_SQUARE, LXW_CHART_MARKER_DIAMOND,
        LXW_CHART_MARKER_TRIANGLE, LXW_CHART_MARKER_X, LXW_CHART_MARKER_PLUS, LXW_CHART_MARKER_STAR};
    // Explicit colours (Tableau 10): viewers differ in their automatic ones.
    static constexpr lxw_color_t palette[] = {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F,
                                              0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F, 0xBAB0AC};
    static constexpr std::uint8_t dashes[] = {LXW_CHART_LINE_DASH_SOLID, LXW_CHART_LINE_DASH_DASH,
                                              LXW_CHART_LINE_DASH_ROUND_DOT,
                                              LXW_CHART_LINE_DASH_LONG_DASH_DOT};
    char const* sheet = "Charts";
    for (std::size_t n = 0; n < plots.size(); ++n) {
        auto const& plot = plots[n];
        auto const& hw = ctx.target(plot.target);
        lxw_chart* chart = workbook_add_chart(wb.get(), LXW_CHART_SCATTER);
        if (!chart) throw WriteError(path + ": adding a chart: out of memory");
        // Names are data: a title that starts with text cannot be read as a
        // formula; series names point at the header cells written above.
        std::string title = "Roofline: " + hw.display_name +
                            (hw.display_name == hw.id ? std::string() : " (" + hw.id + ")");
        chart_title_set_name(chart, title.c_str());
        std::size_t marker = 0;
        for (std::size_t i : plot.series) {
            auto const& sr = all[i];
            lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
            if (!series) throw WriteError(path + ": adding a chart series: out of memory");
            auto first = static_cast<lxw_row_t>(data_row0);
            auto last = static_cast<lxw_row_t>(data_row0 + sr.size() - 1);
            chart_series_set_categories(series, sheet, first, static_cast<lxw_col_t>(sr.col), last,
                                        static_cast<lxw_col_t>(sr.col));
            chart_series_set_values(series, sheet, first, static_cast<lxw_col_t>(sr.col + 1), last,
                                    static_cast<lxw_col_t>(sr.col + 1));
            chart_series_set_name_range(series, sheet, 2, static_cast<lxw_col_t>(sr.col));
            if (sr.roof_index >= 0) {
                lxw_chart_line line{};
                line.color = 0x404040;
                line.width = 1.5f;
                line.dash_type = dashes[static_cast<std::size_t>(sr.roof_index) % std::size(dashes)];
                chart_series_set_line(series, &line);
                chart_series_set_marker_type(series, LXW_CHART_MARKER_NONE);
            } else {
                lxw_chart_line none{};
                none.none = LXW_TRUE;
                chart_series_set_line(series, &none);
                chart_series_set_marker_type(series, markers[marker % std::size(markers)]);
                chart_series_set_marker_size(series, 5);
                lxw_chart_fill fill{};
                fill.color = palette[marker % std::size(palette)];
                chart_series_set_marker_fill(series, &fill);
                lxw_chart_line border{};
                border.color = fill.color;
                chart_series_set_marker_line(series, &border);
                ++marker;
            }
        }
        chart_axis_set_name(chart->x_axis, "intensity (FLOP/byte)");
        chart_axis_set_log_base(chart->x_axis, 10);
        chart_axis_set_min(chart->x_axis, plot.x_min);
        chart_axis_set_max(chart->x_axis, plot.x_max);
        chart_axis_set_num_format(chart->x_axis, "General");
        chart_axis_set_name(chart->y_axis, "attained (FLOP/s)");
        chart_axis_set_log_base(chart->y_axis, 10);
        chart_axis_set_min(chart->y_axis, plot.y_min);
        chart_axis_set_max(chart->y_axis, plot.y_max);
        chart_axis_set_num_format(chart->y_axis, "0E+00");
        chart_axis_set_major_unit(chart->x_axis, 10);  // a gridline per decade
        chart_axis_set_major_unit(chart->y_axis, 10);
        chart_axis_set_crossing_min(chart->x_axis);
        chart_axis_set_crossing_min(chart->y_axis);
        chart_legend_set_position(chart, LXW_CHART_LEGEND_RIGHT);

        lxw_chart_options place{};
        place.x_offset = 10;
        place.y_offset = 10;
        place.x_scale = 1.5;  // 720 x 432 pixels: a landscape page at 100%, with room
                              // for a default font wider than Calibri
        place.y_scale = 1.5;
        check(worksheet_insert_chart_opt(ws, static_cast<lxw_row_t>(3 + n * chart_rows), 0, chart,
                                         &place),
              "inserting the chart of " + hw.id);
    }
    if (plots.empty()) str(ws, 3, 0, "No target supports any compute dtype of the scenario.", fmt.note);
    // Print the charts, not their data, one to a page.
    std::vector<lxw_row_t> breaks;
    for (std::size_t n = 1; n < plots.size() && breaks.size() < 1000; ++n)
        breaks.push_back(static_cast<lxw_row_t>(3 + n * chart_rows));
    breaks.push_back(0);
    check(worksheet_set_h_pagebreaks(ws, breaks.data()), "setting the page breaks of Charts");
    worksheet_set_landscape(ws);
    worksheet_set_print_scale(ws, 80);  // not fit-to-page: that would override the breaks
    check(worksheet_print_area(ws, 0, 0, static_cast<lxw_row_t>(3 + std::max<std::size_t>(plots.size(), 1) * chart_rows),
                               static_cast<lxw_col_t>(data_col0 - 2)),
          "setting the print area of Charts");
}

// ---- closing -------------------------------------------------------------------------

// The direct rows' tail to their file, and their extent to libxlsxwriter,
// which saw only the header rows.
void XlsxWriter::State::finish_rows() {
    if (!direct) return;
    flush_rows();
    std::size_t per_sheet = options.rows_per_cases_sheet;
    for (std::size_t k = 0; k < cases.size(); ++k) {
        std::size_t rows = std::min(per_sheet, next_case - std::min(next_case, k * per_sheet));
        if (rows) cases[k]->dim_rowmax = static_cast<lxw_row_t>(rows);
    }
}

void XlsxWriter::State::close() {
    finish_rows();
    // libxlsxwriter does not check its writes to the temporary files of
    // constant-memory mode: a full disk would silently truncate a sheet.
    std::vector<lxw_worksheet*> sheets = {summary, hardware, charts};
    sheets.insert(sheets.end(), cases.begin(), cases.end());
    for (lxw_worksheet* ws : sheets)
        if (ws->optimize_tmpfile &&
            (std::fflush(ws->optimize_tmpfile) != 0 || std::ferror(ws->optimize_tmpfile)))
            throw WriteError(path + ": writing the temporary data of sheet " + ws->name + " in " +
                             tmpdir + ": " + std::strerror(errno));
    finished = true;
    check(workbook_close(wb.release()), "closing the workbook");
}

XlsxWriter::State::~State() {
    // Unfinished (an error, or the case stream stopped): still a readable file.
    if (wb) {
        try {
            finish_rows();
        } catch (...) {
        }
    }
}

// ---- the interface -----------------------------------------------------------------

XlsxWriter::XlsxWriter(std::string const& path, ReportContext const& context,
                       XlsxOptions const& options)
    : state_(std::make_unique<State>(path, context, options)) {
    state_->open();
}

XlsxWriter::~XlsxWriter() = default;  // State closes an unfinished workbook

void XlsxWriter::add(engine::Case const& c) { state_->add(c); }

void XlsxWriter::finish(Summary const& summary) {
    if (state_->finished) throw std::logic_error("XlsxWriter::finish called twice");
    if (state_->next_case != state_->total_cases)
        throw std::logic_error("XlsxWriter::finish: " + std::to_string(state_->next_case) + " of " +
                               std::to_string(state_->total_cases) + " cases written");
    state_->write_summary_tables(summary);
    state_->write_charts();
    state_->close();
}

}  // namespace roofline::report
