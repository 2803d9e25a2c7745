#include "io/writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "io/internal/yaml_to_json.h"
#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using ::testing::HasSubstr;
using OrderedJson = nlohmann::ordered_json;
using testing::Dump;
using testing::FixturePath;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Write(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                  const DocumentStore& docs, OutputFormat format) {
  std::ostringstream out;
  WritePlanList(planned, decisions, docs, format, out);
  return out.str();
}

class WriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reader reader(diags_);
    ASSERT_TRUE(reader.ReadPath(FixturePath("roundtrip_pod.json")).ok());
    input_ = reader.Finish();
    ASSERT_FALSE(diags_.has_errors()) << Dump(diags_);
    ASSERT_EQ(input_.snapshot.pods.size(), 1u);
    original_ = OrderedJson::parse(Slurp(FixturePath("roundtrip_pod.json")));
  }

  core::Diagnostics diags_;
  Input input_;
  OrderedJson original_;
};

TEST_F(WriterTest, BoundPodKeepsEveryOtherFieldInOrder) {
  model::Snapshot planned = input_.snapshot;
  planned.pods[0].node_name = "node-7";
  planned.pods[0].conditions = {{"PodScheduled", "True", "", ""}};
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  std::string json = Write(planned, decisions, input_.documents, OutputFormat::kJson);

  OrderedJson list = OrderedJson::parse(json);
  EXPECT_EQ(list["apiVersion"], "v1");
  EXPECT_EQ(list["kind"], "List");
  ASSERT_EQ(list["items"].size(), 1u);

  OrderedJson expected = original_;
  expected["spec"]["nodeName"] = "node-7";
  OrderedJson& cond = expected["status"]["conditions"][0];
  cond["status"] = "True";
  cond.erase("reason");
  cond.erase("message");
  EXPECT_EQ(list["items"][0], expected);
  // Same keys in the same order, byte for byte (ordered_json compares order too, but the
  // dumps make a failure readable).
  EXPECT_EQ(list["items"][0].dump(2), expected.dump(2));
  EXPECT_THAT(json, HasSubstr("\n  \"items\": [\n    {\n      \"apiVersion\": \"v1\","));
}

TEST_F(WriterTest, PendingPodGetsUnschedulableCondition) {
  model::Snapshot planned = input_.snapshot;
  const std::string message = "0/3 nodes are available: 3 Insufficient cpu.";
  planned.pods[0].conditions = {{"Ready", "False", "", ""},
                                {"PodScheduled", "False", "Unschedulable", message}};
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  decisions[0].message = message;
  OrderedJson item = OrderedJson::parse(
      Write(planned, decisions, input_.documents, OutputFormat::kJson))["items"][0];
  EXPECT_FALSE(item["spec"].contains("nodeName"));
  const OrderedJson& conds = item["status"]["conditions"];
  ASSERT_EQ(conds.size(), 2u);  // replaced in place, Custom kept
  EXPECT_EQ(conds[0]["type"], "PodScheduled");
  EXPECT_EQ(conds[0]["status"], "False");
  EXPECT_EQ(conds[0]["reason"], "Unschedulable");
  EXPECT_EQ(conds[0]["message"], message);
  EXPECT_EQ(conds[0]["lastTransitionTime"], "2025-01-02T03:04:05Z");
  EXPECT_EQ(conds[1]["type"], "Custom");
}

TEST_F(WriterTest, ConditionFromDecisionWhenEngineWroteNone) {
  model::Snapshot planned = input_.snapshot;
  planned.pods[0].conditions.clear();
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  decisions[0].message = "0/1 nodes are available: 1 node(s) were unschedulable.";
  OrderedJson item = OrderedJson::parse(
      Write(planned, decisions, input_.documents, OutputFormat::kJson))["items"][0];
  EXPECT_EQ(item["status"]["conditions"][0]["message"], decisions[0].message);
}

