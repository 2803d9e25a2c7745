// Kueue's TestResourcesToReserve (pkg/scheduler/scheduler_test.go @ ff69552e), ported as a
// table: what a workload holds for the rest of a cycle when its assignment is Fit, or
// Preempt without victims, with or without borrowing.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "queueing/admission_scheduler.h"
#include "queueing/quota_tree.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

// FR ids of upstream's ClusterQueue "cq" (cohort "eng"): memory on on-demand (nominal 100)
// and spot (0, borrowingLimit 100); gpu on model-a (10, limit 0) and model-b (10, limit 5).
enum Fr : int32_t { kOnDemandMemory, kSpotMemory, kModelAGpu, kModelBGpu, kNumFrs };

QuotaTree UpstreamQueue(const std::map<int32_t, int64_t>& cq_usage) {
  QuotaTree tree(2, kNumFrs);  // node 0: cq, node 1: cohort eng
  tree.SetParent(0, 1);
  tree.SetQuota(0, kOnDemandMemory, 100, std::nullopt, std::nullopt);
  tree.SetQuota(0, kSpotMemory, 0, 100, std::nullopt);
  tree.SetQuota(0, kModelAGpu, 10, 0, std::nullopt);
  tree.SetQuota(0, kModelBGpu, 10, 5, std::nullopt);
  tree.Finalize();
  for (const auto& [fr, v] : cq_usage) tree.AddUsage(0, fr, v);
  return tree;
}

struct Case {
  const char* name;
  Assignment::Mode mode;
  int32_t borrowing;
  FrUsage assignment_usage;
  std::map<int32_t, int64_t> cq_usage;
  FrUsage want;
};

TEST(ResourcesToReserveTest, MatchesUpstreamTable) {
  const std::map<int32_t, int64_t> busy = {
      {kOnDemandMemory, 60}, {kSpotMemory, 60}, {kModelAGpu, 2}, {kModelBGpu, 10}};
  const Case cases[] = {
      {"Reserved memory and gpu less than assignment usage, assignment preempts",
       Assignment::Mode::kPreempt, 0, {{kOnDemandMemory, 50}, {kModelAGpu, 6}},
       {{kOnDemandMemory, 60}, {kSpotMemory, 50}, {kModelAGpu, 6}, {kModelBGpu, 2}},
       {{kOnDemandMemory, 40}, {kModelAGpu, 4}}},
      {"Reserved memory equal assignment usage, assignment preempts", Assignment::Mode::kPreempt,
       0, {{kOnDemandMemory, 30}, {kModelAGpu, 2}},
       {{kOnDemandMemory, 60}, {kSpotMemory, 50}, {kModelAGpu, 2}, {kModelBGpu, 2}},
       {{kOnDemandMemory, 30}, {kModelAGpu, 2}}},
      {"Reserved memory equal assignment usage, assignment fits", Assignment::Mode::kFit, 0,
       {{kOnDemandMemory, 50}, {kModelAGpu, 2}},
       {{kOnDemandMemory, 60}, {kSpotMemory, 50}, {kModelAGpu, 2}, {kModelBGpu, 2}},
       {{kOnDemandMemory, 50}, {kModelAGpu, 2}}},
      {"Reserved memory is 0, CQ is borrowing, assignment preempts without borrowing",
       Assignment::Mode::kPreempt, 0, {{kSpotMemory, 50}, {kModelBGpu, 2}}, busy,
       {{kSpotMemory, 0}, {kModelBGpu, 0}}},
      {"Reserved memory cut by nominal+borrowing quota, assignment preempts and borrows",
       Assignment::Mode::kPreempt, 1, {{kSpotMemory, 50}, {kModelBGpu, 2}}, busy,
       {{kSpotMemory, 40}, {kModelBGpu, 2}}},
      {"Reserved memory equal assignment usage, CQ borrowing limit is nil",
       Assignment::Mode::kPreempt, 1, {{kOnDemandMemory, 50}, {kModelBGpu, 2}}, busy,
       {{kOnDemandMemory, 50}, {kModelBGpu, 2}}},
  };
  for (const Case& c : cases) {
    const QuotaTree tree = UpstreamQueue(c.cq_usage);
    Assignment a;
    a.mode = c.mode;
    a.borrow_level = c.borrowing;
    a.usage = c.assignment_usage;
    EXPECT_EQ(QuotaToReserve(tree, 0, a), c.want) << c.name;
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
