// SchedulingLoop::RunCycle over a real SqliteStore: a queued job is admitted, its pods bound
// and the job unsuspended in one cycle, and its queues' status written; an unchanged store
// gives a cycle that writes nothing; cycles follow the event log and decode only what
// changed; preemption settled in one cycle, or one Kueue cycle at a time; a standby (a store
// that does not lead) decides nothing; berth's FederatedLearning gauges follow the plan; and
// IoValidator refuses what io refuses (finalizers included), at the same field.
#include "cli/hub_loop.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/event_compactor.h"
#include "cli/serve_validator.h"
#include "io/yaml_json.h"
#include "server/metrics/metrics_registry.h"
#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

void Put(store::Store& s, const std::string& group, const std::string& kind, const std::string& ns,
         const std::string& name, const std::string& body) {
  ASSERT_TRUE(s.Commit({store::Mutation::Create({group, kind, ns, name}, body)}).has_value())
      << kind << "/" << name;
}

// A 4-cpu node.
void PutNode(store::Store& s, const std::string& name) {
  Put(s, "", "Node", "", name,
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
          R"("},"status":{"allocatable":{"cpu":"4","pods":"110"}}})");
}

void Fleet(store::Store& s) {
  Put(s, "", "Namespace", "", "team", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}})");
  Put(s, "", "Node", "", "n1",
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","creationTimestamp":"2026-01-01T00:00:00Z"},)"
      R"("status":{"allocatable":{"cpu":"8","memory":"32Gi","pods":"110"}}})");
  Put(s, "kueue.x-k8s.io", "ResourceFlavor", "", "f",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"f"}})");
  Put(s, "kueue.x-k8s.io", "ClusterQueue", "", "cq",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"cq"},"spec":)"
      R"({"namespaceSelector":{},"resourceGroups":[{"coveredResources":["cpu"],"flavors":[{"name":"f",)"
      R"("resources":[{"name":"cpu","nominalQuota":"8"}]}]}]}})");
  Put(s, "kueue.x-k8s.io", "LocalQueue", "team", "q",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"q","namespace":"team"},)"
      R"("spec":{"clusterQueue":"cq"}})");
  Put(s, "batch", "Job", "team", "train",
      R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"train","namespace":"team","uid":"u-train",)"
      R"("creationTimestamp":"2026-01-01T00:00:00Z","labels":{"kueue.x-k8s.io/queue-name":"q"}},)"
      R"("spec":{"parallelism":2,"completions":2,"suspend":true,"template":{"spec":{"restartPolicy":"Never",)"
      R"("containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"1"}}}]}}}})");
}

Json Body(store::Store& s, const std::string& group, const std::string& kind, const std::string& ns,
          const std::string& name) {
  auto got = s.Get({group, kind, ns, name});
  return got ? Json::parse(got->json) : Json();
}

LoopOptions FixedClock() {
  LoopOptions o;
  o.now_unix_s = [] { return int64_t{1767225700}; };
  return o;
}

// Each test's store: a real SqliteStore in a temporary directory, and the feed its loop
// publishes to.
class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
  }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  server::ChangeFeed feed_;
};
class SchedulingLoopTest : public StoreTest {};
class EventCompactorTest : public StoreTest {};

