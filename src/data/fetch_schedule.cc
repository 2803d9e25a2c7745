#include "data/fetch_schedule.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <utility>

#include "core/check.h"
#include "data/internal/shared_egress.h"

namespace berth::data {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// One fetch per node that lacks bytes, made for the replica first by name on that node.
struct Pull {
  int32_t node = 0;
  int32_t cluster = 0;
  int32_t rank = 0;         // the pulling replica's position in name order: tie-breaker
  int64_t missing = 0;      // bytes the node lacks
  int64_t cache_bytes = 0;  // of those, read from a partly filled cluster cache
  LoadSource source = LoadSource::kNodeCache;
  int32_t peer = -1;
  int64_t origin_bytes = 0;
  double start = 0;
  double fetched = kNever;
};

struct ClusterState {
  std::deque<int32_t> waiting;       // pulls not started, in name order
  std::deque<int32_t> free_holders;  // nodes with the artifact, serving no copy now
  int32_t holders = 0;               // nodes that serve copies, busy or free
  int32_t origin_active = 0;
  bool seed_started = false;  // share_in_cluster: the one origin pull has begun
  std::optional<std::pair<int32_t, int32_t>> ready_key;  // entry in Simulator::ready_
};

// The event-driven run. Events are fixed-length transfers (peer copies, cluster-cache reads)
// in a heap by (time, rank); origin pulls, whose speed changes with every start and finish,
// live in SharedEgress. Clusters that may start an origin pull now sit in `ready_` by the
// rank of their first waiting pull, so a freed origin slot goes to the first waiting
// replica by name among the clusters that may pull, in O(log clusters).
class Simulator {
 public:
  Simulator(const Artifact& artifact, const FetchLimits& limits, const DataView& view,
            std::vector<Pull> pulls)
      : artifact_(artifact),
        limits_(limits),
        view_(view),
        pulls_(std::move(pulls)),
        clusters_(view.clusters().size()),
        is_holder_(view.nodes().size(), false),
        egress_(view.OriginEgressBytesPerS(artifact.origin.location)) {}

  // `warm_nodes`: nodes of replicas that have the whole artifact already.
  void Run(const std::vector<int32_t>& warm_nodes) {
    std::vector<bool> seen(clusters_.size(), false);
    for (const Pull& p : pulls_) seen[static_cast<size_t>(p.cluster)] = true;
    for (size_t c = 0; c < clusters_.size(); ++c) {
      if (!seen[c]) continue;
      for (int32_t n : view_.PeerSeeds(artifact_.id, static_cast<int32_t>(c))) AddHolder(n);
    }
    if (limits_.share_in_cluster) {
      for (int32_t n : warm_nodes) AddHolder(n);
    }
    for (size_t i = 0; i < pulls_.size(); ++i) {
      Pull& p = pulls_[i];
      if (view_.ClusterCachedFraction(artifact_.id, p.cluster) >= 1) {
        // A full cluster cache serves every node at once: nothing to queue for.
        p.source = LoadSource::kClusterCache;
        p.cache_bytes = p.missing;
        Finish(static_cast<int32_t>(i), 0, static_cast<double>(p.missing) / CacheBps(p));
      } else {
        State(p.cluster).waiting.push_back(static_cast<int32_t>(i));
      }
    }
    for (size_t c = 0; c < clusters_.size(); ++c) {
      if (!seen[c]) continue;
      PumpHolders(static_cast<int32_t>(c));
      Refresh(static_cast<int32_t>(c));
    }
    PumpOrigin();

    std::vector<int32_t> done;
    while (true) {
      const double origin_t = egress_.NextCompletion();
      const double event_t = events_.empty() ? kNever : std::get<0>(events_.top());
      if (origin_t == kNever && event_t == kNever) break;
      if (origin_t <= event_t) {
        now_ = origin_t;
        done.clear();
        egress_.PopCompleted(now_, &done);
        std::sort(done.begin(), done.end(), [&](int32_t a, int32_t b) {
          return pulls_[static_cast<size_t>(a)].rank < pulls_[static_cast<size_t>(b)].rank;
        });
        for (int32_t id : done) OriginDone(id);
      } else {
        auto [t, rank, id] = events_.top();
        events_.pop();
        now_ = t;
        Fetched(id);
      }
    }
  }

