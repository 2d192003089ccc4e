#pragma once
// Pairs the cases of two reports by (op, layer, sweep values, hardware).
//
// Hardware: by --pair A_HW=B_HW (then only the named pairs are compared), or,
// without --pair, the one target of each side when each has one, or else
// equal ids (hardware on one side only gives cases on one side only).
//
// Side A is read once into an index of compact records (interned names, the
// few numbers the diff needs); side B is then streamed past it. Every case
// goes to the sink once: B's cases in B's order (matched or only in B), then
// A's unmatched ones in A's order. Nothing is re-evaluated.

#include "roofline/diff/cases_reader.hpp"
#include "roofline/diff/report_reader.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofline::diff {

struct HardwarePair {
    std::string a, b;  // hardware ids; "" where that side has no counterpart
    bool operator==(HardwarePair const&) const = default;
};

struct Pairing {
    std::vector<HardwarePair> pairs;
    bool explicit_pairs = false;  // from --pair, and not what the default would be
    std::vector<std::string> left_out_a, left_out_b;  // hardware no --pair names
};

// `requested` are the --pair values, split; empty for the default. Throws
// ReportError for hardware a report does not have, or named twice.
Pairing make_pairing(ComparedReport const& a, ComparedReport const& b,
                     std::vector<HardwarePair> const& requested);

enum class Status : std::uint8_t { matched, only_a, only_b };
char const* status_name(Status status);

struct Side {
    double intensity, peak, ridge, t_lower, attained;  // NaN when missing
    double t_step;  // in the serial step (CaseRow::t_step)
    double count;  // the layer repeat count
    Bound bound;
    std::uint32_t dtype;  // index into Matcher::dtypes()
};

struct DiffCase {
    Status status;
    std::uint32_t op, pair;     // indices into Matcher::ops() and pairs
    std::span<double const> sweep;  // Matcher::sweep_names() order; NaN: not swept on its side
    Side a, b;                      // the missing side of an unmatched case is all NaN
    std::span<double const> critical_a, critical_b;  // sweep_names() order

    // a.t_lower / b.t_lower: above 1, B is faster. NaN unless both are positive.
    double speedup() const;
    // Both sides memory- or compute-bound, and not the same.
    bool flipped() const;
};

struct OpKey {
    std::string op, layer;
    std::string label() const { return layer.empty() ? op : layer + "/" + op; }
};

class Matcher {
public:
    Matcher(ComparedReport const& a, ComparedReport const& b, Pairing pairing);

    // Reads both reports (A, then B) and calls `sink` for every case. Throws
    // ReportError (a malformed or corrupted report, a case listed twice).
    void run(std::function<void(DiffCase const&)> const& sink);

    ComparedReport const& a() const { return a_; }
    ComparedReport const& b() const { return b_; }
    Pairing const& pairing() const { return pairing_; }
    std::vector<std::string> const& sweep_names() const { return sweep_names_; }
    // Whether union sweep v is a sweep of dtypes; its values in DiffCase::sweep
    // are then indices into sweep_dtypes(v), the dtypes of both sides.
    bool sweep_of_dtypes(std::size_t v) const { return !sweep_dtypes_[v].empty(); }
    std::vector<std::string> const& sweep_dtypes(std::size_t v) const { return sweep_dtypes_[v]; }
    // Whether union sweep v sets the size of a mesh axis on either side.
    bool sweep_of_mesh(std::size_t v) const { return sweep_mesh_[v]; }
    // A sweep that sets a mesh size and takes one value on each side (tp = 4
    // in A, tp = 8 in B) pairs those values, as one target on each side pairs
    // its hardware: the cases of the two meshes compare, at A's value in
    // DiffCase::sweep. Per union sweep; empty when none.
    struct PairedSweep {
        std::size_t sweep;
        double a = 0, b = 0;  // the values, once read
    };
    std::vector<PairedSweep> const& paired_sweeps() const { return paired_sweeps_; }
    // A sweep value as text: the dtype's name, or the number as cases.csv writes it.
    std::string sweep_text(std::size_t v, double value) const;
    std::vector<OpKey> const& ops() const { return ops_; }
    std::vector<std::string> const& dtypes() const { return dtypes_; }
    // Cases on hardware that no --pair names, per side.
    std::size_t left_out_a() const { return left_out_a_; }
    std::size_t left_out_b() const { return left_out_b_; }

private:
    struct Record;
    std::uint32_t intern_op(std::string_view op, std::string_view layer);
    std::uint32_t intern_dtype(std::string_view name);
    std::int64_t pair_of(std::string_view hardware, bool side_a);
    void map_sweeps(CaseRow const& row, bool side_a, double* sweep, double* critical) const;

    ComparedReport const& a_;
    ComparedReport const& b_;
    Pairing pairing_;
    std::vector<std::string> sweep_names_;
    std::vector<std::size_t> a_to_union_, b_to_union_;  // report sweep -> union position
    std::vector<std::vector<std::string>> sweep_dtypes_;  // per union sweep; empty: numbers
    std::vector<bool> sweep_mesh_;                         // per union sweep
    // Per report sweep of dtypes: the report's dtype index -> sweep_dtypes_ index.
    std::vector<std::vector<double>> a_dtype_index_, b_dtype_index_;
    std::vector<OpKey> ops_;
    std::unordered_map<std::string, std::uint32_t> op_ids_;
    std::vector<std::string> dtypes_;
    std::unordered_map<std::string, std::uint32_t> dtype_ids_;
    std::unordered_map<std::string, std::uint32_t> pair_of_a_, pair_of_b_;
    std::string key_;  // reused lookup key
    std::vector<PairedSweep> paired_sweeps_;
    std::size_t left_out_a_ = 0, left_out_b_ = 0;
};

}  // namespace roofline::diff
