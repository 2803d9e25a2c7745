// Fluid's kinds (data.fluid.io/v1alpha1): a Dataset with its mount points parsed and its
// cache status read from Fluid's human strings, its runtime's tiered store, a DataLoad; a
// Dataset no runtime serves is an error naming it; bad specs name their field.
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::ReadString;

constexpr const char* kDataset = R"(
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: imagenet, namespace: ml}
spec:
  mounts:
  - mountPoint: s3://datasets/imagenet
  - mountPoint: local:///mnt/extra
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: nvidia.com/gpu.present, operator: In, values: ["true"]}
status:
  phase: Bound
  ufsTotal: 140.00GiB
  cacheStates: {cacheCapacity: 200.00GiB, cached: 70.00GiB, cachedPercentage: 50.0%}
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: imagenet, namespace: ml}
spec:
  replicas: 3
  tieredstore:
    levels:
    - {mediumtype: MEM, path: /dev/shm, quota: 2Gi}
    - {mediumtype: SSD, path: "/mnt/a,/mnt/b", quotaList: "100Gi,50Gi", high: "0.95", low: "0.7"}
status:
  workerNumberReady: 2
  cacheStates: {cached: "[Calculating]", cachedPercentage: 50.0%}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warmup, namespace: ml}
spec:
  dataset: {name: imagenet}
  target:
  - {path: /train}
status: {phase: Complete}
)";

TEST(FluidReaderTest, DatasetRuntimeAndDataLoad) {
  core::Diagnostics diags;
  Input in = ReadString(kDataset, diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  const model::Snapshot& snap = in.snapshot;
  ASSERT_EQ(snap.datasets.size(), 1u);
  const model::Dataset& d = snap.datasets[0];
  ASSERT_EQ(d.mounts.size(), 2u);
  EXPECT_EQ(d.mounts[0].scheme, "s3");
  EXPECT_EQ(d.mounts[0].location, "datasets");
  EXPECT_EQ(d.mounts[1].path, "/mnt/extra");
  EXPECT_TRUE(d.node_affinity.has_value());
  EXPECT_EQ(d.phase, "Bound");
  EXPECT_EQ(d.ufs_total_bytes, 140LL << 30);
  EXPECT_EQ(d.cache.cached_bytes, 70LL << 30);
  EXPECT_EQ(d.cache.capacity_bytes, 200LL << 30);
  EXPECT_EQ(d.cache.cached_percentage, 50.0);

  ASSERT_EQ(snap.data_runtimes.size(), 1u);
  const model::DataRuntime& rt = snap.data_runtimes[0];
  EXPECT_EQ(rt.kind, "AlluxioRuntime");
  EXPECT_EQ(rt.replicas, 3);
  ASSERT_EQ(rt.levels.size(), 2u);
  EXPECT_EQ(rt.levels[0].medium, "MEM");
  EXPECT_EQ(rt.levels[0].quota_bytes, 2LL << 30);
  EXPECT_EQ(rt.levels[1].quota_bytes, 150LL << 30);
  EXPECT_DOUBLE_EQ(rt.levels[1].high, 0.95);
  EXPECT_DOUBLE_EQ(rt.levels[1].low, 0.7);
  EXPECT_EQ(rt.workers_ready, 2);
  EXPECT_FALSE(rt.cache.cached_bytes.has_value()) << "[Calculating] says nothing yet";
  EXPECT_EQ(rt.cache.cached_percentage, 50.0);

  ASSERT_EQ(snap.data_loads.size(), 1u);
  EXPECT_EQ(snap.data_loads[0].dataset_namespace, "ml");
  EXPECT_EQ(snap.data_loads[0].dataset_name, "imagenet");
  EXPECT_EQ(snap.data_loads[0].paths, std::vector<std::string>{"/train"});
  EXPECT_EQ(snap.data_loads[0].policy, "Once");
}

TEST(FluidReaderTest, DatasetWithoutRuntimeIsAnErrorAndTheRestIsRead) {
  core::Diagnostics diags;
  Input in = ReadString(std::string(R"(
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: orphan, namespace: ml}
spec:
  mounts: [{mountPoint: "s3://b/p"}]
)") + testing::kGoodNodeYaml,
                                 diags);
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().object, "Dataset/ml/orphan");
  EXPECT_EQ(e.location().field, "metadata.name");
  EXPECT_EQ(e.location().file, "test.yaml");
  EXPECT_NE(e.message().find("no AlluxioRuntime, JuiceFSRuntime or JindoRuntime named"),
            std::string::npos);
  EXPECT_TRUE(in.snapshot.datasets.empty());
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
}

