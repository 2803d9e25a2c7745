// RuntimeClass admission (io/internal/runtime_class_admission.h) and the fields it reads:
// upstream's plugin/pkg/admission/runtimeclass/admission_test.go cases ported (TestSetOverhead,
// TestSetScheduling, TestAdmit, TestValidate), each named as upstream names it; then the
// reader applying it to given pods and workloads' templates, and container ports decoded
// with the API server's validation (bad input names file, object and field).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "io/internal/runtime_class_admission.h"
#include "io/reader.h"
#include "io/test_util.h"
#include "model/resources.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using testing::FindPod;
using testing::ReadString;

model::ResourceVector Amounts(model::ResourceCatalog& catalog, int64_t cpu_milli,
                              int64_t memory) {
  model::ResourceVector v;
  v.Set(catalog.Intern("cpu"), cpu_milli);
  v.Set(catalog.Intern("memory"), memory);
  return v;
}

model::RuntimeClass Class(const std::string& name) {
  model::RuntimeClass rc;
  rc.meta.name = name;
  rc.handler = "bar";
  return rc;
}

model::Pod PodNaming(const std::string& class_name) {
  model::Pod pod;
  pod.meta.name = "p";
  pod.runtime_class_name = class_name;
  return pod;
}

core::Toleration Equal(const std::string& key, const std::string& value) {
  core::Toleration t;
  t.key = key;
  t.value = value;
  t.effect = core::TaintEffect::kNoSchedule;
  return t;
}

