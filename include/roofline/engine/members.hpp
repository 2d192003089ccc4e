#pragma once
// The members of a kernel case, each on its own (docs/fusion.md section 3):
// a kernel is one case whose counts are its members' sums; the Kernels sheet
// and kernels.csv show what each member contributes to them.

#include "roofline/engine/evaluate.hpp"
#include "roofline/engine/metrics.hpp"
#include "roofline/model/scenario.hpp"

#include <cstdint>
#include <memory>
#include <span>

namespace roofline::engine {

// One member within one kernel case. Its counts are those of one instance
// of the kernel (the member's own times its repeat inside the kernel), and
// its times are taken at the kernel's compute dtype, on the kernel's chip:
// so each of flops, bytes and t_math, t_comms, t_onchip and t_net sums over
// the members to the kernel case's own. t_lower, t_upper and bound are the
// member's roofline as if it ran alone, and so is t_expected: on a target
// with a calibration, the member's own class's efficiencies and one launch
// (the members' t_expected do not sum to the kernel's).
struct MemberMetrics {
    std::uint32_t member;  // index into the kernel's Op::members
    double repeat;         // instances per instance of the kernel (a `use ... x N` inside it)
    Metrics metrics;
    double flops_share;    // of the kernel case's flops; NaN when the kernel has none
};

// Evaluates the members of kernel cases, one case after another. The counts
// of a (point, kernel) are computed once for all its targets, so that the
// cases of stream_cases' order cost one counting per point and kernel.
class KernelMembers {
public:
    // `grid` as prepared for `scenario`; both must outlive this.
    KernelMembers(model::Scenario const& scenario, CaseGrid const& grid);
    ~KernelMembers();
    KernelMembers(KernelMembers const&) = delete;
    KernelMembers& operator=(KernelMembers const&) = delete;

    // The members of case `c` in the order written; empty when its op is no
    // kernel. Valid until the next call. The case must come from a stream
    // that succeeded (its values are valid): a failure throws std::logic_error.
    std::span<MemberMetrics const> of(Case const& c);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace roofline::engine
