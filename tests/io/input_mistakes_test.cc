// Input mistakes are errors or warnings, never silent (issue 13): duplicate YAML mapping
// keys, the same object read twice, and component configurations a strict decoder or the
// scheduler framework would refuse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "io/internal/yaml_to_json.h"
#include "io/reader.h"
#include "io/test_util.h"
#include "model/berth_names.h"
#include "model/object_meta.h"
#include "model/work.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::HasSubstr;
using testing::ReadString;

TEST(DuplicateKeyTest, IsAnErrorWordedAsKubectlReportsIt) {
  std::vector<std::string> docs;
  std::vector<std::string> errors;
  core::Status s = internal::ConvertYamlStream(
      "a: 1\nb:\n  c: 2\n  c: 3\na: 4\n---\nd: 5\n",
      [&](std::string&& json, int) { docs.push_back(json); },
      [&](core::Error e, int line) {
        EXPECT_EQ(line, 1);
        errors.push_back(e.message());
      });
  EXPECT_TRUE(s.ok());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "error converting YAML to JSON: yaml: unmarshal errors:\n"
            "  line 4: key \"c\" already set in map\n"
            "  line 5: key \"a\" already set in map");
  // The bad document is dropped, the next one still read.
  EXPECT_THAT(docs, ::testing::ElementsAre("{\"d\":5}"));
}

TEST(DuplicateKeyTest, SameKeyInSiblingMapsIsFine) {
  std::vector<std::string> docs;
  core::Status s =
      internal::ConvertYamlStream("items:\n- name: a\n  x: 1\n- name: b\n  x: 2\nname: top\n",
                                  [&](std::string&& json, int) { docs.push_back(json); });
  ASSERT_TRUE(s.ok()) << s.error().message();
  ASSERT_EQ(docs.size(), 1u);
}

TEST(DuplicateKeyTest, WithoutABadDocumentSinkTheStreamStops) {
  std::vector<std::string> docs;
  core::Status s = internal::ConvertYamlStream(
      "a: 1\na: 2\n---\nb: 1\n", [&](std::string&& json, int) { docs.push_back(json); });
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message(), HasSubstr("line 2: key \"a\" already set in map"));
  EXPECT_TRUE(docs.empty());
}

TEST(DuplicateKeyTest, ConcatenatedFilesWithoutSeparatorAreReported) {
  core::Diagnostics diags;
  Input in = ReadString(R"(apiVersion: v1
kind: Node
metadata: {name: a}
---
apiVersion: v1
kind: Node
metadata: {name: b}
apiVersion: v1
kind: Node
metadata: {name: c}
)",
                        diags, "cat.yaml");
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().file, "cat.yaml");
  EXPECT_THAT(diags.entries()[0].error.message(),
              HasSubstr("line 8: key \"apiVersion\" already set in map"));
  ASSERT_EQ(in.snapshot.nodes.size(), 1u);  // a; b and c were one broken document
}

constexpr const char* kNodeA = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n";

TEST(ReadTwiceTest, IdenticalCopyIsAWarningAndReadOnce) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(kNodeA, "x.yaml");
  reader.ReadText(kNodeA, "y.yaml");
  Input in = reader.Finish();
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(diags.entries().size(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "Node/a");
  EXPECT_THAT(diags.entries()[0].error.message(),
              HasSubstr("identical to the copy already read from x.yaml (document at line 1)"));
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
  EXPECT_EQ(in.objects_read, 1u);
}

TEST(ReadTwiceTest, IdenticalCopiesOfAFileAreOneWarning) {
  core::Diagnostics diags;
  Reader reader(diags);
  const std::string text =
      std::string(kNodeA) + "---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n";
  reader.ReadText(text, "x.yaml");
  reader.ReadText(text, "x.yaml");
  Input in = reader.Finish();
  ASSERT_EQ(diags.entries().size(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "read twice: 2 objects identical to their first copy in this file; each read once");
  EXPECT_EQ(in.snapshot.nodes.size(), 2u);
}

TEST(ReadTwiceTest, DifferingCopyIsAnErrorNamingBothPlaces) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(kNodeA, "x.yaml");
  reader.ReadText(R"({"kind":"List","apiVersion":"v1","items":[
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"a","labels":{"z":"1"}}}]})",
                  "y.json");
  Input in = reader.Finish();
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().file, "y.json");
  EXPECT_EQ(e.location().object, "Node/a");
  EXPECT_THAT(e.message(), HasSubstr("already read from x.yaml (document at line 1)"));
  EXPECT_THAT(e.message(), HasSubstr("y.json (item 1)"));
  ASSERT_EQ(in.snapshot.nodes.size(), 2u);
  EXPECT_TRUE(in.snapshot.nodes[0].meta.labels.empty());  // the first copy is kept
}

