#include "roofline/diff/match.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <tuple>
#include <unordered_set>

namespace roofline::diff {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr Side missing_side{nan, nan, nan, nan, nan, nan, nan, Bound::unsupported, 0};

// The ids of a report's targets, for lookups in constant time (a forged
// manifest may list very many).
std::unordered_set<std::string> target_ids(ComparedReport const& r) {
    std::unordered_set<std::string> ids;
    for (auto const& t : r.targets) ids.insert(t.id);
    return ids;
}

std::string target_list(ComparedReport const& r) {
    std::string out;
    for (auto const& t : r.targets) out += (out.empty() ? "" : ", ") + t.id;
    return out.empty() ? "none" : out;
}

// One bit pattern per value, so that keys compare and hash as bytes.
double canonical(double v) {
    if (v == 0) return 0.0;
    return std::isnan(v) ? nan : v;
}

// Side A's cases: compact records, their sweep and critical values in flat
// arrays, and an open-addressing table of record numbers keyed by
// (matmul, pair, sweep values).
class Index {
public:
    struct Record {
        std::uint32_t op, pair;
        Side side;
        bool matched = false;
    };

    // `expected`: the number of cases (from the manifest), to size the
    // arrays once rather than grow them by doubling.
    Index(std::size_t sweeps, std::size_t expected) : k_(sweeps), slots_(1024, 0) {
        records_.reserve(expected);
        sweeps_.reserve(expected * k_);
        critical_.reserve(expected * k_);
        while (slots_.size() < expected * 2) slots_.resize(slots_.size() * 2);
    }

    std::size_t size() const { return records_.size(); }
    Record& record(std::size_t i) { return records_[i]; }
    std::span<double const> sweep(std::size_t i) const { return {sweeps_.data() + i * k_, k_}; }
    std::span<double const> critical(std::size_t i) const {
        return {critical_.data() + i * k_, k_};
    }

    // The record with this key, or SIZE_MAX.
    std::size_t find(std::uint32_t matmul, std::uint32_t pair, double const* sweep) const {
        std::size_t mask = slots_.size() - 1;
        for (std::size_t s = hash(matmul, pair, sweep) & mask;; s = (s + 1) & mask) {
            std::uint32_t slot = slots_[s];
            if (slot == 0) return SIZE_MAX;
            auto const& r = records_[slot - 1];
            if (r.op == matmul && r.pair == pair &&
                (k_ == 0 ||
                 std::memcmp(sweeps_.data() + (slot - 1) * k_, sweep, k_ * sizeof(double)) == 0))
                return slot - 1;
        }
    }

    // False when the key is there already.
    bool insert(Record const& r, double const* sweep, double const* critical) {
        if (find(r.op, r.pair, sweep) != SIZE_MAX) return false;
        if ((records_.size() + 1) * 2 > slots_.size()) grow();
        records_.push_back(r);
        sweeps_.insert(sweeps_.end(), sweep, sweep + k_);
        critical_.insert(critical_.end(), critical, critical + k_);
        place(records_.size() - 1);
        return true;
    }

private:
    std::size_t hash(std::uint32_t matmul, std::uint32_t pair, double const* sweep) const {
        std::uint64_t h = (std::uint64_t{matmul} << 32 | pair) * 0x9E3779B97F4A7C15ull;
        for (std::size_t v = 0; v < k_; ++v)
            h = (h ^ std::bit_cast<std::uint64_t>(sweep[v])) * 0xBF58476D1CE4E5B9ull;
        return static_cast<std::size_t>(h ^ (h >> 31));
    }
    void place(std::size_t i) {
        std::size_t mask = slots_.size() - 1;
        std::size_t s = hash(records_[i].op, records_[i].pair, sweeps_.data() + i * k_) & mask;
        while (slots_[s] != 0) s = (s + 1) & mask;
        slots_[s] = static_cast<std::uint32_t>(i + 1);
    }
    void grow() {
        slots_.assign(slots_.size() * 2, 0);
        for (std::size_t i = 0; i < records_.size(); ++i) place(i);
    }

