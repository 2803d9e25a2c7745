// Why the overrides are applied to the runtime's JSON and then decoded as a JobSet spec: the
// pods berth prints must be the ones the trainer's JobSet would make (their resources,
// image, counts), and the JobSet decoder is the one path that turns a JobSet spec into pod
// sets, templates and pod identities. The override rules follow Kubeflow Trainer's JobSet
// builder (Trainer, Initializer) and its ML-policy plugins (numNodes).
#include "io/internal/trainjob_runtime.h"

#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "io/internal/json_fields.h"
#include "model/kind_info.h"

namespace berth::io::internal {

namespace {

using TrainJson = nlohmann::ordered_json;

constexpr std::string_view kTrainAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";

// obj[key] when obj is an object holding an object there; nullptr otherwise.
TrainJson* TrainObjectAt(TrainJson& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}
const TrainJson* TrainObjectAt(const TrainJson& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}

std::string TrainStringAt(const TrainJson& obj, const char* key, std::string fallback) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() && !it->get_ref<const std::string&>().empty()
             ? it->get<std::string>()
             : fallback;
}

std::string TrainAncestorOf(const TrainJson& replicated_job) {
  const TrainJson* tmpl = TrainObjectAt(replicated_job, "template");
  const TrainJson* md = tmpl != nullptr ? TrainObjectAt(*tmpl, "metadata") : nullptr;
  const TrainJson* labels = md != nullptr ? TrainObjectAt(*md, "labels") : nullptr;
  return labels != nullptr ? TrainStringAt(*labels, std::string(kTrainAncestorLabel).c_str(), "") : "";
}

// The trainer's fields copied into a "node" (or "launcher") container.
void ApplyTrainerToContainer(const TrainJson& trainer, TrainJson* container) {
  for (const char* key : {"image", "command", "args"}) {
    auto it = trainer.find(key);
    if (it != trainer.end() && !it->is_null()) (*container)[key] = *it;
  }
  const TrainJson* per_node = TrainObjectAt(trainer, "resourcesPerNode");
  if (per_node == nullptr) return;
  TrainJson resources = TrainJson::object();
  for (const char* key : {"limits", "requests"}) {
    const TrainJson* amounts = TrainObjectAt(*per_node, key);
    if (amounts != nullptr) resources[key] = *amounts;
  }
  // The builder replaces the container's requirements only when it is given some.
  if (!resources.empty()) (*container)["resources"] = std::move(resources);
}

// The JobSet spec the trainer makes from `jobset_spec` (the runtime's template.spec).
void ApplyTrainerOverrides(const TrainJson& job_spec, const model::TrainingRuntime& runtime,
                    TrainJson* jobset_spec) {
  const TrainJson* trainer = TrainObjectAt(job_spec, "trainer");
  int64_t num_nodes = runtime.num_nodes;
  if (trainer != nullptr) {
    auto it = trainer->find("numNodes");
    if (it != trainer->end() && it->is_number_integer()) num_nodes = it->get<int64_t>();
  }
  auto jobs = jobset_spec->find("replicatedJobs");
  if (jobs == jobset_spec->end() || !jobs->is_array()) return;
  for (TrainJson& rjob : *jobs) {
    if (!rjob.is_object()) continue;
    const std::string ancestor = TrainAncestorOf(rjob);
    if (ancestor == "dataset-initializer" || ancestor == "model-initializer" ||
        ancestor == "initializer" || ancestor == "trainer") {
      rjob["replicas"] = 1;
    }
    // Taken after the key above is set: adding a key to an ordered_json object may move its
    // other members.
    TrainJson* job_template = TrainObjectAt(rjob, "template");
    TrainJson* job_spec_json = job_template != nullptr ? TrainObjectAt(*job_template, "spec")
                                                       : nullptr;
    if (ancestor == "trainer") {
      if (num_nodes > 0 && job_spec_json != nullptr) {
        (*job_spec_json)["parallelism"] = num_nodes;
        (*job_spec_json)["completions"] = num_nodes;
      }
    }
    if (trainer == nullptr || job_spec_json == nullptr) continue;
    TrainJson* pod_template = TrainObjectAt(*job_spec_json, "template");
    TrainJson* pod_spec = pod_template != nullptr ? TrainObjectAt(*pod_template, "spec") : nullptr;
    if (pod_spec == nullptr) continue;
    auto containers = pod_spec->find("containers");
    if (containers == pod_spec->end() || !containers->is_array()) continue;
    for (TrainJson& c : *containers) {
      const std::string name = TrainStringAt(c, "name", "");
      if (name == "node" || (name == "launcher" && runtime.run_launcher_as_node)) {
        ApplyTrainerToContainer(*trainer, &c);
      }
    }
  }
}

core::Error TrainRuntimeNotFound(const std::string& kind, const std::string& ns,
                            const std::string& name) {
  return core::NotFound(
      kind + " " + core::Quote(kind == "TrainingRuntime" ? ns + "/" + name : name) +
          " not found: the trainer cannot make the job's JobSet",
      core::Location{"", "", "spec.runtimeRef.name"});
}

}  // namespace

