#include "progress.hpp"

#include "roofline/output/terminal_text.hpp"

#include <cstdio>
#include <unistd.h>

namespace roofline::cli {

namespace {

using report::Phase;
using State = PhaseView::State;

std::string percent(PhaseView const& p) {
    if (!p.total) return "";
    return std::to_string(std::min<std::size_t>(100, 100 * p.done / p.total)) + "%";
}

// "20.5 k cases/s"; nothing until there is something to divide.
std::string rate(PhaseView const& p, char const* unit) {
    if (p.seconds < 0.05 || !p.done) return "";
    return output::format_si_count(static_cast<double>(p.done) / p.seconds, unit);
}

void join(std::string& out, std::string const& part, char const* separator) {
    if (part.empty()) return;
    if (!out.empty()) out += separator;
    out += part;
}

}  // namespace

std::string progress_line(ProgressView const& view) {
    std::string line;
    for (std::size_t i = 0; i < view.size(); ++i) {
        auto const& p = view[i];
        if (p.state != State::running) continue;
        std::string part;
        switch (static_cast<Phase>(i)) {
            case Phase::evaluating:
                part = "evaluating";
                join(part, percent(p), " ");
                join(part,
                     output::format_thousands(static_cast<double>(p.done)) + " / " +
                         output::format_thousands(static_cast<double>(p.total)) + " cases",
                     "  ");
                join(part, rate(p, "cases/s"), "  ");
                break;
            case Phase::workbook:
                part = "writing workbook";
                join(part, percent(p), " ");
                break;
            case Phase::charts:
                // Not "literal" + temporary: GCC 12 -O3 warns falsely (-Wrestrict).
                part = std::string("charts ")
                           .append(std::to_string(p.done))
                           .append(" / ")
                           .append(std::to_string(p.total));
                break;
            case Phase::csv:
                part = "CSV";
                join(part, percent(p), " ");
                join(part, rate(p, "rows/s"), "  ");
                break;
            case Phase::publishing: part = "publishing"; break;
            case Phase::serving:
            case Phase::fleet:
                part = static_cast<Phase>(i) == Phase::serving ? "serving" : "fleet";
                join(part, percent(p), " ");
                join(part,
                     output::format_thousands(static_cast<double>(p.done)) + " / " +
                         output::format_thousands(static_cast<double>(p.total)) +
                         (static_cast<Phase>(i) == Phase::serving ? " serve points" : " configurations"),
                     "  ");
                break;
        }
        join(line, part, "  |  ");
    }
    return line;
}

ProgressDisplay::ProgressDisplay(bool enabled) {
    if (enabled && ::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

ProgressDisplay::~ProgressDisplay() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    stop_signal_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ProgressDisplay::begin(Phase phase, std::size_t total) {
    std::lock_guard lock(mutex_);
    auto& p = view_[static_cast<std::size_t>(phase)];
    p = {State::running, total, 0, 0};
    began_[static_cast<std::size_t>(phase)] = Clock::now();
}

void ProgressDisplay::advance(Phase phase, std::size_t done) {
    std::lock_guard lock(mutex_);
    view_[static_cast<std::size_t>(phase)].done = done;
}

void ProgressDisplay::end(Phase phase) {
    std::lock_guard lock(mutex_);
    view_[static_cast<std::size_t>(phase)].state = State::done;
}

ProgressView ProgressDisplay::view_locked() const {
    ProgressView view = view_;
    auto now = Clock::now();
    for (std::size_t i = 0; i < view.size(); ++i)
        view[i].seconds = std::chrono::duration<double>(now - began_[i]).count();
    return view;
}

void ProgressDisplay::run() {
    using namespace std::chrono_literals;
    std::unique_lock lock(mutex_);
    // Quiet for the first second: fast runs show nothing.
    if (stop_signal_.wait_for(lock, 1s, [this] { return stop_; })) return;
    std::size_t shown = 0;  // characters on the line now
    do {
        std::string line = progress_line(view_locked());
        // Pad over the end of a longer previous line.
        std::size_t width = output::display_width(line);
        if (width < shown) line.append(shown - width, ' ');
        shown = std::max(shown, width);
        std::fprintf(out_, "\r%s", line.c_str());
        std::fflush(out_);
    } while (!stop_signal_.wait_for(lock, 100ms, [this] { return stop_; }));
    if (shown) {
        std::fprintf(out_, "\r%*s\r", static_cast<int>(shown), "");
        std::fflush(out_);
    }
}

}  // namespace roofline::cli
