// WatchSession: one watch stream (GET ...?watch=1), as newline-delimited JSON events. It
// sends the initial state first when the client asked for none in particular
// (resourceVersion "" or "0": ADDED for every matching object), then the store's event log
// after the RV it started from, filtered by the request's namespace and selectors; BOOKMARK
// events on an interval when the client allows them; an ERROR event (410 Expired) when the
// RV it resumes from is compacted away; and it ends after timeoutSeconds or when the feed
// closes (shutdown). The HTTP layer pulls chunks with Next from the stream's own thread.
// Not thread-safe: one thread drives a session.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "server/api/list_options.h"
#include "server/api/request_info.h"
#include "server/api/table.h"
#include "server/rest/change_feed.h"
#include "store/store.h"

namespace berth::server {

struct WatchSettings {
  RequestInfo request;
  ListOptions options;
  // Set when the client asked for Tables (kubectl get -w): each event's object is a Table of
  // one row, the first with its column definitions.
  std::optional<std::string> table_version;
  IncludeObject include_object = IncludeObject::kMetadata;
  std::chrono::milliseconds bookmark_interval{60'000};
  std::chrono::steady_clock::time_point deadline;
  std::function<core::Timestamp()> now;
  // Events read from the store per step (bounds one chunk).
  int64_t events_per_read = 500;
  // With a label or field selector: the objects ("ns/name") that match when the stream
  // starts. The stream then reports crossings as the API server's watch cache does: an
  // object modified out of the selection is DELETED, one modified into it ADDED. Unset
  // without selectors (every event passes as it is).
  std::optional<std::unordered_set<std::string>> matching;
};

class WatchSession {
 public:
  // `initial` are the objects to send as ADDED first (already filtered), and `since_rv` the
  // RV the log is followed from.
  WatchSession(store::Store& store, ChangeFeed& feed, WatchSettings settings,
               std::deque<nlohmann::ordered_json> initial, int64_t since_rv);

  // The next piece of the stream: one or more lines, each a JSON event and '\n'; "" when
  // nothing happened within `wait` (the caller checks its client and calls again); nullopt
  // when the stream is over (its deadline passed, an ERROR event was the last piece, the
  // feed closed).
  std::optional<std::string> Next(std::chrono::milliseconds wait);

  int64_t resource_version() const { return since_rv_; }

 private:
  std::string Line(std::string_view type, const nlohmann::ordered_json& object);
  // The type to send `event` as, given whether its object passes the selectors now; nullptr
  // to send nothing. Keeps settings_.matching current.
  const char* EventTypeFor(const store::WatchEvent& event, bool matches);

  store::Store& store_;
  ChangeFeed& feed_;
  WatchSettings settings_;
  std::deque<nlohmann::ordered_json> initial_;
  int64_t since_rv_;
  std::chrono::steady_clock::time_point next_bookmark_;
  bool headers_sent_ = false;
  bool ended_ = false;
};

}  // namespace berth::server
