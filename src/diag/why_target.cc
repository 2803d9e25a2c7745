#include "diag/why_target.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "engine/explain_workload.h"
#include "engine/plan.h"

namespace berth::diag {
namespace {

std::string LowerAscii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "NAME" matches by name alone, "NS/NAME" by both (an empty namespace reads as "default",
// as engine::PodKey prints it).
bool NameMatches(const model::ObjectMeta& meta, const std::string& name) {
  if (name.find('/') == std::string::npos) return meta.name == name;
  return meta.NamespacedName() == name;
}

bool SameOwner(const model::OwnerRef& owner, const model::WorkloadObject& job) {
  return owner.kind == job.kind && owner.name == job.meta.name;
}

// The Kueue Workload made for job `job`, or -1.
int32_t KueueWorkloadOfJob(const model::Snapshot& snapshot, int32_t job) {
  for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
    const model::Workload& w = snapshot.kueue_workloads[i];
    if (w.owner_workload && *w.owner_workload == job) return static_cast<int32_t>(i);
  }
  return -1;
}

ResolvedTarget KueueTarget(const model::Snapshot& snapshot, int32_t index) {
  const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(index)];
  ResolvedTarget out;
  out.kind = ResolvedTarget::Kind::kKueue;
  out.workload = index;
  for (const auto& set : w.pods) out.pods.insert(out.pods.end(), set.begin(), set.end());
  std::sort(out.pods.begin(), out.pods.end());
  out.display = "Workload " + w.meta.NamespacedName();
  if (w.owner_workload) {
    const model::WorkloadObject& job = snapshot.workloads[static_cast<size_t>(*w.owner_workload)];
    out.job = *w.owner_workload;
    out.display += " (for " + job.kind + " " + job.meta.NamespacedName() + ")";
  }
  out.object = {"Workload", w.meta.namespace_, w.meta.name};
  return out;
}

ResolvedTarget JobTarget(const model::Snapshot& snapshot, int32_t job) {
  if (int32_t w = KueueWorkloadOfJob(snapshot, job); w >= 0) return KueueTarget(snapshot, w);
  const model::WorkloadObject& object = snapshot.workloads[static_cast<size_t>(job)];
  ResolvedTarget out;
  out.kind = ResolvedTarget::Kind::kPods;
  out.job = job;
  out.pods = PodsOfJob(snapshot, job);
  out.display = object.kind + " " + object.meta.NamespacedName();
  out.object = {object.kind, object.meta.namespace_, object.meta.name};
  return out;
}

// Jobs of `kind` (any, when empty) whose name matches; NotFound / ambiguous as FindPod.
core::Result<int32_t> FindJob(const model::Snapshot& snapshot, const std::string& kind,
                              const std::string& name) {
  std::vector<int32_t> matches;
  for (size_t i = 0; i < snapshot.workloads.size(); ++i) {
    const model::WorkloadObject& job = snapshot.workloads[i];
    // A JobSet's child Jobs and a Deployment's ReplicaSets are parts of their owner.
    if (job.owner) continue;
    if (!kind.empty() && LowerAscii(job.kind) != LowerAscii(kind)) continue;
    if (NameMatches(job.meta, name)) matches.push_back(static_cast<int32_t>(i));
  }
  const std::string what = kind.empty() ? "workload" : LowerAscii(kind);
  if (matches.empty()) {
    return core::NotFound(what + " \"" + name + "\" not found in the input");
  }
  if (matches.size() > 1) {
    std::string names;
    for (int32_t i : matches) {
      const model::WorkloadObject& job = snapshot.workloads[static_cast<size_t>(i)];
      names += (names.empty() ? "" : ", ") + job.kind + " " + job.meta.NamespacedName();
    }
    return core::InvalidArgument(what + " name \"" + name + "\" is ambiguous: " + names +
                                 "; name it as namespace/name");
  }
  return matches.front();
}

}  // namespace

std::vector<int32_t> PodsOfJob(const model::Snapshot& snapshot, int32_t job) {
  const model::WorkloadObject& object = snapshot.workloads[static_cast<size_t>(job)];
  // The objects it owns (one level: ReplicaSets, child Jobs), by kind and name.
  std::set<std::pair<std::string, std::string>> parts{{object.kind, object.meta.name}};
  for (const auto& other : snapshot.workloads) {
    if (other.owner && other.cluster == object.cluster &&
        other.meta.namespace_ == object.meta.namespace_ && SameOwner(*other.owner, object)) {
      parts.insert({other.kind, other.meta.name});
    }
  }
  std::vector<int32_t> out;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    if (!pod.owner || pod.cluster != object.cluster ||
        pod.meta.namespace_ != object.meta.namespace_) {
      continue;
    }
    if (parts.count({pod.owner->kind, pod.owner->name}) != 0)
      out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

core::Result<ResolvedTarget> ResolveWhyTarget(const model::Snapshot& snapshot,
                                              const WhyTarget& target) {
  switch (target.kind) {
    case WhyTargetKind::kPod: {
      BERTH_ASSIGN_OR_RETURN(model::PodIndex index, engine::FindPod(snapshot, target.name));
      // A pod of a queued job waits for its Workload: explain that.
      for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
        for (const auto& set : snapshot.kueue_workloads[i].pods) {
          if (std::find(set.begin(), set.end(), index.v) != set.end()) {
            return KueueTarget(snapshot, static_cast<int32_t>(i));
          }
        }
      }
      const model::Pod& pod = snapshot.pod(index);
      ResolvedTarget out;
      out.kind = ResolvedTarget::Kind::kPod;
      out.pod = index.v;
      out.pods = {index.v};
      out.display = "Pod " + engine::PodKey(pod);
      out.object = {"Pod", pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_,
                    pod.meta.name};
      return out;
    }
    case WhyTargetKind::kWorkload: {
      auto found = engine::FindWorkload(snapshot, target.name);
      if (found.has_value()) return KueueTarget(snapshot, found.value());
      if (found.error().code() != core::ErrorCode::kNotFound) return found.error();
      auto job = FindJob(snapshot, "", target.name);
      if (!job.has_value()) {
        if (job.error().code() != core::ErrorCode::kNotFound) return job.error();
        return core::NotFound("workload \"" + target.name +
                              "\" not found in the input (neither a Workload nor a job-like "
                              "object)");
      }
      return JobTarget(snapshot, job.value());
    }
    case WhyTargetKind::kJob: {
      BERTH_ASSIGN_OR_RETURN(int32_t job, FindJob(snapshot, target.job_kind, target.name));
      return JobTarget(snapshot, job);
    }
  }
  return core::InvalidArgument("unknown target kind");
}

std::vector<std::string> WhyTargetNames(const model::Snapshot& snapshot, const WhyTarget& target) {
  std::vector<std::string> out;
  switch (target.kind) {
    case WhyTargetKind::kPod:
      for (const auto& pod : snapshot.pods) out.push_back(engine::PodKey(pod));
      break;
    case WhyTargetKind::kWorkload:
      for (const auto& w : snapshot.kueue_workloads) out.push_back(w.meta.NamespacedName());
      for (const auto& job : snapshot.workloads) {
        if (!job.owner) out.push_back(job.meta.NamespacedName());
      }
      break;
    case WhyTargetKind::kJob:
      for (const auto& job : snapshot.workloads) {
        if (!job.owner && LowerAscii(job.kind) == LowerAscii(target.job_kind)) {
          out.push_back(job.meta.NamespacedName());
        }
      }
      break;
  }
  return out;
}

}  // namespace berth::diag
