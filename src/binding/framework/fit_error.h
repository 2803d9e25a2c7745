// FitError: the "0/N nodes are available: ..." message kube-scheduler writes when a pod fits
// no node (upstream framework.FitError.Error()), built from per-reason node counts. Reasons
// are counted once per node that gave them, rendered "<count> <reason>", sorted as strings
// (so "10 ..." sorts before "4 ..."), joined with ", " and closed with ".". A PreFilter
// rejection replaces the histogram with its own message. DefaultPreemption's tail
// (" preemption: 0/N nodes are available: ...", Scheduler::Preempt) renders its node
// statuses with the same histogram; the engine appends it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binding/framework/reason_table.h"
#include "model/decision.h"

namespace berth::binding {

class ReasonHistogram {
 public:
  void Add(ReasonId reason, int64_t nodes = 1);
  // For a PreFilter rejection: the message names this reason alone; every node has it.
  void SetPreFilterRejection(ReasonId reason, int64_t nodes);
  bool empty() const { return counts_.empty() && !prefilter_.has_value(); }

  // Fills decision->message and decision->rejections (in the message's order).
  void Render(const ReasonTable& reasons, int64_t num_nodes, model::PodDecision* decision) const;

 private:
  std::vector<int64_t> counts_;  // by ReasonId
  std::optional<ReasonId> prefilter_;
  int64_t prefilter_nodes_ = 0;
};

}  // namespace berth::binding
