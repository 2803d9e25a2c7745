// Why levels and sequences and not a queue of changes: the link to the hub may drop, delay,
// repeat or reorder any sync (the fault tests put a proxy in between that does all four).
// Each sync restates everything the agent believes, the hub answers with everything it
// believes, and each side keeps the newer of each fact: a status is newer when its sequence
// is higher (sequences are taken from the wall clock in milliseconds, so they keep growing
// across restarts), a work is newer when its (uid, generation) differs from the one held.
// Nothing is ever applied because of what a sync did not say.
#include "server/agent/agent_runner.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "core/parts_hash.h"
#include "server/api/json_access.h"
#include "server/rest/uuid.h"
#include "server/work/work_applier.h"

namespace berth::server::agent {

namespace {

struct InventoryKind {
  const char* api_version;
  const char* kind;
};

// What the hub's plan needs of a member cluster: where pods can go (Nodes, devices), what
// runs there (Pods), and its own Kueue (queues and the Workloads holding quota).
constexpr InventoryKind kInventoryKinds[] = {
    {"v1", "Node"},
    {"v1", "Pod"},
    {"resource.k8s.io/v1", "ResourceSlice"},
    {"resource.k8s.io/v1", "DeviceClass"},
    {"kueue.x-k8s.io/v1beta2", "ResourceFlavor"},
    {"kueue.x-k8s.io/v1beta2", "ClusterQueue"},
    {"kueue.x-k8s.io/v1beta2", "LocalQueue"},
    {"kueue.x-k8s.io/v1beta2", "Cohort"},
    {"kueue.x-k8s.io/v1beta2", "Workload"},
};

// The object as the hub needs it: what the API server and kubectl keep for themselves
// (managedFields, the last applied configuration, a node's image list) is dropped, so an
// inventory stays well under the hub's body cap. A finished pod holds nothing: left out.
std::optional<Json> Slim(Json object) {
  if (!object.is_object()) return std::nullopt;
  const std::string kind = StringAt(object, {"kind"});
  if (kind == "Pod") {
    const std::string phase = StringAt(object, {"status", "phase"});
    if (phase == "Succeeded" || phase == "Failed") return std::nullopt;
  }
  if (auto md = object.find("metadata"); md != object.end() && md->is_object()) {
    md->erase("managedFields");
    if (auto a = md->find("annotations"); a != md->end() && a->is_object()) {
      a->erase("kubectl.kubernetes.io/last-applied-configuration");
    }
  }
  if (kind == "Node") {
    if (auto st = object.find("status"); st != object.end() && st->is_object()) {
      st->erase("images");
      st->erase("volumesAttached");
      st->erase("volumesInUse");
    }
  }
  return object;
}

std::string HashOf(const std::vector<Json>& objects) {
  core::PartsHash h;
  for (const Json& o : objects) h.Add(o.dump());
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h.value()));
  return text;
}

int64_t GenerationOf(const Json& work) {
  auto md = work.find("metadata");
  if (md == work.end() || !md->is_object()) return 0;
  auto g = md->find("generation");
  return g != md->end() && g->is_number_integer() ? g->get<int64_t>() : 0;
}

}  // namespace

// Why: the hub refuses a sync carrying a status over its limit, which would cut the whole
// cluster off (its lease lapses and its workloads move), for one work's oversized feedback.
Json StatusForSync(const Json& status, size_t limit) {
  if (status.dump().size() <= limit) return status;
  Json trimmed = status;
  if (auto rs = trimmed.find("resourceStatus"); rs != trimmed.end() && rs->is_object()) {
    if (auto manifests = rs->find("manifests"); manifests != rs->end() && manifests->is_array()) {
      for (Json& m : *manifests) {
        if (m.is_object()) m.erase("statusFeedback");
      }
      if (trimmed.dump().size() <= limit) return trimmed;
    }
  }
  Json conditions_only = Json::object();
  if (const Json* c = Member(status, "conditions"); c != nullptr && c->is_array()) conditions_only["conditions"] = *c;
  if (conditions_only.dump().size() <= limit) return conditions_only;
  return Json::object();
}

AgentRunner::AgentRunner(std::unique_ptr<kube::Transport> hub, std::unique_ptr<kube::Client> member,
                         AgentOptions options)
    : hub_(std::move(hub)), member_(std::move(member)), options_(std::move(options)),
      period_ms_(std::chrono::duration_cast<std::chrono::milliseconds>(options_.sync_period).count()) {
  std::mt19937_64 rng{std::random_device{}()};
  agent_id_ = NewUuid(rng);
  hub_hash_ = work::HubHash(options_.hub_server);
}

