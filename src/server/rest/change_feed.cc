#include "server/rest/change_feed.h"

namespace berth::server {

void ChangeFeed::Publish(int64_t rv) {
  {
    std::lock_guard lock(mu_);
    if (rv <= rv_) return;
    rv_ = rv;
  }
  cv_.notify_all();
}

int64_t ChangeFeed::WaitPast(int64_t after, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return closed_ || rv_ > after; });
  return rv_;
}

void ChangeFeed::Close() {
  {
    std::lock_guard lock(mu_);
    closed_ = true;
  }
  cv_.notify_all();
}

bool ChangeFeed::closed() const {
  std::lock_guard lock(mu_);
  return closed_;
}

}  // namespace berth::server