TEST(ReadTwiceTest, SameNameInOtherNamespaceClusterOrKindIsNoDuplicate) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: x}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: y}
---
apiVersion: v1
kind: Node
metadata: {name: a}
---
apiVersion: v1
kind: Node
metadata: {name: a, annotations: {berth.dev/cluster: other}}
)",
                  "x.yaml");
  io::ReadOptions in_c;
  in_c.cluster = "c";
  reader.ReadText(kNodeA, "c.yaml", in_c);
  Input in = reader.Finish();
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  for (const core::Diagnostic& d : diags.entries()) {
    EXPECT_THAT(d.error.message(), ::testing::Not(HasSubstr("identical"))) << Dump(diags);
  }
  EXPECT_EQ(in.snapshot.nodes.size(), 3u);
}

TEST(StrictSchedulerConfigTest, UnknownPluginIsAnErrorAsTheFrameworkWordsIt) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      enabled:
      - name: NodeResourcesFit
      - name: NoSuchPlugin
        weight: 1
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().object, "KubeSchedulerConfiguration");
  EXPECT_EQ(e.location().field, "profiles[0].plugins.score.enabled[1].name");
  EXPECT_EQ(e.message(), "ScorePlugin \"NoSuchPlugin\" does not exist");
  EXPECT_FALSE(in.snapshot.scheduler_config.has_value());
}

TEST(StrictSchedulerConfigTest, MultiPointNamesTheFirstPointNotDisabled) {
  core::Diagnostics diags;
  ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    preFilter:
      disabled: [{name: "*"}]
    multiPoint:
      enabled: [{name: Nope}]
)",
             diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(), "FilterPlugin \"Nope\" does not exist");
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "profiles[0].plugins.multiPoint.enabled[0].name");
}

TEST(StrictSchedulerConfigTest, DisabledUnknownAndBerthPluginsAreAccepted) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    filter:
      disabled: [{name: NotAPlugin}]
    score:
      enabled: [{name: berth.dev/GpuShareFGD, weight: 5}, {name: ImageLocality}]
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_TRUE(in.snapshot.scheduler_config.has_value());
}

TEST(StrictSchedulerConfigTest, UnknownFieldsAreOneStrictDecodingError) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 8
profile: []
profiles:
- schedulerName: a
  percentageOfNodes: 50
  plugins:
    scroe: {}
    filter:
      enabled: [{name: NodeName, wieght: 1}]
  pluginConfig:
  - name: NodeResourcesFit
    argz: {}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "strict decoding error: unknown field \"profile\", unknown field "
            "\"profiles[0].percentageOfNodes\", unknown field \"profiles[0].plugins.scroe\", "
            "unknown field \"profiles[0].plugins.filter.enabled[0].wieght\", unknown field "
            "\"profiles[0].pluginConfig[0].argz\"");
  EXPECT_FALSE(in.snapshot.scheduler_config.has_value());
}

TEST(StrictKueueConfigTest, UnknownFieldIsAnError) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespaces: [kueue-system]
integrations: {frameworks: [batch/job]}
waitForPodsReady:
  timeout: 5m
  enable: true
  requeuingStrategy: {timestamp: Eviction, backoffLimit: 3}
fairSharing: {preemptionStrategies: [LessThanInitialShare]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "strict decoding error: unknown field \"namespaces\", unknown field "
            "\"waitForPodsReady.enable\", unknown field "
            "\"waitForPodsReady.requeuingStrategy.backoffLimit\"");
  EXPECT_FALSE(in.snapshot.kueue_config.has_value());
}

TEST(StrictKueueConfigTest, V1beta1KeepsItsEnableFields) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
queueVisibility: {}
waitForPodsReady: {enable: true, timeout: 5m}
fairSharing: {enable: true}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_TRUE(in.snapshot.kueue_config.has_value());
}

