// Continuous batching on one replica (docs/serving.md, section 3): requests
// and a step cost in, each request's times out. Knows nothing of ops or chips.
//
// The rules, as vLLM's and TensorRT-LLM's schedulers run them:
// - Event-driven: a step starts when the previous one ends or, when nothing
//   runs, at the next arrival. Time only moves by steps and idle waits.
// - Admission, at a step's start: the waiting requests that have arrived,
//   first come first served, stopping at the first that does not fit (no
//   overtaking), while fewer than max_seqs run and the reserved KV tokens
//   plus its prompt plus its output fit in kv_capacity_tokens. A request's
//   prompt + output are reserved whole at admission and freed when it
//   finishes (no eviction, no preemption: TensorRT-LLM's default policy).
// - Admission::grow (vLLM's and SGLang's way): a request is admitted when
//   the cache committed (each running request's tokens held, plus the
//   prompt tokens it has still to prefill) plus its prompt fits; a decode
//   adds one token. When a step's decodes would overflow the cache, the
//   newest running request is preempted (its cache freed, back to the front
//   of the queue, the most recently preempted first) until they fit. When
//   readmitted it prefills again its prompt and the tokens it had decoded
//   (recompute), in chunks as a prompt, then decodes on; its first token
//   stays the first one emitted. Preempted requests are admitted before new
//   ones, in that order.
// - A step: every running request past its prefill decodes one token; the
//   budget max_step_tokens - decodes (0 if the decodes exceed it) goes to
//   prefill chunks of the admitted requests in arrival order, each chunk
//   min(prompt left, budget left). A request admitted at a step's start gets
//   its first chunk in that step.
// - A request whose last chunk runs emits its first token at that step's end;
//   its k-th decode step (k = 1 .. output - 1) has context prompt + k; it
//   finishes at the end of its (output - 1)-th decode step, a request of
//   output 1 with its first token.
// - A prefilled request (RequestSpec::prefilled: disaggregated decode) has no
//   chunks; its first token counts as out at its arrival, its k-th decode has
//   context prompt + k as above. Its output must be at least 2.
// - closed(C): C requests sent at time 0 (or, SchedulerSettings::staggered,
//   each client's first at its RequestSpec::arrival: `roofline calibrate` starts clients spread
//   over a cycle, as a long benchmark's clients drift apart), each client's
//   next one sent the moment its last finishes (several finishing in one
//   step send in arrival order); the scheduler sets their arrivals.
// - A request whose prompt + output exceeds the KV capacity can never run:
//   Simulation::problem names it (numbered from 1 in arrival order) and
//   nothing is simulated. So does a prompt or output of 0 tokens, and
//   max_seqs or max_step_tokens 0, or a step cost that is not a finite
//   number of seconds >= 0, or an open loop's arrival that is not.
// - mean_running is time-weighted over [0, end] (idle waits count as 0);
//   peak_kv_tokens the most reserved at once; busy_seconds the sum of steps.
// - saturated: open loops only, the rule of serve_latency.cpp.
//
// Speed: the vectors of a step are reserved once and reused; a step costs
// O(running sequences) besides the StepCost.
#include "roofline/engine/serve.hpp"

#include "serve_saturation.hpp"

#include "roofline/model/expr.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

namespace roofline::engine::serving {

namespace {

std::string number(double value) { return model::format_number(value); }

// The KV capacity in whole tokens, for messages.
std::string capacity_text(double capacity) {
    return number(std::isfinite(capacity) ? std::floor(capacity) : capacity);
}

// The first reason the requests cannot be simulated, or "".
std::string settings_problem(std::vector<RequestSpec> const& requests,
                             std::vector<std::uint32_t> const& order,
                             SchedulerSettings const& settings) {
    if (settings.max_seqs == 0) return "max_seqs is 0: no request can run";
    if (settings.max_step_tokens == 0) return "max_step_tokens is 0: no step can run";
    for (std::size_t k = 0; k < order.size(); ++k) {
        auto const& r = requests[order[k]];
        std::string which = "request " + std::to_string(k + 1);
        if (r.prompt == 0) return which + " has a prompt of 0 tokens";
        if (r.output == 0) return which + " has an output of 0 tokens";
        if (r.prefilled && r.output == 1) return which + " is prefilled with an output of 1 token: nothing to decode";
        double need = static_cast<double>(r.prompt) + static_cast<double>(r.output);
        if (!(need <= settings.kv_capacity_tokens))
            return which.append(" needs ")
                .append(std::to_string(r.prompt))
                .append(" + ")
                .append(std::to_string(r.output))
                .append(" = ")
                .append(number(need))
                .append(" KV tokens, but the cache holds ")
                .append(capacity_text(settings.kv_capacity_tokens));
    }
    return "";
}

// The state of one simulation; requests are indexed in arrival order.
class Scheduler {
public:
    Scheduler(std::vector<RequestSpec> const& requests, std::vector<std::uint32_t> const& order,
              SchedulerSettings const& settings, StepCost const& cost)
        : settings_(settings), cost_(cost), n_(order.size()), closed_(settings.clients > 0),
          grow_(settings.admission == SchedulerSettings::Admission::grow) {
        out_.requests.resize(n_);
        target_.resize(n_);
        for (std::size_t k = 0; k < n_; ++k) {
            auto const& r = requests[order[k]];
            auto& t = out_.requests[k];
            t.arrival = closed_ && !(settings.staggered && k < settings.clients) ? 0 : r.arrival;
            t.prompt = r.prompt;
            t.output = r.output;
            target_[k] = r.prompt;
        }
        prefilled_.assign(n_, 0);
        has_first_.assign(n_, 0);
        // A prefilled request (disaggregated decode) arrives with its KV cache
        // and its first token out: it only decodes.
        for (std::size_t k = 0; k < n_; ++k)
            if (requests[order[k]].prefilled) {
                prefilled_[k] = out_.requests[k].prompt;
                out_.requests[k].first_token = out_.requests[k].arrival;
                has_first_[k] = 1;
            }
        decoded_.assign(n_, 0);
        recomputed_.assign(n_, 0);
        admitted_at_.assign(n_, 0);
        // closed(C): the first C requests are sent at 0, the rest as clients free up.
        sent_ = closed_ ? std::min<std::size_t>(settings.clients, n_) : n_;
        std::size_t most = std::min<std::size_t>(settings.max_seqs, n_);
        running_.reserve(most);
        contexts_.reserve(most);
        decoders_.reserve(most);
        chunks_.reserve(most);
        chunk_owners_.reserve(most);
    }