// TestSetOverhead: the class's overhead (100m cpu, 1 byte memory, or 10 cpu / 10G in the
// differing case) against a pod that has none or already has 100m / 1.
TEST(RuntimeClassAdmissionTest, UpstreamSetOverhead) {
  model::ResourceCatalog catalog;
  const model::ResourceVector small = Amounts(catalog, 100, 1);
  const model::ResourceVector big = Amounts(catalog, 10000, 10000000000);
  struct Case {
    const char* name;
    model::ResourceVector class_overhead;
    bool pod_has_overhead;
    bool expect_error;
  };
  const std::vector<Case> cases = {
      {"overhead, no container requirements", small, false, false},
      {"overhead, guaranteed pod", small, false, false},
      {"overhead, pod with differing overhead already set", big, true, true},
      {"overhead, pod with same overhead already set", small, true, false},
  };
  for (const Case& c : cases) {
    std::vector<model::RuntimeClass> classes = {Class("foo")};
    classes[0].overhead = c.class_overhead;
    internal::RuntimeClassAdmission admission(classes);
    model::Pod pod = PodNaming("foo");
    if (c.pod_has_overhead) {
      pod.overhead = small;
      pod.overhead_given = true;
    }
    core::Status status = admission.Admit(&pod);
    EXPECT_EQ(!status.ok(), c.expect_error) << c.name;
    if (c.expect_error) {
      EXPECT_EQ(status.error().message(),
                "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      EXPECT_EQ(status.error().location().field, "spec.overhead");
      EXPECT_EQ(pod.overhead, small) << "left as it was";
    } else {
      EXPECT_EQ(pod.overhead, c.class_overhead) << c.name;
      EXPECT_TRUE(pod.overhead_given) << c.name;
    }
  }
}

// TestSetScheduling.
TEST(RuntimeClassAdmissionTest, UpstreamSetScheduling) {
  struct Case {
    const char* name;
    std::optional<core::Labels> class_selector;  // nullopt: nil scheduling
    std::vector<core::Toleration> class_tolerations;
    core::Labels pod_selector;
    std::vector<core::Toleration> pod_tolerations;
    bool expect_error;
    core::Labels want_selector;
    std::vector<core::Toleration> want_tolerations;
  };
  const std::vector<Case> cases = {
      {"scheduling, nil scheduling", std::nullopt, {}, {{"foo", "bar"}}, {}, false,
       {{"foo", "bar"}}, {}},
      {"scheduling, conflict node selector", core::Labels{{"foo", "conflict"}}, {},
       {{"foo", "bar"}}, {}, true, {}, {}},
      {"scheduling, nil node selector", core::Labels{{"foo", "bar"}}, {}, {}, {}, false,
       {{"foo", "bar"}}, {}},
      {"scheduling, node selector with the same key value", core::Labels{{"foo", "bar"}}, {},
       {{"foo", "bar"}}, {}, false, {{"foo", "bar"}}, {}},
      {"scheduling, node selector with different key value",
       core::Labels{{"foo", "bar"}, {"fizz", "buzz"}}, {}, {{"foo", "bar"}}, {}, false,
       {{"foo", "bar"}, {"fizz", "buzz"}}, {}},
      {"scheduling, multiple tolerations", core::Labels{},
       {Equal("foo", "bar"), Equal("fizz", "buzz")}, {{"foo", "bar"}}, {Equal("foo", "bar")},
       false, {{"foo", "bar"}}, {Equal("foo", "bar"), Equal("fizz", "buzz")}},
  };
  for (const Case& c : cases) {
    std::vector<model::RuntimeClass> classes = {Class("foo")};
    if (c.class_selector.has_value()) classes[0].node_selector = *c.class_selector;
    classes[0].tolerations = c.class_tolerations;
    internal::RuntimeClassAdmission admission(classes);
    model::Pod pod = PodNaming("foo");
    pod.node_selector = c.pod_selector;
    pod.tolerations = c.pod_tolerations;
    core::Status status = admission.Admit(&pod);
    EXPECT_EQ(!status.ok(), c.expect_error) << c.name;
    if (c.expect_error) {
      EXPECT_EQ(status.error().message(),
                "conflict: runtimeClass.scheduling.nodeSelector[foo] = conflict; "
                "pod.spec.nodeSelector[foo] = bar");
      EXPECT_EQ(status.error().location().field, "spec.nodeSelector");
      continue;
    }
    EXPECT_EQ(pod.node_selector, c.want_selector) << c.name;
    EXPECT_EQ(pod.tolerations, c.want_tolerations) << c.name;
  }
}

// TestAdmit: found, and "runtimeClass not found by lister nor client".
TEST(RuntimeClassAdmissionTest, UpstreamAdmit) {
  std::vector<model::RuntimeClass> classes = {Class("runtimeClassName")};
  internal::RuntimeClassAdmission admission(classes);
  model::Pod found = PodNaming("runtimeClassName");
  EXPECT_TRUE(admission.Admit(&found).ok());
  model::Pod missing = PodNaming("other");
  core::Status status = admission.Admit(&missing);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(status.error().message(), "pod rejected: RuntimeClass \"other\" not found");
  EXPECT_EQ(status.error().location().field, "spec.runtimeClassName");
  // A class of another cluster is not this pod's.
  missing.runtime_class_name = "runtimeClassName";
  missing.cluster = "eu-1";
  EXPECT_TRUE(admission.Admit(&missing).ok()) << "eu-1 has no classes: nothing to check";
  std::vector<model::RuntimeClass> both = {Class("runtimeClassName"), Class("x")};
  both[1].cluster = "eu-1";
  internal::RuntimeClassAdmission per_cluster(both);
  EXPECT_FALSE(per_cluster.Admit(&missing).ok());
}

// TestValidate "Non-matching Overheads" and "Matching Overheads".
TEST(RuntimeClassAdmissionTest, UpstreamValidate) {
  model::ResourceCatalog catalog;
  std::vector<model::RuntimeClass> classes = {Class("foo")};
  classes[0].overhead = Amounts(catalog, 10000, 10000000000);
  internal::RuntimeClassAdmission admission(classes);
  model::Pod differing = PodNaming("foo");
  differing.overhead = Amounts(catalog, 100, 1);
  differing.overhead_given = true;
  EXPECT_FALSE(admission.Admit(&differing).ok());
  model::Pod matching = PodNaming("foo");
  EXPECT_TRUE(admission.Admit(&matching).ok());
  EXPECT_EQ(matching.overhead, *classes[0].overhead);
}

// tolerations.MergeTolerations: a toleration another covers is dropped.
TEST(RuntimeClassAdmissionTest, MergeTolerationsDropsCoveredOnes) {
  core::Toleration exists_all;
  exists_all.op = core::TolerationOp::kExists;
  EXPECT_EQ(internal::MergeTolerations({Equal("a", "1")}, {exists_all}),
            (std::vector<core::Toleration>{exists_all}));
  core::Toleration any_effect = Equal("a", "1");
  any_effect.effect.reset();
  EXPECT_EQ(internal::MergeTolerations({Equal("a", "1"), Equal("b", "2")}, {any_effect}),
            (std::vector<core::Toleration>{Equal("b", "2"), any_effect}));
}

const char* const kClasses = R"(apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m, memory: 120Mi}}
scheduling:
  nodeSelector: {runtime: kata}
  tolerations: [{key: kata, operator: Exists, effect: NoSchedule}]
---
)";

