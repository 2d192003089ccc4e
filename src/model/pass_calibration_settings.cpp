// A calibration block's settings (docs/language.md, 9.8): efficiencies as
// plain fractions of the peak, latencies and overheads in seconds, the
// admission wait in steps, each checked at its word or value. The block
// itself and `target HW with NAME` are pass_calibrations.cpp's.
#include "passes.hpp"

#include "roofline/lang/suggest.hpp"
#include "roofline/model/expr.hpp"
#include "roofline/model/units.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace roofline::model {

namespace {

// A measured kernel may beat a catalog's peak a little (a datasheet rounds
// down, a clock boosts), so an efficiency may pass 1; far past it is a typo.
constexpr double max_efficiency = 1.5;

std::vector<std::string_view> const setting_names = {
    "source",         "efficiency",        "latency",          "launch",          "step_overhead",
    "layer_overhead", "sequence_overhead", "prefill_overhead", "request_overhead",
    "stream_overhead", "admission_wait", "cold_start", "first_token_steps", "prompt_token_overhead",
    "request_launch"};
// The classes that take `efficiency CLASS DTYPE` and `efficiency CLASS hbm`;
// a collective's factor is `efficiency network`.
std::vector<std::string_view> const class_names = {"gemm", "attention", "elementwise", "expert"};
std::vector<std::string_view> const time_units = {"s", "ms", "us", "ns"};

// One calibration block's settings into `cal`.
struct SettingsChecker {
    Context const& context;
    Constants const& constant;
    Scenario const& scenario;
    ParsedFile const& file;
    Calibration& cal;
    std::map<std::string, Span> given;  // "efficiency gemm bf16" -> where first given

    Diagnostics& diagnostics() const { return context.diagnostics; }
    Span span(boost::spirit::x3::position_tagged const& node) const { return file.span_of(node); }

    // From the key to its last word: what a repeated setting's error marks.
    Span words_span(ast::CalibrationSetting const& s) const {
        Span at = span(s.key);
        if (!s.qualifiers.empty()) {
            Span last = span(s.qualifiers.back());
            at.length = last.offset + last.length - at.offset;
        }
        return at;
    }

    // Whether `what` ("efficiency gemm bf16") is given here for the first time;
    // else an error with a note at the first.
    bool first_time(ast::CalibrationSetting const& s, std::string const& what) {
        Span at = words_span(s);
        auto [it, inserted] = given.emplace(what, at);
        if (!inserted)
            diagnostics()
                .error(at, "'" + what + "' is given twice in calibration '" + cal.name + "'")
                .notes.push_back(Diagnostics::note(it->second, "first given here"));
        return inserted;
    }

    bool no_words(ast::CalibrationSetting const& s) const {
        if (s.qualifiers.empty()) return true;
        diagnostics().error(span(s.qualifiers.front()),
                            "'" + s.key.name + "' takes no words between it and '='");
        return false;
    }

    // The value as a constant number, with its unit if it has one (nullptr: none).
    std::optional<double> number(ast::CalibrationSetting const& s, ast::Unit const*& unit,
                                 std::string const& what) const {
        auto const* quantity = boost::get<ast::Quantity>(&s.value);
        if (!quantity) {
            diagnostics().error(span(boost::get<ast::String>(s.value)), what + " is a number, not a string");
            return std::nullopt;
        }
        unit = quantity->unit ? &*quantity->unit : nullptr;
        return constant(file, quantity->value, what.c_str());
    }
    Span value_span(ast::CalibrationSetting const& s) const {
        return span(boost::get<ast::Quantity>(s.value).value);
    }

    // The value as a plain number, or nullopt after an error (at a unit:
    // `is` says what the number is, as in "an efficiency is a fraction of
    // the peak").
    std::optional<double> plain(ast::CalibrationSetting const& s, std::string const& what,
                                std::string const& is) const {
        ast::Unit const* unit = nullptr;
        auto value = number(s, unit, "'" + what + "'");
        if (value && unit) {
            diagnostics().error(span(*unit), is + ", a plain number, not '" + unit->text + "'");
            return std::nullopt;
        }
        return value;
    }

    // `efficiency ... = E`: a plain number in (0, max_efficiency].
    std::optional<double> efficiency(ast::CalibrationSetting const& s, std::string const& what) const {
        auto value = plain(s, what, "an efficiency is a fraction of the peak");
        if (!value) return std::nullopt;
        if (!(*value > 0 && *value <= max_efficiency)) {
            diagnostics().error(value_span(s), "an efficiency must be above 0 and at most " +
                                                   format_number(max_efficiency) + ", not " +
                                                   format_number(*value));
            return std::nullopt;
        }
        return value;
    }