    Simulation run() {
        while (next_ < n_ || !running_.empty() || !preempted_.empty()) {
            admit();
            if (running_.empty()) {  // nothing arrived yet: wait for the next arrival
                // A closed loop waits only for a staggered first request.
                if (closed_ && (next_ >= sent_ || out_.requests[next_].arrival <= time_)) break;
                time_ = std::max(time_, out_.requests[next_].arrival);
                continue;
            }
            if (!step()) return std::move(out_);
        }
        out_.end = time_;
        out_.mean_running = time_ > 0 ? running_seconds_ / time_ : 0;
        if (!closed_) {
            std::vector<double> arrivals(n_);
            for (std::size_t k = 0; k < n_; ++k) arrivals[k] = out_.requests[k].arrival;
            out_.saturated = queue_keeps_growing(arrivals, admitted_at_);
        }
        return std::move(out_);
    }

private:
    // The cache a running request commits under grow: its prefill target
    // (prompt + recomputed tokens, held or still to prefill) and the tokens
    // decoded since.
    std::uint64_t committed(std::uint32_t r) const {
        return std::uint64_t{target_[r]} + decoded_[r] - recomputed_[r];
    }

    // First come, first served (the preempted first): stop at the first that
    // has not arrived or does not fit.
    void admit() {
        while (running_.size() < settings_.max_seqs) {
            bool const again = !preempted_.empty();
            if (!again) {
                if (next_ >= n_) return;
                bool arrived = (!closed_ || next_ < sent_) && out_.requests[next_].arrival <= time_;
                if (!arrived) return;
            }
            auto const r = again ? preempted_.front() : static_cast<std::uint32_t>(next_);
            auto const& times = out_.requests[r];
            std::uint64_t need = grow_ ? target_[r] : std::uint64_t{times.prompt} + times.output;
            if (static_cast<double>(reserved_ + need) > settings_.kv_capacity_tokens) return;
            reserved_ += need;
            out_.peak_kv_tokens = std::max(out_.peak_kv_tokens, static_cast<double>(reserved_));
            if (again) {
                preempted_.pop_front();
            } else {
                admitted_at_[next_] = time_;
                ++next_;
            }
            running_.push_back(r);
        }
    }

    // grow: the newest running request gives its cache back and waits at
    // the front of the queue to prefill again all it had.
    void preempt_newest() {
        std::uint32_t const r = running_.back();
        running_.pop_back();
        reserved_ -= committed(r);
        recomputed_[r] = decoded_[r];
        target_[r] = out_.requests[r].prompt + decoded_[r];
        prefilled_[r] = 0;
        preempted_.push_front(r);
        ++out_.preemptions;
    }

    // The step's decodes and chunks; tokens and sampled sequences out.
    void plan(std::uint64_t& tokens, std::uint64_t& sampled) {
        contexts_.clear();
        decoders_.clear();
        chunks_.clear();
        chunk_owners_.clear();
        for (std::uint32_t r : running_) {
            auto const& times = out_.requests[r];
            if (prefilled_[r] == target_[r]) {
                contexts_.push_back(times.prompt + decoded_[r] + 1);
                decoders_.push_back(r);
            }
        }
        std::uint64_t budget =
            settings_.max_step_tokens > contexts_.size() ? settings_.max_step_tokens - contexts_.size() : 0;
        tokens = contexts_.size();
        sampled = contexts_.size();
        for (std::uint32_t r : running_) {
            if (budget == 0) break;
            std::uint32_t left = target_[r] - prefilled_[r];
            if (left == 0) continue;
            auto chunk = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, budget));
            chunks_.push_back({chunk, prefilled_[r]});
            chunk_owners_.push_back(r);
            budget -= chunk;
            tokens += chunk;
            // A prompt's last chunk samples its first token; a recompute's
            // only rebuilds the cache (its next token comes from a decode).
            if (chunk == left && !has_first_[r]) ++sampled;
        }
    }

