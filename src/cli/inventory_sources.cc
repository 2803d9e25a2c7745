// Why a hash of the text as the version: an agent replaces its whole inventory when any
// object changes (a pod started), and the decode cache keys its reuse on (key, version);
// with the inventory's resourceVersion every object of the cluster would be decoded again,
// with the text's hash only the pods and nodes that changed are.
#include "cli/inventory_sources.h"

#include <nlohmann/json.hpp>

#include "core/parts_hash.h"
#include "server/agent/sync_protocol.h"

namespace berth::cli {

bool InventorySources::IsInventory(const store::StoredObject& object) {
  return object.key.group == server::agent::kInventoryGroup &&
         object.key.kind == server::agent::kInventoryKind;
}

size_t InventorySources::AppendTo(const StoreMirror& mirror, std::vector<io::SourceObject>& sources) {
  std::unordered_set<std::string> seen;
  for (const auto& [order_key, o] : mirror.objects()) {
    if (!IsInventory(o)) continue;
    const std::string& cluster = o.key.name;
    seen.insert(cluster);
    Expanded& e = by_cluster_[cluster];
    if (e.resource_version == o.meta.resource_version) continue;
    e = Expanded{};
    e.resource_version = o.meta.resource_version;
    const nlohmann::json body = nlohmann::json::parse(o.json, nullptr, /*allow_exceptions=*/false);
    if (!body.is_object()) continue;
    auto objects = body.find("objects");
    if (objects == body.end() || !objects->is_array()) continue;
    std::unordered_set<std::string> unique;
    e.keys.reserve(objects->size());
    e.texts.reserve(objects->size());
    for (const nlohmann::json& item : *objects) {
      if (!item.is_object()) continue;
      const nlohmann::json meta = item.value("metadata", nlohmann::json::object());
      std::string key = "inventory\x1f" + cluster + '\x1f' + item.value("apiVersion", "") + '\x1f' +
                        item.value("kind", "") + '\x1f' +
                        (meta.is_object() ? meta.value("namespace", "") : "") + '\x1f' +
                        (meta.is_object() ? meta.value("name", "") : "");
      // Keys must be unique in a read; an object reported twice is read once.
      if (!unique.insert(key).second) continue;
      std::string text = item.dump();
      e.versions.push_back(static_cast<int64_t>(core::PartsHash().Add(text).value() >> 1));
      e.keys.push_back(std::move(key));
      e.texts.push_back(std::move(text));
    }
  }
  for (auto it = by_cluster_.begin(); it != by_cluster_.end();) {
    it = seen.contains(it->first) ? std::next(it) : by_cluster_.erase(it);
  }
  member_clusters_ = std::move(seen);
  size_t appended = 0;
  for (const auto& [cluster, e] : by_cluster_) {
    for (size_t i = 0; i < e.keys.size(); ++i) {
      sources.push_back(io::SourceObject{e.keys[i], e.versions[i], e.texts[i]});
      ++appended;
    }
  }
  return appended;
}

}  // namespace berth::cli