    // A time (latency, launch, the overheads): a unit of seconds, at least 0, finite.
    std::optional<double> seconds(ast::CalibrationSetting const& s, std::string const& what) const {
        ast::Unit const* unit = nullptr;
        auto value = number(s, unit, "'" + what + "'");
        if (!value) return std::nullopt;
        if (!unit) {
            diagnostics().error(value_span(s), "'" + what + "' is a time: write a unit, e.g. '" +
                                                   format_number(*value) + " us'");
            return std::nullopt;
        }
        auto found = find_unit(unit->text);
        if (!found || found->family != UnitFamily::seconds) {
            diagnostics().error(span(*unit), "'" + what + "' is a time (s, ms, us or ns), not '" + unit->text +
                                                 "'" + did_you_mean(unit->text, time_units));
            return std::nullopt;
        }
        double base = found->to_base(*value);
        if (!(base >= 0) || std::isinf(base)) {
            diagnostics().error(value_span(s), "'" + what + "' must be at least 0 and finite, not " +
                                                   format_number(*value));
            return std::nullopt;
        }
        if (auto problem = range_problem(UnitFamily::seconds, base); problem && base > 0) {
            diagnostics().error(value_span(s), "'" + what + "' must be 0 or " + *problem);
            return std::nullopt;
        }
        return base;
    }

    // A count of steps (admission_wait, first_token_steps): a plain number,
    // at least 0, finite; `meaning` says what it counts.
    std::optional<double> steps(ast::CalibrationSetting const& s, std::string const& what,
                                std::string const& meaning) const {
        auto value = plain(s, what, "'" + what + "' is " + meaning);
        if (!value) return std::nullopt;
        if (!(*value >= 0) || std::isinf(*value)) {
            diagnostics().error(value_span(s), "'" + what + "' must be at least 0 and finite, not " +
                                                   format_number(*value));
            return std::nullopt;
        }
        return value;
    }

    // A share (cold_start): a plain number from 0 to 1.
    std::optional<double> share(ast::CalibrationSetting const& s, std::string const& what) const {
        auto value = plain(s, what, "'" + what + "' is a share of the requests");
        if (!value) return std::nullopt;
        if (!(*value >= 0 && *value <= 1)) {
            diagnostics().error(value_span(s), "'" + what + "' is a share: from 0 to 1, not " + format_number(*value));
            return std::nullopt;
        }
        return value;
    }

    // The class of `efficiency CLASS ...`, or nullopt after an error.
    std::optional<OpClass> op_class(ast::Identifier const& word) const {
        for (auto c : {OpClass::gemm, OpClass::attention, OpClass::elementwise, OpClass::expert})
            if (word.name == op_class_name(c)) return c;
        if (word.name == op_class_name(OpClass::collective))
            diagnostics().error(span(word), "the collective class has no math or HBM efficiency; a "
                                            "collective's bandwidth factor is 'efficiency network'");
        else
            diagnostics().error(span(word), "unknown op class '" + word.name +
                                                "' (the classes are gemm, attention, elementwise and expert)" +
                                                did_you_mean(word.name, class_names));
        return std::nullopt;
    }

    void efficiency_setting(ast::CalibrationSetting const& s) {
        auto const& words = s.qualifiers;
        if (words.empty() || words.size() > 2) {
            Span at = words.empty() ? span(s.key) : span(words[2]);
            diagnostics().error(at, "an efficiency is 'efficiency CLASS DTYPE', 'efficiency CLASS hbm' or "
                                    "'efficiency hbm|onchip|network' (CLASS: gemm, attention, elementwise, expert)");
            return;
        }
        if (words.size() == 1) {
            auto const& word = words[0].name;
            std::optional<double>* target = word == "hbm"      ? &cal.hbm
                                            : word == "onchip"  ? &cal.onchip
                                            : word == "network" ? &cal.network
                                                                : nullptr;
            if (!target) {
                bool is_class = std::find(class_names.begin(), class_names.end(), word) != class_names.end();
                if (is_class)
                    diagnostics().error(span(words[0]), "'efficiency " + word + "' needs a dtype or 'hbm' after "
                                                        "the class, as in 'efficiency " + word + " bf16 = 0.8'");
                else if (word == op_class_name(OpClass::collective))
                    op_class(words[0]);
                else
                    diagnostics().error(span(words[0]),
                                        "unknown efficiency '" + word +
                                            "': write hbm, onchip, network, or a class (gemm, attention, "
                                            "elementwise, expert) and a dtype or 'hbm'" +
                                            did_you_mean(word, {"hbm", "onchip", "network", "gemm", "attention",
                                                                "elementwise", "expert"}));
                return;
            }
            std::string what = "efficiency " + word;
            if (!first_time(s, what)) return;
            *target = efficiency(s, what);
            return;
        }
        auto cls = op_class(words[0]);
        if (!cls) return;
        auto const& second = words[1].name;
        std::string what = "efficiency " + words[0].name + " " + second;
        if (second == "hbm") {
            if (!first_time(s, what)) return;
            if (auto e = efficiency(s, what)) cal.hbm_by_class.push_back({*cls, *e, words_span(s)});
            return;
        }
        auto const& dtypes = scenario.dtypes;
        if (std::none_of(dtypes.begin(), dtypes.end(), [&](Dtype const& d) { return d.name == second; })) {
            std::vector<std::string_view> names;
            for (auto const& d : dtypes) names.push_back(d.name);
            diagnostics().error(span(words[1]), "unknown dtype '" + second + "'" + did_you_mean(second, names));
            return;
        }
        if (!first_time(s, what)) return;
        if (auto e = efficiency(s, what)) cal.math.push_back({*cls, second, *e, words_span(s)});
    }

