// RandomFleet: a seeded generator of small, varied fleets as YAML, for the invariant property
// test (invariants_property_test.cc): CPU, device-plugin GPU (some time-sliced, some MIG) and
// DRA nodes (whole GPUs and partitionable ones with shared counters), ClusterQueues with
// cohorts, borrowing and lending limits and preemption, LocalQueues, PriorityClasses, and
// Jobs, JobSets, Deployments and Pods with priorities, GPU fractions and claims, some of the
// pods already running. The same seed gives the same text on every platform (the generator
// draws from std::mt19937_64 and maps its words itself). Test-only; thread-compatible.
#pragma once

#include <cstdint>
#include <string>

namespace berth::engine::testing {

// The fleet of `seed`, as one multi-document YAML text.
std::string RandomFleetYaml(uint64_t seed);

}  // namespace berth::engine::testing