TEST_F(SchedulingLoopTest, AdmitsBindsAndUnsuspendsInOneCycleThenWritesNothing) {
  store::SqliteStore& s = *store_;
  Fleet(s);
  SchedulingLoop loop(s, feed_, FixedClock());
  const int64_t before = s.CurrentResourceVersion();
  auto first = loop.RunCycle();
  ASSERT_TRUE(first) << first.error().ToString();
  EXPECT_FALSE(first->standby);
  EXPECT_GT(first->committed_rv, before);

  const Json wl = Body(s, "kueue.x-k8s.io", "Workload", "team", "job-train");
  ASSERT_TRUE(wl.is_object()) << "the Workload was created";
  EXPECT_EQ(wl["status"]["admission"]["clusterQueue"], "cq");
  EXPECT_FALSE(wl["metadata"].value("uid", "").empty()) << "created bodies carry their uid";
  for (const char* pod : {"train-0", "train-1"}) {
    EXPECT_EQ(Body(s, "", "Pod", "team", pod)["spec"]["nodeName"], "n1") << pod;
  }
  EXPECT_EQ(Body(s, "batch", "Job", "team", "train")["spec"]["suspend"], false);
  // Kueue's queue status: counts, the reservation per flavor and resource, Active.
  const Json cq = Body(s, "kueue.x-k8s.io", "ClusterQueue", "", "cq")["status"];
  EXPECT_EQ(cq["admittedWorkloads"], 1);
  EXPECT_EQ(cq["reservingWorkloads"], 1);
  EXPECT_EQ(cq["pendingWorkloads"], 0);
  EXPECT_EQ(cq["flavorsReservation"].dump(),
            R"([{"name":"f","resources":[{"name":"cpu","total":"2","borrowed":"0"}]}])");
  EXPECT_EQ(cq["conditions"][0]["type"], "Active");
  EXPECT_EQ(cq["conditions"][0]["status"], "True");
  const Json lq = Body(s, "kueue.x-k8s.io", "LocalQueue", "team", "q")["status"];
  EXPECT_EQ(lq["admittedWorkloads"], 1);
  EXPECT_EQ(lq["conditions"][0]["reason"], "Ready");
  // Every write of the cycle has one resourceVersion range and was published.
  EXPECT_EQ(s.CurrentResourceVersion(), first->committed_rv);

  auto second = loop.RunCycle();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->created + second->updated + second->deleted, 0u);
  EXPECT_EQ(second->committed_rv, 0);
  EXPECT_EQ(s.CurrentResourceVersion(), first->committed_rv);
}

// A cycle follows the store through its event log and decodes only what changed: nothing
// once settled; a node added, then one deleted, each seen by the next cycle alone; and
// after compaction dropped events the loop had not read, a full read again (every object
// present, none lost).
TEST_F(SchedulingLoopTest, FollowsTheEventLogAndDecodesOnlyWhatChanged) {
  store::SqliteStore& s = *store_;
  Fleet(s);
  SchedulingLoop loop(s, feed_, FixedClock());
  auto first = loop.RunCycle();
  ASSERT_TRUE(first) << first.error().ToString();
  EXPECT_EQ(first->decoded, first->objects_read) << "the first cycle decodes everything";
  auto second = loop.RunCycle();  // reads back the first cycle's writes
  ASSERT_TRUE(second);
  EXPECT_EQ(second->decoded, first->created + first->updated);
  auto settled = loop.RunCycle();
  ASSERT_TRUE(settled);
  EXPECT_EQ(settled->decoded, 0u);
  EXPECT_EQ(settled->objects_read, second->objects_read);

  PutNode(s, "n2");
  auto added = loop.RunCycle();
  ASSERT_TRUE(added);
  EXPECT_EQ(added->decoded, 1u);
  EXPECT_EQ(added->objects_read, settled->objects_read + 1);

  auto stored = s.Get({"", "Node", "", "n2"});
  ASSERT_TRUE(stored);
  ASSERT_TRUE(s.Commit({store::Mutation::Delete(stored->key, stored->meta.resource_version)}).has_value());
  auto removed = loop.RunCycle();
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->decoded, 0u);
  EXPECT_EQ(removed->objects_read, settled->objects_read);

  PutNode(s, "n3");
  Put(s, "", "Namespace", "", "other", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"other"}})");
  store::CompactOptions compact;
  compact.keep_last = 1;  // the loop has not read the node's event: gone
  ASSERT_TRUE(s.Compact(compact).ok());
  auto relisted = loop.RunCycle();
  ASSERT_TRUE(relisted) << relisted.error().ToString();
  EXPECT_EQ(relisted->objects_read, settled->objects_read + 2);
  EXPECT_EQ(relisted->decoded, 2u) << "a relist decodes only objects whose version changed";
}