    std::size_t k_;
    std::vector<Record> records_;
    std::vector<double> sweeps_, critical_;
    std::vector<std::uint32_t> slots_;
};

Side side_of(CaseRow const& row, std::uint32_t dtype) {
    return {row.intensity, row.peak, row.ridge, row.t_lower, row.attained, row.t_step, row.count,
            row.bound, dtype};
}

}  // namespace

char const* status_name(Status status) {
    switch (status) {
        case Status::matched:
            return "matched";
        case Status::only_a:
            return "only_a";
        case Status::only_b:
            break;
    }
    return "only_b";
}

double DiffCase::speedup() const {
    if (!(a.t_lower > 0) || !(b.t_lower > 0)) return nan;
    return a.t_lower / b.t_lower;
}

bool DiffCase::flipped() const {
    return a.bound != Bound::unsupported && b.bound != Bound::unsupported && a.bound != b.bound;
}

Pairing make_pairing(ComparedReport const& a, ComparedReport const& b,
                     std::vector<HardwarePair> const& requested) {
    Pairing pairing;
    auto const ids_a = target_ids(a), ids_b = target_ids(b);
    if (a.targets.size() == 1 && b.targets.size() == 1) {
        pairing.pairs.push_back({a.targets[0].id, b.targets[0].id});
    } else {
        for (auto const& t : a.targets)
            pairing.pairs.push_back({t.id, ids_b.count(t.id) ? t.id : ""});
        for (auto const& t : b.targets)
            if (!ids_a.count(t.id)) pairing.pairs.push_back({"", t.id});
    }
    if (requested.empty()) return pairing;

    std::unordered_set<std::string> paired_a, paired_b;
    for (auto const& p : requested) {
        std::string const text = "--pair " + p.a + "=" + p.b;
        if (!ids_a.count(p.a))
            throw ReportError(text + ": " + a.label() + " has no hardware '" + p.a +
                              "' (its targets: " + target_list(a) + ")");
        if (!ids_b.count(p.b))
            throw ReportError(text + ": " + b.label() + " has no hardware '" + p.b +
                              "' (its targets: " + target_list(b) + ")");
        if (!paired_a.insert(p.a).second)
            throw ReportError(text + ": '" + p.a + "' of " + a.label() + " is paired twice");
        if (!paired_b.insert(p.b).second)
            throw ReportError(text + ": '" + p.b + "' of " + b.label() + " is paired twice");
    }
    auto sorted = [](std::vector<HardwarePair> v) {
        std::sort(v.begin(), v.end(), [](auto const& x, auto const& y) {
            return std::tie(x.a, x.b) < std::tie(y.a, y.b);
        });
        return v;
    };
    if (sorted(requested) == sorted(pairing.pairs)) return pairing;  // what the default does
    pairing.pairs = requested;
    pairing.explicit_pairs = true;
    for (auto const& t : a.targets)
        if (!paired_a.count(t.id)) pairing.left_out_a.push_back(t.id);
    for (auto const& t : b.targets)
        if (!paired_b.count(t.id)) pairing.left_out_b.push_back(t.id);
    return pairing;
}

