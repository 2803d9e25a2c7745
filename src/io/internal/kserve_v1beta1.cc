// serving.kserve.io/v1beta1 InferenceService and serving.kserve.io/v1alpha1
// (Cluster)ServingRuntime. An InferenceService becomes a workload of one pod set,
// "predictor", of spec.predictor.minReplicas pods (KServe's default 1; 0 scales to zero and
// makes none), and an InferenceServiceModel saying which model it loads from where.
//
// The predictor is a PodSpec written inline beside KServe's own fields, with the model as
// `model:` (modelFormat, runtime, storageUri, resources) or, in the older form, under a
// framework key (sklearn:, pytorch:, huggingface:, ...). KServe's controller turns the
// model into the container "kserve-container" of the predictor pods, with the model's
// resources (the serving runtime supplies the image); berth builds the same pod template:
// the predictor's PodSpec fields, its containers, and kserve-container last so that the
// user's containers keep their indices in error paths.
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/quantity.h"
#include "io/internal/crd_workload_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"
#include "io/internal/storage_uri.h"
#include "model/berth_names.h"

namespace berth::io::internal {
namespace {

using OrderedJson = nlohmann::ordered_json;

// The predictor keys that are KServe's, not the PodSpec's (ComponentExtensionSpec and the
// predictor implementations), dropped from the pod template.
constexpr std::string_view kKServeKeys[] = {
    "minReplicas",  "maxReplicas",        "scaleTarget", "scaleMetric", "scaleMetricType",
    "autoScaling",  "containerConcurrency", "timeout",   "canaryTrafficPercent",
    "logger",       "batcher",            "labels",      "annotations", "deploymentStrategy",
    "model",        "workerSpec",         "storageUri",  "storage",     "kedaConfig"};

// The older per-framework predictor keys (PredictorSpec's SKLearn, XGBoost, ...): each is a
// model of that format.
constexpr std::string_view kFrameworkKeys[] = {"sklearn",  "xgboost",     "tensorflow", "pytorch",
                                               "triton",   "onnx",        "huggingface", "pmml",
                                               "lightgbm", "paddle"};

// Maps an error from decoding the built template back onto the InferenceService: the
// template's "spec.X" is the predictor's "spec.predictor.X", its last container (when the
// model made it) is spec.predictor.model (or the framework key).
core::Error AtPredictor(core::Error e, size_t user_containers, const std::string& model_field) {
  std::string field = e.location().field;
  const std::string made = "spec.containers" + IndexField(user_containers);
  if (!model_field.empty() && field.rfind(made, 0) == 0) {
    field = model_field + field.substr(made.size());
  } else if (field.rfind("spec.", 0) == 0) {
    field = "spec.predictor." + field.substr(5);
  } else if (field.rfind("metadata.", 0) == 0) {
    field = "spec.predictor." + field.substr(9);
  } else {
    field = field.empty() ? "spec.predictor" : "spec.predictor." + field;
  }
  return core::Error(e.code(), e.message(), core::Location{"", "", field});
}

// An annotation holding a byte count as a quantity ("140Gi"), or unset.
core::Status SizeAnnotation(const model::ObjectMeta& meta, const char* key,
                            std::optional<int64_t>* out) {
  auto it = meta.annotations.find(key);
  if (it == meta.annotations.end()) return core::OkStatus();
  auto q = core::Quantity::Parse(it->second);
  const std::string field = KeyField("metadata.annotations", key);
  if (!q.has_value()) {
    return InvalidValue(field, it->second, "not a quantity: " + q.error().message());
  }
  auto bytes = q->Value();
  if (!bytes.has_value()) return InvalidValue(field, it->second, bytes.error().message());
  if (*bytes <= 0) return InvalidValue(field, it->second, "must be greater than 0");
  *out = *bytes;
  return core::OkStatus();
}

// The model of the predictor at `field` (spec.predictor.model, or a framework key) into
// `out`; `resources` receives its resources object, if any.
core::Status DecodeModel(dom::object model, const std::string& field, std::string format,
                         model::InferenceServiceModel* out, OrderedJson* resources) {
  if (format.empty()) {
    dom::object model_format;
    bool has_format = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(model, "modelFormat", &model_format, &has_format),
                                field);
    if (!has_format) return FieldError(field + ".modelFormat", "Required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(model_format, "name", &format),
                                field + ".modelFormat");
    if (format.empty()) return FieldError(field + ".modelFormat.name", "Required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(model_format, "version", &out->format_version),
                                field + ".modelFormat");
  }
  out->format = std::move(format);
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(model, "runtime", &out->runtime), field);
  std::string uri;
  bool has_uri = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(model, "storageUri", &uri, &has_uri), field);
  if (has_uri) {
    auto parsed = ParseStorageUri(uri, UriSchemes::kKServe);
    BERTH_IO_RETURN_IF_ERROR_AT(parsed, field + ".storageUri");
    out->storage = std::move(*parsed);
  }
  dom::object res;
  bool has_res = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(model, "resources", &res, &has_res), field);
  if (has_res) *resources = OrderedJson::parse(simdjson::minify(res), nullptr, false);
  return core::OkStatus();
}

