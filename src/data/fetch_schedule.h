// The fetch schedule: when each replica of a workload gets an artifact, from where, and what
// the burst costs the origin, with pull limits and in-cluster sharing that prevent the cache
// storm (docs/data.md, "Fetch schedule"; data_locality.md §2.5, §3.2). A deterministic
// event-driven simulation; a pure function of its arguments, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "data/artifact.h"
#include "data/data_view.h"
#include "data/transfer_model.h"

namespace berth::data {

struct Replica {
  std::string pod;      // unique within the call; ties in time are broken by this name
  std::string node;     // must be a node of the view
  std::string cluster;  // "" = the node's cluster; otherwise must be it
};

struct FetchLimits {
  int32_t max_origin_pulls = 0;              // concurrent pulls from the origin; 0 = no limit
  int32_t max_origin_pulls_per_cluster = 0;  // concurrent origin pulls per cluster; 0 = no limit
  // P2P or a cluster cache on: a cluster pulls from the origin once, and every later node
  // copies from a node that has the artifact.
  bool share_in_cluster = false;
};

struct ReplicaFetch {
  std::string pod;
  std::string node;
  LoadSource source = LoadSource::kNodeCache;
  std::string peer_node;         // kPeer: the node copied from
  double start_s = 0;            // the fetch (or the node-cache read) starts
  double fetched_s = 0;          // every byte is on the node
  double end_s = 0;              // in GPU memory: the replica can start
  int64_t origin_bytes = 0;      // charged to the replica that pulled for its node
  std::string forbidden_reason;  // non-empty: residency forbids the node; times are 0
};

struct FetchSchedule {
  std::vector<ReplicaFetch> replicas;  // in the order of the input
  double all_ready_s = 0;              // max end_s over the allowed replicas (a gang waits)
  int64_t origin_bytes = 0;
  int32_t peak_origin_pulls = 0;  // most origin pulls in flight at once
  int32_t forbidden = 0;          // replicas whose node residency forbids
};

// Simulates the fetches of `artifact` for `replicas`. One pull per node: the replica first
// by name pulls, the others on that node read the node cache once it has the artifact.
// Errors: InvalidArgument for a bad artifact, negative limits, a duplicate pod name or a
// replica whose cluster is not its node's; NotFound (object "Replica/<pod>", field node or
// cluster) for an unknown node or cluster. O((replicas + events) · (log replicas + caps)),
// caps = distinct per-pull origin caps (NIC and link classes, a handful).
core::Result<FetchSchedule> ScheduleFetches(const Artifact& artifact,
                                            const std::vector<Replica>& replicas,
                                            const FetchLimits& limits, const DataView& view);

}  // namespace berth::data