    void latency_setting(ast::CalibrationSetting const& s) {
        auto const& words = s.qualifiers;
        if (words.size() != 2) {
            diagnostics().error(span(s.key), "a latency is 'latency KIND LINK = TIME', as in 'latency allreduce "
                                             "nvlink = 14 us'");
            return;
        }
        auto const* info = find_collective(words[0].name);
        if (!info) {
            std::vector<std::string_view> kinds;
            for (auto const& c : collective_table) kinds.push_back(c.name);
            diagnostics().error(span(words[0]), "unknown collective '" + words[0].name + "' (the collectives are " +
                                                    collective_names() + ")" + did_you_mean(words[0].name, kinds));
            return;
        }
        auto const& link_word = words[1].name;
        std::optional<Link> link = link_word == "ici"      ? std::optional(Link::ici)
                                   : link_word == "nvlink" ? std::optional(Link::nvlink)
                                   : link_word == "dcn"    ? std::optional(Link::dcn)
                                                           : std::nullopt;
        if (!link) {
            diagnostics().error(span(words[1]), "unknown link '" + link_word + "' (ici, nvlink or dcn)" +
                                                    did_you_mean(link_word, {"ici", "nvlink", "dcn"}));
            return;
        }
        std::string what = "latency " + words[0].name + " " + link_word;
        if (!first_time(s, what)) return;
        if (auto t = seconds(s, what)) cal.latencies.push_back({info->kind, *link, *t, words_span(s)});
    }

    void setting(ast::CalibrationSetting const& s) {
        auto const& key = s.key.name;
        if (key == "efficiency") return efficiency_setting(s);
        if (key == "latency") return latency_setting(s);
        if (key == "source") {
            if (!no_words(s) || !first_time(s, key)) return;
            auto const* text = boost::get<ast::String>(&s.value);
            if (!text) {
                diagnostics().error(value_span(s), "the source is text in quotes, as in source = \"fit of "
                                                   "serving.csv, 604 rows\"");
                return;
            }
            if (within_limit(diagnostics(), text->value, max_text_bytes, span(*text), "source"))
                cal.source = text->value;
            return;
        }
        if (key == "admission_wait") {
            if (!no_words(s) || !first_time(s, key)) return;
            if (auto w = steps(s, key, "steps per sequence in flight")) cal.admission_wait = *w;
            return;
        }
        if (key == "first_token_steps") {
            if (!no_words(s) || !first_time(s, key)) return;
            if (auto w = steps(s, key, "steps a first token waits")) cal.first_token_steps = *w;
            return;
        }
        if (key == "cold_start") {
            if (!no_words(s) || !first_time(s, key)) return;
            if (auto w = share(s, key)) cal.cold_start = *w;
            return;
        }
        double* time = key == "launch"              ? &cal.launch_s
                       : key == "step_overhead"     ? &cal.step_overhead_s
                       : key == "layer_overhead"    ? &cal.layer_overhead_s
                       : key == "sequence_overhead" ? &cal.sequence_overhead_s
                       : key == "prefill_overhead"  ? &cal.prefill_overhead_s
                       : key == "request_overhead"  ? &cal.request_overhead_s
                       : key == "stream_overhead"   ? &cal.stream_overhead_s
                       : key == "prompt_token_overhead" ? &cal.prompt_token_overhead_s
                       : key == "request_launch"    ? &cal.request_launch_s
                                                    : nullptr;
        if (!time) {
            diagnostics().error(span(s.key), "a calibration has no setting '" + key +
                                                 "' (its settings are source, efficiency, latency, launch, "
                                                 "step_overhead, layer_overhead, sequence_overhead, "
                                                 "prefill_overhead, request_overhead, stream_overhead, "
                                                 "admission_wait, cold_start, first_token_steps, "
                                                 "prompt_token_overhead and request_launch)" +
                                                 did_you_mean(key, setting_names));
            return;
        }
        if (!no_words(s) || !first_time(s, key)) return;
        if (auto t = seconds(s, key)) *time = *t;
    }
};

}  // namespace

void check_calibration_settings(Context const& context, Constants const& constant, Scenario const& scenario,
                                ParsedFile const& file, std::vector<ast::CalibrationSetting> const& settings,
                                Calibration& cal) {
    SettingsChecker checker{context, constant, scenario, file, cal, {}};
    for (auto const& s : settings) checker.setting(s);
}

}  // namespace roofline::model