AgentRunner::~AgentRunner() { Stop(); }

int64_t AgentRunner::Now() const {
  if (options_.now_unix_s) return options_.now_unix_s();
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t AgentRunner::NextSequence() {
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  last_sequence_ = std::max(last_sequence_ + 1, now_ms);
  return last_sequence_;
}

void AgentRunner::Log(const std::string& line) const {
  if (options_.log) options_.log(options_.cluster + ": " + line);
}

core::Status AgentRunner::Load() {
  if (options_.state_dir.empty()) return {};
  namespace fs = std::filesystem;
  const fs::path path = fs::path(options_.state_dir) / "agent-state.json";
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const Json state = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!state.is_object()) return core::InvalidArgument(path.string() + ": not a JSON object");
  // A damaged file is an error naming the field, never an exception: the agent must not
  // die on its own state (typed reads below).
  auto int_at = [](const Json& o, const char* key) -> std::optional<int64_t> {
    const Json* v = Member(o, key);
    if (v == nullptr) return int64_t{0};
    if (!v->is_number_integer()) return std::nullopt;
    return v->get<int64_t>();
  };
  auto object_at = [](const Json& o, const char* key) {
    const Json* v = Member(o, key);
    return v != nullptr && v->is_object() ? *v : Json::object();
  };
  std::lock_guard lock(mu_);
  hub_id_ = StringAt(state, {"hubId"});
  auto epoch = int_at(state, "epoch");
  auto last_sequence = int_at(state, "lastSequence");
  if (!epoch || !last_sequence) return core::InvalidArgument(path.string() + ": epoch and lastSequence must be integers");
  epoch_ = *epoch;
  last_sequence_ = *last_sequence;
  const Json* works_member = Member(state, "works");
  const Json works = works_member != nullptr ? *works_member : Json::object();  // alive through the loop
  if (!works.is_object()) return core::InvalidArgument(path.string() + ": works: not an object");
  for (const auto& [name, h] : works.items()) {
    if (!h.is_object()) continue;
    Held held;
    held.work = object_at(h, "work");
    auto record = work::AppliedRecord::FromJson(object_at(h, "record"));
    if (!record) return core::InvalidArgument(path.string() + ": works." + name + ".record: " + record.error().message());
    held.record = std::move(record).value();
    held.status = object_at(h, "status");
    auto sequence = int_at(h, "sequence");
    auto acked = int_at(h, "acked");
    auto orphan = int_at(h, "orphanSince");
    if (!sequence || !acked || !orphan) {
      return core::InvalidArgument(path.string() + ": works." + name + ": sequence, acked and orphanSince must be integers");
    }
    held.sequence = *sequence;
    held.acked = *acked;
    held.orphan_since_s = *orphan;
    held.hub_id = StringAt(h, {"hubId"});
    held.foreign = !held.hub_id.empty() && held.hub_id != hub_id_;
    works_[name] = std::move(held);
  }
  return {};
}

core::Status AgentRunner::Save() {
  if (options_.state_dir.empty()) return {};
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(options_.state_dir, ec);
  Json works = Json::object();
  for (const auto& [name, h] : works_) {
    works[name] = {{"work", h.work},     {"record", h.record.ToJson()}, {"status", h.status},
                   {"sequence", h.sequence}, {"acked", h.acked},      {"orphanSince", h.orphan_since_s},
                   {"hubId", h.hub_id}};
  }
  Json state = {{"hubId", hub_id_}, {"epoch", epoch_}, {"lastSequence", last_sequence_}, {"works", works}};
  // Written whole and renamed over the old file: a crash leaves one or the other.
  const fs::path path = fs::path(options_.state_dir) / "agent-state.json";
  const fs::path tmp = fs::path(options_.state_dir) / "agent-state.json.new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << state.dump();
    if (!out) return core::InvalidArgument("cannot write " + tmp.string());
  }
  fs::rename(tmp, path, ec);
  if (ec) return core::InvalidArgument("cannot replace " + path.string() + ": " + ec.message());
  return {};
}

std::optional<std::vector<Json>> AgentRunner::Inventory() {
  if (manual_inventory_.has_value()) return *manual_inventory_;
  // Whole or not at all: a cluster reported with its Nodes but not yet its queues would be
  // given work its own Kueue cannot admit. A kind whose list failed (the member does not
  // serve it) does not hold the others back.
  for (const Watched& w : watched_) {
    if (!w.reflector->Synced() && w.reflector->counts().failures == 0) return std::nullopt;
  }
  std::vector<Json> out;
  for (const Watched& w : watched_) {
    if (!w.reflector->Synced()) continue;
    for (auto& [key, object] : w.reflector->Snapshot()) {
      if (auto slim = Slim(std::move(object))) out.push_back(std::move(*slim));
    }
  }
  return out;
}

