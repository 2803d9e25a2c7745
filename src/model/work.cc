#include "model/work.h"

namespace berth::model {

namespace {

constexpr WellKnownStatusPath kDeploymentStatus[] = {
    {"ReadyReplicas", ".status.readyReplicas"},
    {"Replicas", ".status.replicas"},
    {"AvailableReplicas", ".status.availableReplicas"}};
constexpr WellKnownStatusPath kDaemonSetStatus[] = {
    {"NumberReady", ".status.numberReady"},
    {"DesiredNumberScheduled", ".status.desiredNumberScheduled"},
    {"NumberAvailable", ".status.numberAvailable"}};
constexpr WellKnownStatusPath kJobStatus[] = {
    {"JobComplete", R"(.status.conditions[?(@.type=="Complete")].status)"},
    {"JobSucceeded", ".status.succeeded"}};
constexpr WellKnownStatusPath kPodStatus[] = {
    {"PodReady", R"(.status.conditions[?(@.type=="Ready")].status)"},
    {"PodPhase", ".status.phase"}};

}  // namespace

std::span<const WellKnownStatusPath> WellKnownStatusPaths(std::string_view group,
                                                          std::string_view version,
                                                          std::string_view kind) {
  if (version != "v1") return {};
  if (group == "apps" && kind == "Deployment") return kDeploymentStatus;
  if (group == "apps" && kind == "DaemonSet") return kDaemonSetStatus;
  if (group == "batch" && kind == "Job") return kJobStatus;
  if (group.empty() && kind == "Pod") return kPodStatus;
  return {};
}

}  // namespace berth::model
