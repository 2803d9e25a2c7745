// storage.k8s.io/v1 StorageClass (and the removed v1beta1), for binding's VolumeBinding and
// berth doctor's storage rules (WaitForFirstConsumer claims whose pods are pinned where the
// class cannot provision); and CSINode, whose per-driver allocatable counts NodeVolumeLimits
// reads.
// Validated as kube-apiserver's ValidateStorageClass validates what is read: a provisioner,
// the binding mode, and allowedTopologies' label expressions (each a key and at least one
// value), which are kept as node selector terms with operator In.
#include <string>
#include <utility>

#include "core/labels.h"
#include "core/selector.h"
#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {
namespace {

core::Result<core::NodeSelectorTerm> DecodeTopologyTerm(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  core::NodeSelectorTerm term;
  dom::array expressions;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "matchLabelExpressions", &expressions));
  size_t i = 0;
  for (dom::element item : expressions) {
    const std::string at = "matchLabelExpressions" + IndexField(i++);
    auto expression = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(expression, at);
    core::SelectorRequirement req;  // op In
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*expression, "key", &req.key), at);
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(*expression, "values", &req.values), at);
    if (std::string problem = core::QualifiedNameProblem(req.key); !problem.empty()) {
      return InvalidValue(at + ".key", req.key, problem);
    }
    if (req.values.empty()) {
      return FieldError(at + ".values", "Required value: must specify as least one value");
    }
    term.match_expressions.push_back(std::move(req));
  }
  return term;
}

// One spec.drivers[] entry, checked as ValidateCSINode checks it: a name and a nodeID, a
// non-negative allocatable.count.
core::Result<model::CSINodeDriver> DecodeCSINodeDriver(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::CSINodeDriver driver;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &driver.name));
  if (driver.name.empty()) return FieldError("name", "Required value");
  BERTH_RETURN_IF_ERROR(GetString(obj, "nodeID", &driver.node_id));
  if (driver.node_id.empty()) return FieldError("nodeID", "Required value");
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "topologyKeys", &driver.topology_keys));
  dom::object allocatable;
  bool has_allocatable = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "allocatable", &allocatable, &has_allocatable));
  int32_t count = 0;
  bool has_count = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(allocatable, "count", &count, &has_count), "allocatable");
  if (has_count) {
    if (count < 0) {
      return InvalidValue("allocatable.count", std::to_string(count),
                          "must be greater than or equal to 0");
    }
    driver.allocatable_count = count;
  }
  return driver;
}

}  // namespace

core::Result<model::CSINode> DecodeCSINode(dom::object obj) {
  model::CSINode node;
  BERTH_ASSIGN_OR_RETURN(node.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/false, /*name_required=*/true));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "drivers", DecodeCSINodeDriver, &node.drivers),
                              "spec");
  for (size_t i = 0; i < node.drivers.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (node.drivers[j].name == node.drivers[i].name) {
        return FieldError("spec.drivers" + IndexField(i) + ".name",
                          "Duplicate value: \"" + node.drivers[i].name + "\"");
      }
    }
  }
  return node;
}

core::Result<model::StorageClass> DecodeStorageClass(dom::object obj) {
  model::StorageClass sc;
  BERTH_ASSIGN_OR_RETURN(sc.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/false, /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(GetString(obj, "provisioner", &sc.provisioner));
  if (sc.provisioner.empty()) return FieldError("provisioner", "Required value");
  std::string mode;
  BERTH_RETURN_IF_ERROR(GetString(obj, "volumeBindingMode", &mode));
  if (!mode.empty()) {
    if (mode != "Immediate" && mode != "WaitForFirstConsumer") {
      return Unsupported("volumeBindingMode", mode, {"Immediate", "WaitForFirstConsumer"});
    }
    sc.volume_binding_mode = std::move(mode);
  }
  for (const char* key : {"storageclass.kubernetes.io/is-default-class",
                          "storageclass.beta.kubernetes.io/is-default-class"}) {
    auto it = sc.meta.annotations.find(key);
    if (it != sc.meta.annotations.end() && it->second == "true") sc.is_default = true;
  }
  dom::array topologies;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "allowedTopologies", &topologies, &found));
  if (found) {
    core::NodeSelector selector;
    BERTH_RETURN_IF_ERROR(DecodeList(obj, "allowedTopologies", DecodeTopologyTerm, &selector.terms));
    sc.allowed_topologies = std::move(selector);
  }
  return sc;
}

}  // namespace berth::io::internal
