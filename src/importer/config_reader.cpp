// Config: every field import_config reads goes through it, checked (present,
// positive, of the right type, a value the templates model) and recorded for
// the scenario's header; its errors name the file. parse_json: malformed JSON
// as file:line:col.
#include "importer.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::model::importer {
namespace {

// "file:line:col: error: invalid JSON: ..." from nlohmann's parse error.
[[noreturn]] void json_error(std::string const& text, std::string const& file,
                             json::parse_error const& e) {
    std::size_t at = e.byte == 0 ? 0 : e.byte - 1;
    if (at > text.size()) at = text.size();
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    std::string message = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    if (auto colon = message.find(": ", message.find("parse error")); colon != std::string::npos)
        message = message.substr(colon + 2);
    throw ImportError(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                      ": error: invalid JSON: " + message);
}

}  // namespace

json parse_json(std::string const& text, std::string const& file) {
    try {
        return json::parse(text);
    } catch (json::parse_error const& e) {
        json_error(text, file, e);
    }
}

Config::Config(json const& root, std::string file) : root_(root), file_(std::move(file)) {}

void Config::fail(std::string const& message) const {
    throw ImportError(file_ + ": error: " + message);
}

json const* Config::find(std::string const& name) const {
    auto it = root_.find(name);
    if (it == root_.end() || it->is_null()) return nullptr;
    return &*it;
}

Int Config::integer(std::string const& name) {
    auto value = optional_integer(name);
    if (!value)
        fail("missing field " + in_quotes(name) + ", which " + architecture_ + " needs");
    return *value;
}

std::optional<Int> Config::optional_integer(std::string const& name) {
    json const* v = find(name);
    if (!v) return std::nullopt;
    if (!v->is_number_integer() || v->get<Int>() <= 0)
        fail("field " + in_quotes(name) + " must be a positive integer, not " + v->dump());
    // Every shape of a real model is far below; products of two stay exact.
    if (v->get<Int>() > 2'147'483'647)
        fail("field " + in_quotes(name) + " is " + v->dump() + ", more than 2^31 - 1");
    record(name, v->dump());
    return v->get<Int>();
}

double Config::number(std::string const& name) {
    json const* v = find(name);
    if (!v) fail("missing field " + in_quotes(name) + ", which " + architecture_ + " needs");
    if (!v->is_number() || v->get<double>() <= 0)
        fail("field " + in_quotes(name) + " must be a positive number, not " + v->dump());
    record(name, v->dump());
    return v->get<double>();
}

void Config::require_empty_list(std::string const& name, std::string const& what) {
    json const* v = find(name);
    if (!v) return;
    if (!v->is_array()) fail("field " + in_quotes(name) + " must be a list, not " + v->dump());
    record(name, v->dump());
    if (!v->empty())
        fail("field " + in_quotes(name) + " is " + v->dump() + " (" + what +
             "), which roofline import does not model for " + architecture_);
}

bool Config::boolean(std::string const& name, bool absent) {
    json const* v = find(name);
    if (!v) return absent;
    if (!v->is_boolean()) fail("field " + in_quotes(name) + " must be true or false, not " + v->dump());
    record(name, v->dump());
    return v->get<bool>();
}

std::optional<std::string> Config::string(std::string const& name) {
    json const* v = find(name);
    if (!v) return std::nullopt;
    if (!v->is_string()) fail("field " + in_quotes(name) + " must be a string, not " + v->dump());
    record(name, v->dump());
    return v->get<std::string>();
}

void Config::require_one_of(std::string const& name, std::vector<std::string> const& accepted) {
    auto value = string(name);
    if (!value) return;
    for (auto const& a : accepted)
        if (*value == a) return;
    std::string list;
    for (auto const& a : accepted) list += (list.empty() ? "" : ", ") + in_quotes(a);
    fail("field " + in_quotes(name) + " is " + in_quotes(*value) + "; " + architecture_ +
         " is imported with " + list + " only");
}

void Config::require_false(std::string const& name, std::string const& what) {
    if (boolean(name, false))
        fail("field " + in_quotes(name) + " is true (" + what + "), which roofline import does "
             "not model for " + architecture_);
}

std::vector<std::string> Config::not_read() const {
    std::vector<std::string> names;
    for (auto const& item : root_.items()) {
        bool read = false;
        for (auto const& u : used_) read = read || u.first == item.key();
        if (!read) names.push_back(item.key());
    }
    return names;
}

}  // namespace roofline::model::importer
