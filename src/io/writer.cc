// Each pod's document is re-parsed as nlohmann::ordered_json so that keys keep the order
// they were read in and every field berth does not own comes back unchanged; only
// spec.nodeName and the PodScheduled condition are written.
#include "io/writer.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "io/internal/yaml_emitter.h"
#include "io/table_writer.h"

namespace berth::io {

namespace {

using OrderedJson = nlohmann::ordered_json;

// The PodScheduled condition to write: the engine's, else one derived from the decision;
// nullopt leaves the document's conditions alone (a pod skipped as not ours).
std::optional<model::PodCondition> ScheduledCondition(const model::Pod& pod,
                                                      const model::PodDecision& d, bool bound) {
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "PodScheduled") return c;
  }
  if (d.skipped) return std::nullopt;
  model::PodCondition c;
  c.type = "PodScheduled";
  if (bound) {
    c.status = "True";
  } else {
    c.status = "False";
    c.reason = "Unschedulable";
    c.message = d.message;
  }
  return c;
}

void SetOrErase(OrderedJson& obj, const char* key, const std::string& value) {
  if (value.empty()) {
    obj.erase(key);
  } else {
    obj[key] = value;
  }
}

void PatchCondition(OrderedJson& doc, const model::PodCondition& cond) {
  if (!doc["status"].is_object()) doc["status"] = OrderedJson::object();
  OrderedJson& status = doc["status"];
  if (!status["conditions"].is_array()) status["conditions"] = OrderedJson::array();
  OrderedJson& conditions = status["conditions"];
  for (OrderedJson& c : conditions) {
    auto type = c.is_object() ? c.find("type") : c.end();
    if (type != c.end() && type->is_string() && *type == "PodScheduled") {
      c["status"] = cond.status;
      SetOrErase(c, "reason", cond.reason);
      SetOrErase(c, "message", cond.message);
      return;
    }
  }
  OrderedJson c = OrderedJson::object();
  c["type"] = cond.type;
  c["status"] = cond.status;
  if (!cond.reason.empty()) c["reason"] = cond.reason;
  if (!cond.message.empty()) c["message"] = cond.message;
  conditions.push_back(std::move(c));
}

OrderedJson PatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                       const DocumentStore& documents) {
  const model::Pod& pod = planned.pod(d.pod);
  OrderedJson doc;
  if (pod.source.valid()) {
    doc = OrderedJson::parse(documents.Get(pod.source).json, nullptr,
                             /*allow_exceptions=*/false);
  }
  if (!doc.is_object()) {
    // A pod with no document (built by a test or a later stage): the minimal object.
    doc = OrderedJson::object();
    doc["apiVersion"] = "v1";
    doc["kind"] = "Pod";
    doc["metadata"] =
        OrderedJson::object({{"name", pod.meta.name}, {"namespace", pod.meta.namespace_}});
  }
  std::string node = pod.node_name;
  if (node.empty() && d.node.has_value()) node = planned.node(*d.node).meta.name;
  if (!node.empty()) {
    if (!doc["spec"].is_object()) doc["spec"] = OrderedJson::object();
    doc["spec"]["nodeName"] = node;
  }
  if (auto cond = ScheduledCondition(pod, d, !node.empty())) PatchCondition(doc, *cond);
  return doc;
}

}  // namespace

void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const DocumentStore& documents, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::kTable) {
    WritePlanTable(planned, decisions, out);
    return;
  }
  OrderedJson list = OrderedJson::object();
  list["apiVersion"] = "v1";
  list["kind"] = "List";
  list["items"] = OrderedJson::array();
  OrderedJson& items = list["items"];
  for (const model::PodDecision& d : decisions) items.push_back(PatchedPod(planned, d, documents));
  list["metadata"] = OrderedJson::object({{"resourceVersion", ""}});
  if (format == OutputFormat::kJson) {
    out << list.dump(2, ' ', false, OrderedJson::error_handler_t::replace) << '\n';
    return;
  }
  std::string text;
  internal::EmitYaml(list, &text);
  out << text;
}

}  // namespace berth::io
