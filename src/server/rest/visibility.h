// Kueue's visibility API (visibility.kueue.x-k8s.io, v1beta1 and v1beta2): the pending
// workloads of a ClusterQueue or of a LocalQueue with their positions, as Kueue's visibility
// server answers them:
//   GET /apis/visibility.kueue.x-k8s.io/VERSION/clusterqueues/CQ/pendingworkloads?limit=&offset=
//   GET /apis/visibility.kueue.x-k8s.io/VERSION/namespaces/NS/localqueues/LQ/pendingworkloads
// A PendingWorkloadsSummary whose items carry metadata, priority, localQueueName,
// positionInClusterQueue and positionInLocalQueue (from 0). Order is Kueue's queue order:
// priority, highest first, then creation time, oldest first. The LocalQueue view lists only
// workloads of that namespace (Kueue #10575: same-named LocalQueues of other namespaces
// leaked); its positionInClusterQueue still counts the whole ClusterQueue. Read from the store
// per request: O(Workloads + LocalQueues). Pure apart from the store reads.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"
#include "server/api/query.h"
#include "store/store.h"

namespace berth::server {

inline constexpr std::string_view kVisibilityPrefix = "/apis/visibility.kueue.x-k8s.io/";

// What a visibility path asks for; nullopt when `path` is not one (404).
struct VisibilityRequest {
  std::string version;        // "v1beta1" or "v1beta2"
  std::string cluster_queue;  // set for the ClusterQueue view
  std::string ns;             // set with local_queue for the LocalQueue view
  std::string local_queue;
};
std::optional<VisibilityRequest> ParseVisibilityPath(std::string_view path);

// The PendingWorkloadsSummary; 400 for a bad limit or offset (Kueue's default limit 1000).
ApiResult<nlohmann::ordered_json> PendingWorkloads(store::Store& store,
                                                   const VisibilityRequest& request,
                                                   const QueryParams& query);

}  // namespace berth::server
