// Prefetches: which of a workload's Fluid datasets get a DataLoad in the ManifestWork for a
// cluster, built from plain model structs (the io path is covered by the golden
// tests/e2e/fleet-prefetch-dataload).
#include "dispatch/prefetch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

model::Dataset MakeDataset(const std::string& name, const std::string& cluster,
                           std::optional<double> cached_percentage) {
  model::Dataset d;
  d.meta.name = name;
  d.meta.namespace_ = "ml";
  d.cluster = cluster;
  d.cache.cached_percentage = cached_percentage;
  return d;
}

model::DataRuntime MakeRuntime(const std::string& name, const std::string& cluster) {
  model::DataRuntime r;
  r.kind = "AlluxioRuntime";
  r.meta.name = name;
  r.meta.namespace_ = "ml";
  r.cluster = cluster;
  return r;
}

// A workload of namespace ml whose one pod set mounts `claims` (twice the first, to check
// that a dataset is prefetched once).
model::Workload MakeWorkload(const std::vector<std::string>& claims) {
  model::Workload wl;
  wl.meta.name = "job-train";
  wl.meta.namespace_ = "ml";
  model::KueuePodSet ps;
  ps.name = "main";
  for (const std::string& c : claims) ps.pod_template.volumes.push_back({c, "", c});
  if (!claims.empty()) ps.pod_template.volumes.push_back({"again", "", claims[0]});
  wl.pod_sets.push_back(ps);
  return wl;
}

std::vector<std::string> Names(const std::vector<model::DataLoad>& loads) {
  std::vector<std::string> out;
  for (const model::DataLoad& l : loads) out.push_back(l.meta.name + "->" + l.dataset_name);
  return out;
}

TEST(PrefetchTest, OnlyServedDatasetsNotFullyCachedInTheTargetCluster) {
  model::Snapshot s;
  s.datasets = {MakeDataset("corpus", "c1", 35.0), MakeDataset("eval", "c1", 100.0),
                MakeDataset("unknown-cache", "c1", std::nullopt),
                MakeDataset("no-runtime", "c1", 0.0), MakeDataset("elsewhere", "c2", 0.0)};
  s.data_runtimes = {MakeRuntime("corpus", "c1"), MakeRuntime("eval", "c1"),
                     MakeRuntime("unknown-cache", "c1"), MakeRuntime("elsewhere", "c2")};
  model::Workload wl =
      MakeWorkload({"corpus", "eval", "unknown-cache", "no-runtime", "elsewhere", "plain-pvc"});
  EXPECT_EQ(Names(Prefetches(s, wl, "c1")),
            (std::vector<std::string>{"job-train-prefetch-corpus->corpus",
                                      "job-train-prefetch-unknown-cache->unknown-cache"}));
  // In c2 only "elsewhere" is served there.
  EXPECT_EQ(Names(Prefetches(s, wl, "c2")),
            (std::vector<std::string>{"job-train-prefetch-elsewhere->elsewhere"}));
  const std::vector<model::DataLoad> loads = Prefetches(s, wl, "c1");
  ASSERT_FALSE(loads.empty());
  EXPECT_EQ(loads[0].meta.namespace_, "ml");
  EXPECT_EQ(loads[0].dataset_namespace, "ml");
  EXPECT_EQ(loads[0].policy, "Once");
  EXPECT_EQ(loads[0].meta.labels.at("berth.dev/workload"), "ml.job-train");
}

TEST(PrefetchTest, AnotherLoadInFlightIsLeftAloneButOurOwnIsKept) {
  model::Snapshot s;
  s.datasets = {MakeDataset("corpus", "c1", 35.0)};
  s.data_runtimes = {MakeRuntime("corpus", "c1")};
  model::Workload wl = MakeWorkload({"corpus"});
  model::DataLoad other;
  other.meta.name = "nightly-warmup";
  other.meta.namespace_ = "ml";
  other.dataset_name = "corpus";
  other.cluster = "c1";
  other.phase = "Executing";
  s.data_loads = {other};
  EXPECT_TRUE(Prefetches(s, wl, "c1").empty());
  // Finished: ours is added again.
  s.data_loads[0].phase = "Complete";
  EXPECT_EQ(Prefetches(s, wl, "c1").size(), 1u);
  // Our own DataLoad is in the cluster and the cache is now full: the work keeps it.
  model::DataLoad ours = other;
  ours.meta.name = "job-train-prefetch-corpus";
  ours.phase = "Complete";
  s.data_loads = {ours};
  s.datasets[0].cache.cached_percentage = 100.0;
  EXPECT_EQ(Names(Prefetches(s, wl, "c1")),
            (std::vector<std::string>{"job-train-prefetch-corpus->corpus"}));
}

TEST(PrefetchTest, NamesAreBoundedToALabelsLength) {
  model::Snapshot s;
  const std::string long_name(80, 'd');
  s.datasets = {MakeDataset(long_name, "c1", 0.0)};
  s.data_runtimes = {MakeRuntime(long_name, "c1")};
  const std::vector<model::DataLoad> loads = Prefetches(s, MakeWorkload({long_name}), "c1");
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_LE(loads[0].meta.name.size(), 63u);
  EXPECT_EQ(loads[0].dataset_name, long_name);
}

TEST(PrefetchTest, NoDatasetsNoPrefetch) {
  model::Snapshot s;
  EXPECT_TRUE(Prefetches(s, MakeWorkload({"corpus"}), "c1").empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
