#include "tables.hpp"

#include "output/csv_rows.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>

namespace roofline::validation {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

Value ms(double seconds) { return Value::of(seconds * 1e3); }
Value whole(double v) { return Value::of(v); }

// The key's columns, as rows.csv, skipped.csv and memory.csv begin.
std::vector<Column> key_columns(bool full) {
    std::vector<Column> c = {{"id", "id", Cell::text},
                             {"line", "line", Cell::whole},
                             {"model", "model", Cell::text},
                             {"system", "chip", Cell::text},
                             {"backend", "backend", Cell::text}};
    if (full)
        c.insert(c.end(), {{"backend_version", "backend version", Cell::text},
                           {"mode", "mode", Cell::text},
                           {"precision", "precision", Cell::text},
                           {"layout", "layout", Cell::text},
                           {"isl", "ISL", Cell::whole},
                           {"osl", "OSL", Cell::whole},
                           {"batch", "batch", Cell::whole}});
    return c;
}

std::vector<Value> key_values(calibrate::RowKey const& k, bool full) {
    std::vector<Value> v = {Value::of(k.id), whole(k.line), Value::of(k.model), Value::of(k.system),
                            Value::of(k.backend)};
    if (full)
        v.insert(v.end(), {Value::of(k.backend_version), Value::of(k.mode), Value::of(k.precision),
                           Value::of(k.layout), whole(k.isl), whole(k.osl), whole(k.batch)});
    return v;
}

}  // namespace

std::string percent(double fraction, bool sign) {
    if (std::isnan(fraction)) return "-";
    char text[32];
    std::snprintf(text, sizeof text, sign ? "%+.1f%%" : "%.1f%%", fraction * 100);
    return text;
}

Table rows_table(calibrate::Validation const& validation) {
    Table t{"rows.csv", "Rows", key_columns(true), {}};
    for (char const* figure : {"ttft", "tpot"}) {
        std::string const f = figure, F = f == "ttft" ? "TTFT" : "TPOT";
        t.columns.insert(t.columns.end(), {{"measured_" + f + "_ms", F + " measured (ms)", Cell::ms},
                                           {"predicted_" + f + "_ms", F + " predicted (ms)", Cell::ms},
                                           {"roofline_" + f + "_ms", F + " roofline (ms)", Cell::ms},
                                           {f + "_error", F + " error", Cell::signed_fraction}});
    }
    t.columns.insert(t.columns.end(), {{"calibration", "calibration", Cell::text},
                                       {"fits_memory", "fits memory", Cell::text},
                                       {"fold", "fold", Cell::whole}});
    for (auto const& r : validation.rows) {
        auto v = key_values(r.key, true);
        v.insert(v.end(), {ms(r.measured_ttft_s), ms(r.predicted_ttft_s), ms(r.roofline_ttft_s),
                           Value::of(signed_error(r.predicted_ttft_s, r.measured_ttft_s)),
                           ms(r.measured_tpot_s), ms(r.predicted_tpot_s), ms(r.roofline_tpot_s),
                           Value::of(signed_error(r.predicted_tpot_s, r.measured_tpot_s)),
                           Value::of(r.calibration), Value::of(r.fits_memory ? "yes" : "no"),
                           whole(r.fold < 0 ? nan : r.fold + 1)});  // 1..K, as in "(fold k)"
        t.rows.push_back(std::move(v));
    }
    return t;
}

Table groups_table(std::vector<Group> const& groups) {
    Table t{"groups.csv", "Groups",
            {{"level", "level", Cell::text},
             {"system", "chip", Cell::text},
             {"backend", "backend", Cell::text},
             {"model", "model", Cell::text},
             {"rows", "rows", Cell::whole}},
            {}};
    for (char const* figure : {"ttft", "tpot"}) {
        std::string const f = figure, F = f == "ttft" ? "TTFT" : "TPOT";
        t.columns.insert(t.columns.end(), {{f + "_rows", F + " rows", Cell::whole},
                                           {f + "_median_ape", F + " median APE", Cell::fraction},
                                           {f + "_mean_ape", F + " mean APE", Cell::fraction},
                                           {f + "_signed_median", F + " signed median", Cell::signed_fraction}});
    }
    for (auto const& g : groups) {
        std::vector<Value> v = {Value::of(level_name(g.level)), Value::of(g.system),
                                Value::of(g.backend), Value::of(g.model),
                                whole(static_cast<double>(g.rows))};
        for (auto const* s : {&g.ttft, &g.tpot}) {
            bool const any = s->count > 0;
            v.insert(v.end(), {whole(static_cast<double>(s->count)), Value::of(any ? s->median_ape : nan),
                               Value::of(any ? s->mean_ape : nan), Value::of(any ? s->signed_median : nan)});
        }
        t.rows.push_back(std::move(v));
    }
    return t;
}

Table skipped_table(calibrate::Validation const& validation) {
    Table t{"skipped.csv", "Skipped", key_columns(false), {}};
    t.columns.push_back({"reason", "reason", Cell::text});
    for (auto const& s : validation.skipped) {
        auto v = key_values(s.key, false);
        v.push_back(Value::of(s.reason));
        t.rows.push_back(std::move(v));
    }
    return t;
}

Table memory_table(calibrate::Validation const& validation) {
    Table t{"memory.csv", "Memory", key_columns(true), {}};
    t.columns.insert(t.columns.end(), {{"measured_tpot_ms", "TPOT measured (ms)", Cell::ms},
                                       {"predicted_tpot_ms", "TPOT predicted (ms)", Cell::ms},
                                       {"calibration", "calibration", Cell::text}});
    for (auto const* r : memory_disagreements(validation)) {
        auto v = key_values(r->key, true);
        v.insert(v.end(), {ms(r->measured_tpot_s), ms(r->predicted_tpot_s), Value::of(r->calibration)});
        t.rows.push_back(std::move(v));
    }
    return t;
}

void write_csv(std::string const& folder, Table const& table) {
    auto const path = (std::filesystem::path(folder) / table.file).string();
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!file) throw std::runtime_error("cannot create '" + path + "': " + std::strerror(errno));
    output::CsvRows rows(file.get(), "cannot write " + table.file);
    for (auto const& c : table.columns) rows.text(c.name);
    rows.end_row();
    for (auto const& row : table.rows) {
        for (auto const& v : row) {
            if (v.is_text) rows.text(v.text);
            else rows.number(v.number);
        }
        rows.end_row();
    }
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || std::fclose(file.release()) != 0)
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace roofline::validation
