// The cell formats of report.xlsx: number formats and the colours of the
// bound (compute, memory, onchip, network, unsupported).

#include "xlsx_state.hpp"

namespace roofline::report {

namespace {

// FLOPs, bytes, FLOP/s, B/s (the unit in the header): an SI prefix from a
// billion, as vendors quote them ("989.00 T" FLOP/s, "3.35 T" B/s, "80.00 G"
// B), exact with thousands separators below ("16,384" B). Each trailing comma
// divides the shown number by 1000; the cell keeps the value in base units.
constexpr char const* sci_format = "[>=1E12]#,##0.00,,,,\" T\";[>=1E9]#,##0.00,,,\" G\";#,##0";
constexpr char const* fraction_format = "0.0%";         // attained / peak
// Joules, as seconds are (output/workbook.cpp): 3 decimals from 1 J, 5 from
// 1 mJ, a power of ten below (a decode step's op draws microjoules).
constexpr char const* energy_format = "[>=1]#,##0.000\" J\";[>=0.001]0.00000\" J\";##0.00E+0\" J\"";
// Bytes in GB (10^9: each trailing comma divides by 1000), as hbm_capacity is
// usually quoted; in MB from 10^6, and whole bytes below (a KV cache's bytes
// per token, a few KB, read "0.00 GB" before).
constexpr char const* bytes_format = "[>=1E9]#,##0.00,,,\" GB\";[>=1E6]#,##0.00,,\" MB\";#,##0\" B\"";
constexpr char const* whole_format = "#,##0";   // chips, tokens
constexpr char const* rate_format = "#,##0.0";  // tokens/s

// Colours: blue for compute-bound, orange for memory-bound (tell apart also
// for the common colour-vision deficiencies), grey for unsupported.
constexpr lxw_color_t compute_tint = 0xDDEBF7, compute_strong = 0x9BC2E6, compute_ink = 0x1F3864;
constexpr lxw_color_t memory_tint = 0xFCE4D6, memory_strong = 0xF4B084, memory_ink = 0x833C0B;
// Green for on-chip-bound and purple for network-bound: the levels past
// HBM, each its own hue, lighter than the bound text they carry.
constexpr lxw_color_t onchip_tint = 0xE2EFDA, onchip_strong = 0xA9D08E, onchip_ink = 0x375623;
constexpr lxw_color_t network_tint = 0xE4DFEC, network_strong = 0xB4A7D6, network_ink = 0x3F3151;
constexpr lxw_color_t muted_text = 0x808080;

}  // namespace

// ---- formats -------------------------------------------------------------------

void XlsxWriter::State::make_formats() {
    auto& F = fmt;
    auto const& common = book->formats();
    F.title = common.title;
    F.label = common.bold;
    F.section = add_format();
    format_set_bold(F.section);
    format_set_font_size(F.section, 12);
    F.header = common.header;
    F.header_number = common.header_number;
    F.note = common.note;
    F.sci = number_format(sci_format);
    F.ratio = common.ratio;
    F.time = common.time;
    F.fraction = number_format(fraction_format);
    F.energy = number_format(energy_format);
    F.bytes = number_format(bytes_format);
    F.whole = number_format(whole_format);
    F.rate = number_format(rate_format);
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
    F.onchip = bound_cell(onchip_strong, onchip_ink);
    F.network = bound_cell(network_strong, network_ink);
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
    // A bound's own cell: strongly tinted, its ink in bold.
    auto strong = [&](auto fill, auto ink) {
        lxw_format* f = tint(fill);
        format_set_font_color(f, ink);
        format_set_bold(f);
        return f;
    };
    F.cf_compute_cell = strong(compute_strong, compute_ink);
    F.cf_memory_cell = strong(memory_strong, memory_ink);
    F.cf_onchip_row = tint(onchip_tint);
    F.cf_network_row = tint(network_tint);
    F.cf_onchip_cell = strong(onchip_strong, onchip_ink);
    F.cf_network_cell = strong(network_strong, network_ink);
    F.cf_unsupported_cell = add_format();
    format_set_font_color(F.cf_unsupported_cell, muted_text);
    format_set_italic(F.cf_unsupported_cell);
}

}  // namespace roofline::report
