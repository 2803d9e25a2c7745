// InventorySources: the member clusters' objects the agents report (one ClusterInventory per
// cluster in the hub's store, server/agent/sync_protocol.h) as sources of the hub's scheduling
// cycle: each object of an inventory becomes one io::SourceObject carrying its cluster's
// berth.dev/cluster annotation (the hub wrote it), keyed by cluster and identity and
// versioned by a hash of its text, so the decode cache decodes again only the objects that
// changed when an inventory is replaced. An inventory is parsed again only when its
// resourceVersion changes. The cycle must not write the plan's decisions about these
// objects back to the hub: member_clusters() names the clusters whose objects are the
// members' own. Used by SchedulingLoop under its cycle mutex; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cli/store_mirror.h"
#include "io/decode_cache.h"

namespace berth::cli {

class InventorySources {
 public:
  // Brings the expansion up to date with the mirror's inventories (parsing the changed
  // ones), then appends one source per inventory object to `sources`. The appended views
  // stay valid until the next Refresh. Returns how many objects it appended.
  size_t AppendTo(const StoreMirror& mirror, std::vector<io::SourceObject>& sources);

  const std::unordered_set<std::string>& member_clusters() const { return member_clusters_; }
  // Whether a mirror object is an inventory (the cycle reads it only through AppendTo).
  static bool IsInventory(const store::StoredObject& object);

 private:
  struct Expanded {
    int64_t resource_version = -1;
    std::vector<std::string> keys;
    std::vector<int64_t> versions;
    std::vector<std::string> texts;
  };
  std::unordered_map<std::string, Expanded> by_cluster_;
  std::unordered_set<std::string> member_clusters_;
};

}  // namespace berth::cli
