#include "roofline/report/xlsx_writer.hpp"

#include "xlsx_state.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace roofline::report {

namespace {

// Fixed document time (2000-01-01T00:00:00Z). The report's creation time is
// in manifest.json only: two runs of the same inputs give the same bytes.
constexpr std::time_t document_time = 946684800;

}  // namespace

using xlsx_detail::column_letters;
using xlsx_detail::direct_rows_supported;
using xlsx_detail::Style;

// ---- opening ----------------------------------------------------------------

void XlsxWriter::State::open() {
    auto const& grid = ctx.grid;
    targets = grid.target_count;
    sweeps = grid.sweep_count;
    points = grid.point_count;
    matmuls = grid.op_count;
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

    // Sheet order: Summary, Steps, Hardware, Cases..., Charts. Every Cases sheet is
    // created now (the case count is known) so that Charts comes last.
    summary = add_sheet("Summary");
    steps = add_sheet("Steps");
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

// The scenario flattened once: compute dtypes, the columns of Cases and
// Hardware, the cells' texts and styles.
void XlsxWriter::State::layout() {
    auto const& s = ctx.scenario;
    dtypes = ctx.compute_dtypes();
    for (int d : dtypes) dtype_names.push_back(ctx.dtype_name(d));
    for (auto const& m : s.ops) {
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
        capacity_ref.push_back(hw.hbm_capacity_bytes ? "Hardware!$D$" + row : std::string());
    }
    for (auto const& m : s.ops) {
        op_text.emplace_back(m.name);
        layer_text.emplace_back(m.layer);
    }
    for (auto const& d : dtype_names) dtype_text.emplace_back(d);
    row_spans = "\" spans=\"1:" + std::to_string(c.last + 1) + "\">";
    layout_steps();

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

// ---- closing -------------------------------------------------------------------------

void XlsxWriter::State::close() {
    finish_rows();
    // libxlsxwriter does not check its writes to the temporary files of
    // constant-memory mode: a full disk would silently truncate a sheet.
    std::vector<lxw_worksheet*> sheets = {summary, steps, hardware, charts};
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
    state_->write_steps(summary);
    state_->write_charts();
    state_->close();
}

}  // namespace roofline::report
