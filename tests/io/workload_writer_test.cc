// Writing Kueue Workloads back: status.admission, conditions (replaced in place) and
// admissionChecks patched into the document as read, created Workloads whole, JSON and
// YAML, and the WORKLOADS table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "io/internal/workload_json.h"
#include "io/internal/yaml_to_json.h"
#include "io/table_writer.h"
#include "io/test_util.h"
#include "io/writer.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using ::testing::HasSubstr;
using OrderedJson = nlohmann::ordered_json;
using testing::Dump;
using testing::ReadString;

constexpr const char* kGiven = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
"metadata":{"name":"wl","namespace":"ml","managedFields":[{"manager":"kueue"}]},
"spec":{"queueName":"lq","podSets":[{"name":"main","count":2,"x-unknown":1,
"template":{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}]},
"status":{"conditions":[
{"type":"QuotaReserved","status":"False","lastTransitionTime":"2026-01-01T00:00:00Z",
 "reason":"Pending","message":"waiting"},
{"type":"Custom","status":"True","reason":"X","message":"kept"}],
"requeueState":{"count":1}}})";

model::WorkloadCondition Cond(const char* type, const char* status, const char* reason,
                              const char* message, int64_t t) {
  model::WorkloadCondition c;
  c.type = type;
  c.status = status;
  c.reason = reason;
  c.message = message;
  c.last_transition_time.unix_s = t;
  return c;
}

model::Admission SampleAdmission() {
  model::Admission a;
  a.cluster_queue = "cq";
  model::PodSetAssignment psa;
  psa.name = "main";
  psa.flavors = {{"cpu", "default"}, {"memory", "default"}, {"nvidia.com/gpu", "h100"}};
  psa.resource_usage = {{"cpu", 2500}, {"memory", 16LL << 30}, {"nvidia.com/gpu", 2}};
  psa.count = 2;
  model::TopologyAssignment ta;
  ta.levels = {"rack", "kubernetes.io/hostname"};
  ta.domains = {{{"r1", "n1"}, 1}, {{"r1", "n2"}, 1}};
  psa.topology_assignment = ta;
  a.pod_set_assignments.push_back(psa);
  return a;
}

class WorkloadWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    in_ = ReadString(kGiven, diags_, "wl.json");
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
    ASSERT_EQ(in_.snapshot.kueue_workloads.size(), 1u);
    planned_ = in_.snapshot;
    model::Workload& wl = planned_.kueue_workloads[0];
    wl.admission = SampleAdmission();
    wl.conditions[0] = Cond("QuotaReserved", "True", "QuotaReserved",
                            "Quota reserved in ClusterQueue cq", 1767225600 + 60);
    wl.conditions.push_back(
        Cond("Admitted", "True", "Admitted", "The workload is admitted", 1767225600 + 60));
    wl.admission_checks.push_back({"placement", model::CheckState::kReady, "east"});
  }

  OrderedJson WriteJson() {
    PlanItems items;
    items.workloads = {0};
    std::ostringstream out;
    WritePlan(planned_, items, in_.documents, OutputFormat::kJson, out);
    return OrderedJson::parse(out.str());
  }

  core::Diagnostics diags_;
  Input in_;
  model::Snapshot planned_;
};