bool IsTrainJob(const model::WorkloadObject& workload) {
  return workload.kind == "TrainJob" &&
         model::ApiGroupOf(workload.api_version) == "trainer.kubeflow.org";
}

core::Status ResolveTrainJob(const DocumentStore& documents,
                             const std::vector<model::TrainingRuntime>& runtimes,
                             model::ResourceCatalog& catalog, model::WorkloadObject* job,
                             std::vector<PodSetSource>* sources) {
  // The job's document was decoded already (trainer_v1alpha1.cc), so its shape is known good.
  const TrainJson job_doc =
      TrainJson::parse(documents.Get(job->source).json.view(), nullptr, /*allow_exceptions=*/false);
  const TrainJson* job_spec = TrainObjectAt(job_doc, "spec");
  const TrainJson* ref = job_spec != nullptr ? TrainObjectAt(*job_spec, "runtimeRef") : nullptr;
  if (ref == nullptr) return core::InvalidArgument("required value", {"", "", "spec.runtimeRef"});
  const std::string kind = TrainStringAt(*ref, "kind", "ClusterTrainingRuntime");
  const std::string name = TrainStringAt(*ref, "name", "");
  const model::TrainingRuntime* runtime = nullptr;
  for (const model::TrainingRuntime& r : runtimes) {
    if (r.kind == kind && r.meta.name == name && r.cluster == job->cluster &&
        (kind != "TrainingRuntime" || r.meta.namespace_ == job->meta.namespace_)) {
      runtime = &r;
      break;
    }
  }
  if (runtime == nullptr) return TrainRuntimeNotFound(kind, job->meta.namespace_, name);

  TrainJson runtime_doc = TrainJson::parse(documents.Get(runtime->source).json.view(), nullptr,
                                           /*allow_exceptions=*/false);
  TrainJson* runtime_spec = TrainObjectAt(runtime_doc, "spec");
  TrainJson* tmpl = runtime_spec != nullptr ? TrainObjectAt(*runtime_spec, "template") : nullptr;
  TrainJson* jobset_spec = tmpl != nullptr ? TrainObjectAt(*tmpl, "spec") : nullptr;
  if (jobset_spec == nullptr) {
    return core::Internal("runtime template vanished", {"", "", "spec.runtimeRef.name"});
  }
  ApplyTrainerOverrides(*job_spec, *runtime, jobset_spec);
  const std::string text =
      jobset_spec->dump(-1, ' ', false, TrainJson::error_handler_t::replace);

  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object spec_obj;
  if (parser.parse(text).get(root) != simdjson::SUCCESS ||
      root.get_object().get(spec_obj) != simdjson::SUCCESS) {
    return core::Internal("runtime template did not parse", {"", "", "spec.runtimeRef.name"});
  }
  DecodedWorkload out;
  out.workload = *job;
  out.workload.pod_sets.clear();
  // Errors here come from the job's overrides (the template alone decoded when the runtime
  // was read): they are the job's, at the runtime's field.
  core::Status status = DecodeReplicatedJobs(spec_obj, "spec.template.spec", catalog, &out);
  if (!status.ok()) {
    core::Error error = std::move(status).error();
    return core::InvalidArgument("in " + runtime->kind + " " + core::Quote(runtime->meta.name) +
                                     " with the job's spec.trainer: " + error.message(),
                                 {"", "", "spec.trainer"});
  }
  job->pod_sets = std::move(out.workload.pod_sets);
  *sources = std::move(out.sources);
  return core::OkStatus();
}

}  // namespace berth::io::internal
