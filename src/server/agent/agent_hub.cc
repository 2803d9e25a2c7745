// Why the sync is one transaction: the ManagedCluster's status, the inventory and the work
// statuses an agent reports describe one moment of its cluster; committing them together
// means a scheduling cycle never sees a new inventory beside an old Available condition.
// A concurrent change (a user editing the ManagedCluster, the scheduling loop rewriting a
// work) makes the commit fail on its resourceVersion; the sync is then recomputed from the
// newer state, at most three times, and the agent's next sync repeats it anyway (levels).
//
// Why leases live in memory: a lease renewal every 10 s per cluster written to the store
// would wake the scheduling loop for nothing 100 times a second with 1,000 clusters. The
// level that matters, Available, is written only when it changes. A restarted hub starts
// every lease at its start (Load), so it never declares a cluster lost for the time it was
// itself down.
#include "server/agent/agent_hub.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/parts_hash.h"
#include "core/quantity.h"
#include "core/time.h"
#include "model/kind_info.h"
#include "model/ocm.h"
#include "server/api/api_error.h"
#include "server/api/json_access.h"
#include "server/rest/stored_json.h"
#include "server/rest/uuid.h"

namespace berth::server::agent {

namespace {

constexpr const char* kClusterGroup = "cluster.open-cluster-management.io";
constexpr const char* kWorkGroup = "work.open-cluster-management.io";
constexpr const char* kIdentityName = "berth-hub-identity";
constexpr const char* kUnreachableTaint = "cluster.open-cluster-management.io/unreachable";
constexpr int kSyncAttempts = 3;

RestReply StatusReply(const ApiError& error) { return ErrorReply(error); }

store::ObjectKey ClusterKey(const std::string& name) { return {kClusterGroup, "ManagedCluster", "", name}; }
store::ObjectKey NamespaceKey(const std::string& name) { return {"", "Namespace", "", name}; }
store::ObjectKey IdentityKey() { return {"", "ConfigMap", "kube-system", kIdentityName}; }
store::ObjectKey InventoryKey(const std::string& cluster) { return {kInventoryGroup, kInventoryKind, "", cluster}; }

// Every field below is read with StringAt / MemberAt, never Json::value(key, default): value()
// throws when the key holds another type, and these objects come from an agent's sync (the
// inventory) or from the store, where an admin's edit of a ManagedCluster's status or taints
// is not validated field by field. A mistyped field reads as absent.

// The condition of `type` in `conditions` set as meta.SetStatusCondition sets it: its
// lastTransitionTime moves only when the status changes.
void SetCondition(Json& conditions, const std::string& type, const std::string& status,
                  const std::string& reason, const std::string& message, int64_t now_s) {
  if (!conditions.is_array()) conditions = Json::array();
  for (Json& c : conditions) {
    if (!c.is_object() || StringAt(c, {"type"}) != type) continue;
    if (StringAt(c, {"status"}) != status) c["lastTransitionTime"] = core::Timestamp{now_s}.ToString();
    c["status"] = status;
    c["reason"] = reason;
    c["message"] = message;
    return;
  }
  conditions.push_back({{"type", type},
                        {"status", status},
                        {"lastTransitionTime", core::Timestamp{now_s}.ToString()},
                        {"reason", reason},
                        {"message", message}});
}

// Removes the taint with `key` from spec.taints; whether one was there.
bool RemoveTaint(Json& cluster, const char* key) {
  auto spec = cluster.find("spec");
  if (spec == cluster.end() || !spec->is_object()) return false;
  auto taints = spec->find("taints");
  if (taints == spec->end() || !taints->is_array()) return false;
  const size_t before = taints->size();
  Json kept = Json::array();
  for (Json& t : *taints) {
    if (StringAt(t, {"key"}) != key) kept.push_back(std::move(t));
  }
  const size_t after = kept.size();
  *taints = std::move(kept);
  if (taints->empty()) spec->erase("taints");
  return before != after;
}

void AddTaint(Json& cluster, const char* key, int64_t now_s) {
  Json& spec = cluster["spec"];
  if (!spec.is_object()) spec = Json::object();
  Json& taints = spec["taints"];
  if (!taints.is_array()) taints = Json::array();
  for (const Json& t : taints) {
    if (StringAt(t, {"key"}) == key) return;
  }
  taints.push_back({{"key", key}, {"effect", "NoSelect"}, {"timeAdded", core::Timestamp{now_s}.ToString()}});
}

// capacity and allocatable of the cluster: the sums over its Nodes' status (OCM's
// registration agent reports the same sums).
void SumNodeResources(const std::vector<Json>& inventory, Json& status) {
  std::map<std::string, core::Quantity> capacity, allocatable;
  auto add = [](const Json& from, std::map<std::string, core::Quantity>& into) {
    if (!from.is_object()) return;
    for (const auto& [name, value] : from.items()) {
      if (!value.is_string()) continue;
      auto q = core::Quantity::Parse(value.get<std::string>());
      if (!q) continue;  // the member's API validated it; a bad one adds nothing
      auto [it, fresh] = into.try_emplace(name, *q);
      if (!fresh) it->second = it->second + *q;
    }
  };
  for (const Json& o : inventory) {
    if (StringAt(o, {"kind"}) != "Node" || StringAt(o, {"apiVersion"}) != "v1") continue;
    if (const Json* c = MemberAt(o, {"status", "capacity"})) add(*c, capacity);
    if (const Json* a = MemberAt(o, {"status", "allocatable"})) add(*a, allocatable);
  }
  Json c = Json::object();
  for (const auto& [name, q] : capacity) c[name] = q.ToString();
  Json a = Json::object();
  for (const auto& [name, q] : allocatable) a[name] = q.ToString();
  status["capacity"] = std::move(c);
  status["allocatable"] = std::move(a);
}

bool SameJson(const Json& a, const Json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

std::string AnnotationOf(const Json& object, const char* key) {
  return StringAt(object, {"metadata", "annotations", key});
}

}  // namespace

AgentHub::AgentHub(store::Store& store, ChangeFeed& feed, RbacAuthorizer* authorizer,
                   AgentHubOptions options)
    : store_(store), feed_(feed), authorizer_(authorizer), options_(std::move(options)) {
  if (options_.metrics != nullptr) {
    options_.metrics->Describe("berth_agent_syncs_total", MetricType::kCounter,
                               "Agent syncs served, by result (ok, error)");
    options_.metrics->Describe("berth_agent_sync_duration_seconds", MetricType::kHistogram,
                               "Time to serve one agent sync");
    options_.metrics->Describe("berth_agent_lease_expiries_total", MetricType::kCounter,
                               "Clusters turned Available=Unknown because their agent stopped syncing");
  }
}

AgentHub::~AgentHub() { Stop(); }

int64_t AgentHub::Now() const {
  if (options_.now_unix_s) return options_.now_unix_s();
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

core::Status AgentHub::Load() {
  auto stored = store_.Get(IdentityKey());
  if (stored) {
    auto served = ServedObject(*stored, "");
    if (served) hub_id_ = StringAt(*served, {"data", "id"});
  } else if (stored.error().code() != core::ErrorCode::kNotFound) {
    return stored.error();
  }
  if (hub_id_.empty()) {
    {
      std::lock_guard lock(mu_);
      hub_id_ = NewUuid(rng_);
    }
    Json cm = {{"apiVersion", "v1"},
               {"kind", "ConfigMap"},
               {"metadata", {{"name", kIdentityName}, {"namespace", "kube-system"}}},
               {"data", {{"id", hub_id_}}}};
    store::Mutation m = store::Mutation::Create(IdentityKey(), StoredBody(cm));
    auto written = store_.Commit({std::move(m)});
    if (!written && written.error().code() == core::ErrorCode::kAlreadyExists) {
      hub_id_.clear();
      return Load();  // another replica made it first
    }
    if (!written) return written.error();
    feed_.Publish(written->front().meta.resource_version);
  }
  // Every Available cluster gets a whole lease from now.
  store::ListOptions list;
  list.group = kClusterGroup;
  list.kind = "ManagedCluster";
  auto page = store_.List(list);
  if (!page) return page.error();
  const int64_t now = Now();
  std::lock_guard lock(mu_);
  for (const store::StoredObject& o : page->items) {
    auto served = ServedObject(o, "");
    if (!served) continue;
    const Json* conditions = MemberAt(*served, {"status", "conditions"});
    bool available = false;
    if (conditions != nullptr && conditions->is_array()) {
      for (const Json& c : *conditions) {
        available = available || (StringAt(c, {"type"}) == model::kConditionClusterAvailable &&
                                  StringAt(c, {"status"}) == "True");
      }
    }
    if (available) leases_[o.key.name] = Lease{now, false};
  }
  return core::OkStatus();
}

void AgentHub::Start() {
  stop_ = false;
  thread_ = std::thread([this] {
    while (!stop_) {
      CheckLeases();
      for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

void AgentHub::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::mutex& AgentHub::ClusterMutex(const std::string& cluster) {
  std::lock_guard lock(mu_);
  auto& m = cluster_mu_[cluster];
  if (!m) m = std::make_unique<std::mutex>();
  return *m;
}

RestReply AgentHub::Serve(const HttpRequest& http) {
  const auto started = std::chrono::steady_clock::now();
  auto record = [&](const char* result) {
    if (options_.metrics == nullptr) return;
    options_.metrics->Add("berth_agent_syncs_total", {{"result", result}});
    options_.metrics->Observe("berth_agent_sync_duration_seconds", {},
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  };
  std::optional<std::string> cluster = SyncPathCluster(http.path);
  if (!cluster.has_value()) return StatusReply(PathNotFoundError());
  if (http.method != "POST") return StatusReply(MethodNotAllowedError());
  const GroupResource gr{kClusterGroup, "managedclusters"};
  if (http.user != nullptr && authorizer_ != nullptr) {
    AuthorizationRequest asked{"update", kClusterGroup, "managedclusters", "status", "", *cluster};
    if (!authorizer_->Allowed(*http.user, asked)) {
      record("error");
      return StatusReply(ForbiddenError(gr, *cluster,
                                        "User " + GoQuote(http.user->name) +
                                            " cannot update resource \"managedclusters/status\" in API group \"" +
                                            kClusterGroup + "\" at the cluster scope"));
    }
  }
  auto request = ParseSyncRequest(http.body, options_.limits);
  if (!request) {
    record("error");
    const core::Error& e = request.error();
    return StatusReply(BadRequestError(e.location().field.empty() ? e.message()
                                                                  : e.location().field + ": " + e.message()));
  }
  if (request->cluster != *cluster) {
    record("error");
    return StatusReply(BadRequestError("cluster: the body names " + GoQuote(request->cluster) +
                                       " but the path names " + GoQuote(*cluster)));
  }
  if (!store_.Leading()) {
    record("error");
    return StatusReply(TooManyRequestsError("this hub is a standby; sync with the leader", 1));
  }
  std::lock_guard cluster_lock(ClusterMutex(*cluster));
  core::Result<SyncReply> reply = core::Internal("no attempt");
  for (int attempt = 0; attempt < kSyncAttempts; ++attempt) {
    reply = Sync(*request);
    if (reply || reply.error().code() != store::kConflict) break;
  }
  if (!reply) {
    record("error");
    const core::Error& e = reply.error();
    if (e.code() == store::kConflict) return StatusReply(ConflictError(gr, *cluster, e.message()));
    if (e.code() == core::ErrorCode::kUnavailable) {
      return StatusReply(TooManyRequestsError("the hub's store is unavailable: " + e.message(), 1));
    }
    return StatusReply(InternalApiError(e.ToString()));
  }
  record("ok");
  RestReply out;
  out.response.body = EncodeSyncReply(*reply);
  return out;
}

core::Result<SyncReply> AgentHub::Sync(const SyncRequest& request) {
  const int64_t now = Now();
  const std::string& name = request.cluster;
  SyncReply reply;
  reply.hub_id = hub_id_;
  reply.epoch = store_.LeaderEpoch();
  reply.sync_period_s = options_.sync_period.count();
  reply.lease_duration_s = options_.lease_duration.count();

  std::vector<store::Mutation> batch;
  // 1. Registration.
  auto stored_cluster = store_.Get(ClusterKey(name));
  Json cluster;
  int64_t cluster_rv = 0;
  if (stored_cluster) {
    auto served = ServedObject(*stored_cluster, "");
    if (!served) return core::Internal(served.error().message);
    cluster = std::move(served).value();
    cluster_rv = stored_cluster->meta.resource_version;
  } else if (stored_cluster.error().code() == core::ErrorCode::kNotFound) {
    cluster = {{"apiVersion", "cluster.open-cluster-management.io/v1"},
               {"kind", "ManagedCluster"},
               {"metadata", {{"name", name}, {"uid", ""}, {"creationTimestamp", core::Timestamp{now}.ToString()}}},
               {"spec", {{"hubAcceptsClient", options_.auto_accept},
                         {"leaseDurationSeconds", options_.lease_duration.count()}}}};
    {
      std::lock_guard lock(mu_);
      cluster["metadata"]["uid"] = NewUuid(rng_);
    }
  } else {
    return stored_cluster.error();
  }
  const Json& spec = cluster.contains("spec") ? cluster["spec"] : Json::object();
  const bool accepted = spec.is_object() && spec.value("hubAcceptsClient", Json(false)).is_boolean() &&
                        spec.value("hubAcceptsClient", false);
  reply.accepted = accepted;
  if (!accepted) {
    reply.message = "ManagedCluster " + name +
                    " waits for a hub admin to accept it: kubectl patch managedcluster " + name +
                    " --type merge -p '{\"spec\":{\"hubAcceptsClient\":true}}'";
    if (cluster_rv == 0) {
      store::Mutation m = store::Mutation::Create(ClusterKey(name), StoredBody(cluster), LabelMap(cluster));
      m.uid = StringAt(cluster, {"metadata", "uid"});
      batch.push_back(std::move(m));
    }
  } else {
    // 2. The cluster's namespace on the hub (its works live there).
    auto ns = store_.Get(NamespaceKey(name));
    if (!ns && ns.error().code() == core::ErrorCode::kNotFound) {
      Json body = {{"apiVersion", "v1"},
                   {"kind", "Namespace"},
                   {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/metadata.name", name}}}}},
                   {"spec", {{"finalizers", Json::array({"kubernetes"})}}},
                   {"status", {{"phase", "Active"}}}};
      batch.push_back(store::Mutation::Create(NamespaceKey(name), StoredBody(body), LabelMap(body)));
    } else if (!ns) {
      return ns.error();
    }
    // 3. The ManagedCluster's status.
    Json updated = cluster;
    Json& status = updated["status"];
    if (!status.is_object()) status = Json::object();
    Json& conditions = status["conditions"];
    SetCondition(conditions, "HubAcceptedManagedCluster", "True", "HubClusterAdminAccepted",
                 "Accepted by hub cluster admin", now);
    SetCondition(conditions, "ManagedClusterJoined", "True", "ManagedClusterJoined",
                 "Managed cluster joined", now);
    SetCondition(conditions, model::kConditionClusterAvailable, "True", "ManagedClusterAvailable",
                 "Managed cluster is available", now);
    if (!request.claims.empty()) {
      Json claims = Json::array();
      for (const auto& [claim, value] : request.claims) claims.push_back({{"name", claim}, {"value", value}});
      status["clusterClaims"] = std::move(claims);
    }
    if (!request.kubernetes_version.empty()) status["version"] = {{"kubernetes", request.kubernetes_version}};
    if (request.inventory.has_value()) SumNodeResources(*request.inventory, status);
    RemoveTaint(updated, kUnreachableTaint);
    if (cluster_rv == 0) {
      store::Mutation m = store::Mutation::Create(ClusterKey(name), StoredBody(updated), LabelMap(updated));
      m.uid = StringAt(updated, {"metadata", "uid"});
      batch.push_back(std::move(m));
    } else if (!SameJson(updated, cluster)) {
      batch.push_back(store::Mutation::Update(ClusterKey(name), StoredBody(updated), cluster_rv,
                                              LabelMap(updated)));
    }

    // 4. The inventory, when it changed.
    std::string stored_hash;
    {
      std::lock_guard lock(mu_);
      auto it = inventory_hash_.find(name);
      if (it != inventory_hash_.end()) stored_hash = it->second;
    }
    std::optional<store::StoredObject> stored_inventory;
    if (stored_hash.empty()) {
      auto inv = store_.Get(InventoryKey(name));
      if (inv) {
        auto served = ServedObject(*inv, "");
        if (served) stored_hash = AnnotationOf(*served, kInventoryHashAnnotation);
        stored_inventory = std::move(*inv);
      } else if (inv.error().code() != core::ErrorCode::kNotFound) {
        return inv.error();
      }
    }
    reply.inventory_hash = stored_hash;
    std::string new_hash;
    if (request.inventory.has_value() && request.inventory_hash != stored_hash) {
      Json objects = Json::array();
      for (Json o : *request.inventory) {
        // The hub, not the agent, says which cluster an object lives in.
        Json& md = o["metadata"];
        if (!md.is_object()) md = Json::object();
        Json& annotations = md["annotations"];
        if (!annotations.is_object()) annotations = Json::object();
        annotations[model::kBerthClusterKey] = name;
        objects.push_back(std::move(o));
      }
      Json body = {{"apiVersion", std::string(kInventoryGroup) + "/v1"},
                   {"kind", kInventoryKind},
                   {"metadata", {{"name", name}, {"annotations", {{kInventoryHashAnnotation, request.inventory_hash}}}}},
                   {"objects", std::move(objects)}};
      auto existing = stored_inventory.has_value() ? core::Result<store::StoredObject>(*stored_inventory)
                                                   : store_.Get(InventoryKey(name));
      if (existing) {
        batch.push_back(store::Mutation::Update(InventoryKey(name), StoredBody(std::move(body)),
                                                existing->meta.resource_version));
      } else if (existing.error().code() == core::ErrorCode::kNotFound) {
        batch.push_back(store::Mutation::Create(InventoryKey(name), StoredBody(std::move(body))));
      } else {
        return existing.error();
      }
      new_hash = request.inventory_hash;
      reply.inventory_hash = new_hash;
    }

    // 5. Work statuses newer than stored.
    for (const StatusReport& report : request.statuses) {
      auto work = store_.Get({kWorkGroup, "ManifestWork", name, report.name});
      if (!work) {
        if (work.error().code() == core::ErrorCode::kNotFound) continue;  // gone: nothing to ack
        return work.error();
      }
      if (!report.uid.empty() && report.uid != work->meta.uid) continue;  // an older work's
      auto served = ServedObject(*work, "");
      if (!served) continue;
      Json body = std::move(served).value();
      int64_t stored_seq = 0;
      const std::string seq_text = AnnotationOf(body, kStatusSequenceAnnotation);
      if (!seq_text.empty()) stored_seq = std::strtoll(seq_text.c_str(), nullptr, 10);
      if (report.sequence > stored_seq) {
        body["status"] = report.status;
        body["metadata"]["annotations"][kStatusSequenceAnnotation] = std::to_string(report.sequence);
        batch.push_back(store::Mutation::Update(work->key, StoredBody(body), work->meta.resource_version,
                                                LabelMap(body)));
        stored_seq = report.sequence;
      }
      reply.status_acks[report.name] = stored_seq;
    }

    // 6. The works to apply and to remove.
    std::unordered_map<std::string, const HeldWork*> held;
    for (const HeldWork& w : request.works) held.emplace(w.name, &w);
    store::ListOptions list;
    list.group = kWorkGroup;
    list.kind = "ManifestWork";
    list.ns = name;
    // Read before the list: a work deleted after this shows in the next sync's events.
    reply.works_version = store_.CurrentResourceVersion();
    std::unordered_map<std::string, bool> on_hub;
    // The agent holds at most limits.max_works works: its requests list them all and its
    // decoder refuses a reply with more to apply. A held work is sent whenever it changed; a
    // new one only while the works held and sent stay within the limit, the others (in the
    // store's order) once the agent holds fewer.
    size_t room = held.size() < options_.limits.max_works ? options_.limits.max_works - held.size() : 0;
    size_t waiting = 0;
    for (;;) {
      auto page = store_.List(list);
      if (!page) return page.error();
      for (const store::StoredObject& w : page->items) {
        on_hub[w.key.name] = true;
        auto it = held.find(w.key.name);
        if (it != held.end() && it->second->uid == w.meta.uid && it->second->generation == w.meta.generation) {
          continue;
        }
        if (it == held.end()) {
          if (room == 0) {
            ++waiting;
            continue;
          }
          --room;
        }
        auto served = ServedObject(w, "");
        if (served) reply.apply.push_back(std::move(served).value());
      }
      if (!page->next.has_value()) break;
      list.start_after = page->next;
    }
    for (const HeldWork& w : request.works) {
      if (!on_hub.contains(w.name)) reply.remove.push_back(w.name);
    }
    if (!reply.remove.empty()) reply.deleted = DeletedSince(name, request, reply.remove);
    if (waiting > 0) {
      reply.message = std::to_string(waiting) + " ManifestWorks wait: the cluster holds the " +
                      std::to_string(options_.limits.max_works) + " works a sync carries";
      if (options_.log) options_.log("agent sync: " + name + ": " + reply.message);
    }
    if (!batch.empty()) {
      auto written = store_.Commit(std::move(batch));
      if (!written) return written.error();
      int64_t rv = 0;
      for (const store::StoredObject& o : *written) rv = std::max(rv, o.meta.resource_version);
      feed_.Publish(rv);
      batch.clear();
    }
    std::lock_guard lock(mu_);
    if (!new_hash.empty()) inventory_hash_[name] = new_hash;
    else if (!stored_hash.empty()) inventory_hash_[name] = stored_hash;
    leases_[name] = Lease{now, false};
    return reply;
  }
  if (!batch.empty()) {
    auto written = store_.Commit(std::move(batch));
    if (!written) return written.error();
    feed_.Publish(written->front().meta.resource_version);
  }
  return reply;
}

std::vector<std::string> AgentHub::DeletedSince(const std::string& cluster, const SyncRequest& request,
                                                const std::vector<std::string>& missing) {
  std::vector<std::string> out;
  if (request.works_version <= 0 || request.works_version < store_.CompactedResourceVersion()) return out;
  std::unordered_map<std::string, std::string> held_uid;
  for (const HeldWork& w : request.works) held_uid.emplace(w.name, w.uid);
  const std::unordered_set<std::string> wanted(missing.begin(), missing.end());
  std::unordered_set<std::string> found;
  store::WatchOptions watch;
  watch.since_rv = request.works_version;
  watch.group = kWorkGroup;
  watch.kind = "ManifestWork";
  watch.ns = cluster;
  watch.limit = 1000;
  for (;;) {
    auto page = store_.EventsSince(watch);
    if (!page) return {};  // compacted meanwhile: the agent's grace decides
    for (const store::WatchEvent& e : page->events) {
      if (e.type != store::EventType::kDeleted || !wanted.contains(e.object.key.name)) continue;
      const std::string& uid = held_uid[e.object.key.name];
      if (uid.empty() || uid == e.object.meta.uid) found.insert(e.object.key.name);
    }
    if (page->events.size() < static_cast<size_t>(watch.limit)) break;
    watch.since_rv = page->events.back().object.meta.resource_version;
  }
  for (const std::string& name : missing) {
    if (found.contains(name)) out.push_back(name);
  }
  return out;
}

size_t AgentHub::CheckLeases() {
  if (!store_.Leading()) return 0;
  const int64_t now = Now();
  std::vector<std::string> lapsed;
  {
    std::lock_guard lock(mu_);
    for (auto& [name, lease] : leases_) {
      if (!lease.expired && now - lease.last_seen_s > options_.lease_duration.count()) lapsed.push_back(name);
    }
  }
  size_t changed = 0;
  for (const std::string& name : lapsed) {
    std::lock_guard cluster_lock(ClusterMutex(name));
    {
      std::lock_guard lock(mu_);
      Lease& lease = leases_[name];
      if (lease.expired || now - lease.last_seen_s <= options_.lease_duration.count()) continue;
    }
    auto stored = store_.Get(ClusterKey(name));
    if (!stored) {
      std::lock_guard lock(mu_);
      if (stored.error().code() == core::ErrorCode::kNotFound) leases_.erase(name);
      continue;
    }
    auto served = ServedObject(*stored, "");
    if (!served) continue;
    Json body = std::move(served).value();
    Json& status = body["status"];
    if (!status.is_object()) status = Json::object();
    int64_t last_seen = 0;
    {
      std::lock_guard lock(mu_);
      last_seen = leases_[name].last_seen_s;
    }
    // OCM's lease controller words (registration/hub/lease): the condition turns Unknown at
    // the lease's expiry, which is the time the cluster was lost.
    SetCondition(status["conditions"], model::kConditionClusterAvailable, "Unknown",
                 "ManagedClusterLeaseUpdateStopped", "Registration agent stopped updating its lease.",
                 last_seen + options_.lease_duration.count());
    AddTaint(body, kUnreachableTaint, now);
    auto written = store_.Commit({store::Mutation::Update(stored->key, StoredBody(body),
                                                          stored->meta.resource_version, LabelMap(body))});
    if (!written) {
      if (options_.log) options_.log("lease: ManagedCluster " + name + ": " + written.error().ToString());
      continue;
    }
    feed_.Publish(written->front().meta.resource_version);
    {
      std::lock_guard lock(mu_);
      leases_[name].expired = true;
    }
    if (options_.metrics != nullptr) options_.metrics->Add("berth_agent_lease_expiries_total", {});
    if (options_.log) options_.log("lease: ManagedCluster " + name + " is Unknown: its agent stopped syncing");
    ++changed;
  }
  return changed;
}

}  // namespace berth::server::agent