    // One step of the running requests; false (and problem set) when the
    // cost is not a time.
    bool step() {
        std::uint64_t tokens = 0, sampled = 0;
        plan(tokens, sampled);
        // grow: each decode adds a token to the cache; preempt the newest
        // until they fit (a lone request always does: settings_problem).
        while (grow_ && running_.size() > 1 &&
               static_cast<double>(reserved_ + contexts_.size()) > settings_.kv_capacity_tokens) {
            preempt_newest();
            plan(tokens, sampled);
        }
        double seconds = cost_(StepWork{contexts_, chunks_, tokens, sampled});
        if (!(std::isfinite(seconds) && seconds >= 0)) {
            out_ = Simulation{};
            out_.problem = "the step cost of " + std::to_string(tokens) + " tokens is " +
                           number(seconds) + " s, not a time";
            return false;
        }
        double end = time_ + seconds;
        ++out_.steps;
        out_.busy_seconds += seconds;
        running_seconds_ += static_cast<double>(running_.size()) * seconds;

        for (std::uint32_t r : decoders_)
            if (++decoded_[r] == out_.requests[r].output - 1) out_.requests[r].finish = end;
        if (grow_) {
            reserved_ += decoders_.size();
            out_.peak_kv_tokens = std::max(out_.peak_kv_tokens, static_cast<double>(reserved_));
        }
        for (std::size_t c = 0; c < chunks_.size(); ++c) {
            std::uint32_t r = chunk_owners_[c];
            auto& times = out_.requests[r];
            prefilled_[r] += chunks_[c].tokens;
            if (prefilled_[r] < target_[r] || has_first_[r]) continue;
            has_first_[r] = 1;
            times.first_token = end;
            if (times.output == 1) times.finish = end;
        }
        time_ = end;
        retire();
        return true;
    }

    // The finished leave (in arrival order), their KV freed; in a closed
    // loop each one's client sends its next request now.
    void retire() {
        std::size_t kept = 0;
        for (std::uint32_t r : running_) {
            auto const& times = out_.requests[r];
            bool done = prefilled_[r] == target_[r] && decoded_[r] + 1 == times.output;
            if (!done) {
                running_[kept++] = r;
                continue;
            }
            reserved_ -= grow_ ? committed(r) : std::uint64_t{times.prompt} + times.output;
            if (closed_ && sent_ < n_) out_.requests[sent_++].arrival = time_;
        }
        running_.resize(kept);
    }

    SchedulerSettings const& settings_;
    StepCost const& cost_;
    std::size_t n_;
    bool closed_, grow_;
    Simulation out_;
    // Per request: tokens prefilled of its target (the prompt, plus under
    // grow the tokens decoded before its last preemption: recomputed_),
    // decode steps done, its first token out.
    std::vector<std::uint32_t> prefilled_, target_, decoded_, recomputed_;
    std::vector<std::uint8_t> has_first_;
    std::deque<std::uint32_t> preempted_;  // grow: the front readmitted first
    std::vector<double> admitted_at_;
    std::size_t next_ = 0;  // the first request not admitted (admission runs in order)
    std::size_t sent_ = 0;  // requests that have arrived (closed loop)
    std::uint64_t reserved_ = 0;  // reserve: prompt + output per running request; grow: committed()
    double time_ = 0, running_seconds_ = 0;
    // The step's, reused: running requests, decoding ones and their contexts, chunks and theirs.
    std::vector<std::uint32_t> running_, contexts_, decoders_, chunk_owners_;
    std::vector<Chunk> chunks_;
};

}  // namespace

Simulation simulate(std::vector<RequestSpec> const& requests, SchedulerSettings const& settings,
                    StepCost const& cost) {
    Simulation result;
    bool open = settings.clients == 0;
    // Checked before sorting (a NaN would break the sort), numbered as given.
    if (open)
        for (std::size_t i = 0; i < requests.size(); ++i)
            if (!(std::isfinite(requests[i].arrival) && requests[i].arrival >= 0)) {
                result.problem = "request " + std::to_string(i + 1) + " arrives at " +
                                 number(requests[i].arrival) + " s, not a time >= 0";
                return result;
            }
    // Arrival order (open loop); stable, so requests arriving together keep their order.
    std::vector<std::uint32_t> order(requests.size());
    std::iota(order.begin(), order.end(), 0u);
    if (open)
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return requests[a].arrival < requests[b].arrival;
        });
    result.problem = settings_problem(requests, order, settings);
    if (!result.problem.empty()) return result;
    return Scheduler(requests, order, settings, cost).run();
}

}  // namespace roofline::engine::serving
