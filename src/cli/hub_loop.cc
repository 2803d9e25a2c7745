// A cycle is `berth plan` over the store: the objects are handed to io's reader as one
// `kind: List` (the reader's fastest path, and the same decoding the CLI does), the plan runs,
// io's writer prints what it decided, and the printed objects are compared with the stored
// ones so only real changes are written. Re-reading everything per cycle is the simple,
// obviously-correct first form; docs/api.md ("scheduling loop") says what an incremental
// cycle would change.
#include "cli/hub_loop.h"

#include <sstream>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "cli/plan_items.h"
#include "core/diagnostics.h"
#include "engine/plan.h"
#include "io/reader.h"
#include "io/writer.h"
#include "model/kind_info.h"
#include "server/metrics/kueue_metrics.h"
#include "server/rest/stored_json.h"

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

struct ReadObject {
  store::StoredObject stored;
  Json served;
};

std::string KeyString(std::string_view group, std::string_view kind, std::string_view ns,
                      std::string_view name) {
  std::string out;
  out.reserve(group.size() + kind.size() + ns.size() + name.size() + 3);
  out.append(group).append("\x1f").append(kind).append("\x1f").append(ns).append("\x1f").append(name);
  return out;
}

std::string Str(const Json& obj, const char* a, const char* b) {
  auto it = obj.find(a);
  if (it == obj.end() || !it->is_object()) return "";
  auto jt = it->find(b);
  return jt != it->end() && jt->is_string() ? jt->get<std::string>() : "";
}

// Whether two objects say the same (key order aside).
bool SameObject(const Json& a, const Json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

int64_t SystemNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SchedulingLoop::SchedulingLoop(store::Store& store, server::ChangeFeed& feed, LoopOptions options)
    : store_(store), feed_(feed), options_(std::move(options)) {
  if (options_.metrics != nullptr) {
    server::DescribeKueueMetrics(*options_.metrics);
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
  stats.read_rv = store_.CurrentResourceVersion();

  // 1. Everything the store holds, as one List for the reader.
  std::unordered_map<std::string, ReadObject> read;
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  bool first = true;
  for (const model::KindInfo& kind : model::AllKinds()) {
    if (!kind.served()) continue;
    store::ListOptions options;
    options.group = std::string(kind.group);
    options.kind = std::string(kind.kind);
    options.limit = 5000;
    while (true) {
      auto page = store_.List(options);
      if (!page) return page.error();
      for (store::StoredObject& o : page->items) {
        auto served = server::ServedObject(o, "");
        if (!served) continue;
        if (!first) list += ',';
        first = false;
        list += served->dump();
        const std::string key = KeyString(o.key.group, o.key.kind, o.key.ns, o.key.name);
        read.emplace(key, ReadObject{std::move(o), std::move(served).value()});
      }
      if (!page->next) break;
      options.start_after = page->next;
    }
  }
  list += "]}";
  stats.objects_read = read.size();
  const auto read_done = std::chrono::steady_clock::now();

  // 2. The plan, at the hub's clock.
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(list, "<hub>");
  io::Input input = reader.Finish();
  if (options_.log) {
    for (const core::Diagnostic& d : diags.entries()) {
      if (d.severity == core::Severity::kError) options_.log("cycle: " + d.error.ToString());
    }
  }
  engine::PlanOptions plan_options;
  const int64_t now_s = options_.now_unix_s ? options_.now_unix_s() : SystemNow();
  plan_options.now = core::Timestamp{now_s};
  const engine::Plan plan = engine::RunPlan(std::move(input.snapshot), plan_options);
  const io::PlanItems items = PlanItemsOf(plan);
  std::ostringstream printed;
  io::WritePlan(plan.planned, items, input.documents, io::OutputFormat::kJson, printed);
  Json decided = Json::parse(printed.str(), nullptr, /*allow_exceptions=*/false);
  if (!decided.is_object() || !decided.contains("items")) {
    return core::Internal("the plan's output is not a List");
  }

  const auto plan_done = std::chrono::steady_clock::now();
  if (options_.metrics != nullptr) {
    server::UpdateKueueGauges(plan.planned, options_.replica_role, *options_.metrics);
  }

  // 3. What differs from the store, as one transaction.
  std::vector<store::Mutation> batch;
  std::vector<std::pair<const Json*, const Json*>> workload_changes;  // before (may be null), after
  for (const Json& item : decided["items"]) {
    if (!item.is_object()) continue;
    const std::string api_version = item.value("apiVersion", "");
    const std::string kind_name = item.value("kind", "");
    const model::KindInfo* kind = model::FindKindForApiVersion(api_version, kind_name);
    if (kind == nullptr || !kind->served()) continue;
    const std::string name = Str(item, "metadata", "name");
    const std::string ns = kind->namespaced() ? Str(item, "metadata", "namespace") : "";
    const store::ObjectKey key = server::StoreKey(*kind, ns.empty() && kind->namespaced() ? "default" : ns, name);
    auto it = read.find(KeyString(key.group, key.kind, key.ns, key.name));
    const bool is_workload = key.group == "kueue.x-k8s.io" && key.kind == "Workload";
    if (it == read.end()) {
      if (is_workload) workload_changes.emplace_back(nullptr, &item);
      store::Mutation m = store::Mutation::Create(key, server::StoredBody(item), server::LabelMap(item));
      m.uid = Str(item, "metadata", "uid");
      batch.push_back(std::move(m));
      ++stats.created;
    } else if (!SameObject(item, it->second.served)) {
      if (is_workload) workload_changes.emplace_back(&it->second.served, &item);
      store::Mutation m = store::Mutation::Update(key, server::StoredBody(item),
                                                  it->second.stored.meta.resource_version,
                                                  server::LabelMap(item));
      batch.push_back(std::move(m));
      ++stats.updated;
    }
  }
  auto delete_if_stored = [&](std::string_view group, std::string_view kind, std::string_view ns,
                              std::string_view name) {
    auto it = read.find(KeyString(group, kind, ns, name));
    if (it == read.end()) return;
    batch.push_back(store::Mutation::Delete(it->second.stored.key, it->second.stored.meta.resource_version));
    read.erase(it);
    ++stats.deleted;
  };
  for (const model::PodDeletion& d : items.deleted_pods) {
    const model::Pod& pod = plan.planned.pod(d.pod);
    delete_if_stored("", "Pod", pod.meta.namespace_, pod.meta.name);
  }
  for (const model::ObjectDeletion& d : items.deleted_objects) {
    delete_if_stored(model::ApiGroupOf(d.api_version), d.kind, d.namespace_, d.name);
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
        server::RecordWorkloadTransition(before, *after, now_s, options_.replica_role, *options_.metrics);
      }
    }
  }
  const auto done = std::chrono::steady_clock::now();
  stats.seconds = std::chrono::duration<double>(done - started).count();
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
  while (!stop_) {
    auto result = RunCycle();
    if (!result) {
      if (options_.log) options_.log("cycle failed: " + result.error().ToString());
      if (options_.metrics != nullptr) options_.metrics->Add("berth_cycles_total", {{"result", "failed"}});
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