// A node of 2 cpu, a ClusterQueue of 2 cpu that preempts lower priorities, and a queued
// job "low" of 2 cpu at priority 10 (its Workload is made and admitted by the first cycle).
void PreemptionFleet(store::Store& s) {
  Put(s, "", "Namespace", "", "team", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}})");
  Put(s, "", "Node", "", "n1",
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","pods":"110"}}})");
  for (const auto& [name, value] : {std::pair{"low", 10}, std::pair{"high", 1000}}) {
    Put(s, "scheduling.k8s.io", "PriorityClass", "", name,
        std::string(R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":")") +
            name + R"("},"value":)" + std::to_string(value) + "}");
  }
  Put(s, "kueue.x-k8s.io", "ResourceFlavor", "", "f",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"f"}})");
  Put(s, "kueue.x-k8s.io", "ClusterQueue", "", "cq",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"cq"},"spec":)"
      R"({"namespaceSelector":{},"preemption":{"withinClusterQueue":"LowerPriority"},"resourceGroups":)"
      R"([{"coveredResources":["cpu"],"flavors":[{"name":"f","resources":[{"name":"cpu","nominalQuota":"2"}]}]}]}})");
  Put(s, "kueue.x-k8s.io", "LocalQueue", "team", "q",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"q","namespace":"team"},)"
      R"("spec":{"clusterQueue":"cq"}})");
}

void PutJob(store::Store& s, const std::string& name, const std::string& priority, const std::string& created) {
  Put(s, "batch", "Job", "team", name,
      R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":")" + name +
          R"(","namespace":"team","uid":"u-)" + name + R"(","creationTimestamp":")" + created +
          R"(","labels":{"kueue.x-k8s.io/queue-name":"q"}},"spec":{"suspend":true,"template":{"spec":)"
          R"({"restartPolicy":"Never","priorityClassName":")" + priority +
          R"(","containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"2"}}}]}}}})");
}

std::string ConditionOf(store::Store& s, const std::string& workload, const std::string& type) {
  const Json wl = Body(s, "kueue.x-k8s.io", "Workload", "team", workload);
  for (const Json& c : wl["status"].value("conditions", Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "");
  }
  return "";
}

// After the preemption: the victim requeued without quota, its pod gone and its job
// stopped; the preemptor admitted, bound and running.
void ExpectPreempted(store::Store& s) {
  EXPECT_FALSE(s.Get({"", "Pod", "team", "low-0"}).has_value()) << "the victim's pod is gone";
  EXPECT_EQ(ConditionOf(s, "job-low", "QuotaReserved"), "False");
  EXPECT_EQ(ConditionOf(s, "job-low", "Requeued"), "True");
  EXPECT_EQ(Body(s, "batch", "Job", "team", "low")["spec"]["suspend"], true);
  EXPECT_EQ(ConditionOf(s, "job-high", "Admitted"), "True");
  EXPECT_EQ(Body(s, "", "Pod", "team", "high-0")["spec"]["nodeName"], "n1");
  EXPECT_EQ(Body(s, "batch", "Job", "team", "high")["spec"]["suspend"], false);
}

// serve's cycles (the settled plan): the preemption is one cycle, one transaction.
TEST_F(SchedulingLoopTest, SettledCyclePreemptsAndAdmitsInOneTransaction) {
  store::SqliteStore& s = *store_;
  PreemptionFleet(s);
  SchedulingLoop loop(s, feed_, FixedClock());
  PutJob(s, "low", "low", "2026-01-01T00:00:00Z");
  ASSERT_TRUE(loop.RunCycle());
  EXPECT_EQ(ConditionOf(s, "job-low", "Admitted"), "True");
  PutJob(s, "high", "high", "2026-01-01T00:01:00Z");
  auto cycle = loop.RunCycle();
  ASSERT_TRUE(cycle) << cycle.error().ToString();
  ExpectPreempted(s);
}

// One Kueue cycle per loop cycle (LoopOptions::plan_cycles = 1): the high-priority job
// evicts the running low one in one cycle and waits while the victim's pod terminates (its
// Job stopped); the next cycle removes the terminated pod (the hub stands in for the
// kubelet), finishes the eviction (engine/eviction_completion.h) and admits and binds the
// preemptor.
TEST_F(SchedulingLoopTest, OneCycleAtATimePreemptionCompletesOnceTheVictimsPodsAreGone) {
  store::SqliteStore& s = *store_;
  PreemptionFleet(s);
  LoopOptions options = FixedClock();
  options.plan_cycles = 1;
  SchedulingLoop loop(s, feed_, options);
  PutJob(s, "low", "low", "2026-01-01T00:00:00Z");
  ASSERT_TRUE(loop.RunCycle());
  EXPECT_EQ(ConditionOf(s, "job-low", "Admitted"), "True");
  EXPECT_EQ(Body(s, "", "Pod", "team", "low-0")["spec"]["nodeName"], "n1");

  PutJob(s, "high", "high", "2026-01-01T00:01:00Z");
  auto evicting = loop.RunCycle();
  ASSERT_TRUE(evicting) << evicting.error().ToString();
  EXPECT_EQ(ConditionOf(s, "job-low", "Evicted"), "True");
  EXPECT_NE(ConditionOf(s, "job-high", "Admitted"), "True") << "the preemptor waits for the victim's pod";
  EXPECT_FALSE(Body(s, "", "Pod", "team", "low-0")["metadata"].value("deletionTimestamp", "").empty())
      << "the victim's pod is terminating";
  EXPECT_EQ(Body(s, "batch", "Job", "team", "low")["spec"]["suspend"], true) << "the evicted job is stopped";

  auto admitting = loop.RunCycle();
  ASSERT_TRUE(admitting) << admitting.error().ToString();
  ExpectPreempted(s);
}

