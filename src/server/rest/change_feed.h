// ChangeFeed: wakes the watch streams when the store's resourceVersion moves. Writers call
// Publish(rv) after a commit; each stream waits for an RV past the one it has sent, then
// reads the events itself from the store (the store's event log is the truth, so a lost or
// reordered Publish only delays a stream by one wait, never loses an event). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace berth::server {

class ChangeFeed {
 public:
  // Records that the store has reached `rv` (lower values than seen are ignored) and wakes
  // every waiter.
  void Publish(int64_t rv);
  // Blocks until the published RV exceeds `after`, Close() is called, or `timeout` passes;
  // returns the published RV (which may still be <= after on timeout).
  int64_t WaitPast(int64_t after, std::chrono::milliseconds timeout);
  // Wakes every waiter for good (server shutdown); later waits return at once.
  void Close();
  bool closed() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int64_t rv_ = 0;
  bool closed_ = false;
};

}  // namespace berth::server
