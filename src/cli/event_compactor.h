// EventCompactor: keeps the hub's event log bounded. Every `period` it asks the store to drop
// all but the newest `keep_last` events (watches resuming from before that get 410 Gone and
// relist, as from a compacted etcd). Only the leader compacts (a standby's writes are fenced
// anyway). One thread; Stop joins it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "store/store.h"

namespace berth::cli {

class EventCompactor {
 public:
  EventCompactor(store::Store& store, int64_t keep_last, std::chrono::milliseconds period,
                 std::function<void(const std::string&)> log);
  ~EventCompactor();
  EventCompactor(const EventCompactor&) = delete;
  EventCompactor& operator=(const EventCompactor&) = delete;

  void Start();
  void Stop();
  // One compaction now, if leading (tests).
  core::Status CompactOnce();

 private:
  store::Store& store_;
  const int64_t keep_last_;
  const std::chrono::milliseconds period_;
  std::function<void(const std::string&)> log_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace berth::cli