  const std::vector<Pull>& pulls() const { return pulls_; }
  int32_t peak_origin_pulls() const { return peak_; }

 private:
  ClusterState& State(int32_t cluster) { return clusters_[static_cast<size_t>(cluster)]; }

  double CacheBps(const Pull& p) const {
    return std::min(view_.ClusterCacheBytesPerS(p.cluster), view_.NicBytesPerS(p.node));
  }

  void AddHolder(int32_t node) {
    if (is_holder_[static_cast<size_t>(node)]) return;
    is_holder_[static_cast<size_t>(node)] = true;
    ClusterState& s = State(view_.NodeCluster(node));
    ++s.holders;
    s.free_holders.push_back(node);
  }

  // The fetch of pull `id` ends `seconds` after `start`.
  void Finish(int32_t id, double start, double seconds) {
    Pull& p = pulls_[static_cast<size_t>(id)];
    p.start = start;
    events_.emplace(now_ + seconds, p.rank, id);
  }

  // Peer copies: every free holder serves the first waiting pull of its cluster.
  void PumpHolders(int32_t cluster) {
    ClusterState& s = State(cluster);
    while (!s.free_holders.empty() && !s.waiting.empty()) {
      const int32_t holder = s.free_holders.front();
      s.free_holders.pop_front();
      const int32_t id = s.waiting.front();
      s.waiting.pop_front();
      Pull& p = pulls_[static_cast<size_t>(id)];
      p.source = LoadSource::kPeer;
      p.peer = holder;
      Finish(id, now_, static_cast<double>(p.missing) / PeerCopyBytesPerS(holder, p.node, view_));
    }
  }

  bool MayPullFromOrigin(const ClusterState& s) const {
    if (s.waiting.empty()) return false;
    const int32_t per_cluster = limits_.max_origin_pulls_per_cluster;
    if (per_cluster > 0 && s.origin_active >= per_cluster) return false;
    // Sharing: one origin pull per cluster; the rest wait for copies.
    return !(limits_.share_in_cluster && (s.seed_started || s.holders > 0));
  }

  // Keeps the cluster's entry in `ready_` equal to (first waiting rank) when it may pull.
  void Refresh(int32_t cluster) {
    ClusterState& s = State(cluster);
    std::optional<std::pair<int32_t, int32_t>> key;
    if (MayPullFromOrigin(s)) {
      key = std::make_pair(pulls_[static_cast<size_t>(s.waiting.front())].rank, cluster);
    }
    if (key == s.ready_key) return;
    if (s.ready_key) ready_.erase(*s.ready_key);
    if (key) ready_.insert(*key);
    s.ready_key = key;
  }

  void PumpOrigin() {
    const int32_t limit = limits_.max_origin_pulls;
    while (!ready_.empty() && (limit <= 0 || egress_.active() < limit)) {
      const int32_t cluster = ready_.begin()->second;
      ClusterState& s = State(cluster);
      const int32_t id = s.waiting.front();
      s.waiting.pop_front();
      Pull& p = pulls_[static_cast<size_t>(id)];
      const double fraction = view_.ClusterCachedFraction(artifact_.id, cluster);
      p.cache_bytes = std::llround(fraction * static_cast<double>(p.missing));
      p.origin_bytes = p.missing - p.cache_bytes;
      p.source = fraction > 0 ? LoadSource::kClusterCache
                 : view_.RegionLinkBytesPerS(artifact_.origin.region, view_.ClusterRegion(cluster))
                     ? LoadSource::kOriginCrossRegion
                     : LoadSource::kOriginSameRegion;
      p.start = now_;
      s.seed_started = true;
      if (p.origin_bytes == 0) {
        Finish(id, now_, static_cast<double>(p.cache_bytes) / CacheBps(p));
      } else {
        ++s.origin_active;
        egress_.Add(id, static_cast<double>(p.origin_bytes),
                    OriginPullCapBytesPerS(artifact_, p.node, view_), now_);
        peak_ = std::max(peak_, egress_.active());
      }
      Refresh(cluster);
    }
  }