void AgentRunner::SetInventoryForTest(std::vector<Json> objects) { manual_inventory_ = std::move(objects); }

std::map<std::string, int64_t> AgentRunner::HeldWorks() {
  std::lock_guard lock(mu_);
  std::map<std::string, int64_t> out;
  for (const auto& [name, h] : works_) out[name] = GenerationOf(h.work);
  return out;
}

void AgentRunner::Reconcile(const std::string& name, Held& held, bool refresh_only, RoundStats& stats) {
  work::ApplyOptions apply;
  apply.hub_hash = hub_hash_;
  apply.agent_id = agent_id_;
  apply.now = core::Timestamp{Now()};
  apply.refresh_status_only = refresh_only;
  Json work = held.work;
  work["status"] = held.status;
  auto result = work::ApplyWork(*member_, work, held.record, apply);
  if (result && refresh_only && result->missing_objects) {
    // Someone deleted what the work applied: apply it again now, not at the next resync.
    apply.refresh_status_only = refresh_only = false;
    result = work::ApplyWork(*member_, work, held.record, apply);
  }
  if (!result) {
    Log("work " + name + ": " + result.error().ToString());
    held.apply_failed = true;
    return;
  }
  if (refresh_only) {
    ++stats.refreshed;
  } else {
    held.applied_at_s = Now();
    held.apply_failed = !result->errors.empty();
  }
  held.record = std::move(result->record);
  if (result->status != held.status) {
    held.status = std::move(result->status);
    held.sequence = NextSequence();
  }
}

core::Result<RoundStats> AgentRunner::Round() {
  std::lock_guard lock(mu_);
  RoundStats stats;
  const int64_t now = Now();
  // 1. The levels.
  SyncRequest request;
  request.cluster = options_.cluster;
  request.agent_id = agent_id_;
  request.hub_id = hub_id_;
  request.epoch = epoch_;
  request.claims = options_.claims;
  request.works_version = works_version_;
  if (std::optional<std::vector<Json>> inventory = Inventory()) {
    stats.inventory_objects = inventory->size();
    request.inventory_hash = HashOf(*inventory);
    if (request.inventory_hash != hub_inventory_hash_) {
      request.inventory = std::move(*inventory);
      stats.sent_inventory = true;
    }
  }
  for (const auto& [name, h] : works_) {
    if (h.foreign) continue;
    request.works.push_back({name, StringAt(h.work, {"metadata", "uid"}), GenerationOf(h.work)});
    if (h.sequence > h.acked && h.status.is_object() && !h.status.empty()) {
      request.statuses.push_back({name, StringAt(h.work, {"metadata", "uid"}), GenerationOf(h.work), h.sequence,
                                  StatusForSync(h.status, SyncLimits{}.max_status_bytes)});
      ++stats.statuses_sent;
    }
  }
  kube::Request http;
  http.method = "POST";
  http.path = SyncPath(options_.cluster);
  http.body = EncodeSyncRequest(request);
  http.content_type = "application/json";
  auto sent = hub_->Send(http);
  if (!sent) return sent.error();
  if (!sent->ok()) {
    return core::Error(sent->status == 403 ? core::ErrorCode::kFailedPrecondition : core::ErrorCode::kUnavailable,
                       "the hub refused the sync: " + sent->Message());
  }
  auto reply = ParseSyncReply(sent->body);
  if (!reply) return core::InvalidArgument("the hub's reply: " + reply.error().ToString());
  rounds_.fetch_add(1);

  // 2. Whose answer is it.
  if (reply->epoch < epoch_) {
    stats.stale_reply = true;
    return stats;
  }
  epoch_ = reply->epoch;
  if (!hub_id_.empty() && reply->hub_id != hub_id_) {
    // A restored or new hub: what the old one asked for stays, unmanaged, never removed by
    // this agent (an admin removes it, as OCM leaves evicted AppliedManifestWorks to them).
    for (auto& [name, h] : works_) h.foreign = true;
    Log("the hub's identity changed (" + hub_id_ + " -> " + reply->hub_id +
        "): the works it applied stay and are no longer synced");
  }
  hub_id_ = reply->hub_id;
  hub_inventory_hash_ = reply->inventory_hash;
  works_version_ = reply->works_version;
  if (reply->sync_period_s > 0) period_ms_ = reply->sync_period_s * 1000;
  for (const auto& [name, seq] : reply->status_acks) {
    auto it = works_.find(name);
    if (it != works_.end()) it->second.acked = std::max(it->second.acked, seq);
  }
  stats.accepted = reply->accepted;
  if (!reply->accepted) {
    if (!told_not_accepted_) Log(reply->message.empty() ? "waiting for the hub to accept this cluster" : reply->message);
    told_not_accepted_ = true;
    return stats;
  }
  told_not_accepted_ = false;

  // 3. Works to apply (new, changed or recreated), then every other held one reconciled.
  std::set<std::string> applied_now;
  for (Json& w : reply->apply) {
    const std::string name = StringAt(w, {"metadata", "name"});
    if (name.empty()) continue;
    Held& held = works_[name];
    held.work = std::move(w);
    held.work.erase("status");  // the hub's copy of what this agent reported
    held.foreign = false;
    held.orphan_since_s = 0;
    held.hub_id = hub_id_;
    Reconcile(name, held, /*refresh_only=*/false, stats);
    applied_now.insert(name);
    ++stats.applied;
  }
  const std::set<std::string> removed(reply->remove.begin(), reply->remove.end());
  // Deleted on the hub (its event log says so): removed now, as OCM's agent removes a work
  // it watched being deleted; the grace is for works that vanished without a trace.
  const std::set<std::string> deleted_on_hub(reply->deleted.begin(), reply->deleted.end());
  for (auto it = works_.begin(); it != works_.end();) {
    Held& held = it->second;
    if (held.foreign) {
      ++it;
      continue;
    }
    if (!removed.contains(it->first)) {
      held.orphan_since_s = 0;
      if (!applied_now.contains(it->first)) {
        const bool due = held.apply_failed || held.applied_at_s == 0 ||
                         now - held.applied_at_s >= options_.resync.count();
        if (due) ++stats.resynced;
        Reconcile(it->first, held, /*refresh_only=*/!due, stats);
      }
      ++it;
      continue;
    }
    if (held.orphan_since_s == 0) held.orphan_since_s = now;
    if (!deleted_on_hub.contains(it->first) && now - held.orphan_since_s < options_.orphan_grace.count()) {
      ++it;
      continue;
    }
    const Json* option = MemberAt(held.work, {"spec", "deleteOption"});
    const Json delete_option = option != nullptr ? *option : Json();
    work::WorkDeleteResult deleted = work::DeleteWork(*member_, held.record, delete_option);
    for (const std::string& e : deleted.errors) Log("removing work " + it->first + ": " + e);
    if (!deleted.done()) {
      held.record = std::move(deleted.record);
      ++it;
      continue;
    }
    Log("removed work " + it->first +
        (deleted_on_hub.contains(it->first) ? " (deleted on the hub)" : " (the hub no longer has it)"));
    ++stats.removed;
    it = works_.erase(it);
  }
  if (auto st = Save(); !st.ok()) Log(st.error().ToString());
  return stats;
}