Matcher::Matcher(ComparedReport const& a, ComparedReport const& b, Pairing pairing)
    : a_(a), b_(b), pairing_(std::move(pairing)) {
    std::unordered_map<std::string, std::size_t> positions;  // not a search per sweep
    auto position = [&](std::string const& name) {
        auto [it, added] = positions.try_emplace(name, sweep_names_.size());
        if (added) sweep_names_.push_back(name);
        return it->second;
    };
    for (auto const& s : a.sweeps) a_to_union_.push_back(position(s.name));
    for (auto const& s : b.sweeps) b_to_union_.push_back(position(s.name));
    sweep_mesh_.resize(sweep_names_.size());
    for (std::size_t v = 0; v < a.sweeps.size(); ++v)
        if (a.sweeps[v].mesh) sweep_mesh_[a_to_union_[v]] = true;
    for (std::size_t v = 0; v < b.sweeps.size(); ++v)
        if (b.sweeps[v].mesh) sweep_mesh_[b_to_union_[v]] = true;
    // Dtype sweeps pair by name: one list of the names of both sides.
    sweep_dtypes_.resize(sweep_names_.size());
    std::vector<std::unordered_map<std::string, std::size_t>> dtype_positions(sweep_names_.size());
    auto map_dtypes = [&](ComparedReport const& r, std::vector<std::size_t> const& to_union,
                          std::vector<std::vector<double>>& index) {
        index.resize(r.sweeps.size());
        for (std::size_t v = 0; v < r.sweeps.size(); ++v) {
            auto& names = sweep_dtypes_[to_union[v]];
            auto& positions = dtype_positions[to_union[v]];
            for (auto const& d : r.sweeps[v].dtypes) {
                auto [it, added] = positions.try_emplace(d, names.size());
                if (added) names.push_back(d);
                index[v].push_back(static_cast<double>(it->second));
            }
        }
    };
    map_dtypes(a, a_to_union_, a_dtype_index_);
    map_dtypes(b, b_to_union_, b_dtype_index_);
    // Linear, not a search per sweep: a forged manifest may list many.
    std::vector<std::size_t> a_sweep_of(sweep_names_.size(), SIZE_MAX);
    for (std::size_t v = 0; v < a.sweeps.size(); ++v) a_sweep_of[a_to_union_[v]] = v;
    for (std::size_t v = 0; v < b.sweeps.size(); ++v) {
        auto u = b_to_union_[v];
        if (a_sweep_of[u] == SIZE_MAX) continue;
        bool a_dtypes = !a.sweeps[a_sweep_of[u]].dtypes.empty();
        bool b_dtypes = !b.sweeps[v].dtypes.empty();
        auto const& as = a.sweeps[a_sweep_of[u]];
        auto const& bs = b.sweeps[v];
        if (as.mesh && bs.mesh && as.points == 1 && bs.points == 1 && !a_dtypes && !b_dtypes)
            paired_sweeps_.push_back({u, nan, nan});
        if (a_dtypes != b_dtypes)
            throw ReportError("sweep '" + sweep_names_[u] + "' is a sweep of " +
                              (a_dtypes ? "dtypes" : "numbers") + " in " + a.folder + " but of " +
                              (b_dtypes ? "dtypes" : "numbers") + " in " + b.folder +
                              ", so no value of it can match");
    }
    for (std::size_t p = 0; p < pairing_.pairs.size(); ++p) {
        if (!pairing_.pairs[p].a.empty())
            pair_of_a_[pairing_.pairs[p].a] = static_cast<std::uint32_t>(p);
        if (!pairing_.pairs[p].b.empty())
            pair_of_b_[pairing_.pairs[p].b] = static_cast<std::uint32_t>(p);
    }
}

std::uint32_t Matcher::intern_op(std::string_view op, std::string_view layer) {
    key_.assign(layer);
    key_ += '\0';
    key_ += op;
    auto it = op_ids_.find(key_);
    if (it != op_ids_.end()) return it->second;
    auto id = static_cast<std::uint32_t>(ops_.size());
    ops_.push_back({std::string(op), std::string(layer)});
    op_ids_.emplace(key_, id);
    return id;
}

std::uint32_t Matcher::intern_dtype(std::string_view name) {
    key_.assign(name);
    auto [it, added] = dtype_ids_.try_emplace(key_, static_cast<std::uint32_t>(dtypes_.size()));
    if (added) dtypes_.emplace_back(name);
    return it->second;
}

std::int64_t Matcher::pair_of(std::string_view hardware, bool side_a) {
    key_.assign(hardware);
    auto const& map = side_a ? pair_of_a_ : pair_of_b_;
    auto it = map.find(key_);
    return it == map.end() ? std::int64_t{-1} : std::int64_t{it->second};
}

