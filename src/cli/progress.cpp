#include "progress.hpp"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace roofline::cli {

ProgressBar::ProgressBar(std::size_t total) : total_(total) {
    if (::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

ProgressBar::~ProgressBar() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    stop_signal_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ProgressBar::run() {
    using namespace std::chrono_literals;
    std::unique_lock lock(mutex_);
    // Quiet for the first second: fast runs show nothing.
    if (stop_signal_.wait_for(lock, 1s, [this] { return stop_; })) return;
    constexpr int width = 30;
    do {
        std::size_t done = std::min(done_.load(), total_);
        int filled = total_ ? static_cast<int>(width * done / total_) : width;
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(width, '.');
        std::fprintf(stderr, "\r[%s] %3d%%  %zu / %zu cases", bar.c_str(),
                     total_ ? static_cast<int>(100 * done / total_) : 100, done, total_);
        std::fflush(stderr);
        shown_ = true;
    } while (!stop_signal_.wait_for(lock, 100ms, [this] { return stop_; }));
    if (shown_) {
        std::fprintf(stderr, "\r%*s\r", 70, "");
        std::fflush(stderr);
    }
}

}  // namespace roofline::cli
