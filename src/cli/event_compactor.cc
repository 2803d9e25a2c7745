#include "cli/event_compactor.h"

#include <utility>

namespace berth::cli {

EventCompactor::EventCompactor(store::Store& store, int64_t keep_last,
                               std::chrono::milliseconds period,
                               std::function<void(const std::string&)> log)
    : store_(store), keep_last_(keep_last), period_(period), log_(std::move(log)) {}

EventCompactor::~EventCompactor() { Stop(); }

core::Status EventCompactor::CompactOnce() {
  if (!store_.Leading()) return {};
  store::CompactOptions options;
  options.keep_last = keep_last_;
  return store_.Compact(options);
}

void EventCompactor::Start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, period_, [this] { return stop_; })) {
      lock.unlock();
      if (auto st = CompactOnce(); !st.ok() && log_) log_("compaction: " + st.error().ToString());
      lock.lock();
    }
  });
}

void EventCompactor::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace berth::cli