  // The origin part is done; a cluster-cache part follows (sequential, as in EstimateLoad).
  void OriginDone(int32_t id) {
    Pull& p = pulls_[static_cast<size_t>(id)];
    --State(p.cluster).origin_active;
    if (p.cache_bytes > 0) {
      events_.emplace(now_ + static_cast<double>(p.cache_bytes) / CacheBps(p), p.rank, id);
    } else {
      Fetched(id);
    }
    Refresh(p.cluster);
    PumpOrigin();
  }

  void Fetched(int32_t id) {
    Pull& p = pulls_[static_cast<size_t>(id)];
    p.fetched = now_;
    ClusterState& s = State(p.cluster);
    if (p.peer >= 0) s.free_holders.push_back(p.peer);
    if (limits_.share_in_cluster) AddHolder(p.node);
    PumpHolders(p.cluster);
    Refresh(p.cluster);
    PumpOrigin();
  }

  const Artifact& artifact_;
  const FetchLimits& limits_;
  const DataView& view_;
  std::vector<Pull> pulls_;
  std::vector<ClusterState> clusters_;
  std::vector<bool> is_holder_;
  internal::SharedEgress egress_;
  std::priority_queue<std::tuple<double, int32_t, int32_t>,
                      std::vector<std::tuple<double, int32_t, int32_t>>, std::greater<>>
      events_;                                   // (time, rank, pull)
  std::set<std::pair<int32_t, int32_t>> ready_;  // (first waiting rank, cluster)
  double now_ = 0;
  int32_t peak_ = 0;
};

core::Location AtReplica(const Replica& r, const char* field) {
  return core::Location{"", "Replica/" + r.pod, field};
}

}  // namespace

