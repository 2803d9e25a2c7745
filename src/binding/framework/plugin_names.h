// Names and reason texts of the kube-scheduler plugins binding implements, exactly as
// upstream spells them: the names appear in explain output and profiles, the reasons in
// the "0/N nodes are available: ..." message. Constants only.
#pragma once

#include <string_view>

namespace berth::binding {

inline constexpr std::string_view kNodeUnschedulable = "NodeUnschedulable";
inline constexpr std::string_view kNodeName = "NodeName";
inline constexpr std::string_view kTaintToleration = "TaintToleration";
inline constexpr std::string_view kNodeAffinity = "NodeAffinity";
inline constexpr std::string_view kNodePorts = "NodePorts";
inline constexpr std::string_view kNodeResourcesFit = "NodeResourcesFit";
inline constexpr std::string_view kPodTopologySpread = "PodTopologySpread";
inline constexpr std::string_view kInterPodAffinity = "InterPodAffinity";
inline constexpr std::string_view kNodeResourcesBalancedAllocation =
    "NodeResourcesBalancedAllocation";

inline constexpr std::string_view kReasonUnschedulable = "node(s) were unschedulable";
inline constexpr std::string_view kReasonNodeName = "node(s) didn't match the requested node name";
inline constexpr std::string_view kReasonUntoleratedTaintPrefix = "node(s) had untolerated taint ";
inline constexpr std::string_view kReasonNodeAffinity =
    "node(s) didn't match Pod's node affinity/selector";
inline constexpr std::string_view kReasonAffinityConflict = "pod affinity terms conflict";
inline constexpr std::string_view kReasonNodePorts =
    "node(s) didn't have free ports for the requested pod ports";
inline constexpr std::string_view kReasonTooManyPods = "Too many pods";
inline constexpr std::string_view kReasonInsufficientPrefix = "Insufficient ";
inline constexpr std::string_view kReasonSpread =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kReasonSpreadMissingLabel =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr std::string_view kReasonPodAffinity = "node(s) didn't match pod affinity rules";
inline constexpr std::string_view kReasonPodAntiAffinity =
    "node(s) didn't match pod anti-affinity rules";
inline constexpr std::string_view kReasonExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";
// Status of the nodes a PreFilter plugin's node set left out (findNodesThatFitPod).
inline constexpr std::string_view kReasonPreFilterPrefix = "node(s) didn't satisfy plugin(s) ";

// Well-known keys.
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kTaintNodeUnschedulable = "node.kubernetes.io/unschedulable";
inline constexpr std::string_view kFieldNodeName = "metadata.name";

// framework.MaxNodeScore.
inline constexpr int64_t kMaxNodeScore = 100;

}  // namespace berth::binding
