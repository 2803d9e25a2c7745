// Why a mirror and not a List per cycle: listing 100,000 stored Workloads costs a cycle about
// 0.13 s before anything is decided; the events since the last cycle are usually a handful
// (the cycle's own writes among them).
#include "cli/store_mirror.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/kind_info.h"
#include "server/agent/sync_protocol.h"

namespace berth::cli {

namespace {

std::string KindKey(std::string_view group, std::string_view kind) {
  std::string key(group);
  key += '\x1f';
  key.append(kind);
  return key;
}

}  // namespace

StoreMirror::StoreMirror(store::Store& store) : store_(store) {
  uint16_t order = 0;
  for (const model::KindInfo& kind : model::AllKinds()) {
    if (kind.served()) kind_order_.emplace(KindKey(kind.group, kind.kind), order);
    ++order;
  }
  // The agents' inventories are stored beside the API's kinds without being served.
  kind_order_.emplace(KindKey(server::agent::kInventoryGroup, server::agent::kInventoryKind), order);
}

std::string StoreMirror::OrderKey(std::string_view group, std::string_view kind,
                                  std::string_view ns, std::string_view name) const {
  auto it = kind_order_.find(KindKey(group, kind));
  if (it == kind_order_.end()) return "";
  std::string key;
  key.reserve(2 + ns.size() + 1 + name.size());
  key += static_cast<char>(it->second >> 8);
  key += static_cast<char>(it->second & 0xff);
  key.append(ns);
  key += '\0';
  key.append(name);
  return key;
}

const store::StoredObject* StoreMirror::Find(std::string_view group, std::string_view kind,
                                             std::string_view ns, std::string_view name) const {
  const std::string key = OrderKey(group, kind, ns, name);
  if (key.empty()) return nullptr;
  auto it = objects_.find(key);
  return it == objects_.end() ? nullptr : &it->second;
}

core::Status StoreMirror::Relist() {
  listed_ = false;
  objects_.clear();
  // Read before listing: the events after it, applied by the next refresh, bring whatever
  // changed while the kinds were listed one after another.
  rv_ = store_.CurrentResourceVersion();
  std::vector<std::pair<std::string, std::string>> kinds;
  for (const model::KindInfo& kind : model::AllKinds()) {
    if (kind.served()) kinds.emplace_back(kind.group, kind.kind);
  }
  kinds.emplace_back(server::agent::kInventoryGroup, server::agent::kInventoryKind);
  for (const auto& [group, kind] : kinds) {
    store::ListOptions options;
    options.group = group;
    options.kind = kind;
    options.limit = 5000;
    while (true) {
      auto page = store_.List(options);
      if (!page) return page.error();
      for (store::StoredObject& o : page->items) {
        std::string key = OrderKey(o.key.group, o.key.kind, o.key.ns, o.key.name);
        objects_.insert_or_assign(std::move(key), std::move(o));
      }
      if (!page->next) break;
      options.start_after = page->next;
    }
  }
  listed_ = true;
  return core::OkStatus();
}

core::Status StoreMirror::Refresh() {
  if (!listed_) BERTH_RETURN_IF_ERROR(Relist());
  int relists = 0;
  while (true) {
    store::WatchOptions options;
    options.since_rv = rv_;
    options.limit = 10000;
    auto page = store_.EventsSince(options);
    if (!page && page.error().code() == core::ErrorCode::kOutOfRange && ++relists <= 3) {
      // Compacted past what this copy has seen: only a full read is consistent again, and
      // the events after it bring what changed during it.
      BERTH_RETURN_IF_ERROR(Relist());
      continue;
    }
    if (!page) {
      listed_ = false;
      return page.error();
    }
    if (page->events.empty()) {
      rv_ = std::max(rv_, page->resource_version);
      return core::OkStatus();
    }
    for (store::WatchEvent& e : page->events) {
      rv_ = std::max(rv_, e.object.meta.resource_version);
      std::string key = OrderKey(e.object.key.group, e.object.key.kind, e.object.key.ns,
                                 e.object.key.name);
      if (key.empty()) continue;
      if (e.type == store::EventType::kDeleted) {
        objects_.erase(key);
      } else {
        objects_.insert_or_assign(std::move(key), std::move(e.object));
      }
    }
  }
}

}  // namespace berth::cli
