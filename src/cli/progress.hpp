#pragma once
// The progress of `roofline run` on stderr (reports.md, "Progress"): one
// line, redrawn every 100 ms from a second on, naming the phases under way
// with their counts and rates; erased when the run ends. Only when stderr is
// a terminal: it never prints otherwise.

#include "roofline/report/progress.hpp"

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace roofline::cli {

// What the line shows of one phase.
struct PhaseView {
    enum class State { pending, running, done } state = State::pending;
    std::size_t total = 0;  // units (report::Phase); 0: unknown
    std::size_t done = 0;
    double seconds = 0;  // since the phase began
};
using ProgressView = std::array<PhaseView, 7>;  // indexed by report::Phase

// The text of the line for the phases under way, e.g.
// "evaluating 41%  12,288 / 30,000 cases  20.5 k cases/s" or
// "writing workbook 45%  |  charts 3 / 7  |  CSV 60%  1.2 M rows/s".
std::string progress_line(ProgressView const& view);

class ProgressDisplay : public report::ProgressObserver {
public:
    // Shows nothing unless `enabled` and stderr is a terminal.
    explicit ProgressDisplay(bool enabled);
    ~ProgressDisplay() override;  // stops and erases the line
    ProgressDisplay(ProgressDisplay const&) = delete;
    ProgressDisplay& operator=(ProgressDisplay const&) = delete;

    void begin(report::Phase phase, std::size_t total) override;
    void advance(report::Phase phase, std::size_t done) override;
    void end(report::Phase phase) override;

private:
    using Clock = std::chrono::steady_clock;
    void run();
    ProgressView view_locked() const;
    // The stderr of the start: libxlsxwriter's messages are silenced by
    // swapping the global one while it closes a workbook (output/workbook.cpp).
    std::FILE* const out_ = stderr;
    mutable std::mutex mutex_;
    std::condition_variable stop_signal_;
    ProgressView view_{};
    std::array<Clock::time_point, 5> began_{};
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace roofline::cli