core::Result<FetchSchedule> ScheduleFetches(const Artifact& artifact,
                                            const std::vector<Replica>& replicas,
                                            const FetchLimits& limits, const DataView& view) {
  BERTH_RETURN_IF_ERROR(ValidateArtifact(artifact));
  if (limits.max_origin_pulls < 0 || limits.max_origin_pulls_per_cluster < 0) {
    return core::InvalidArgument(
        "limits must not be negative (0 = no limit)",
        {"", "FetchLimits",
         limits.max_origin_pulls < 0 ? "max_origin_pulls" : "max_origin_pulls_per_cluster"});
  }
  const size_t n = replicas.size();
  std::vector<int32_t> node_of(n);
  for (size_t i = 0; i < n; ++i) {
    const Replica& r = replicas[i];
    std::optional<int32_t> node = view.FindNode(r.node);
    if (!node) return core::NotFound("unknown node '" + r.node + "'", AtReplica(r, "node"));
    if (!r.cluster.empty()) {
      std::optional<int32_t> cluster = view.FindCluster(r.cluster);
      if (!cluster) {
        return core::NotFound("unknown cluster '" + r.cluster + "'", AtReplica(r, "cluster"));
      }
      if (*cluster != view.NodeCluster(*node)) {
        const std::string& actual =
            view.clusters()[static_cast<size_t>(view.NodeCluster(*node))].name;
        return core::InvalidArgument(
            "node '" + r.node + "' is in cluster '" + actual + "', not '" + r.cluster + "'",
            AtReplica(r, "cluster"));
      }
    }
    node_of[i] = *node;
  }

  FetchSchedule out;
  out.replicas.resize(n);
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return replicas[static_cast<size_t>(a)].pod < replicas[static_cast<size_t>(b)].pod;
  });
  // Name order puts duplicates side by side: no hash set of names needed.
  for (size_t k = 1; k < n; ++k) {
    const Replica& r = replicas[static_cast<size_t>(order[k])];
    if (r.pod == replicas[static_cast<size_t>(order[k - 1])].pod) {
      return core::InvalidArgument("duplicate pod name", AtReplica(r, "pod"));
    }
  }

  // The first replica by name on each node decides the node's fetch.
  constexpr int32_t kNone = -1;
  std::vector<int32_t> node_pull(view.nodes().size(), kNone);  // pull id, or kWarm
  constexpr int32_t kWarm = -2;
  std::vector<Pull> pulls;
  std::vector<int32_t> warm_nodes;
  for (size_t rank = 0; rank < n; ++rank) {
    const auto i = static_cast<size_t>(order[rank]);
    const int32_t node = node_of[i];
    ReplicaFetch& f = out.replicas[i];
    f.pod = replicas[i].pod;
    f.node = replicas[i].node;
    const int32_t cluster = view.NodeCluster(node);
    if (auto why = ResidencyViolation(artifact, view.ClusterRegion(cluster), "node " + f.node)) {
      f.forbidden_reason = std::move(*why);
      ++out.forbidden;
      continue;
    }
    int32_t& slot = node_pull[static_cast<size_t>(node)];
    if (slot != kNone) continue;
    const int64_t local = view.NodeCachedBytes(artifact.id, node, artifact.size_bytes);
    if (local == artifact.size_bytes) {
      slot = kWarm;
      warm_nodes.push_back(node);
      continue;
    }
    Pull p;
    p.node = node;
    p.cluster = cluster;
    p.rank = static_cast<int32_t>(rank);
    p.missing = artifact.size_bytes - local;
    slot = static_cast<int32_t>(pulls.size());
    pulls.push_back(p);
  }

  Simulator sim(artifact, limits, view, std::move(pulls));
  sim.Run(warm_nodes);
  out.peak_origin_pulls = sim.peak_origin_pulls();

  // Times per replica: the puller adds its local bytes' read, everyone the GPU copy; the
  // other replicas of a node read the whole artifact from the node cache once it is there.
  std::vector<bool> pulled(view.nodes().size(), false);
  const auto size = static_cast<double>(artifact.size_bytes);
  for (size_t rank = 0; rank < n; ++rank) {
    const auto i = static_cast<size_t>(order[rank]);
    ReplicaFetch& f = out.replicas[i];
    if (!f.forbidden_reason.empty()) continue;
    const int32_t node = node_of[i];
    const double gpu_s = size / view.HostToGpuBytesPerS(node);
    const double disk_bps = view.DiskReadBytesPerS(node);
    const int32_t slot = node_pull[static_cast<size_t>(node)];
    if (slot >= 0 && !pulled[static_cast<size_t>(node)]) {
      pulled[static_cast<size_t>(node)] = true;
      const Pull& p = sim.pulls()[static_cast<size_t>(slot)];
      BERTH_CHECK(p.fetched != kNever, "every pull finishes: nothing waits on a lost event");
      f.source = p.source;
      if (p.peer >= 0) f.peer_node = view.nodes()[static_cast<size_t>(p.peer)].name;
      f.start_s = p.start;
      f.fetched_s = p.fetched;
      f.origin_bytes = p.origin_bytes;
      const auto local = static_cast<double>(artifact.size_bytes - p.missing);
      f.end_s = f.fetched_s + local / disk_bps + gpu_s;
    } else {
      f.source = LoadSource::kNodeCache;
      f.start_s = slot >= 0 ? sim.pulls()[static_cast<size_t>(slot)].fetched : 0;
      f.fetched_s = f.start_s;
      f.end_s = f.start_s + size / disk_bps + gpu_s;
    }
    out.origin_bytes += f.origin_bytes;
    out.all_ready_s = std::max(out.all_ready_s, f.end_s);
  }
  return out;
}

}  // namespace berth::data