TEST(StrictSchedulerConfigTest, PluginAtAPointItDoesNotImplementIsAnError) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    filter:
      enabled: [{name: NodeResourcesFit}]
    score:
      enabled: [{name: ImageLocality}, {name: NodeUnschedulable}]
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "plugin \"NodeUnschedulable\" does not extend ScorePlugin plugin");
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "profiles[0].plugins.score.enabled[1].name");
  EXPECT_FALSE(in.snapshot.scheduler_config.has_value());
}

TEST(StrictSchedulerConfigTest, MultiPointPlacesPluginsOnlyWhereTheyExtend) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    multiPoint:
      enabled: [{name: ImageLocality}, {name: NodeUnschedulable}]
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  EXPECT_TRUE(in.snapshot.scheduler_config.has_value());
}

TEST(JsonDuplicateKeyTest, IsAnErrorWithTheLineAsForYaml) {
  core::Diagnostics diags;
  Input in = ReadString(
      "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n"
      "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}},\n"
      "{\"apiVersion\": \"v1\", \"kind\": \"Node\",\n"
      " \"metadata\": {\"name\": \"b\", \"labels\": {\"x\": \"1\"},\n"
      " \"labels\": {\"x\": \"2\"}}},\n"
      "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"c\"}, \"status\": "
      "{\"nodeInfo\": {\"k\\\"\": \"1\", \"k\": \"2\"}}}\n"
      "]}\n",
      diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "error converting YAML to JSON: yaml: unmarshal errors:\n"
            "  line 5: key \"labels\" already set in map");
  // The item with the duplicate is dropped; the others are read (a key with an escaped
  // quote is another key).
  std::vector<std::string> nodes;
  for (const model::Node& n : in.snapshot.nodes) nodes.push_back(n.meta.name);
  EXPECT_THAT(nodes, ::testing::ElementsAre("a", "c"));
}

TEST(JsonDuplicateKeyTest, DuplicateInASingleObjectDropsIt) {
  core::Diagnostics diags;
  Input in = ReadString(
      "{\"apiVersion\": \"v1\", \"kind\": \"Node\",\n \"kind\": \"Pod\", \"metadata\": "
      "{\"name\": \"a\"}}\n",
      diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("line 2: key \"kind\" already set"));
  EXPECT_TRUE(in.snapshot.nodes.empty());
}

TEST(JsonDuplicateKeyTest, ObjectsWithManyKeysAreCheckedToo) {
  // Past a few dozen keys an object's keys go into a hash set; the answer is the same.
  std::string labels;
  for (int i = 0; i < 100; ++i) labels += "\"k" + std::to_string(i) + "\": \"v\", ";
  core::Diagnostics diags;
  Input in = ReadString("{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": "
                        "\"a\", \"labels\": {" +
                            labels + "\n\"k7\": \"again\"}}}\n",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("line 2: key \"k7\" already set"));
  EXPECT_TRUE(in.snapshot.nodes.empty());
}

TEST(BerthNameTest, MisspelledKeyIsAWarningNamingTheClosestName) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Node
metadata:
  name: a
  labels: {berth.dev/cost-clas: spot, berth.dev/cost-class: spot, other.io/x: y}
  annotations: {berth.dev/gpu-sharing.fail-requests-greater-then-one: "true"}
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_EQ(diags.entries().size(), 2u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.message(),
            "unknown berth.dev/ name \"berth.dev/cost-clas\" is ignored; did you mean "
            "\"berth.dev/cost-class\"?");
  EXPECT_EQ(e.location().object, "Node/a");
  EXPECT_EQ(e.location().field, "metadata.labels[berth.dev/cost-clas]");
  EXPECT_THAT(diags.entries()[1].error.message(),
              HasSubstr("did you mean \"berth.dev/gpu-sharing.fail-requests-greater-than-one\""));
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
}

TEST(BerthNameTest, TheListHoldsTheKeysModelNames) {
  const auto has = [](std::string_view key) {
    return std::find(std::begin(model::kBerthNames), std::end(model::kBerthNames), key) !=
           std::end(model::kBerthNames);
  };
  EXPECT_TRUE(has(model::kClusterAnnotation));
  EXPECT_TRUE(has(model::kWorkloadLabel));
  EXPECT_TRUE(has(model::kWorkloadClusterLabel));
  for (std::string_view key : model::kBerthNames) {
    EXPECT_TRUE(key.starts_with(model::kBerthNamePrefix)) << key;
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
