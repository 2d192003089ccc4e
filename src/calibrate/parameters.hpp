#pragma once
// The factors of a calibration as the unknowns of a linear fit
// (docs/calibration.md, section 2). Efficiencies enter as their inverses
// (x = 1 / e >= 1: no op beats its roof), overheads and latencies as seconds
// (>= 0). A row's mean TTFT and TPOT are then, for a given choice of the
// roof each op sits on, linear in x: features . x + a constant (the parts
// with no factor: elementwise math, on-chip traffic). The fit alternates
// between choosing the roofs at the current x and solving for x.

#include "row_features.hpp"

#include "roofline/model/calibration.hpp"

#include <Eigen/Dense>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline::calibrate {

class ParamSpace {
public:
    enum class Kind : std::uint8_t { inverse_efficiency, seconds, steps, share };
    struct Param {
        std::string name;  // "gemm fp8", "attention hbm", "latency allreduce nvlink", "launch", ...
        Kind kind = Kind::seconds;
        double lower() const { return kind == Kind::inverse_efficiency ? 1.0 : 0.0; }
    };

    // Indices, each parameter added the first time it is asked for.
    std::size_t math(model::OpClass op_class, std::string const& dtype);  // gemm, attention, expert
    std::size_t hbm(model::OpClass op_class);                              // every class but collective
    std::size_t network();
    std::size_t latency(model::CollectiveKind kind, model::Link link);
    std::optional<std::size_t> find_latency(model::CollectiveKind kind, model::Link link) const;
    std::size_t launch();
    std::size_t step();
    std::size_t layer();
    std::size_t sequence();
    std::size_t request();  // per request, before its first token
    std::size_t prefill();  // per step with a prompt chunk
    std::size_t stream();   // per output token per second streamed, in TTFT
    std::size_t admission();  // steps per sequence in flight, in TTFT
    std::size_t cold_start();  // the share of a benchmark's requests in its cold first wave
    std::size_t first_token();     // steps a first token waits after its step, in TTFT
    std::size_t prompt_token();    // per prompt token, in TTFT
    std::size_t request_launch();  // per kernel of a prompt's forward, once per request, in TTFT

    // Registers every parameter the segments can use (the fit's unknowns).
    void add_all(RowModel const& row);

    std::vector<Param> const& params() const { return params_; }
    std::size_t size() const { return params_.size(); }
    Eigen::VectorXd lower() const;

    // The calibration's factors as x (each parameter it gives; the rest at
    // their defaults, efficiency 1 and overhead 0), and x as a calibration.
    static std::pair<ParamSpace, Eigen::VectorXd> of(model::Calibration const& calibration);
    model::Calibration calibration(Eigen::VectorXd const& x) const;

private:
    std::size_t add(std::string const& name, Kind kind);
    std::vector<Param> params_;
    std::map<std::string, std::size_t, std::less<>> index_;
};

// The parameters a row's segments use, looked up once (the fit prices a
// row at many x): per op of each segment in order its math and HBM
// parameters, per collective its network and latency ones (none: not
// fitted), then the per-step and per-request ones. Adds any `space` lacks.
struct RowIndices {
    static constexpr std::size_t none = static_cast<std::size_t>(-1);
    struct Op {
        std::size_t math = none, hbm = none;
    };
    struct Collective {
        std::size_t network = none, latency = none;
    };
    std::vector<Op> ops;
    std::vector<Collective> collectives;
    std::vector<Op> cold_ops;  // the same for the row's cold_segments
    std::vector<Collective> cold_collectives;
    std::size_t launch = none, step = none, layer = none, sequence = none, prefill = none, request = none,
                stream = none, admission = none, cold_start = none, first_token = none,
                prompt_token = none, request_launch = none;
};
RowIndices index_row(RowModel const& row, ParamSpace& space);

}  // namespace roofline::calibrate