TEST_F(WriterTest, YamlReadsBackAsTheJsonOutput) {
  model::Snapshot planned = input_.snapshot;
  planned.pods[0].node_name = "node-7";
  planned.pods[0].conditions = {{"PodScheduled", "True", "", ""}};
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  std::string json = Write(planned, decisions, input_.documents, OutputFormat::kJson);
  std::string yaml = Write(planned, decisions, input_.documents, OutputFormat::kYaml);
  EXPECT_THAT(yaml,
              HasSubstr("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n"));
  EXPECT_THAT(yaml, HasSubstr("      zz.example.com/first: \"true\"\n"));
  EXPECT_THAT(yaml, HasSubstr("    creationTimestamp: \"2025-01-02T03:04:05Z\"\n"));
  EXPECT_THAT(yaml, HasSubstr("      version: \"1.10\"\n"));
  EXPECT_THAT(yaml, HasSubstr("    resourceVersion: \"12345\"\n"));
  EXPECT_THAT(yaml, HasSubstr("      kubectl.kubernetes.io/last-applied-configuration: |\n"));
  EXPECT_THAT(yaml, HasSubstr("    nodeName: node-7\n"));
  std::vector<std::string> docs;
  ASSERT_TRUE(
      internal::ConvertYamlStream(yaml, [&](std::string&& j, int) { docs.push_back(j); }).ok());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(OrderedJson::parse(docs[0]), OrderedJson::parse(json)) << yaml;
}

TEST_F(WriterTest, SameInputSameBytes) {
  model::Snapshot planned = input_.snapshot;
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  for (OutputFormat f : {OutputFormat::kJson, OutputFormat::kYaml, OutputFormat::kTable}) {
    EXPECT_EQ(Write(planned, decisions, input_.documents, f),
              Write(planned, decisions, input_.documents, f));
  }
}

TEST_F(WriterTest, SkippedPodIsLeftAsRead) {
  model::Snapshot planned = input_.snapshot;
  planned.pods[0].conditions.clear();
  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  decisions[0].skipped = true;
  OrderedJson item = OrderedJson::parse(
      Write(planned, decisions, input_.documents, OutputFormat::kJson))["items"][0];
  EXPECT_EQ(item, original_);
}

TEST(WriterListTest, ExpandedAndSourcelessPodsInDecisionOrder) {
  core::Diagnostics diags;
  Input in = testing::ReadString(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  parallelism: 2
  template:
    metadata: {labels: {app: j}}
    spec: {containers: [{name: c, image: busybox}]}
)",
                                 diags);
  ASSERT_EQ(in.snapshot.pods.size(), 2u) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  model::Node node;
  node.meta.name = "n1";
  planned.nodes.push_back(node);
  model::Pod bare;  // made by a later stage: no document
  bare.meta.name = "bare";
  bare.meta.namespace_ = "ns";
  planned.pods.push_back(bare);
  std::vector<model::PodDecision> decisions(3);
  decisions[0].pod = model::PodIndex{1};
  decisions[0].node = model::NodeIndex{0};  // bound through the decision only
  decisions[1].pod = model::PodIndex{0};
  decisions[1].message = "0/1 nodes are available: 1 Insufficient cpu.";
  decisions[2].pod = model::PodIndex{2};
  decisions[2].message = "no nodes";
  OrderedJson list =
      OrderedJson::parse(Write(planned, decisions, in.documents, OutputFormat::kJson));
  ASSERT_EQ(list["items"].size(), 3u);
  EXPECT_EQ(list["items"][0]["metadata"]["name"], "j-1");
  EXPECT_EQ(list["items"][0]["spec"]["nodeName"], "n1");
  EXPECT_EQ(list["items"][0]["spec"]["containers"][0]["image"], "busybox");
  EXPECT_EQ(list["items"][1]["metadata"]["name"], "j-0");
  EXPECT_EQ(list["items"][1]["status"]["conditions"][0]["reason"], "Unschedulable");
  EXPECT_EQ(list["items"][2]["kind"], "Pod");
  EXPECT_EQ(list["items"][2]["metadata"]["name"], "bare");

  std::string table = Write(planned, decisions, in.documents, OutputFormat::kTable);
  EXPECT_EQ(table,
            "PODS\n"
            "NAMESPACE   NAME   NODE     STATUS    REASON\n"
            "ns          j-1    n1       Bound\n"
            "ns          j-0    <none>   Pending   0/1 nodes are available: 1 Insufficient cpu.\n"
            "ns          bare   <none>   Pending   no nodes\n");
}

