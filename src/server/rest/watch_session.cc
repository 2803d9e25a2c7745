// The stream follows the store's event log rather than an in-memory broadcast: the log is the
// truth across writers (the REST handler, the scheduling loop) and across restarts, so a
// stream never misses an event a concurrent commit wrote out of notification order; the
// ChangeFeed only saves the polling.
#include "server/rest/watch_session.h"

#include <algorithm>
#include <span>
#include <utility>

#include "server/api/list_watch.h"
#include "server/rest/stored_json.h"

namespace berth::server {

using Json = nlohmann::ordered_json;

namespace {

// Initial ADDED events per chunk: a large namespace streams in pieces.
constexpr size_t kInitialPerChunk = 500;

}  // namespace

WatchSession::WatchSession(store::Store& store, ChangeFeed& feed, WatchSettings settings,
                           std::deque<Json> initial, int64_t since_rv)
    : store_(store),
      feed_(feed),
      settings_(std::move(settings)),
      initial_(std::move(initial)),
      since_rv_(since_rv),
      next_bookmark_(std::chrono::steady_clock::now() + settings_.bookmark_interval) {}

std::string WatchSession::Line(std::string_view type, const Json& object) {
  Json event_object;
  if (settings_.table_version) {
    TableOptions options;
    options.now = settings_.now ? settings_.now() : core::Timestamp{};
    options.include_object = settings_.include_object;
    options.no_headers = headers_sent_;
    headers_sent_ = true;
    event_object = BuildTable(*settings_.request.kind, settings_.request.version,
                              std::span<const Json>(&object, 1), options);
  } else {
    event_object = object;
  }
  Json line = Json::object();
  line["type"] = std::string(type);
  line["object"] = std::move(event_object);
  return line.dump() + "\n";
}

const char* WatchSession::EventTypeFor(const store::WatchEvent& event, bool matches) {
  if (!settings_.matching.has_value()) return matches ? store::EventTypeName(event.type) : nullptr;
  std::unordered_set<std::string>& matching = *settings_.matching;
  std::string key = event.object.key.ns + "/" + event.object.key.name;
  if (event.type == store::EventType::kDeleted) {
    const bool was = matching.erase(key) > 0;
    return was || matches ? "DELETED" : nullptr;
  }
  const bool was = matching.contains(key);
  if (matches && !was) {
    matching.insert(std::move(key));
    return "ADDED";
  }
  if (!matches && was) {
    matching.erase(key);
    return "DELETED";  // left the selection: gone for this watcher
  }
  return matches ? store::EventTypeName(event.type) : nullptr;
}

std::optional<std::string> WatchSession::Next(std::chrono::milliseconds wait) {
  if (ended_) return std::nullopt;
  std::string out;
  if (!initial_.empty()) {
    for (size_t i = 0; i < kInitialPerChunk && !initial_.empty(); ++i) {
      out += Line("ADDED", initial_.front());
      initial_.pop_front();
    }
    return out;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now >= settings_.deadline || feed_.closed()) {
    ended_ = true;
    return std::nullopt;
  }
  const bool bookmarks = settings_.options.allow_watch_bookmarks;
  auto until = std::min(settings_.deadline, now + wait);
  if (bookmarks) until = std::min(until, next_bookmark_);
  const auto timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(until - now) +
      std::chrono::milliseconds(1);
  // The feed wakes the stream early for a local write; the log is read after every wait
  // anyway, since another hub sharing the store (a PostgreSQL standby serving reads) publishes
  // nothing here.
  (void)feed_.WaitPast(since_rv_, timeout);
  {
    store::WatchOptions wo;
    wo.since_rv = since_rv_;
    wo.limit = settings_.events_per_read;
    wo.group = std::string(settings_.request.kind->group);
    wo.kind = std::string(settings_.request.kind->kind);
    if (settings_.request.kind->namespaced() && !settings_.request.namespace_.empty()) {
      wo.ns = settings_.request.namespace_;
    }
    auto page = store_.EventsSince(wo);
    if (!page) {
      ended_ = true;
      if (page.error().code() == core::ErrorCode::kOutOfRange) {
        return ErrorEvent(TooOldResourceVersionError(since_rv_,
                                                     store_.CompactedResourceVersion()))
                   .dump() +
               "\n";
      }
      return ErrorEvent(InternalApiError(page.error().ToString())).dump() + "\n";
    }
    const std::string api_version = settings_.request.api_version();
    for (const store::WatchEvent& event : page->events) {
      since_rv_ = event.object.meta.resource_version;
      auto served = ServedObject(event.object, api_version);
      if (!served) continue;
      if (const char* type = EventTypeFor(event, settings_.options.Matches(*served))) {
        out += Line(type, *served);
      }
    }
    // A page short of the limit covers the log up to the RV the store read it at.
    if (static_cast<int64_t>(page->events.size()) < wo.limit) {
      since_rv_ = std::max(since_rv_, page->resource_version);
    }
  }
  if (bookmarks && std::chrono::steady_clock::now() >= next_bookmark_) {
    out += BookmarkEvent(*settings_.request.kind, settings_.request.api_version(), since_rv_)
               .dump() +
           "\n";
    next_bookmark_ = std::chrono::steady_clock::now() + settings_.bookmark_interval;
  }
  return out;
}

}  // namespace berth::server
