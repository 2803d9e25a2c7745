// Reflector: keeps a local copy of one resource (optionally one namespace and selectors) by
// list and watch, as client-go's Reflector does: ListAll, then a watch from the list's
// resourceVersion with bookmarks allowed and a bounded timeoutSeconds, resumed from the last
// resourceVersion seen (event or BOOKMARK); a relist when the server says the version is gone
// (410, as the HTTP status or an ERROR event); bounded exponential backoff with jitter after
// failures. Changes go to a ReflectorHandler and into a cache. Run() is called on one thread
// (the reflector's); Snapshot(), Synced(), ResourceVersion() and counts() are thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "server/kube/kube_client.h"

namespace berth::server::kube {

// What a reflector reports, on its Run thread. OnReplace after each (re)list with every
// object listed and the list's resourceVersion (the handler replaces what it held, as
// client-go's DeltaFIFO.Replace); OnEvent for each ADDED, MODIFIED or DELETED event. BOOKMARK
// events are not delivered (they only move the resourceVersion).
class ReflectorHandler {
 public:
  virtual ~ReflectorHandler() = default;
  virtual void OnReplace(std::vector<Json> items, std::string resource_version) = 0;
  virtual void OnEvent(std::string_view type, const Json& object) = 0;
};

struct ReflectorOptions {
  std::string ns;  // "" = every namespace (and cluster-scoped resources)
  std::string label_selector;
  std::string field_selector;
  int64_t page_size = 500;
  // Each watch's timeoutSeconds; the watch is then resumed (client-go picks 5..10 min; a
  // shorter one bounds how long a lost connection goes unnoticed behind a quiet stream).
  int64_t watch_timeout_s = 300;
  // Backoff after a failed list or watch: doubles from initial up to max, each wait drawn
  // uniformly from [delay/2, delay]; reset by a successful list or a watch that ended well.
  std::chrono::milliseconds backoff_initial{100};
  std::chrono::milliseconds backoff_max{5000};
  uint64_t jitter_seed = 1;
};

// Counters for tests and metrics (monotonic).
struct ReflectorCounts {
  int64_t lists = 0;     // successful lists, the first included
  int64_t relists = 0;   // successful lists after the first
  int64_t watches = 0;   // watch requests started
  int64_t gone = 0;      // 410s seen (status or ERROR event)
  int64_t failures = 0;  // failed lists or watches that led to a backoff
  int64_t events = 0;    // ADDED, MODIFIED, DELETED delivered
  int64_t bookmarks = 0;
};

class Reflector {
 public:
  // `client` and `handler` (may be null) must outlive Run.
  Reflector(Client& client, Resource resource, ReflectorOptions options,
            ReflectorHandler* handler = nullptr);

  // Lists and watches until `stop` is set; returns within about 100 ms of it (the watch is
  // cancelled through Request::cancel, backoff waits are sliced).
  void Run(const std::atomic<bool>& stop);

  // The cached objects by key: "namespace/name", or "name" for cluster-scoped objects.
  std::map<std::string, Json> Snapshot() const;
  // True once the first list has been stored.
  bool Synced() const;
  // The last resourceVersion seen (list, event or bookmark).
  std::string ResourceVersion() const;
  ReflectorCounts counts() const;
  // The last failure's message ("" when none), for logs and tests.
  std::string LastError() const;

 private:
  enum class WatchEnd { kResume, kRelist, kFailed };

  // Lists and replaces the cache; false after a failure (recorded).
  bool List();
  WatchEnd Watch(const std::atomic<bool>& stop);
  // Applies one watch line; returns what the watch should do next (kResume: go on reading).
  WatchEnd Apply(std::string_view line);
  // Waits the next backoff delay, or until stop.
  void Backoff(const std::atomic<bool>& stop);
  void Failed(std::string message);
  static std::string KeyOf(const Json& object);

  Client& client_;
  const Resource resource_;
  const ReflectorOptions options_;
  ReflectorHandler* handler_;
  std::mt19937_64 rng_;
  std::chrono::milliseconds backoff_next_;

  mutable std::mutex mu_;
  std::map<std::string, Json> cache_;  // GUARDED_BY(mu_)
  std::string resource_version_;       // GUARDED_BY(mu_)
  bool synced_ = false;                // GUARDED_BY(mu_)
  ReflectorCounts counts_;             // GUARDED_BY(mu_)
  std::string last_error_;             // GUARDED_BY(mu_)
};

}  // namespace berth::server::kube