TEST(FluidReaderTest, BadSpecsNameTheField) {
  struct Case {
    std::string name;
    std::string yaml;
    const char* field;
  };
  const std::string ds = "apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {name: d}\n";
  const std::string rt =
      "apiVersion: data.fluid.io/v1alpha1\nkind: JuiceFSRuntime\nmetadata: {name: d}\n";
  const std::string dl = "apiVersion: data.fluid.io/v1alpha1\nkind: DataLoad\nmetadata: {name: l}\n";
  const Case cases[] = {
      {"dataset without spec", ds, "spec"},
      {"mount point not a URI", ds + "spec: {mounts: [{mountPoint: imagenet}]}\n",
       "spec.mounts[0].mountPoint"},
      {"mount point of an unknown scheme", ds + "spec: {mounts: [{mountPoint: 'ftp://h/p'}]}\n",
       "spec.mounts[0].mountPoint"},
      {"mounts not a list", ds + "spec: {mounts: 3}\n", "spec.mounts"},
      {"bad node affinity",
       ds + "spec: {nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: k, "
            "operator: Near}]}]}}}\n",
       "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator"},
      {"negative replicas", rt + "spec: {replicas: -1}\n", "spec.replicas"},
      {"unknown medium",
       rt + "spec: {tieredstore: {levels: [{mediumtype: TAPE, quota: 1Gi}]}}\n",
       "spec.tieredstore.levels[0].mediumtype"},
      {"quota not a quantity",
       rt + "spec: {tieredstore: {levels: [{mediumtype: SSD, quota: lots}]}}\n",
       "spec.tieredstore.levels[0].quota"},
      {"quota beyond int64 bytes",
       rt + "spec: {tieredstore: {levels: [{mediumtype: SSD, quota: 1e30}]}}\n",
       "spec.tieredstore.levels[0].quota"},
      {"null levels entry", rt + "spec: {tieredstore: {levels: [null]}}\n",
       "spec.tieredstore.levels[0]"},
      {"no quota", rt + "spec: {tieredstore: {levels: [{mediumtype: SSD}]}}\n",
       "spec.tieredstore.levels[0].quota"},
      {"bad quota list",
       rt + "spec: {tieredstore: {levels: [{mediumtype: SSD, quotaList: '1Gi,,x'}]}}\n",
       "spec.tieredstore.levels[0].quotaList"},
      {"watermark above 1",
       rt + "spec: {tieredstore: {levels: [{mediumtype: SSD, quota: 1Gi, high: '1.5'}]}}\n",
       "spec.tieredstore.levels[0].high"},
      {"low above high",
       rt + "spec: {tieredstore: {levels: [{mediumtype: SSD, quota: 1Gi, high: '0.5', low: "
            "'0.9'}]}}\n",
       "spec.tieredstore.levels[0].low"},
      {"dataload without dataset", dl + "spec: {}\n", "spec.dataset"},
      {"dataload dataset without name", dl + "spec: {dataset: {namespace: x}}\n",
       "spec.dataset.name"},
      {"dataload unknown policy", dl + "spec: {dataset: {name: d}, policy: Weekly}\n",
       "spec.policy"},
      {"dataload target without path", dl + "spec: {dataset: {name: d}, target: [{replicas: 1}]}\n",
       "spec.target[0].path"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