// Claims allocated in the plan come after the pods, their allocation and consumers patched
// into the document as read; a claim allocated before keeps its allocation as read.
TEST(ClaimWriterTest, PatchesAllocationAndReservedForAfterThePods) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("dra.yaml")).ok());
  Input in = reader.Finish();
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  model::Snapshot planned = in.snapshot;
  ASSERT_EQ(planned.resource_claims.size(), 2u);
  planned.pods[0].meta.uid = "pod-uid-1";
  // claims[1] is trainer-0-gpu, generated from the template.
  model::ResourceClaim& generated = planned.resource_claims[1];
  ASSERT_EQ(generated.meta.name, "trainer-0-gpu");
  model::AllocationResult a;
  model::DeviceRequestAllocationResult r;
  r.request = "gpu";
  r.driver = "gpu.nvidia.com";
  r.pool = "node-a";
  r.device = "gpu-0";
  r.consumed_capacity["memory"] = core::Quantity::Parse("10Gi").value();
  r.share_id = "share-1";
  core::Toleration t;
  t.key = "example.com/unhealthy";
  t.op = core::TolerationOp::kExists;
  r.tolerations.push_back(t);
  a.results.push_back(r);
  model::DeviceAllocationConfiguration c;
  c.source = model::AllocationConfigSource::kFromClass;
  c.opaque.driver = "gpu.nvidia.com";
  c.opaque.parameters_json = R"({"k":"v"})";
  a.config.push_back(c);
  core::NodeSelectorTerm term;
  term.match_fields.push_back({"metadata.name", core::SelectorOp::kIn, {"node-a"}});
  a.node_selector = core::NodeSelector{{term}};
  generated.allocation = a;
  generated.reserved_for.push_back("trainer-0");
  // claims[0] ("big") was allocated before; the plan adds a consumer only.
  planned.resource_claims[0].reserved_for.push_back("trainer-0");  // already listed
  planned.resource_claims[0].reserved_for.push_back("trainer-1");
  planned.resource_claims[0].allocation->results.clear();  // must not be written

  std::vector<model::PodDecision> decisions(1);
  decisions[0].pod = model::PodIndex{0};
  decisions[0].node = model::NodeIndex{0};
  model::Node node;
  node.meta.name = "node-a";
  planned.nodes.push_back(node);
  std::ostringstream out;
  WritePlanList(planned, decisions, {1, 0}, in.documents, OutputFormat::kJson, out);
  OrderedJson list = OrderedJson::parse(out.str());
  ASSERT_EQ(list["items"].size(), 3u);
  EXPECT_EQ(list["items"][0]["kind"], "Pod");

  const OrderedJson& claim = list["items"][1];
  EXPECT_EQ(claim["kind"], "ResourceClaim");
  EXPECT_EQ(claim["metadata"]["name"], "trainer-0-gpu");
  OrderedJson expected_status = OrderedJson::parse(R"({
    "allocation": {
      "devices": {
        "results": [{"request": "gpu", "driver": "gpu.nvidia.com", "pool": "node-a",
                     "device": "gpu-0",
                     "tolerations": [{"key": "example.com/unhealthy", "operator": "Exists"}],
                     "shareID": "share-1", "consumedCapacity": {"memory": "10Gi"}}],
        "config": [{"source": "FromClass",
                    "opaque": {"driver": "gpu.nvidia.com", "parameters": {"k": "v"}}}]
      },
      "nodeSelector": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-a"]}]}]}
    },
    "reservedFor": [{"resource": "pods", "name": "trainer-0", "uid": "pod-uid-1"}]
  })");
  EXPECT_EQ(claim["status"].dump(2), expected_status.dump(2));

  const OrderedJson& big = list["items"][2];
  EXPECT_EQ(big["metadata"]["name"], "big");
  // As read: the first result and the non-pod consumer stay.
  EXPECT_EQ(big["status"]["allocation"]["devices"]["results"][0]["device"], "gpu-0");
  ASSERT_EQ(big["status"]["reservedFor"].size(), 3u);
  EXPECT_EQ(big["status"]["reservedFor"][1]["resource"], "things");
  EXPECT_EQ(big["status"]["reservedFor"][2],
            OrderedJson::parse(R"({"resource": "pods", "name": "trainer-1"})"));

  std::ostringstream table;
  WritePlanList(planned, decisions, {1}, in.documents, OutputFormat::kTable, table);
  EXPECT_EQ(table.str(),
            "PODS\n"
            "NAMESPACE   NAME        NODE     STATUS   REASON\n"
            "ml          trainer-0   node-a   Bound\n"
            "\n"
            "RESOURCE CLAIMS\n"
            "NAMESPACE   CLAIM           RESERVED FOR   REQUEST   DEVICE\n"
            "ml          trainer-0-gpu   trainer-0      gpu       gpu.nvidia.com/node-a/gpu-0\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