// A store another hub leads: Leading() false and TryLead() refused.
class StandbyStore : public store::Store {
 public:
  explicit StandbyStore(store::Store& inner) : inner_(inner) {}
  core::Result<std::vector<store::StoredObject>> Commit(std::vector<store::Mutation> m) override {
    return inner_.Commit(std::move(m));
  }
  core::Result<store::StoredObject> Get(const store::ObjectKey& k) override { return inner_.Get(k); }
  core::Result<store::ListPage> List(const store::ListOptions& o) override { return inner_.List(o); }
  core::Result<store::EventPage> EventsSince(const store::WatchOptions& o) override {
    return inner_.EventsSince(o);
  }
  core::Status Compact(const store::CompactOptions& o) override { return inner_.Compact(o); }
  int64_t CurrentResourceVersion() override { return inner_.CurrentResourceVersion(); }
  int64_t CompactedResourceVersion() override { return inner_.CompactedResourceVersion(); }
  bool Leading() override { return false; }
  core::Status TryLead() override {
    return core::Error(core::ErrorCode::kUnavailable, "another hub leads");
  }

 private:
  store::Store& inner_;
};

// Stores every document of a YAML file of tests/e2e (BERTH_SOURCE_DIR names the source tree).
void PutE2eFile(store::Store& s, const std::string& path) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  const std::filesystem::path file = std::filesystem::path(root != nullptr ? root : ".") / "tests" / "e2e" / path;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty()) << file << " (set BERTH_SOURCE_DIR to the source tree)";
  std::istringstream lines(text.str());
  std::vector<std::string> docs(1);
  for (std::string line; std::getline(lines, line);) {
    if (line == "---") {
      docs.emplace_back();
    } else {
      docs.back() += line + "\n";
    }
  }
  for (const std::string& doc : docs) {
    if (doc.find("kind:") == std::string::npos) continue;
    auto json = io::YamlDocumentAsJson(doc);
    ASSERT_TRUE(json) << json.error().ToString();
    const Json o = Json::parse(*json);
    const std::string api_version = o["apiVersion"];
    const size_t slash = api_version.find('/');
    Put(s, slash == std::string::npos ? "" : api_version.substr(0, slash), o["kind"],
        o["metadata"].value("namespace", ""), o["metadata"]["name"], *json);
  }
}

