// Disaggregated prefill and decode (docs/serving.md, "Disaggregated prefill
// and decode"): a prefill pool runs prompts only, a decode pool decodes only,
// and each request's KV cache moves between them. Pure: requests, the two
// pools' settings and step costs and a transfer cost in, each request's times
// out. Each replica is one `simulate` (deterministic), so the pools are
// simulated one after the other:
// - prefill: request i (in arrival order) goes to prefill replica i mod n_p,
//   as a request of output 1: it finishes with its first token (TTFT), its
//   prompt + 1 tokens reserved in that replica's KV cache meanwhile;
// - transfer: a request of output > 1 leaves at its first token and arrives
//   at its decode replica transfer(prompt) seconds later (each transfer on its
//   own: the link is not modelled as a queue);
// - decode: in the order of the first tokens (ties in arrival order), request
//   j of them goes to decode replica j mod n_d, prefilled: it decodes its
//   output - 1 tokens there under that replica's max_seqs and KV capacity
//   (prompt + output reserved), its k-th decode at context prompt + k.
// TPOT = (finish - first token) / (output - 1) so includes the transfer and
// any wait for admission on the decode replica.
#include "roofline/engine/serve.hpp"

#include <algorithm>
#include <numeric>

namespace roofline::engine::serving {
namespace {

// Replica r's share of `members` (indices into `specs`), dispatched
// round-robin in the order of `members`; each share in that order.
std::vector<std::vector<std::uint32_t>> round_robin(std::vector<std::uint32_t> const& members,
                                                    std::uint32_t replicas) {
    std::vector<std::vector<std::uint32_t>> shares(replicas);
    for (std::size_t j = 0; j < members.size(); ++j) shares[j % replicas].push_back(members[j]);
    return shares;
}

// Simulates `share` (each with `arrival` and lengths from `specs`) on one
// replica; arrivals are already in order, so simulate's stable sort keeps it
// and its requests[k] is share[k].
Simulation run_share(std::vector<RequestSpec> const& specs, std::vector<std::uint32_t> const& share,
                     PoolSpec const& pool) {
    std::vector<RequestSpec> requests;
    requests.reserve(share.size());
    for (std::uint32_t i : share) requests.push_back(specs[i]);
    return simulate(requests, pool.settings, pool.cost);
}

}  // namespace

DisaggregatedSimulation simulate_disaggregated(std::vector<RequestSpec> const& requests, PoolSpec const& prefill,
                                               PoolSpec const& decode, TransferCost const& transfer) {
    DisaggregatedSimulation out;
    if (prefill.replicas == 0 || decode.replicas == 0) {
        out.problem = "a pool of 0 replicas";
        return out;
    }
    if (prefill.settings.clients > 0 || decode.settings.clients > 0) {
        out.problem = "closed(C) arrivals with pools: a client's next request depends on both pools at "
                      "once; use poisson(R)";
        return out;
    }
    std::size_t const n = requests.size();
    // Arrival order (stable, as simulate's).
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return requests[a].arrival < requests[b].arrival; });
    std::vector<RequestSpec> prompts(n);  // each request's prefill: its prompt and one token
    for (std::size_t i = 0; i < n; ++i) prompts[i] = {requests[i].arrival, requests[i].prompt, 1, false};

    std::vector<RequestTimes> times(n);  // indexed as `requests`
    std::vector<double> moved(n, 0);
    auto prefill_shares = round_robin(order, prefill.replicas);
    for (std::size_t r = 0; r < prefill_shares.size(); ++r) {
        auto sim = run_share(prompts, prefill_shares[r], prefill);
        if (!sim.problem.empty()) {
            out.problem = "prefill replica " + std::to_string(r + 1) + ": " + sim.problem;
            return out;
        }
        for (std::size_t k = 0; k < prefill_shares[r].size(); ++k) {
            std::uint32_t i = prefill_shares[r][k];
            times[i] = sim.requests[k];
            times[i].output = requests[i].output;
        }
        out.saturated = out.saturated || sim.saturated;
        out.prefill.push_back(std::move(sim));
    }

    // To the decode pool, in the order of the first tokens.
    std::vector<std::uint32_t> decoding;
    for (std::uint32_t i : order)
        if (requests[i].output > 1) decoding.push_back(i);
    std::stable_sort(decoding.begin(), decoding.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return times[a].first_token < times[b].first_token; });
    std::vector<RequestSpec> arriving(n);
    for (std::uint32_t i : decoding) {
        moved[i] = transfer(requests[i].prompt);
        arriving[i] = {times[i].first_token + moved[i], requests[i].prompt, requests[i].output, true};
    }
    auto decode_shares = round_robin(decoding, decode.replicas);
    for (std::size_t r = 0; r < decode_shares.size(); ++r) {
        auto& share = decode_shares[r];
        // A later first token can arrive earlier (a shorter prompt): order by arrival there.
        std::stable_sort(share.begin(), share.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return arriving[a].arrival < arriving[b].arrival; });
        auto sim = run_share(arriving, share, decode);
        if (!sim.problem.empty()) {
            out.problem = "decode replica " + std::to_string(r + 1) + ": " + sim.problem;
            return out;
        }
        for (std::size_t k = 0; k < share.size(); ++k) times[share[k]].finish = sim.requests[k].finish;
        out.saturated = out.saturated || sim.saturated;
        out.decode.push_back(std::move(sim));
    }
    out.requests.reserve(n);
    out.transfer_seconds.reserve(n);
    for (std::uint32_t i : order) {
        out.requests.push_back(times[i]);
        out.transfer_seconds.push_back(moved[i]);
        out.end = std::max(out.end, times[i].finish);
    }
    return out;
}

}  // namespace roofline::engine::serving