TEST(RuntimeClassReaderTest, GivenPodAndTemplateAreAdmitted) {
  core::Diagnostics diags;
  Input in = ReadString(std::string(kClasses) + R"(apiVersion: v1
kind: Pod
metadata: {name: given, namespace: ns}
spec:
  runtimeClassName: kata
  nodeSelector: {zone: a}
  containers: [{name: c, image: i}]
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: ns}
spec:
  nodeName: n1
  runtimeClassName: kata
  containers: [{name: c, image: i}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  template:
    spec:
      restartPolicy: Never
      runtimeClassName: kata
      containers: [{name: c, image: i}]
)",
                        diags);
  EXPECT_EQ(diags.entries().size(), 0u) << Dump(diags);
  const model::ResourceCatalog& catalog = in.snapshot.resources;
  model::ResourceId cpu;
  model::ResourceId memory;
  ASSERT_TRUE(catalog.Find("cpu", &cpu));
  ASSERT_TRUE(catalog.Find("memory", &memory));
  const model::Pod* given = FindPod(in.snapshot, "ns", "given");
  ASSERT_NE(given, nullptr);
  EXPECT_EQ(given->overhead.Get(cpu), 250);
  EXPECT_EQ(given->overhead.Get(memory), 120 * 1024 * 1024);
  EXPECT_EQ(given->node_selector, (core::Labels{{"runtime", "kata"}, {"zone", "a"}}));
  ASSERT_EQ(given->tolerations.size(), 1u);
  EXPECT_EQ(given->tolerations[0].key, "kata");
  // A bound pod exists: it keeps what it has.
  const model::Pod* running = FindPod(in.snapshot, "ns", "running");
  ASSERT_NE(running, nullptr);
  EXPECT_TRUE(running->overhead.IsZero());
  EXPECT_TRUE(running->node_selector.empty());
  const model::Pod* job_pod = FindPod(in.snapshot, "ns", "j-0");
  ASSERT_NE(job_pod, nullptr);
  EXPECT_EQ(job_pod->overhead.Get(cpu), 250);
  EXPECT_EQ(job_pod->node_selector, (core::Labels{{"runtime", "kata"}}));
}

// Without any RuntimeClass in the input a name is not checked (a dump of pods alone).
TEST(RuntimeClassReaderTest, NoClassesGivenNothingChecked) {
  core::Diagnostics diags;
  Input in = ReadString(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  runtimeClassName: nvidia
  containers: [{name: c, image: i}]
)",
                        diags);
  EXPECT_EQ(diags.entries().size(), 0u) << Dump(diags);
  EXPECT_EQ(in.snapshot.pods.size(), 1u);
}

// Refusals: the pod (or the workload) is reported with file, object and field; the good
// Node beside it is read.
TEST(RuntimeClassReaderTest, RefusalsNameFileObjectAndField) {
  auto expect = [](const std::string& yaml, const std::string& object, const std::string& field,
                   const std::string& message) {
    SCOPED_TRACE(yaml);
    core::Diagnostics diags;
    Input in = ReadString(std::string(kClasses) + yaml + testing::kGoodNodeYaml, diags);
    ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
    const core::Error& e = diags.entries()[0].error;
    EXPECT_EQ(e.location().file, "test.yaml");
    EXPECT_EQ(e.location().object, object);
    EXPECT_EQ(e.location().field, field);
    EXPECT_EQ(e.message(), message);
    EXPECT_EQ(in.snapshot.nodes.size(), 1u);
    EXPECT_TRUE(in.snapshot.pods.empty());
  };
  const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n";
  expect(pod + "  runtimeClassName: gvisor\n  containers: [{name: c, image: i}]\n", "Pod/ns/p",
         "spec.runtimeClassName", "pod rejected: RuntimeClass \"gvisor\" not found");
  expect(pod + "  runtimeClassName: kata\n  overhead: {cpu: 100m}\n  containers: [{name: c, image: i}]\n",
         "Pod/ns/p", "spec.overhead",
         "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
  expect(pod + "  runtimeClassName: kata\n  nodeSelector: {runtime: runc}\n  containers: [{name: c, image: i}]\n",
         "Pod/ns/p", "spec.nodeSelector",
         "conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; "
         "pod.spec.nodeSelector[runtime] = runc");
  expect(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  template:
    spec:
      restartPolicy: Never
      runtimeClassName: gvisor
      containers: [{name: c, image: i}]
)",
         "Job/ns/j", "spec.template.spec.runtimeClassName",
         "pod rejected: RuntimeClass \"gvisor\" not found");
}