// A runtime's spec.supportedModelFormats[i].
core::Result<model::ServingRuntime::Format> DecodeModelFormat(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object f, AsObject(e));
  model::ServingRuntime::Format format;
  BERTH_RETURN_IF_ERROR(GetString(f, "name", &format.name));
  if (format.name.empty()) return FieldError("name", "Required value");
  BERTH_RETURN_IF_ERROR(GetString(f, "version", &format.version));
  BERTH_RETURN_IF_ERROR(GetBool(f, "autoSelect", &format.auto_select));
  BERTH_RETURN_IF_ERROR(GetInt32(f, "priority", &format.priority));
  if (format.priority < 0) return FieldError("priority", "must be greater than or equal to 0");
  return format;
}

}  // namespace

core::Result<DecodedInferenceService> DecodeInferenceService(dom::object obj,
                                                             model::ResourceCatalog& catalog) {
  DecodedInferenceService out;
  DecodedWorkload& w = out.workload;
  BERTH_ASSIGN_OR_RETURN(w.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_ASSIGN_OR_RETURN(dom::object predictor, GetRequiredObject(spec, "spec", "predictor"));
  model::InferenceServiceModel& m = out.model;
  m.meta = w.workload.meta;
  const std::string field = "spec.predictor";
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(predictor, "minReplicas", &m.min_replicas), field);
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(predictor, "maxReplicas", &m.max_replicas), field);
  if (m.min_replicas < 0) {
    return FieldError(field + ".minReplicas", "must be greater than or equal to 0");
  }
  if (m.max_replicas < 0) {
    return FieldError(field + ".maxReplicas", "must be greater than or equal to 0");
  }
  if (m.max_replicas != 0 && m.max_replicas < m.min_replicas) {
    return FieldError(field + ".maxReplicas", "must be greater than or equal to minReplicas (" +
                                                  std::to_string(m.min_replicas) + ")");
  }

  // The model: spec.predictor.model, or one framework key (KServe rejects several
  // implementations; so does berth).
  OrderedJson model_resources = OrderedJson::object();
  std::string model_field;
  dom::object model;
  bool has_model = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(predictor, "model", &model, &has_model), field);
  if (has_model) {
    model_field = field + ".model";
    BERTH_RETURN_IF_ERROR(DecodeModel(model, model_field, "", &m, &model_resources));
  }
  for (std::string_view key : kFrameworkKeys) {
    dom::object framework;
    bool found = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(predictor, key, &framework, &found), field);
    if (!found) continue;
    if (!model_field.empty()) {
      return FieldError(field + "." + std::string(key),
                        "exactly one predictor implementation may be given; " + model_field +
                            " is one already");
    }
    model_field = field + "." + std::string(key);
    BERTH_RETURN_IF_ERROR(DecodeModel(framework, model_field, std::string(key), &m,
                                      &model_resources));
  }
  dom::array containers;
  bool has_containers = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(predictor, "containers", &containers, &has_containers),
                              field);
  const size_t user_containers = has_containers ? containers.size() : 0;
  if (model_field.empty() && user_containers == 0) {
    return FieldError(field, "a predictor needs a model (spec.predictor.model) or containers");
  }
  BERTH_RETURN_IF_ERROR(SizeAnnotation(m.meta, model::kBerthModelSizeKey, &m.size_bytes));
  BERTH_RETURN_IF_ERROR(
      SizeAnnotation(m.meta, model::kBerthOriginStreamKey, &m.origin_stream_bytes_per_s));
  BERTH_RETURN_IF_ERROR(
      SizeAnnotation(m.meta, model::kBerthOriginEgressKey, &m.origin_egress_bytes_per_s));
  if (auto it = m.meta.annotations.find(model::kBerthModelRegionKey);
      it != m.meta.annotations.end()) {
    m.origin_region = it->second;
  }
  if (auto it = m.meta.annotations.find(model::kBerthMaxOriginPullsKey);
      it != m.meta.annotations.end()) {
    int32_t k = -1;
    const std::string& v = it->second;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), k);
    if (ec != std::errc() || ptr != v.data() + v.size() || k < 0) {
      return InvalidValue(KeyField("metadata.annotations", model::kBerthMaxOriginPullsKey), v,
                          "must be a whole number, at least 0 (0: no limit)");
    }
    m.max_origin_pulls = k;
  }
  if (auto it = m.meta.annotations.find(model::kBerthModelP2pKey);
      it != m.meta.annotations.end()) {
    if (it->second != "true" && it->second != "false") {
      return InvalidValue(KeyField("metadata.annotations", model::kBerthModelP2pKey), it->second,
                          "must be \"true\" or \"false\"");
    }
    m.p2p = it->second == "true";
  }

  // The pod template KServe's controller makes of the predictor.
  OrderedJson pred = OrderedJson::parse(simdjson::minify(predictor), nullptr, false);
  if (pred.is_discarded() || !pred.is_object()) pred = OrderedJson::object();
  OrderedJson tmpl = OrderedJson::object();
  OrderedJson& meta = tmpl["metadata"] = OrderedJson::object();
  meta["labels"] = pred.contains("labels") && pred["labels"].is_object() ? pred["labels"]
                                                                         : OrderedJson::object();
  meta["labels"][model::kInferenceServiceLabel] = w.workload.meta.name;
  meta["labels"]["component"] = "predictor";
  if (pred.contains("annotations") && pred["annotations"].is_object()) {
    meta["annotations"] = pred["annotations"];
  }
  for (std::string_view key : kKServeKeys) pred.erase(std::string(key));
  for (std::string_view key : kFrameworkKeys) pred.erase(std::string(key));
  if (!model_field.empty()) {
    OrderedJson container = OrderedJson::object();
    container["name"] = "kserve-container";
    container["image"] = m.runtime.empty() ? "kserve-runtime-for-" + m.format : m.runtime;
    if (!model_resources.empty()) container["resources"] = model_resources;
    if (!pred.contains("containers") || !pred["containers"].is_array()) {
      pred["containers"] = OrderedJson::array();
    }
    pred["containers"].push_back(std::move(container));
  }
  tmpl["spec"] = std::move(pred);
  simdjson::dom::parser parser;
  const std::string text = tmpl.dump();
  simdjson::dom::element parsed;
  if (parser.parse(text).get(parsed) != simdjson::SUCCESS || !parsed.is_object()) {
    return FieldError(field, "could not build the predictor's pod template");
  }
  model::PodSetTemplate pod_set;
  pod_set.name = "predictor";
  pod_set.count = m.min_replicas;
  core::Status appended = AppendPodSet(parsed.get_object().value_unsafe(), "",
                                       std::move(pod_set), PodSetSource(), catalog, &w);
  if (!appended.has_value()) {
    return AtPredictor(std::move(appended).error(), user_containers, model_field);
  }
  w.sources.back().template_field = field;
  return out;
}

core::Result<model::ServingRuntime> DecodeServingRuntime(dom::object obj, bool cluster_scoped) {
  model::ServingRuntime rt;
  rt.cluster_scoped = cluster_scoped;
  BERTH_ASSIGN_OR_RETURN(rt.meta, DecodeObjectMeta(obj, /*namespaced=*/!cluster_scoped,
                                                   /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "disabled", &rt.disabled), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(spec, "supportedModelFormats", DecodeModelFormat, &rt.formats), "spec");
  return rt;
}

}  // namespace berth::io::internal
