// Bucketing by "arrived workload %", as the FGD authors' merge scripts
// (experiments/analysis/merge_*_discrete.py) turn a run's per-event log into the columns
// 0..130 of their result files: an event's bucket is its arrived GPU request in % of the
// cluster's GPUs rounded half to even (Python's round); a bucket's value is the mean over its
// events, or, when no event rounds to it, over the events in buckets k-1..k+1; with none
// there either, the bucket is left out. NaN values are left out of means. Pure; O(events).
#pragma once

#include <map>
#include <span>

namespace berth::sim::gpushare {

// The bucket of one event: round half to even.
int ArrivedBucket(double arrived_pct);

// Preconditions: equal lengths. Buckets 0..max_pct.
std::map<int, double> BucketByArrivedPct(std::span<const double> arrived_pct,
                                         std::span<const double> values, int max_pct = 130);

}  // namespace berth::sim::gpushare