TEST(RuntimeClassReaderTest, RuntimeClassOverheadAndTolerationsDecoded) {
  core::Diagnostics diags;
  Input in = ReadString(kClasses, diags);
  EXPECT_EQ(diags.entries().size(), 0u) << Dump(diags);
  ASSERT_EQ(in.snapshot.runtime_classes.size(), 1u);
  const model::RuntimeClass& rc = in.snapshot.runtime_classes[0];
  ASSERT_TRUE(rc.overhead.has_value());
  model::ResourceId cpu;
  ASSERT_TRUE(in.snapshot.resources.Find("cpu", &cpu));
  EXPECT_EQ(rc.overhead->Get(cpu), 250);
  ASSERT_EQ(rc.tolerations.size(), 1u);
  EXPECT_EQ(rc.tolerations[0].op, core::TolerationOp::kExists);
}

TEST(RuntimeClassReaderTest, RuntimeClassBadOverhead) {
  const std::string head =
      "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: r}\nhandler: r\n";
  core::Diagnostics diags =
      testing::ExpectOneErrorBesideGoodNode(head + "overhead: {podFixed: {cpu: -1}}\n",
                                            "overhead.podFixed.cpu");
  ASSERT_TRUE(diags.has_errors());
  EXPECT_EQ(diags.entries()[0].error.message(),
            R"(invalid value "-1": must be greater than or equal to 0)");
  testing::ExpectOneErrorBesideGoodNode(head + "overhead: {podFixed: [1]}\n", "overhead.podFixed");
}

TEST(ContainerPortsTest, HostPortsKeptWithDefaults) {
  core::Diagnostics diags;
  Input in = ReadString(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: c
    image: i
    ports:
    - {containerPort: 80}
    - {containerPort: 8080, hostPort: 18080}
    - {name: dns, containerPort: 53, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}
---
apiVersion: v1
kind: Pod
metadata: {name: hostnet, namespace: ns}
spec:
  hostNetwork: true
  containers:
  - name: c
    image: i
    ports: [{containerPort: 9100}]
)",
                        diags);
  EXPECT_EQ(diags.entries().size(), 0u) << Dump(diags);
  const model::Pod* p = FindPod(in.snapshot, "ns", "p");
  ASSERT_NE(p, nullptr);
  model::HostPort tcp;
  tcp.container_port = 8080;
  tcp.host_port = 18080;
  model::HostPort udp;
  udp.container_port = 53;
  udp.host_port = 53;
  udp.protocol = "UDP";
  udp.host_ip = "10.0.0.1";
  EXPECT_EQ(p->containers[0].host_ports, (std::vector<model::HostPort>{tcp, udp}));
  // hostNetwork: every container port is a host port (SetDefaults_PodSpec).
  const model::Pod* hostnet = FindPod(in.snapshot, "ns", "hostnet");
  ASSERT_NE(hostnet, nullptr);
  ASSERT_EQ(hostnet->containers[0].host_ports.size(), 1u);
  EXPECT_EQ(hostnet->containers[0].host_ports[0].host_port, 9100);
}

TEST(ContainerPortsTest, BadPortsNameTheirField) {
  const std::string head =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n  containers:\n"
      "  - name: c\n    image: i\n    ports:\n";
  auto expect = [&](const std::string& port, const std::string& field, const std::string& message) {
    core::Diagnostics diags = testing::ExpectOneErrorBesideGoodNode(head + "    - " + port + "\n",
                                                                    field);
    if (diags.has_errors()) {
      EXPECT_EQ(diags.entries()[0].error.message(), message) << port;
    }
  };
  expect("{containerPort: 80, protocol: HTTP}", "spec.containers[0].ports[0].protocol",
         R"(unsupported value "HTTP": supported values: "SCTP", "TCP", "UDP")");
  expect("{hostPort: 80}", "spec.containers[0].ports[0].containerPort", "Required value");
  expect("{containerPort: 70000}", "spec.containers[0].ports[0].containerPort",
         R"(Invalid value: "70000": must be between 1 and 65535, inclusive)");
  expect("{containerPort: 80, hostPort: -1}", "spec.containers[0].ports[0].hostPort",
         R"(Invalid value: "-1": must be between 1 and 65535, inclusive)");
  expect("{containerPort: 80, hostPort: \"80\"}", "spec.containers[0].ports[0].hostPort",
         "must be a 32-bit integer");
  expect("{containerPort: 80, hostIP: 1}", "spec.containers[0].ports[0].hostIP",
         "must be a string");
  expect("80", "spec.containers[0].ports[0]", "must be an object");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
