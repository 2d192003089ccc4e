#pragma once
// A progress bar on stderr for runs longer than about a second, only when
// stderr is a terminal; it never prints otherwise.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

namespace roofline::cli {

class ProgressBar {
public:
    explicit ProgressBar(std::size_t total);
    ~ProgressBar();  // stops and erases the bar
    std::atomic<std::size_t>& counter() { return done_; }

private:
    void run();
    std::size_t total_;
    std::atomic<std::size_t> done_{0};
    std::mutex mutex_;
    std::condition_variable stop_signal_;
    bool stop_ = false;
    bool shown_ = false;
    std::thread thread_;
};

}  // namespace roofline::cli
