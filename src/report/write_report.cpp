#include "write_report.hpp"

#include "roofline/report/chart_writer.hpp"
#include "roofline/report/csv_writer.hpp"
#include "kernels_csv_writer.hpp"
#include "requests_csv.hpp"
#include "serve_csv.hpp"
#include "roofline/report/xlsx_writer.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>

namespace roofline::report {
namespace fs = std::filesystem;

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_csv(std::string const& path) {
    File file(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    return file;
}

void close_csv(File& file, std::string const& path) {
    if (std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

// cases.csv, and kernels.csv when the scenario has a kernel, from one pass.
void write_csv(std::string const& folder, ReportContext const& context, ProgressObserver* progress) {
    // Each buffer outlives its file: a file closed on an error still flushes into it.
    std::vector<char> buffer(1 << 20), kernels_buffer;
    auto csv_path = (fs::path(folder) / "cases.csv").string();
    File csv_file = open_csv(csv_path);
    std::setvbuf(csv_file.get(), buffer.data(), _IOFBF, buffer.size());
    CsvWriter csv(csv_file.get(), context);
    auto kernels_path = (fs::path(folder) / "kernels.csv").string();
    File kernels_file(nullptr, &std::fclose);
    std::optional<KernelsCsvWriter> kernels;
    if (has_kernels(context.scenario)) {
        kernels_file = open_csv(kernels_path);
        kernels_buffer.resize(1 << 20);
        std::setvbuf(kernels_file.get(), kernels_buffer.data(), _IOFBF, kernels_buffer.size());
        kernels.emplace(kernels_file.get(), context);
    }
    // The first pass succeeded, so this one cannot fail on a value.
    Diagnostics unused;
    std::size_t const total = context.grid.case_count();
    if (progress) progress->begin(Phase::csv, total);
    std::size_t done = 0;
    engine::stream_cases(context.scenario, context.grid, unused, [&](engine::Case const& c) {
        csv.add(c);
        if (kernels) kernels->add(c);
        if (progress && (++done & 4095) == 0) progress->advance(Phase::csv, done);
    });
    csv.flush();
    close_csv(csv_file, csv_path);
    if (kernels) {
        kernels->flush();
        close_csv(kernels_file, kernels_path);
    }
    if (progress) {
        progress->advance(Phase::csv, total);
        progress->end(Phase::csv);
    }
}

bool has_fleet(ReportContext const& context) { return context.fleet && !context.fleet->empty(); }

}  // namespace

bool write_report(std::string const& folder, ReportContext const& context,
                  WriteOptions const& options, Diagnostics& diagnostics,
                  std::vector<std::string>& written) {
    std::optional<XlsxWriter> xlsx;
    if (options.xlsx) xlsx.emplace((fs::path(folder) / "report.xlsx").string(), context);
    SummaryBuilder summary(context);
    std::unique_ptr<ChartData> chart_data;
    if (options.charts) chart_data = std::make_unique<ChartData>(context);

    ProgressObserver* const progress = options.progress;
    std::size_t const total = context.grid.case_count();
    if (progress) progress->begin(Phase::evaluating, total);
    std::size_t done = 0;
    bool ok = engine::stream_cases(context.scenario, context.grid, diagnostics,
                                   [&](engine::Case const& c) {
                                       if (xlsx) xlsx->add(c);
                                       summary.add(c);
                                       if (chart_data) chart_data->add(c);
                                       if (progress && (++done & 1023) == 0)
                                           progress->advance(Phase::evaluating, done);
                                   });
    if (!ok) return false;
    if (progress) {
        progress->advance(Phase::evaluating, total);
        progress->end(Phase::evaluating);
    }

    // The summary is complete once the pass is: from here on both cores only
    // read it.
    Summary const& totals = summary.summary();

    // Closing the workbook (deflating its XML) is the long, single-threaded
    // part of a run. The other core meanwhile renders the charts and writes
    // cases.csv from a second pass over the cases: evaluating again costs a
    // fraction of formatting the rows, and keeping them would cost memory.
    // Percent, since the workbook's end is an estimate (Workbook::close).
    if (progress && xlsx) progress->begin(Phase::workbook, 100);
    auto other_core = std::async(std::launch::async, [&] {
        if (chart_data)
            render_charts((fs::path(folder) / "charts").string(), context, *chart_data, totals,
                          progress);
        if (!options.csv) return;
        write_csv(folder, context, progress);
        if (context.has_requests())
            write_requests_csv((fs::path(folder) / "requests.csv").string(), context);
        if (context.has_serve()) write_serve_csv((fs::path(folder) / "serve.csv").string(), context);
        if (has_fleet(context)) write_fleet_csv((fs::path(folder) / "fleet.csv").string(), context);
    });
    std::exception_ptr xlsx_error;
    try {
        std::function<void(double)> on_close;
        if (progress)
            on_close = [progress](double fraction) {
                progress->advance(Phase::workbook, static_cast<std::size_t>(fraction * 100));
            };
        if (xlsx) xlsx->finish(totals, on_close);
        if (progress && xlsx) {
            progress->advance(Phase::workbook, 100);
            progress->end(Phase::workbook);
        }
    } catch (...) {
        xlsx_error = std::current_exception();
    }
    other_core.get();  // rethrows a chart or CSV error
    if (xlsx_error) std::rethrow_exception(xlsx_error);
    if (options.csv) {
        written.push_back("cases.csv");
        if (has_kernels(context.scenario)) written.push_back("kernels.csv");
        if (context.has_requests()) written.push_back("requests.csv");
        if (context.has_serve()) written.push_back("serve.csv");
        if (has_fleet(context)) written.push_back("fleet.csv");
    }
    if (xlsx) written.push_back("report.xlsx");
    if (chart_data) {
        std::vector<std::string> chart_files;
        for (auto const& entry : fs::directory_iterator(fs::path(folder) / "charts"))
            chart_files.push_back("charts/" + entry.path().filename().string());
        std::sort(chart_files.begin(), chart_files.end());
        written.insert(written.end(), chart_files.begin(), chart_files.end());
    }
    if (options.summary) *options.summary = totals;
    return true;
}

}  // namespace roofline::report
