// The compute dtype of an op at a point (language.md 8.3), where a dtype
// sweep may change the dtypes of its operands from point to point.
#include "roofline/model/scenario.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::model {

namespace {

// The member whose compute dtype a kernel runs at: its first matmul, else
// its first member (docs/fusion.md).
Op const& lead_member(Op const& kernel) {
    for (auto const& m : kernel.members)
        if (m.kind == OpKind::matmul) return m;
    return kernel.members.front();
}

}  // namespace

int Op::compute_dtype_at(std::span<double const> slots, std::span<Dtype const> dtypes) const {
    if (kind == OpKind::kernel) return lead_member(*this).compute_dtype_at(slots, dtypes);
    if (compute_written) return compute_written->at(slots);
    if (kind != OpKind::matmul) return out.dtype.at(slots);
    // The wider input; on a tie, the left one.
    int lhs = inputs[0].dtype.at(slots), rhs = inputs[1].dtype.at(slots);
    return dtypes[static_cast<std::size_t>(rhs)].bytes > dtypes[static_cast<std::size_t>(lhs)].bytes
               ? rhs
               : lhs;
}

bool Op::compute_dtype_fixed() const {
    if (kind == OpKind::kernel) return lead_member(*this).compute_dtype_fixed();
    if (compute_written) return !compute_written->swept();
    if (kind != OpKind::matmul) return !out.dtype.swept();
    return !inputs[0].dtype.swept() && !inputs[1].dtype.swept();
}

bool Op::has_onchip() const {
    if (out.onchip) return true;
    for (auto const& t : inputs)
        if (t.onchip) return true;
    for (auto const& m : members)
        if (m.has_onchip()) return true;
    return false;
}

bool Op::plain() const {
    // A fractional FLOPs per point is rounded to whole counts: no longer linear.
    if (kind == OpKind::kernel || flops_slot >= 0 || has_onchip() ||
        flops_per_point != std::floor(flops_per_point))
        return false;
    for (auto const& t : inputs)
        if (t.reads_slot >= 0) return false;
    return true;
}

bool Scenario::has_onchip() const {
    for (auto const& op : ops)
        if (op.has_onchip()) return true;
    return false;
}

std::vector<int> Scenario::compute_dtypes_of(Op const& op) const {
    std::vector<double> slot_values(slots.size(), 0.0);
    std::vector<int> result;
    // Every combination of the dtype sweeps' values: few, since a dtype
    // sweep lists dtypes by name.
    std::vector<Sweep const*> swept;
    for (auto const& s : sweeps)
        if (s.of_dtypes && !s.values.empty()) swept.push_back(&s);
    std::vector<std::size_t> digit(swept.size(), 0);
    while (true) {
        for (std::size_t i = 0; i < swept.size(); ++i)
            slot_values[static_cast<std::size_t>(swept[i]->slot)] = swept[i]->values[digit[i]];
        int dtype = op.compute_dtype_at(slot_values, dtypes);
        if (std::find(result.begin(), result.end(), dtype) == result.end()) result.push_back(dtype);
        if (op.compute_dtype_fixed()) break;
        std::size_t i = swept.size();
        while (i > 0 && ++digit[i - 1] == swept[i - 1]->values.size()) digit[--i] = 0;
        if (i == 0) break;
    }
    return result;
}

}  // namespace roofline::model