TEST_F(WorkloadWriterTest, PatchesStatusAndKeepsEverythingElse) {
  OrderedJson list = WriteJson();
  ASSERT_EQ(list["items"].size(), 1u);
  OrderedJson got = list["items"][0];
  OrderedJson original = OrderedJson::parse(kGiven);
  // Everything outside status, and status fields berth does not own, as read.
  EXPECT_EQ(got["metadata"], original["metadata"]);
  EXPECT_EQ(got["spec"], original["spec"]);
  EXPECT_EQ(got["status"]["requeueState"], original["status"]["requeueState"]);

  const OrderedJson& conditions = got["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 3u);
  // Replaced in place, key order kept.
  EXPECT_EQ(
      conditions[0].dump(),
      R"({"type":"QuotaReserved","status":"True","lastTransitionTime":"2026-01-01T00:01:00Z",)"
      R"("reason":"QuotaReserved","message":"Quota reserved in ClusterQueue cq"})");
  EXPECT_EQ(conditions[1], original["status"]["conditions"][1]);
  EXPECT_EQ(conditions[2]["type"], "Admitted");

  const OrderedJson& admission = got["status"]["admission"];
  EXPECT_EQ(admission["clusterQueue"], "cq");
  const OrderedJson& psa = admission["podSetAssignments"][0];
  EXPECT_EQ(psa["name"], "main");
  EXPECT_EQ(psa["flavors"]["nvidia.com/gpu"], "h100");
  EXPECT_EQ(psa["resourceUsage"]["cpu"], "2500m");
  EXPECT_EQ(psa["resourceUsage"]["memory"], "16Gi");
  EXPECT_EQ(psa["resourceUsage"]["nvidia.com/gpu"], "2");
  EXPECT_EQ(psa["count"], 2);
  const OrderedJson& ta = psa["topologyAssignment"];
  EXPECT_EQ(ta["levels"], OrderedJson::parse(R"(["rack","kubernetes.io/hostname"])"));
  // v1beta2 encoding: one slice, shared rack value universal, pod counts universal.
  EXPECT_EQ(ta["slices"].dump(),
            R"([{"domainCount":2,"valuesPerLevel":[{"universal":"r1"},)"
            R"({"individual":{"roots":["n1","n2"]}}],"podCounts":{"universal":1}}])");
  EXPECT_EQ(got["status"]["admissionChecks"].dump(),
            R"([{"name":"placement","state":"Ready","message":"east"}])");
}

TEST_F(WorkloadWriterTest, SlicesRoundTripThroughTheReader) {
  OrderedJson list = WriteJson();
  core::Diagnostics diags;
  Input again = ReadString(list["items"][0].dump(), diags, "again.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Workload& wl = again.snapshot.kueue_workloads.at(0);
  ASSERT_TRUE(wl.admission.has_value());
  const auto& ta = wl.admission->pod_set_assignments.at(0).topology_assignment;
  ASSERT_TRUE(ta.has_value());
  ASSERT_EQ(ta->domains.size(), 2u);
  EXPECT_EQ(ta->domains[1].values, (std::vector<std::string>{"r1", "n2"}));
  EXPECT_EQ(wl.admission->pod_set_assignments[0].resource_usage.at("memory"), 16LL << 30);
}

TEST_F(WorkloadWriterTest, KeepsAnAdmissionToTheSameQueueAsRead) {
  // Written once, then read back and re-planned with a different usage figure: Kueue never
  // rewrites an admission in place, so the document's stays.
  OrderedJson first = WriteJson()["items"][0];
  core::Diagnostics diags;
  Input again = ReadString(first.dump(), diags, "again.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = again.snapshot;
  planned.kueue_workloads[0].admission->pod_set_assignments[0].resource_usage["cpu"] = 1;
  PlanItems items;
  items.workloads = {0};
  std::ostringstream out;
  WritePlan(planned, items, again.documents, OutputFormat::kJson, out);
  OrderedJson second = OrderedJson::parse(out.str())["items"][0];
  EXPECT_EQ(second, first);
}

TEST_F(WorkloadWriterTest, ReadmissionInTheSameQueuePrintsTheNewFlavors) {
  // Preempted and admitted again within the plan, in the same ClusterQueue but another
  // flavor: the admission as read is stale and must not be kept.
  OrderedJson first = WriteJson()["items"][0];
  core::Diagnostics diags;
  Input again = ReadString(first.dump(), diags, "again.json");
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = again.snapshot;
  auto& flavors = planned.kueue_workloads[0].admission->pod_set_assignments[0].flavors;
  ASSERT_FALSE(flavors.empty());
  for (auto& [resource, flavor] : flavors) flavor = "other-flavor";
  PlanItems items;
  items.workloads = {0};
  std::ostringstream out;
  WritePlan(planned, items, again.documents, OutputFormat::kJson, out);
  OrderedJson second = OrderedJson::parse(out.str())["items"][0];
  const OrderedJson& psa = second["status"]["admission"]["podSetAssignments"][0];
  for (const auto& [resource, flavor] : psa["flavors"].items()) {
    EXPECT_EQ(flavor, "other-flavor") << resource;
  }
}

TEST_F(WorkloadWriterTest, EvictedWorkloadLosesItsAdmission) {
  OrderedJson first = WriteJson()["items"][0];
  core::Diagnostics diags;
  Input again = ReadString(first.dump(), diags, "again.json");
  model::Snapshot planned = again.snapshot;
  planned.kueue_workloads[0].admission.reset();
  PlanItems items;
  items.workloads = {0};
  std::ostringstream out;
  WritePlan(planned, items, again.documents, OutputFormat::kJson, out);
  OrderedJson second = OrderedJson::parse(out.str())["items"][0];
  EXPECT_FALSE(second["status"].contains("admission"));
}

TEST_F(WorkloadWriterTest, YamlCarriesTheSameObject) {
  PlanItems items;
  items.workloads = {0};
  std::ostringstream yaml;
  WritePlan(planned_, items, in_.documents, OutputFormat::kYaml, yaml);
  EXPECT_THAT(yaml.str(), HasSubstr("kind: Workload"));
  std::string json_text;
  std::vector<std::string> docs;
  core::Status status = internal::ConvertYamlStream(
      yaml.str(), [&](std::string&& json, int) { docs.push_back(std::move(json)); });
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(OrderedJson::parse(docs[0]), WriteJson());
}

TEST(WorkloadWriterV1beta1Test, WritesDomainsInAV1beta1Document) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: wl}
spec: {podSets: [{name: main, count: 2, template: {spec: {containers: [{name: c}]}}}]}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  planned.kueue_workloads[0].admission = SampleAdmission();
  OrderedJson doc = internal::PatchedWorkload(planned.kueue_workloads[0], in.documents);
  const OrderedJson& ta = doc["status"]["admission"]["podSetAssignments"][0]["topologyAssignment"];
  EXPECT_EQ(ta["domains"].dump(),
            R"([{"values":["r1","n1"],"count":1},{"values":["r1","n2"],"count":1}])");
  EXPECT_FALSE(ta.contains("slices"));
}

TEST(WorkloadWriterCreatedTest, CreatedWorkloadPrintsWhole) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml, uid: u1, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {suspend: true, template: {spec: {containers: [{name: c, image: img}]}}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  ASSERT_EQ(planned.kueue_workloads.size(), 1u);
  planned.kueue_workloads[0].conditions.push_back(
      Cond("QuotaReserved", "False", "Pending",
           "couldn't assign flavors to pod set main: insufficient quota", 0));
  PlanItems items;
  items.workloads = {0};
  std::ostringstream out;
  WritePlan(planned, items, in.documents, OutputFormat::kJson, out);
  OrderedJson wl = OrderedJson::parse(out.str())["items"][0];
  EXPECT_EQ(wl["apiVersion"], "kueue.x-k8s.io/v1beta2");
  EXPECT_EQ(wl["metadata"]["name"], "job-train");
  EXPECT_EQ(wl["metadata"]["ownerReferences"][0]["name"], "train");
  EXPECT_EQ(wl["spec"]["queueName"], "lq");
  EXPECT_EQ(wl["spec"]["priority"], 0);
  EXPECT_FALSE(wl["spec"].contains("priorityClassRef"));
  EXPECT_EQ(wl["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["image"], "img");
  EXPECT_EQ(wl["status"]["conditions"][0].dump(),
            R"({"type":"QuotaReserved","status":"False","reason":"Pending",)"
            R"("message":"couldn't assign flavors to pod set main: insufficient quota"})");
  EXPECT_FALSE(wl["status"].contains("admission"));
}

TEST(WorkloadQuantityTest, PrintsCanonicalQuantities) {
  EXPECT_EQ(internal::QuantityString("cpu", 500), "500m");
  EXPECT_EQ(internal::QuantityString("cpu", 2000), "2");
  EXPECT_EQ(internal::QuantityString("memory", 16LL << 30), "16Gi");
  // As upstream's NewQuantity(v, BinarySI).String(): not a multiple of 1024, no suffix.
  EXPECT_EQ(internal::QuantityString("memory", 1000000000), "1000000000");
  EXPECT_EQ(internal::QuantityString("memory", 1536LL << 20), "1536Mi");
  EXPECT_EQ(internal::QuantityString("nvidia.com/gpu", 8), "8");
}

TEST(WorkloadTableTest, StatusFromConditions) {
  model::Workload wl;
  EXPECT_STREQ(WorkloadStatusName(wl), "Pending");
  wl.conditions = {Cond("QuotaReserved", "False", "Inadmissible", "no LocalQueue", 0)};
  EXPECT_STREQ(WorkloadStatusName(wl), "Inadmissible");
  wl.conditions = {Cond("QuotaReserved", "True", "QuotaReserved", "", 0)};
  EXPECT_STREQ(WorkloadStatusName(wl), "QuotaReserved");
  wl.conditions.push_back(Cond("Admitted", "True", "Admitted", "", 0));
  EXPECT_STREQ(WorkloadStatusName(wl), "Admitted");
  wl.conditions = {Cond("Evicted", "True", "Preempted", "", 0)};
  EXPECT_STREQ(WorkloadStatusName(wl), "Preempted");
  wl.conditions.push_back(Cond("Finished", "True", "Succeeded", "", 0));
  EXPECT_STREQ(WorkloadStatusName(wl), "Finished");
  model::Workload inactive;
  inactive.active = false;
  EXPECT_STREQ(WorkloadStatusName(inactive), "Inadmissible");
}

TEST(WorkloadTableTest, RendersWorkloadsSection) {
  model::Snapshot planned;
  model::Workload admitted;
  admitted.meta.name = "job-train";
  admitted.meta.namespace_ = "ml";
  admitted.queue_name = "lq";
  admitted.admission = SampleAdmission();
  admitted.conditions = {Cond("Admitted", "True", "Admitted", "The workload is admitted", 0)};
  model::Workload pending;
  pending.meta.name = "job-wait";
  pending.meta.namespace_ = "ml";
  pending.queue_name = "lq";
  pending.conditions = {Cond("QuotaReserved", "False", "Pending", "insufficient quota", 0)};
  planned.kueue_workloads = {admitted, pending};
  std::ostringstream out;
  WritePlanTable(planned, {}, {}, {0, 1}, out);
  EXPECT_EQ(out.str(),
            "WORKLOADS\n"
            "NAMESPACE   NAME        QUEUE   CLUSTERQUEUE   STATUS     FLAVORS"
            "                                        MESSAGE\n"
            "ml          job-train   lq      cq             Admitted   main: cpu,memory=default "
            "nvidia.com/gpu=h100   The workload is admitted\n"
            "ml          job-wait    lq      <none>         Pending    <none>"
            "                                         insufficient quota\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
