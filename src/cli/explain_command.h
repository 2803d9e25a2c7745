// `berth explain pod/NAME`: why one pod goes where it goes, or why it goes nowhere: every
// node's filter verdicts and score breakdown at the state the pod meets in the cycle.
// `berth explain workload/NAME`: why Kueue admitted, preempted or left a workload waiting,
// flavor by flavor and resource by resource, and in a fleet which cluster runs it.
// `berth explain placement/NAME`: how an OCM Placement chose its clusters.
// Called by main.cc; returns the process exit code (exit_code.h). Not thread-safe (stdin).
#pragma once

#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/resource_name.h"
#include "core/result.h"

namespace berth::cli {

struct ExplainFlags {
  std::string target;              // TYPE/[NS/]NAME (resource_name.h): pod, workload, placement
                                   // or a kind Kueue makes a Workload for (job/NAME)
  std::string namespace_;          // -n: the namespace of a target without one
  std::string output = "text";     // -o: text or json (explain_json.h)
  std::vector<std::string> files;  // -f, as for plan
  std::vector<std::string> clusters;  // --cluster NAME=PATH, repeatable
  bool demo = false;               // --demo: the built-in demo fleet instead of -f
  std::string scoring;             // --scoring, as for plan
  std::string now;                 // --now, as for plan
  std::optional<std::string> cycles;  // --cycles, as for plan
  std::string node;  // --node NAME: a pod's every filter verdict and score on that node
};

// Prints the explanation to `out` and diagnostics to `err`. Exit codes: 0 explained; 1
// explained, but some objects were bad; 2 bad flags, unreadable input or an unknown pod.
int RunExplainCommand(const ExplainFlags& flags, std::ostream& out, std::ostream& err);

struct ExplainTarget {
  enum class Kind { kPod, kWorkload, kPlacement, kInferenceService };
  Kind kind = Kind::kPod;
  std::string name;       // "NAME" or "NAMESPACE/NAME"
  ResourceName resource;  // as parsed: for "not found; did you mean"
};

// TYPE/NAME or TYPE/NAMESPACE/NAME as resource_name.h reads it (any case, singular, plural
// or short TYPE): a Pod, a Kueue Workload, a Placement, or a workload kind (job, deploy,
// jobset, pytorchjob, ...: the Workload Kueue made for it, found by the job's name). A
// namespace from `default_namespace` (-n) when the target has none. InvalidArgument for
// another kind or a malformed target.
core::Result<ExplainTarget> ParseExplainTarget(const std::string& target,
                                               const std::string& default_namespace = "");

// "pod/NAME" -> "NAME", "pod/NS/NAME" -> "NS/NAME" (any spelling of the Pod type);
// InvalidArgument for anything else.
core::Result<std::string> ParsePodTarget(const std::string& target);

}  // namespace berth::cli