// The fl-clients-placed case (two clients of three data clusters; us-2 lacks the compliance
// claim) in the store: one cycle publishes its FederatedLearning's gauges, and a cycle after
// it is deleted removes them.
TEST_F(SchedulingLoopTest, PublishesFederatedLearningGaugesFromThePlan) {
  store::SqliteStore& s = *store_;
  PutE2eFile(s, "fl-clients-placed/input/clusters.yaml");
  PutE2eFile(s, "fl-clients-placed/input/federated-learning.yaml");
  server::MetricsRegistry metrics;
  LoopOptions options = FixedClock();
  options.metrics = &metrics;
  SchedulingLoop loop(s, feed_, options);
  auto first = loop.RunCycle();
  ASSERT_TRUE(first) << first.error().ToString();
  EXPECT_EQ(Body(s, "federation-ai.open-cluster-management.io", "FederatedLearning", "team-eu", "mnist-eu")
                ["status"]["phase"],
            "Running");
  const std::string text = metrics.Text();
  const std::string fl = "{namespace=\"team-eu\",name=\"mnist-eu\"";
  for (const std::string& line :
       {"berth_federated_learning_phase" + fl + ",phase=\"Running\"} 1\n",
        "berth_federated_learning_phase" + fl + ",phase=\"Waiting\"} 0\n",
        "berth_federated_learning_round" + fl + "} 0\n",
        "berth_federated_learning_min_clients" + fl + "} 2\n",
        "berth_federated_learning_clients" + fl + ",state=\"training\"} 2\n",
        "berth_federated_learning_clients" + fl + ",state=\"excluded\"} 1\n",
        "berth_federated_learning_clients" + fl + ",state=\"lost\"} 0\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << text;
  }
  EXPECT_EQ(text.find("berth_federated_learning_loss" + fl), std::string::npos) << "no loss reported yet";

  ASSERT_TRUE(s.Commit({store::Mutation::Delete(
      {"federation-ai.open-cluster-management.io", "FederatedLearning", "team-eu", "mnist-eu"})}));
  ASSERT_TRUE(loop.RunCycle());
  EXPECT_EQ(metrics.Text().find("mnist-eu"), std::string::npos) << metrics.Text();
}

TEST_F(SchedulingLoopTest, AStandbyDecidesNothing) {
  Fleet(*store_);
  StandbyStore standby(*store_);
  SchedulingLoop loop(standby, feed_, FixedClock());
  const int64_t before = standby.CurrentResourceVersion();
  auto cycle = loop.RunCycle();
  ASSERT_TRUE(cycle);
  EXPECT_TRUE(cycle->standby);
  EXPECT_EQ(standby.CurrentResourceVersion(), before);
}

TEST_F(EventCompactorTest, KeepsTheNewestEventsAndOnlyTheLeaderCompacts) {
  store::SqliteStore& s = *store_;
  std::vector<store::Mutation> batch;
  for (int i = 0; i < 3000; ++i) {
    batch.push_back(store::Mutation::Create({"", "Namespace", "", "ns-" + std::to_string(i)}, "{}"));
  }
  ASSERT_TRUE(s.Commit(std::move(batch)).has_value());
  StandbyStore standby(s);
  EventCompactor idle(standby, 1000, std::chrono::minutes(1), nullptr);
  ASSERT_TRUE(idle.CompactOnce().ok());
  EXPECT_EQ(s.CompactedResourceVersion(), 0);
  EventCompactor compactor(s, 1000, std::chrono::minutes(1), nullptr);
  ASSERT_TRUE(compactor.CompactOnce().ok());
  EXPECT_EQ(s.CompactedResourceVersion(), s.CurrentResourceVersion() - 1000);
  store::WatchOptions old;
  old.since_rv = 1;
  EXPECT_EQ(s.EventsSince(old).error().code(), core::ErrorCode::kOutOfRange);
}

TEST(IoValidatorTest, RefusesWhatPlanRefusesAtTheSameField) {
  const model::KindInfo* job = model::FindKind("batch", "Job");
  ASSERT_NE(job, nullptr);
  IoValidator validator;
  Json bad = Json::parse(
      R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"team"},"spec":{"template":)"
      R"({"spec":{"containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"one"}}}]}}}})");
  auto errors = validator.Validate(*job, bad);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].location().field, "spec.template.spec.containers[0].resources.requests.cpu");
  EXPECT_TRUE(errors[0].location().file.empty()) << "the request is not a file";
  bad["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1";
  EXPECT_TRUE(validator.Validate(*job, bad).empty());
  // Finalizers, which the hub's deletes wait for, are checked as the API server checks them.
  for (const char* finalizers : {R"("hold")", R"(["hold"])", R"([7])", R"([null])", R"(["example.com/a b"])"}) {
    Json held = bad;
    held["metadata"]["finalizers"] = Json::parse(finalizers);
    auto refused = validator.Validate(*job, held);
    ASSERT_EQ(refused.size(), 1u) << finalizers;
    EXPECT_EQ(refused[0].location().field.rfind("metadata.finalizers", 0), 0u)
        << finalizers << ": " << refused[0].ToString();
  }
  bad["metadata"]["finalizers"] = Json::parse(R"(["example.com/hold", "foregroundDeletion"])");
  EXPECT_TRUE(validator.Validate(*job, bad).empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
