// The loop follows client-go's Reflector.ListAndWatch (k8s.io/client-go/tools/cache/
// reflector.go): list, watch from the list's RV with AllowWatchBookmarks, keep the last RV
// from every event and bookmark, relist on "expired"/"gone" (410), resume the watch after a
// clean end. Where it differs: after a transport error or another non-410 failure it backs off
// and resumes the watch from the last RV rather than relisting (a relist is the expensive
// step, and the RV is still good unless the server says 410); the initial list is not a
// consistent-read/streaming list (WatchList), which berth's API does not serve.
#include "server/kube/reflector.h"

#include <algorithm>
#include <thread>
#include <utility>

namespace berth::server::kube {

namespace {

constexpr std::chrono::milliseconds kReflectorSleepSlice{10};

std::string ReflectorMetaString(const Json& object, const char* key) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

Reflector::Reflector(Client& client, Resource resource, ReflectorOptions options,
                     ReflectorHandler* handler)
    : client_(client),
      resource_(std::move(resource)),
      options_(std::move(options)),
      handler_(handler),
      rng_(options_.jitter_seed),
      backoff_next_(options_.backoff_initial) {}

std::string Reflector::KeyOf(const Json& object) {
  const std::string ns = ReflectorMetaString(object, "namespace");
  const std::string name = ReflectorMetaString(object, "name");
  return ns.empty() ? name : ns + "/" + name;
}

void Reflector::Failed(std::string message) {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.failures;
  last_error_ = std::move(message);
}

void Reflector::Backoff(const std::atomic<bool>& stop) {
  const auto delay = backoff_next_;
  backoff_next_ = std::min(options_.backoff_max, backoff_next_ * 2);
  const int64_t high = std::max<int64_t>(delay.count(), 1);
  std::uniform_int_distribution<int64_t> pick(high / 2, high);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(pick(rng_));
  while (!stop.load() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(kReflectorSleepSlice);
  }
}

bool Reflector::List() {
  ListQuery query;
  query.label_selector = options_.label_selector;
  query.field_selector = options_.field_selector;
  query.limit = options_.page_size;
  auto listed = client_.ListAll(resource_, options_.ns, query);
  if (!listed) {
    Failed("list: " + listed.error().ToString());
    return false;
  }
  if (!listed->ok()) {
    Failed("list: " + listed->Message());
    return false;
  }
  Json list = listed->Parsed();
  auto items_it = list.is_object() ? list.find("items") : list.end();
  if (!list.is_object() || items_it == list.end() || !items_it->is_array()) {
    Failed("list: the reply is not a List");
    return false;
  }
  std::vector<Json> items;
  items.reserve(items_it->size());
  std::map<std::string, Json> cache;
  for (Json& item : *items_it) {
    // kube-apiserver leaves kind and apiVersion off a List's items (they are the List's);
    // the cache and its readers (the agent's inventory, which the hub decodes by kind) get
    // whole objects, as a watch event's are.
    if (item.is_object()) {
      if (!item.contains("kind")) item["kind"] = resource_.kind;
      if (!item.contains("apiVersion")) item["apiVersion"] = resource_.ApiVersion();
    }
    cache[KeyOf(item)] = item;
    items.push_back(std::move(item));
  }
  const std::string rv = ReflectorMetaString(list, "resourceVersion");
  {
    std::lock_guard<std::mutex> lock(mu_);
    cache_ = std::move(cache);
    resource_version_ = rv;
    if (counts_.lists > 0) ++counts_.relists;
    ++counts_.lists;
    synced_ = true;
  }
  if (handler_ != nullptr) handler_->OnReplace(std::move(items), rv);
  backoff_next_ = options_.backoff_initial;
  return true;
}

Reflector::WatchEnd Reflector::Apply(std::string_view line) {
  Json event = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!event.is_object()) {
    Failed("watch: a line that is not a JSON object");
    return WatchEnd::kFailed;
  }
  // A refused watch answers with a Status body, not an event.
  if (event.value("kind", "") == "Status") {
    if (event.value("code", 0) == 410) {
      std::lock_guard<std::mutex> lock(mu_);
      ++counts_.gone;
      return WatchEnd::kRelist;
    }
    Failed("watch: " + event.value("message", std::string("refused")));
    return WatchEnd::kFailed;
  }
  const std::string type = event.value("type", "");
  auto object_it = event.find("object");
  if (object_it == event.end() || !object_it->is_object()) {
    Failed("watch: an event without an object");
    return WatchEnd::kFailed;
  }
  const Json& object = *object_it;
  if (type == "ERROR") {
    if (object.value("code", 0) == 410) {
      std::lock_guard<std::mutex> lock(mu_);
      ++counts_.gone;
      return WatchEnd::kRelist;
    }
    Failed("watch: ERROR event: " + object.value("message", std::string("")));
    return WatchEnd::kFailed;
  }
  const std::string rv = ReflectorMetaString(object, "resourceVersion");
  if (type == "BOOKMARK") {
    std::lock_guard<std::mutex> lock(mu_);
    if (!rv.empty()) resource_version_ = rv;
    ++counts_.bookmarks;
    return WatchEnd::kResume;
  }
  if (type != "ADDED" && type != "MODIFIED" && type != "DELETED") {
    Failed("watch: unknown event type \"" + type + "\"");
    return WatchEnd::kFailed;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (type == "DELETED") {
      cache_.erase(KeyOf(object));
    } else {
      cache_[KeyOf(object)] = object;
    }
    if (!rv.empty()) resource_version_ = rv;
    ++counts_.events;
  }
  if (handler_ != nullptr) handler_->OnEvent(type, object);
  return WatchEnd::kResume;
}

Reflector::WatchEnd Reflector::Watch(const std::atomic<bool>& stop) {
  WatchQuery query;
  query.label_selector = options_.label_selector;
  query.field_selector = options_.field_selector;
  query.resource_version = ResourceVersion();
  query.allow_bookmarks = true;
  query.timeout_s = std::max<int64_t>(options_.watch_timeout_s, 1);
  query.cancel = &stop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++counts_.watches;
  }
  WatchEnd end = WatchEnd::kResume;
  auto streamed = client_.Watch(resource_, options_.ns, query, [&](std::string_view line) {
    if (stop.load()) return false;
    end = Apply(line);
    return end == WatchEnd::kResume;
  });
  if (end != WatchEnd::kResume) return end;
  if (!streamed) {
    Failed("watch: " + streamed.error().ToString());
    return WatchEnd::kFailed;
  }
  if (*streamed == 410) {
    std::lock_guard<std::mutex> lock(mu_);
    ++counts_.gone;
    return WatchEnd::kRelist;
  }
  if (*streamed < 200 || *streamed >= 300) {
    Failed("watch: HTTP " + std::to_string(*streamed));
    return WatchEnd::kFailed;
  }
  return WatchEnd::kResume;
}

void Reflector::Run(const std::atomic<bool>& stop) {
  bool need_list = true;
  while (!stop.load()) {
    if (need_list) {
      if (!List()) {
        Backoff(stop);
        continue;
      }
      need_list = false;
    }
    switch (Watch(stop)) {
      case WatchEnd::kResume:
        backoff_next_ = options_.backoff_initial;
        break;
      case WatchEnd::kRelist:
        need_list = true;
        break;
      case WatchEnd::kFailed:
        Backoff(stop);
        break;
    }
  }
}

std::map<std::string, Json> Reflector::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_;
}

bool Reflector::Synced() const {
  std::lock_guard<std::mutex> lock(mu_);
  return synced_;
}

std::string Reflector::ResourceVersion() const {
  std::lock_guard<std::mutex> lock(mu_);
  return resource_version_;
}

ReflectorCounts Reflector::counts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counts_;
}

std::string Reflector::LastError() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_error_;
}

}  // namespace berth::server::kube