void Matcher::map_sweeps(CaseRow const& row, bool side_a, double* sweep, double* critical) const {
    auto const& to_union = side_a ? a_to_union_ : b_to_union_;
    auto const& dtype_index = side_a ? a_dtype_index_ : b_dtype_index_;
    std::fill(sweep, sweep + sweep_names_.size(), nan);
    std::fill(critical, critical + sweep_names_.size(), nan);
    for (std::size_t v = 0; v < to_union.size(); ++v) {
        auto const& index = dtype_index[v];
        sweep[to_union[v]] = index.empty() ? canonical(row.sweep[v])
                                           : index[static_cast<std::size_t>(row.sweep[v])];
        critical[to_union[v]] = row.critical[v];
    }
}

std::string Matcher::sweep_text(std::size_t v, double value) const {
    if (sweep_of_dtypes(v) && value >= 0 && value < static_cast<double>(sweep_dtypes_[v].size()))
        return sweep_dtypes_[v][static_cast<std::size_t>(value)];
    return number_text(value);
}

void Matcher::run(std::function<void(DiffCase const&)> const& sink) {
    std::size_t const k = sweep_names_.size();
    std::vector<double> sweep(k), critical(k), none(k, nan);
    auto describe = [&](CaseRow const& row) {
        // Appended, not "'" + std::string(...): GCC 12 at -O3 gives a false
        // -Wrestrict for a string literal + a temporary std::string.
        std::string text = "'";
        if (!row.layer.empty()) text.append(row.layer).append("/");
        text.append(row.op).append("' on ").append(row.hardware);
        for (std::size_t v = 0; v < k; ++v)
            if (!std::isnan(sweep[v]))
                text += (v ? ", " : " at ") + sweep_names_[v] + " = " + number_text(sweep[v]);
        return text;
    };

    // A row of cases.csv takes more than 64 bytes: a manifest cannot make
    // the index reserve more than its file could hold.
    std::error_code ec;
    auto csv_bytes = std::filesystem::file_size(a_.cases_path(), ec);
    Index index(k, ec ? 0 : std::min<std::size_t>(a_.cases, csv_bytes / 64));
    // Every row of one side on paired hardware, its sweeps in union order.
    CaseRow row;
    auto each_row = [&](bool side_a, auto&& use) {
        CasesReader reader(side_a ? a_ : b_);
        while (reader.next(row)) {
            auto pair = pair_of(row.hardware, side_a);
            if (pair < 0) {
                ++(side_a ? left_out_a_ : left_out_b_);
                continue;
            }
            map_sweeps(row, side_a, sweep.data(), critical.data());
            for (auto& paired : paired_sweeps_) {
                (side_a ? paired.a : paired.b) = sweep[paired.sweep];
                if (!side_a) sweep[paired.sweep] = paired.a;  // B's mesh meets A's
            }
            use(reader, static_cast<std::uint32_t>(pair));
        }
        reader.finish();
    };
    each_row(true, [&](CasesReader const& reader, std::uint32_t pair) {
        Index::Record record{intern_op(row.op, row.layer), pair,
                             side_of(row, intern_dtype(row.compute_dtype))};
        if (!index.insert(record, sweep.data(), critical.data()))
            throw ReportError(reader.where() + ": " + describe(row) + " is listed twice");
    });
    each_row(false, [&](CasesReader const& reader, std::uint32_t pair) {
        DiffCase c{Status::only_b, intern_op(row.op, row.layer), pair, sweep, missing_side,
                   side_of(row, intern_dtype(row.compute_dtype)), none, critical};
        std::size_t found = index.find(c.op, c.pair, sweep.data());
        if (found != SIZE_MAX) {
            auto& record = index.record(found);
            if (record.matched)
                throw ReportError(reader.where() + ": " + describe(row) + " is listed twice");
            record.matched = true;
            c.status = Status::matched;
            c.a = record.side;
            c.critical_a = index.critical(found);
        }
        sink(c);
    });
    for (std::size_t i = 0; i < index.size(); ++i) {
        auto const& record = index.record(i);
        if (record.matched) continue;
        sink(DiffCase{Status::only_a, record.op, record.pair, index.sweep(i), record.side,
                      missing_side, index.critical(i), none});
    }
}

}  // namespace roofline::diff