void AgentRunner::Start() {
  stop_ = false;
  if (options_.watch_inventory) {
    for (const InventoryKind& k : kInventoryKinds) {
      auto resource = kube::ResourceFor(k.api_version, k.kind);
      if (!resource) continue;
      kube::ReflectorOptions ro;
      ro.watch_timeout_s = 60;
      Watched w;
      w.reflector = std::make_unique<kube::Reflector>(*member_, *resource, ro);
      watched_.push_back(std::move(w));
    }
    for (Watched& w : watched_) {
      kube::Reflector* r = w.reflector.get();
      w.thread = std::thread([this, r] { r->Run(stop_); });
    }
  }
  loop_ = std::thread([this] {
    int failures = 0;
    while (!stop_) {
      auto round = Round();
      std::chrono::milliseconds wait;
      if (!round) {
        Log("sync: " + round.error().ToString());
        // Backs off up to the period; the cluster keeps running what it holds.
        wait = std::min<std::chrono::milliseconds>(std::chrono::milliseconds(500 << std::min(failures, 6)), std::chrono::milliseconds(period_ms_.load()));
        ++failures;
      } else {
        failures = 0;
        // Work just applied reports its status soon; otherwise one sync per period.
        wait = round->applied > 0 ? std::chrono::milliseconds(1000)
                                  : std::chrono::milliseconds(period_ms_.load());
      }
      const auto until = std::chrono::steady_clock::now() + wait;
      while (!stop_ && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  });
}

void AgentRunner::Stop() {
  stop_ = true;
  if (loop_.joinable()) loop_.join();
  for (Watched& w : watched_) {
    if (w.thread.joinable()) w.thread.join();
  }
  watched_.clear();
}

}  // namespace berth::server::agent
