// ConvertKueueVersion: a kueue.x-k8s.io object's JSON from the version it was written at to
// the version it is served at, as Kueue's conversion webhook does for the fields berth
// reads in both (io/internal/decoders.h, KueueVersion): ClusterQueue `cohort` <->
// `cohortName`, v1beta1's `admissionChecks` <-> v1beta2's `admissionChecksStrategy`, and
// flavorFungibility's `Borrow`/`Preempt` <-> `MayStopSearch`; Cohort `parent` (v1alpha1) <->
// `parentName`; Workload `priorityClassName` + `priorityClassSource` <-> `priorityClassRef`.
// Other fields pass as written (a Workload's status.admission topologyAssignment keeps its
// encoding). Called by ServedObject for every object served at another version than its
// body's; pure.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace berth::server {

// Converts `object` (of `kind`) in place from version `from` to `to` ("v1beta1",
// "v1beta2", "v1alpha1"); a no-op when they are equal or the kind has nothing to convert.
void ConvertKueueVersion(std::string_view kind, std::string_view from, std::string_view to,
                         nlohmann::ordered_json& object);

}  // namespace berth::server
