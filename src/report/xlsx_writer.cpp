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

using output::column_letters;

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

    output::DocumentProperties properties;
    properties.title = ctx.scenario.title.empty() ? ctx.info.name : ctx.scenario.title;
    properties.subject =
        "roofline report " + ctx.info.name + " v" + std::to_string(ctx.info.version);
    properties.author = "roofline " + ctx.info.tool_version;
    properties.comments = "inputs SHA-256 " + ctx.info.inputs_sha256;
    // ZIP64 from a few million cases, where offsets could pass 4 GB.
    book.emplace(path, properties, total_cases > 4'000'000);

    make_formats();
    layout();

    // Sheet order: Summary, Steps, Requests, Serve, Fleet (if any), Hardware, Cases..., Charts. Every
    // Cases sheet is created now (the case count is known) so that Charts comes last.
    summary = add_sheet("Summary");
    steps = add_sheet("Steps");
    if (ctx.has_requests()) requests = add_sheet("Requests");
    if (ctx.has_serve()) serve = add_sheet("Serve");
    if (ctx.fleet && !ctx.fleet->empty()) fleet = add_sheet("Fleet");
    hardware = add_sheet("Hardware");
    std::size_t per_sheet = options.rows_per_cases_sheet;
    std::size_t sheets = std::max<std::size_t>(1, (total_cases + per_sheet - 1) / per_sheet);
    for (std::size_t s = 0; s < sheets; ++s) {
        cases_names.push_back(s == 0 ? std::string("Cases") : "Cases (" + std::to_string(s + 1) + ")");
        cases.push_back(add_sheet(cases_names.back()));
    }
    open_kernels();
    charts = add_sheet("Charts");

    samples.resize(matmuls * targets);
    off_log.resize(matmuls * targets);
    write_hardware();
    write_cases_headers();
    write_kernels_headers();
    write_summary_head();
}

// The scenario flattened once: compute dtypes, the columns of Cases and
// Hardware, the cells' texts and styles.
void XlsxWriter::State::layout() {
    auto const& s = ctx.scenario;
    dtypes = ctx.compute_dtypes();
    for (int d : dtypes) dtype_names.push_back(ctx.dtype_name(d));
    slot_of.assign(s.dtypes.size(), 0);
    for (std::size_t k = 0; k < dtypes.size(); ++k) slot_of[static_cast<std::size_t>(dtypes[k])] = k;
    for (auto const& m : s.ops) {
        std::string names;
        for (int d : s.compute_dtypes_of(m)) names.append(names.empty() ? "" : ", ").append(ctx.dtype_name(d));
        op_dtypes.push_back(std::move(names));
        op_label.push_back(m.layer.empty() ? m.name : m.layer + "/" + m.name);
    }

    layout_cases();

    hw_columns = hardware_columns(dtype_names);
    std::vector<model::Hardware const*> chips;
    for (std::size_t t = 0; t < targets; ++t) {
        chips.push_back(&ctx.target(t));
    }
    hw_cells = hardware_cells(hw_columns, chips, dtypes);
    auto refs = [&](std::string_view field) { return hw_cells.refs[model::hardware_field_index(field)]; };
    bw_ref = refs("hbm_bandwidth");
    onchip_ref = refs("onchip_bandwidth");
    peak_ref = refs("peak");
    capacity_ref = refs("hbm_capacity");
    layout_steps();
}

// ---- closing -------------------------------------------------------------------------

void XlsxWriter::State::close(std::function<void(double)> const& progress) {
    rows->finish();
    if (kernels_sheet.rows) kernels_sheet.rows->finish();
    finished = true;
    book->close(progress);
}

XlsxWriter::State::~State() {
    // Unfinished (an error, or the case stream stopped): still a readable file.
    if (book && !book->closed() && rows) {
        try {
            rows->finish();
            if (kernels_sheet.rows) kernels_sheet.rows->finish();
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

void XlsxWriter::finish(Summary const& summary, std::function<void(double)> const& progress) {
    if (state_->finished) throw std::logic_error("XlsxWriter::finish called twice");
    if (state_->next_case != state_->total_cases)
        throw std::logic_error("XlsxWriter::finish: " + std::to_string(state_->next_case) + " of " +
                               std::to_string(state_->total_cases) + " cases written");
    state_->write_summary_tables(summary);
    state_->write_steps(summary);
    state_->write_requests();
    state_->write_serve();
    state_->write_charts();
    state_->close(progress);
}

}  // namespace roofline::report
