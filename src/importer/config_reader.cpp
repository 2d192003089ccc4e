// Config: every field import_config reads goes through it, checked (present,
// positive, of the right type, a value the templates model) and recorded for
// the scenario's header; its errors name the file. parse_json: malformed JSON,
// a number out of range, a key given twice, as file:line:col with a caret.
#include "importer.hpp"

#include "roofline/lang/diagnostics.hpp"
#include "roofline/lang/source.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::model::importer {
namespace {

// "file:line:col: error: message", the line and a caret under the bytes
// [offset, offset + length) of the config's text; a note likewise.
struct Place {
    std::size_t offset = 0, length = 1;
};

[[noreturn]] void fail_at(std::string const& text, std::string const& file, Place at,
                          std::string const& message, std::optional<std::pair<Place, std::string>> note = {}) {
    SourceFile source(file, text);
    auto span = [&](Place p) {
        std::size_t offset = std::min(p.offset, text.size());
        return Span{&source, static_cast<std::uint32_t>(offset),
                    static_cast<std::uint32_t>(std::min(p.length, text.size() - offset))};
    };
    Diagnostic d{Severity::error, span(at), message, {}};
    if (note) d.notes.push_back(Diagnostics::note(span(note->first), note->second));
    auto formatted = format(d);
    formatted.pop_back();  // what() is the message without its last line break
    throw ImportError(formatted);
}

// The config's characters, counting those the parser has read: when it
// reports a key, the count is just past the key's closing quote.
class CountingChars {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = char const*;
    using reference = char const&;

    CountingChars(char const* at, std::size_t* read) : at_(at), read_(read) {}
    reference operator*() const { return *at_; }
    CountingChars& operator++() {
        ++at_;
        ++*read_;
        return *this;
    }
    CountingChars operator++(int) {
        auto before = *this;
        ++*this;
        return before;
    }
    bool operator==(CountingChars const& other) const { return at_ == other.at_; }
    bool operator!=(CountingChars const& other) const { return at_ != other.at_; }

private:
    char const* at_;
    std::size_t* read_;
};

// Nesting of objects and arrays: no real config comes near (they nest 3 or 4
// deep); the bound keeps dump(), which recurses, off the stack's end.
constexpr std::size_t max_json_depth = 256;

// nlohmann's SAX events -> the JSON value, refusing what json::parse accepts
// silently (a key given twice: the last would win) or throws without a place
// (a number out of range), and nesting past max_json_depth; each at its place.
class ConfigSax final : public nlohmann::json_sax<json> {
public:
    ConfigSax(std::string const& text, std::string const& file, std::size_t const& read)
        : text_(text), file_(file), read_(read) {}
    json root;

    bool null() override { return add(nullptr); }
    bool boolean(bool value) override { return add(value); }
    bool number_integer(number_integer_t value) override { return add(value); }
    bool number_unsigned(number_unsigned_t value) override { return add(value); }
    bool number_float(number_float_t value, string_t const&) override { return add(value); }
    bool string(string_t& value) override { return add(std::move(value)); }
    bool binary(binary_t& value) override { return add(json::binary(std::move(value))); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& name) override {
        Place here = key_place();
        auto& keys = open_.back().keys;
        if (auto first = keys.find(name); first != keys.end()) {
            auto where = SourceFile(file_, text_).line_col(static_cast<std::uint32_t>(first->second.offset));
            fail_at(text_, file_, here,
                    "invalid JSON: duplicate key " + in_quotes(name) + " (first at " +
                        std::to_string(where.line) + ":" + std::to_string(where.column) +
                        "): which one is meant?",
                    std::pair{first->second, "the first " + in_quotes(name) + " is here"});
        }
        keys.emplace(name, here);
        key_ = std::move(name);
        return true;
    }

    bool parse_error(std::size_t position, std::string const& token,
                     json::exception const& e) override {
        if (e.id == 406)  // out_of_range: the number just read overflows a double
            fail_at(text_, file_, Place{position - std::min(position, token.size()), token.size()},
                    "invalid JSON: the number " + visible(token, max_shown) +
                        " is out of range (a double's largest is about 1.8e308)");
        // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
        std::string message = e.what();
        if (auto colon = message.find(": ", message.find("parse error")); colon != std::string::npos)
            message = message.substr(colon + 2);
        fail_at(text_, file_, Place{position == 0 ? 0 : position - 1, 1},
                "invalid JSON: " + visible(message, max_shown));
    }

private:
    struct Open {
        json* value;
        std::map<std::string, Place> keys;  // an object's keys so far, where each is
    };

