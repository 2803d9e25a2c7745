// A cycle is `berth plan` over the store: the objects are handed to io's reader as one
// `kind: List` (the reader's fastest path, and the same decoding the CLI does), the plan runs,
// io's writer prints what it decided, and the printed objects are compared with the stored
// ones so only real changes are written. What a cycle costs beyond its decisions is kept
// proportional to what changed: the store is followed through its event log (StoreMirror)
// and only new or changed objects are decoded (io::DecodeCache); the plan itself runs over
// the whole snapshot, as Kueue's and kube-scheduler's cycles look at every queue head.
#include "cli/hub_loop.h"

#include <cstdio>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <nlohmann/json.hpp>

#include "cli/plan_items.h"
#include "cli/queue_status.h"
#include "core/diagnostics.h"
#include "core/parts_hash.h"
#include "engine/plan.h"
#include "io/reader.h"
#include "io/writer.h"
#include "model/berth_names.h"
#include "model/kind_info.h"
#include "server/api/json_access.h"
#include "server/metrics/federated_learning_metrics.h"
#include "server/metrics/kueue_metrics.h"
#include "server/rest/stored_json.h"
#include "server/rest/uuid.h"

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

// Whether two objects say the same (key order aside).
bool SameObject(const Json& a, const Json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

uint64_t ObjectId(const std::string& cluster, const std::string& ns, const std::string& name) {
  return core::PartsHash().Add(cluster).Add(ns).Add(name).value();
}

// What a cycle may change in a Workload and a pod, condition times aside (a condition that
// stays keeps its time): a Workload or pod whose fingerprint is the same after the plan is
// not printed, compared or written, so a cycle's write stage is proportional to what it
// decided, not to how many objects wait. 64-bit hashes, not strings: a cycle takes one of
// every Workload and pod before and after the plan, and building 200,000 strings cost 0.1 s
// of a 100,000-Workload cycle. A collision (odds 2^-64 per object) would leave one
// unchanged-looking status unwritten until the object next changes.
uint64_t Fingerprint(const model::Workload& w) {
  core::PartsHash h;
  h.Add(w.cluster_name);
  for (const std::string& n : w.nominated_cluster_names) h.Add("n").Add(n);
  if (w.admission) {
    h.Add("a").Add(w.admission->cluster_queue);
    for (const model::PodSetAssignment& ps : w.admission->pod_set_assignments) {
      h.Add(ps.name).Add(int64_t{ps.count});
      for (const auto& [r, f] : ps.flavors) h.Add(r).Add(f);
      for (const auto& [r, v] : ps.resource_usage) h.Add(r).Add(v);
    }
  }
  for (const model::WorkloadCondition& c : w.conditions) {
    h.Add("c").Add(c.type).Add(c.status).Add(c.reason).Add(c.message);
  }
  for (const model::AdmissionCheckStatus& a : w.admission_checks) {
    h.Add("k").Add(a.name).Add(static_cast<int64_t>(a.state)).Add(a.message);
  }
  return h.value();
}

uint64_t Fingerprint(const model::Pod& p) {
  core::PartsHash h;
  h.Add(p.node_name).Add(static_cast<int64_t>(p.phase));
  if (p.deletion_timestamp.has_value()) h.Add("d").Add(p.deletion_timestamp->unix_s);
  for (const model::PodCondition& c : p.conditions) {
    h.Add(c.type).Add(c.status).Add(c.reason).Add(c.message);
  }
  return h.value();
}

// Whether a stored pod's metadata.deletionTimestamp is at or before `now_s`. Only bodies
// that mention one are parsed.
bool TerminatedBy(const store::StoredObject& pod, int64_t now_s) {
  if (pod.json.find("\"deletionTimestamp\"") == std::string::npos) return false;
  const Json body = Json::parse(pod.json, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return false;
  const std::string when = server::StringAt(body, {"metadata", "deletionTimestamp"});
  if (when.empty()) return false;
  auto at = core::Timestamp::Parse(when);
  return at.has_value() && at->unix_s <= now_s;
}

int64_t SystemNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SchedulingLoop::SchedulingLoop(store::Store& store, server::ChangeFeed& feed, LoopOptions options)
    : store_(store), feed_(feed), options_(std::move(options)), mirror_(store) {
  if (options_.metrics != nullptr) {
    server::DescribeKueueMetrics(*options_.metrics);
    server::DescribeFederatedLearningMetrics(*options_.metrics);
    options_.metrics->Describe("berth_cycle_duration_seconds", server::MetricType::kHistogram,
                               "Scheduling cycle time per stage (read, plan, write, total)");
    options_.metrics->Describe("berth_cycle_objects", server::MetricType::kGauge,
                               "Objects the last cycle read from the store");
    options_.metrics->Describe("berth_cycle_writes_total", server::MetricType::kCounter,
                               "Objects the cycles wrote, by operation (create, update, delete)");
    options_.metrics->Describe("berth_cycles_total", server::MetricType::kCounter,
                               "Scheduling cycles run, by result (ok, failed)");
  }
}

SchedulingLoop::~SchedulingLoop() { Stop(); }

core::Result<CycleStats> SchedulingLoop::RunCycle() {
  std::lock_guard cycle_lock(cycle_mu_);
  const auto started = std::chrono::steady_clock::now();
  CycleStats stats;
  if (!store_.Leading() && !store_.TryLead().ok()) {
    stats.standby = true;
    return stats;
  }
  const std::string role = !options_.replica_role.empty() ? options_.replica_role : "leader";

  // 1. Everything the store holds: the mirror applies the events since the last cycle.
  // Bodies go to the reader as stored: they carry their uid and creationTimestamp (the API
  // writes them at create, and so does this loop), and the reader needs no
  // resourceVersion, so only pods that mention a deletionTimestamp are parsed here.
  BERTH_RETURN_IF_ERROR(mirror_.Refresh());
  stats.read_rv = mirror_.resource_version();
  const int64_t now_s = options_.now_unix_s ? options_.now_unix_s() : SystemNow();
  std::vector<io::SourceObject> sources;
  sources.reserve(mirror_.objects().size());
  // The kubelets of the clusters the hub schedules itself are the hub's: a pod terminating
  // past its deletionTimestamp (the plan writes it on the pods of a workload evicted in the
  // cycle, at the cycle's time) is gone, and the next plan finishes the eviction.
  std::vector<const store::StoredObject*> terminated;
  for (const auto& [key, o] : mirror_.objects()) {
    if (InventorySources::IsInventory(o)) continue;  // read through inventories_ below
    if (o.key.kind == "Pod" && o.key.group.empty() && TerminatedBy(o, now_s)) {
      terminated.push_back(&o);
      continue;
    }
    if (o.meta.generation > 1) {
      // The store counts generations beside the body (it bumps its column, not the text):
      // a work's observedGeneration is compared with it, so the reader must see it. Patched
      // once per resourceVersion and kept, as few objects are ever updated in their spec.
      auto [it, fresh] = generation_bodies_.try_emplace(key);
      if (fresh || it->second.first != o.meta.resource_version) {
        Json body = Json::parse(o.json, nullptr, /*allow_exceptions=*/false);
        if (body.is_object() && body["metadata"].is_object()) body["metadata"]["generation"] = o.meta.generation;
        it->second = {o.meta.resource_version, body.is_object() ? body.dump() : o.json};
      }
      sources.push_back(io::SourceObject{key, o.meta.resource_version, it->second.second});
      continue;
    }
    sources.push_back(io::SourceObject{key, o.meta.resource_version, o.json});
  }
  // Bodies of objects gone from the store are dropped now and then (deletions are rare
  // next to cycles, so a sweep when the copies outnumber twice their use is enough).
  if (generation_bodies_.size() > 64) {
    size_t used = 0;
    for (const auto& [key, body] : generation_bodies_) used += mirror_.objects().contains(key) ? 1 : 0;
    if (generation_bodies_.size() > 2 * used) {
      std::erase_if(generation_bodies_, [this](const auto& entry) { return !mirror_.objects().contains(entry.first); });
    }
  }
  // The member clusters' objects their agents report: read like the hub's own, never
  // written back (their clusters' own controllers write them).
  inventories_.AppendTo(mirror_, sources);
  std::vector<std::string> config_keys;
  config_keys.reserve(options_.configuration.size());
  for (size_t i = 0; i < options_.configuration.size(); ++i) {
    config_keys.push_back("configuration\x1f" + std::to_string(i));
  }
  for (size_t i = 0; i < options_.configuration.size(); ++i) {
    sources.push_back(io::SourceObject{config_keys[i], 1, options_.configuration[i]});
  }
  const std::unordered_set<std::string>& members = inventories_.member_clusters();
  auto is_member_object = [&members](const Json& item) {
    if (members.empty()) return false;
    const std::string cluster = server::StringAt(item, {"metadata", "annotations", model::kBerthClusterKey});
    return !cluster.empty() && members.contains(cluster);
  };
  stats.objects_read = sources.size();
  const auto read_done = std::chrono::steady_clock::now();

  // 2. The plan, at the hub's clock. Only the objects that changed since the last cycle are
  // decoded; the cache copies the others.
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadCached(sources, decode_cache_, "<hub>");
  stats.decoded = decode_cache_.last_decoded();
  io::Input input = reader.Finish(options_.expansion);
  if (options_.log) {
    for (const core::Diagnostic& d : diags.entries()) {
      if (d.severity == core::Severity::kError) options_.log("cycle: " + d.error.ToString());
    }
  }
  // The state the plan starts from, to print only what it changes.
  std::unordered_map<uint64_t, uint64_t> workload_before, pod_before;
  workload_before.reserve(input.snapshot.kueue_workloads.size());
  pod_before.reserve(input.snapshot.pods.size());
  for (const model::Workload& w : input.snapshot.kueue_workloads) {
    if (!w.created) workload_before[ObjectId(w.cluster, w.meta.namespace_, w.meta.name)] = Fingerprint(w);
  }
  for (const model::Pod& p : input.snapshot.pods) {
    pod_before[ObjectId(p.cluster, p.meta.namespace_, p.meta.name)] = Fingerprint(p);
  }
  engine::PlanOptions plan_options;
  plan_options.now = core::Timestamp{now_s};
  plan_options.cycles = options_.plan_cycles;
  const engine::Plan plan = engine::RunPlan(std::move(input.snapshot), plan_options);
  io::PlanItems items = PlanItemsOf(plan);
  std::vector<model::PodDecision> changed_pods;
  if (items.pods != nullptr) {
    for (const model::PodDecision& d : *items.pods) {
      const model::Pod& p = plan.planned.pod(d.pod);
      auto it = pod_before.find(ObjectId(p.cluster, p.meta.namespace_, p.meta.name));
      if (it == pod_before.end() || it->second != Fingerprint(p)) changed_pods.push_back(d);
    }
    items.pods = &changed_pods;
  }
  std::vector<int32_t> changed_workloads;
  for (int32_t i : items.workloads) {
    const model::Workload& w = plan.planned.kueue_workloads[static_cast<size_t>(i)];
    auto it = workload_before.find(ObjectId(w.cluster, w.meta.namespace_, w.meta.name));
    if (w.created || it == workload_before.end() || it->second != Fingerprint(w)) changed_workloads.push_back(i);
  }
  items.workloads = std::move(changed_workloads);
  items.workload_cycles.clear();
  std::ostringstream printed;
  io::WritePlan(plan.planned, items, input.documents, io::OutputFormat::kJson, printed);
  Json decided = Json::parse(printed.str(), nullptr, /*allow_exceptions=*/false);
  if (!decided.is_object() || !decided.contains("items")) {
    return core::Internal("the plan's output is not a List");
  }

  const auto plan_done = std::chrono::steady_clock::now();
  // What each queue holds, counted once for Kueue's gauges and the queues' status.
  const server::FleetQueueCounts queue_counts = server::CountQueues(plan.planned, &members);
  if (options_.metrics != nullptr) {
    server::UpdateKueueGauges(plan.planned, queue_counts, role, *options_.metrics);
    server::UpdateFederatedLearningGauges(plan.federated_learnings, *options_.metrics);
  }

  // 3. What differs from the store, as one transaction.
  std::vector<store::Mutation> batch;
  std::vector<std::pair<std::optional<Json>, const Json*>> workload_changes;  // before, after
  // Kueue's job integration: a job runs (unsuspended) while its Workload is admitted and is
  // held (suspended) otherwise, in the same transaction as the Workload's status.
  auto sync_suspend = [&](const Json& wl) {
    auto meta = wl.find("metadata");
    if (meta == wl.end() || !meta->is_object()) return;
    auto owners = meta->find("ownerReferences");
    if (owners == meta->end() || !owners->is_array() || owners->empty()) return;
    const Json& owner = owners->front();
    const model::KindInfo* job_kind =
        model::FindKindForApiVersion(owner.value("apiVersion", ""), owner.value("kind", ""));
    if (job_kind == nullptr || job_kind->dispatch.suspend == model::SuspendField::kNone) return;
    const store::StoredObject* job = mirror_.Find(job_kind->group, job_kind->kind,
                                                  meta->value("namespace", ""), owner.value("name", ""));
    if (job == nullptr) return;
    auto served_job = server::ServedObject(*job, "");
    if (!served_job) return;
    Json job_json = std::move(served_job).value();
    // Kueue's job reconciler stops the job of an evicted Workload (it still holds its
    // admission until the job's pods are gone).
    bool admitted = false;
    bool evicted = false;
    if (auto st = wl.find("status"); st != wl.end() && st->is_object() && st->contains("conditions")) {
      for (const Json& c : (*st)["conditions"]) {
        const bool on = c.value("status", "") == "True";
        admitted = admitted || (c.value("type", "") == "Admitted" && on);
        evicted = evicted || (c.value("type", "") == "Evicted" && on);
      }
    }
    // A Workload a fleet check dispatched runs on its member cluster: the hub's copy of the
    // job stays suspended (MultiKueue marks it managedBy instead, so no local pod starts;
    // the hub has no Job controller to tell, and a pod made here would wait forever).
    const bool remote = !server::StringAt(wl, {"status", "clusterName"}).empty();
    admitted = admitted && !evicted && !remote;
    Json& spec = job_json["spec"];
    if (!spec.is_object()) return;
    Json& holder = job_kind->dispatch.suspend == model::SuspendField::kSpecSuspend ? spec : spec["runPolicy"];
    if (!holder.is_object()) holder = Json::object();
    const bool suspended = holder.value("suspend", false);
    if (suspended == !admitted) return;
    holder["suspend"] = !admitted;
    batch.push_back(store::Mutation::Update(job->key, server::StoredBody(job_json),
                                            job->meta.resource_version,
                                            server::LabelMap(job_json)));
    ++stats.updated;
  };
  for (const Json& item : decided["items"]) {
    if (!item.is_object()) continue;
    const std::string api_version = item.value("apiVersion", "");
    const std::string kind_name = item.value("kind", "");
    const model::KindInfo* kind = model::FindKindForApiVersion(api_version, kind_name);
    if (kind == nullptr || !kind->served() || is_member_object(item)) continue;
    const std::string name = server::StringAt(item, {"metadata", "name"});
    const std::string ns = kind->namespaced() ? server::StringAt(item, {"metadata", "namespace"}) : "";
    const store::ObjectKey key = server::StoreKey(*kind, ns.empty() && kind->namespaced() ? "default" : ns, name);
    const store::StoredObject* stored = mirror_.Find(key.group, key.kind, key.ns, key.name);
    const bool is_workload = key.group == "kueue.x-k8s.io" && key.kind == "Workload";
    if (is_workload) sync_suspend(item);
    if (stored == nullptr) {
      if (is_workload) workload_changes.emplace_back(std::nullopt, &item);
      // The body carries its uid and creationTimestamp, as the API's creates do (step 1
      // reads bodies as they are).
      Json created = item;
      std::string uid = server::StringAt(created, {"metadata", "uid"});
      if (uid.empty()) uid = server::NewUuid(uid_rng_);
      created["metadata"]["uid"] = uid;
      if (server::StringAt(created, {"metadata", "creationTimestamp"}).empty()) {
        created["metadata"]["creationTimestamp"] = core::Timestamp{now_s}.ToString();
      }
      store::Mutation m = store::Mutation::Create(key, server::StoredBody(created), server::LabelMap(item));
      m.uid = uid;
      batch.push_back(std::move(m));
      ++stats.created;
      continue;
    }
    auto served = server::ServedObject(*stored, "");
    if (!served) continue;
    if (!SameObject(item, *served)) {
      // metadata.generation follows the spec, as the API server keeps it (an agent tells a
      // ManifestWork's new spec from its generation).
      const bool spec_changed = item.contains("spec") && served->contains("spec") &&
                                !SameObject(item["spec"], (*served)["spec"]);
      if (is_workload) workload_changes.emplace_back(std::move(served).value(), &item);
      store::Mutation m = store::Mutation::Update(key, server::StoredBody(item),
                                                  stored->meta.resource_version,
                                                  server::LabelMap(item));
      m.bump_generation = spec_changed;
      batch.push_back(std::move(m));
      ++stats.updated;
    }
  }
  std::unordered_set<const store::StoredObject*> deleted;
  auto delete_if_stored = [&](std::string_view group, std::string_view kind, std::string_view ns,
                              std::string_view name) {
    const store::StoredObject* stored = mirror_.Find(group, kind, ns, name);
    if (stored == nullptr || !deleted.insert(stored).second) return;
    batch.push_back(store::Mutation::Delete(stored->key, stored->meta.resource_version));
    ++stats.deleted;
  };
  for (const model::PodDeletion& d : items.deleted_pods) {
    const model::Pod& pod = plan.planned.pod(d.pod);
    if (members.contains(pod.cluster)) continue;
    delete_if_stored("", "Pod", pod.meta.namespace_, pod.meta.name);
  }
  for (const model::ObjectDeletion& d : items.deleted_objects) {
    delete_if_stored(model::ApiGroupOf(d.api_version), d.kind, d.namespace_, d.name);
  }

  // Kueue's queue controllers: every ClusterQueue's and LocalQueue's status, written when it
  // changed (a condition that stays keeps its time).
  for (QueueStatus& q : QueueStatuses(plan.planned, queue_counts, core::Timestamp{now_s}, &members)) {
    const store::StoredObject* stored = mirror_.Find("kueue.x-k8s.io", q.kind, q.namespace_, q.name);
    if (stored == nullptr) continue;
    auto served = server::ServedObject(*stored, "");
    if (!served) continue;
    Json body = std::move(served).value();
    KeepConditionTimes(body.value("status", Json::object()), q.status);
    if (body.contains("status") && SameObject(body["status"], q.status)) continue;
    body["status"] = std::move(q.status);
    batch.push_back(store::Mutation::Update(stored->key, server::StoredBody(body),
                                            stored->meta.resource_version, server::LabelMap(body)));
    ++stats.updated;
  }
  for (const store::StoredObject* pod : terminated) {
    delete_if_stored(pod->key.group, pod->key.kind, pod->key.ns, pod->key.name);
  }

  if (!batch.empty()) {
    auto written = store_.Commit(std::move(batch));
    if (!written) return written.error();
    for (const store::StoredObject& o : *written) {
      stats.committed_rv = std::max(stats.committed_rv, o.meta.resource_version);
    }
    feed_.Publish(stats.committed_rv);
    // Counted once committed: a failed commit is decided again by the next cycle.
    if (options_.metrics != nullptr) {
      for (const auto& [before, after] : workload_changes) {
        server::RecordWorkloadTransition(before ? &*before : nullptr, *after, now_s, role,
                                         *options_.metrics);
      }
    }
  }
  const auto done = std::chrono::steady_clock::now();
  stats.seconds = std::chrono::duration<double>(done - started).count();
  stats.read_seconds = std::chrono::duration<double>(read_done - started).count();
  stats.plan_seconds = std::chrono::duration<double>(plan_done - read_done).count();
  stats.write_seconds = std::chrono::duration<double>(done - plan_done).count();
  if (options_.metrics != nullptr) {
    server::MetricsRegistry& m = *options_.metrics;
    auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    m.Observe("berth_cycle_duration_seconds", {{"stage", "read"}}, secs(started, read_done));
    m.Observe("berth_cycle_duration_seconds", {{"stage", "plan"}}, secs(read_done, plan_done));
    m.Observe("berth_cycle_duration_seconds", {{"stage", "write"}}, secs(plan_done, done));
    m.Observe("berth_cycle_duration_seconds", {{"stage", "total"}}, stats.seconds);
    m.Set("berth_cycle_objects", {}, static_cast<double>(stats.objects_read));
    m.Add("berth_cycle_writes_total", {{"operation", "create"}}, static_cast<double>(stats.created));
    m.Add("berth_cycle_writes_total", {{"operation", "update"}}, static_cast<double>(stats.updated));
    m.Add("berth_cycle_writes_total", {{"operation", "delete"}}, static_cast<double>(stats.deleted));
    m.Add("berth_cycles_total", {{"result", "ok"}});
  }
  {
    std::lock_guard lock(stats_mu_);
    last_ = stats;
  }
  cycles_.fetch_add(1);
  return stats;
}

void SchedulingLoop::Start() {
  stop_ = false;
  thread_ = std::thread([this] { Run(); });
}

void SchedulingLoop::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

CycleStats SchedulingLoop::last() const {
  std::lock_guard lock(stats_mu_);
  return last_;
}

void SchedulingLoop::Run() {
  constexpr auto kSlice = std::chrono::milliseconds(200);
  bool was_standby = false;
  while (!stop_) {
    auto result = RunCycle();
    if (options_.after_cycle) options_.after_cycle();
    if (result && result->standby != was_standby && options_.log) {
      options_.log(result->standby ? "standby: another hub leads the store; serving reads"
                                   : "leading: this hub decides now");
    }
    if (result) was_standby = result->standby;
    if (!result) {
      if (options_.log) options_.log("cycle failed: " + result.error().ToString());
      if (options_.metrics != nullptr) options_.metrics->Add("berth_cycles_total", {{"result", "failed"}});
    }
    // With a cycle count, a cycle that decided something may have left work for the next
    // (the next head of a queue, a preemptor whose victims' pods are gone now): it runs
    // after the debounce, as Kueue's scheduler loops while it admits.
    if (options_.plan_cycles.has_value() && result &&
        result->created + result->updated + result->deleted > 0) {
      std::this_thread::sleep_for(options_.debounce);
      continue;
    }
    // Changes up to here are decided (or the next cycle retries them after a failure).
    const int64_t seen = store_.CurrentResourceVersion();
    const auto deadline = std::chrono::steady_clock::now() + options_.period;
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (feed_.closed()) {
        std::this_thread::sleep_for(kSlice);  // shutting down: Stop comes next
        continue;
      }
      if (feed_.WaitPast(seen, std::min(left, std::chrono::milliseconds(kSlice))) > seen) {
        std::this_thread::sleep_for(options_.debounce);
        break;
      }
    }
  }
}

}  // namespace berth::cli
