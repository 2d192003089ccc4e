#include "roofline/report/requests_csv.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace roofline::report {

std::string_view request_fits(ReportContext const& context, engine::RequestResult const& result) {
    auto const& capacity = context.target(result.target).hbm_capacity_bytes;
    if (!capacity) return "";
    return result.weight_bytes + result.cache_bytes <= *capacity ? "yes" : "no";
}

void write_requests_csv(std::string const& path, ReportContext const& context) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                          &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    auto const& scenario = context.scenario;
    auto const& grid = context.grid;
    output::CsvRows rows(file.get(), "cannot write requests.csv");
    rows.text("request");
    rows.text("hardware");
    for (auto const& sweep : scenario.sweeps) rows.text(sweep.name);
    for (char const* header :
         {"prompt", "output", "batch", "ttft", "tpot_first", "tpot_mean", "tpot_last",
          "decode_total", "e2e", "tokens_per_s", "weight_bytes", "cache_bytes", "resident_bytes",
          "hbm_capacity", "fits"})
        rows.text(header);
    rows.end_row();
    if (context.requests) {
        for (auto const& r : *context.requests) {
            auto const& hw = context.target(r.target);
            rows.text(scenario.requests[r.request].name);
            rows.text(hw.id);
            for (std::size_t v = 0; v < grid.sweep_count; ++v) {
                double value = grid.sweep_value(r.point, v);
                if (auto const* dtype = scenario.sweep_dtype_name(v, value)) rows.text(*dtype);
                else rows.number(value);
            }
            for (double value : {r.prompt, r.output, r.batch, r.ttft, r.tpot_first, r.tpot_mean,
                                 r.tpot_last, r.decode_total, r.e2e, r.tokens_per_s,
                                 r.weight_bytes, r.cache_bytes, r.weight_bytes + r.cache_bytes})
                rows.number(value);
            rows.number(hw.hbm_capacity_bytes ? *hw.hbm_capacity_bytes : NAN);
            rows.text(request_fits(context, r));
            rows.end_row();
        }
    }
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace roofline::report