    // The key just read: from its opening quote (the last '"' not escaped by
    // an odd run of backslashes) to just past its closing one.
    Place key_place() const {
        std::size_t end = std::min(read_, text_.size());
        std::size_t quote = end == 0 ? 0 : end - 1;
        while (quote > 0) {
            --quote;
            if (text_[quote] != '"') continue;
            std::size_t slashes = 0;
            while (slashes < quote && text_[quote - 1 - slashes] == '\\') ++slashes;
            if (slashes % 2 == 0) break;
        }
        return Place{quote, end - quote};
    }

    json* add(json value) {
        if (open_.empty()) {
            root = std::move(value);
            return &root;
        }
        json& parent = *open_.back().value;
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        return &(parent[key_] = std::move(value));
    }
    bool open(json value) {
        if (open_.size() >= max_json_depth)
            fail_at(text_, file_, Place{read_ == 0 ? 0 : read_ - 1, 1},
                    "invalid JSON: objects and lists nested too deeply (more than " +
                        std::to_string(max_json_depth) + " levels)");
        open_.push_back({add(std::move(value)), {}});
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    std::string const& text_;
    std::string const& file_;
    std::size_t const& read_;
    std::vector<Open> open_;
    std::string key_;
};

}  // namespace

json parse_json(std::string const& text, std::string const& file) {
    std::size_t read = 0;
    ConfigSax sax(text, file, read);
    CountingChars first(text.data(), &read), last(text.data() + text.size(), &read);
    json::sax_parse(first, last, &sax);
    return std::move(sax.root);
}

std::string shown(json const& value) { return visible(value.dump(), max_shown); }

Config::Config(json const& root, std::string file, std::string prefix)
    : root_(root), file_(std::move(file)), prefix_(std::move(prefix)) {}

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
        fail("field " + in_quotes(name) + " must be a positive integer, not " + shown(*v));
    // Every shape of a real model is far below; products of two stay exact.
    if (v->get<Int>() > 2'147'483'647)
        fail("field " + in_quotes(name) + " is " + shown(*v) + ", more than 2^31 - 1");
    record(prefix_ + name, v->dump());
    return v->get<Int>();
}

double Config::number(std::string const& name) {
    json const* v = find(name);
    if (!v) fail("missing field " + in_quotes(name) + ", which " + architecture_ + " needs");
    if (!v->is_number() || v->get<double>() <= 0)
        fail("field " + in_quotes(name) + " must be a positive number, not " + shown(*v));
    record(prefix_ + name, v->dump());
    return v->get<double>();
}

std::optional<Int> Config::layers_of_kind(Int L, std::string const& kind) {
    json const* types = find("layer_types");
    if (!types) return std::nullopt;
    if (!types->is_array() || static_cast<Int>(types->size()) != L)
        fail("field 'layer_types' must be a list of " + std::to_string(L) +
             " layer kinds (num_hidden_layers), not " + shown(*types));
    Int count = 0;
    for (auto const& t : *types) {
        if (t == kind) ++count;
        else if (t != "full_attention")
            fail("field 'layer_types' holds " + shown(t) + "; " + architecture() + " is imported with '" +
                 kind + "' and 'full_attention' layers only");
    }
    record("layer_types", std::to_string(count) + " x " + kind + ", " + std::to_string(L - count) +
                              " x full_attention");
    return count;
}

void Config::require_empty_list(std::string const& name, std::string const& what) {
    json const* v = find(name);
    if (!v) return;
    if (!v->is_array()) fail("field " + in_quotes(name) + " must be a list, not " + shown(*v));
    record(prefix_ + name, v->dump());
    if (!v->empty())
        fail("field " + in_quotes(name) + " is " + shown(*v) + " (" + what +
             "), which roofline import does not model for " + architecture_);
}

bool Config::boolean(std::string const& name, bool absent) {
    json const* v = find(name);
    if (!v) return absent;
    if (!v->is_boolean()) fail("field " + in_quotes(name) + " must be true or false, not " + shown(*v));
    record(prefix_ + name, v->dump());
    return v->get<bool>();
}

std::optional<std::string> Config::string(std::string const& name) {
    json const* v = find(name);
    if (!v) return std::nullopt;
    if (!v->is_string()) fail("field " + in_quotes(name) + " must be a string, not " + shown(*v));
    record(prefix_ + name, v->dump());
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
        for (auto const& u : used_) read = read || u.first == prefix_ + item.key();
        if (!read) names.push_back(prefix_ + item.key());
    }
    return names;
}

}  // namespace roofline::model::importer
