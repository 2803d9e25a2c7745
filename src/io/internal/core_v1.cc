// core/v1: Node, Namespace, Pod and the PodSpec/PodTemplateSpec shared by every workload.
// Resource rules follow upstream defaulting and validation (pkg/apis/core/v1/defaults.go,
// pkg/apis/core/validation): a request defaults to its limit; quantities are never negative;
// extended resources are whole numbers and, like hugepages, may not be overcommitted, so a
// request must equal its limit when both are set; any other request may not exceed its limit.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/labels.h"
#include "core/selector.h"
#include "core/taint.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "model/pod_requests.h"
#include "model/resources.h"

namespace berth::io::internal {

namespace {

struct NamedQuantity {
  std::string name;
  core::Quantity quantity;
};

// Upstream IsOvercommitAllowed: native resources other than hugepages may be overcommitted.
bool OvercommitAllowed(std::string_view name) {
  return model::IsNativeResourceName(name) && name.rfind("hugepages-", 0) != 0;
}

// A ResourceList (name -> quantity) at obj[key], validated as upstream's
// ValidateResourceQuantityValue does.
core::Status DecodeResourceList(dom::object obj, std::string_view key,
                                std::vector<NamedQuantity>* out, bool* given = nullptr) {
  dom::object list;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &list, &found));
  if (given != nullptr) *given = found;
  if (!found) return core::OkStatus();
  for (auto [name, value] : list) {
    // Field names are lambdas here and below, built only on error (BERTH_IO_RETURN_IF_ERROR_AT
    // evaluates its prefix lazily): decoding allocates no name per item.
    auto field = [&, name = name] { return KeyField(key, name); };
    auto q = ParseQuantityElement(value);
    BERTH_IO_RETURN_IF_ERROR_AT(q, field());
    if (q->IsNegative()) {
      return FieldError(
          field(), "invalid value " + core::Quote(q->ToString()) + ": must be greater than or equal to 0");
    }
    if (model::IsExtendedResourceName(name) && !q->IsInteger()) {
      return FieldError(field(), "invalid value " + core::Quote(q->ToString()) + ": must be an integer");
    }
    out->push_back({std::string(name), *q});
  }
  return core::OkStatus();
}

// Model units: cpu in milli-cores, everything else in whole units rounded up.
core::Status ToResourceVector(const std::vector<NamedQuantity>& list, std::string_view key,
                              model::ResourceCatalog& catalog, model::ResourceVector* out) {
  for (const NamedQuantity& nq : list) {
    auto amount = nq.name == "cpu" ? nq.quantity.MilliValue() : nq.quantity.Value();
    BERTH_IO_RETURN_IF_ERROR_AT(amount, KeyField(key, nq.name));
    out->Set(catalog.Intern(nq.name), *amount);
  }
  return core::OkStatus();
}

const NamedQuantity* FindQuantity(const std::vector<NamedQuantity>& list, std::string_view name) {
  for (const NamedQuantity& nq : list) {
    if (nq.name == name) return &nq;
  }
  return nullptr;
}

core::Status DecodeResources(dom::object container, model::ResourceCatalog& catalog,
                             model::Container* out) {
  dom::object resources;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(container, "resources", &resources, &found));
  if (!found) return core::OkStatus();
  std::vector<NamedQuantity> requests;
  std::vector<NamedQuantity> limits;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(resources, "limits", &limits), "resources");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(resources, "requests", &requests), "resources");
  // resources.claims[].name names a pod resource claim (DRA); the API server refuses an entry
  // without a string name, and so does berth rather than ignore it.
  dom::array claims;
  bool claims_found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(resources, "claims", &claims, &claims_found), "resources");
  size_t claim_index = 0;
  for (dom::element claim : claims) {
    const std::string at = "resources.claims" + IndexField(claim_index++);
    auto obj = AsObject(claim);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, at);
    std::string name;
    bool named = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &name, &named), at);
    if (!named || name.empty()) return FieldError(at + ".name", "Required value");
  }
  for (const NamedQuantity& limit : limits) {
    if (FindQuantity(requests, limit.name) == nullptr) requests.push_back(limit);
  }
  for (const NamedQuantity& request : requests) {
    const NamedQuantity* limit = FindQuantity(limits, request.name);
    if (limit == nullptr) continue;
    auto field = [&] { return KeyField("resources.requests", request.name); };
    if (!OvercommitAllowed(request.name) && request.quantity != limit->quantity) {
      return FieldError(field(), "invalid value " + core::Quote(request.quantity.ToString()) + ": must be equal to " + request.name + " limit of " +
                                     limit->quantity.ToString());
    }
    if (request.quantity > limit->quantity) {
      return FieldError(field(), "invalid value " + core::Quote(request.quantity.ToString()) + ": must be less than or equal to " + request.name +
                                     " limit of " + limit->quantity.ToString());
    }
  }
  // Named even as 0 (a limit defaults the request): NodeResourcesFit's score then takes the
  // amount as given instead of the 100m / 200Mi it assumes for containers that name none.
  out->cpu_request_named = FindQuantity(requests, "cpu") != nullptr;
  out->memory_request_named = FindQuantity(requests, "memory") != nullptr;
  BERTH_RETURN_IF_ERROR(ToResourceVector(requests, "resources.requests", catalog, &out->requests));
  BERTH_RETURN_IF_ERROR(ToResourceVector(limits, "resources.limits", catalog, &out->limits));
  return core::OkStatus();
}

// What berth doctor checks of a container beyond its image: imagePullPolicy (validated as
// upstream does), securityContext.privileged, and a literal NVIDIA_VISIBLE_DEVICES in env.
// The env scan compares names in place (string views into the document): a pod's env is
// often long and only one entry is kept.
core::Status DecodeDoctorContainerFields(dom::object c, model::Container* out) {
  BERTH_RETURN_IF_ERROR(GetString(c, "imagePullPolicy", &out->image_pull_policy));
  const std::string& policy = out->image_pull_policy;
  if (!policy.empty() && policy != "Always" && policy != "IfNotPresent" && policy != "Never") {
    return FieldError("imagePullPolicy", "unsupported value " + core::Quote(policy) +
                                             R"(: supported values: "Always", "IfNotPresent", "Never")");
  }
  dom::object security;
  BERTH_RETURN_IF_ERROR(GetObject(c, "securityContext", &security));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(security, "privileged", &out->privileged), "securityContext");
  dom::array env;
  BERTH_RETURN_IF_ERROR(GetArray(c, "env", &env));
  size_t i = 0;
  for (dom::element item : env) {
    const size_t index = i++;
    dom::object var;
    std::string_view name;
    if (item.get_object().get(var) != simdjson::SUCCESS) {
      return FieldError("env" + IndexField(index), "must be an object");
    }
    dom::element name_element;
    if (!Find(var, "name", &name_element) ||
        name_element.get_string().get(name) != simdjson::SUCCESS) {
      return FieldError("env" + IndexField(index) + ".name", "Required value");
    }
    if (name != "NVIDIA_VISIBLE_DEVICES") continue;
    dom::element value_from;
    if (Find(var, "valueFrom", &value_from)) {
      out->nvidia_visible_devices.reset();  // not a literal: what it resolves to is unknown
      continue;
    }
    std::string value;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(var, "value", &value), "env" + IndexField(index));
    out->nvidia_visible_devices = std::move(value);  // the last one wins, as in the container
  }
  return core::OkStatus();
}

// A port number as IsValidPortNum checks it.
bool ValidPortNumber(int32_t port) { return port >= 1 && port <= 65535; }

// ports[] of one container, validated as upstream's validateContainerPorts: containerPort
// required and a port number, hostPort 0 or a port number, protocol TCP, UDP or SCTP
// (defaulted to TCP). Only entries with a host port are kept (NodePorts reads them); on a
// hostNetwork pod every port is a host port, hostPort defaulted to containerPort as the
// API server's defaulting does (SetDefaults_PodSpec).
core::Status DecodeContainerPorts(dom::object c, bool host_network, model::Container* out) {
  dom::array ports;
  BERTH_RETURN_IF_ERROR(GetArray(c, "ports", &ports));
  size_t i = 0;
  for (dom::element item : ports) {
    const size_t index = i++;
    auto field = [&] { return "ports" + IndexField(index); };
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field());
    model::HostPort port;
    bool has_container_port = false;
    BERTH_IO_RETURN_IF_ERROR_AT(
        GetInt32(*obj, "containerPort", &port.container_port, &has_container_port), field());
    if (!has_container_port || port.container_port == 0) {
      return FieldError(field() + ".containerPort", "Required value");
    }
    if (!ValidPortNumber(port.container_port)) {
      return InvalidValue(field() + ".containerPort", std::to_string(port.container_port),
                          "must be between 1 and 65535, inclusive");
    }
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*obj, "hostPort", &port.host_port), field());
    if (port.host_port != 0 && !ValidPortNumber(port.host_port)) {
      return InvalidValue(field() + ".hostPort", std::to_string(port.host_port),
                          "must be between 1 and 65535, inclusive");
    }
    bool has_protocol = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "protocol", &port.protocol, &has_protocol),
                                field());
    if (!has_protocol) port.protocol = "TCP";
    if (port.protocol != "TCP" && port.protocol != "UDP" && port.protocol != "SCTP") {
      return FieldError(field() + ".protocol", "unsupported value " + core::Quote(port.protocol) +
                                                   R"(: supported values: "SCTP", "TCP", "UDP")");
    }
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "hostIP", &port.host_ip), field());
    std::string name;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &name), field());
    if (host_network && port.host_port == 0) port.host_port = port.container_port;
    if (port.host_port > 0) out->host_ports.push_back(std::move(port));
  }
  return core::OkStatus();
}

core::Status DecodeContainers(dom::object spec, std::string_view key, bool init,
                              bool host_network, model::ResourceCatalog& catalog,
                              std::vector<model::Container>* out) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(spec, key, &array, &found));
  if (!init && (!found || array.size() == 0)) {
    return FieldError(std::string(key), "required value: a pod needs at least one container");
  }
  if (!found) return core::OkStatus();
  out->reserve(array.size());
  size_t i = 0;
  for (dom::element item : array) {
    const size_t index = i++;
    auto field = [&] { return std::string(key) + IndexField(index); };
    auto c = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(c, field());
    model::Container container;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*c, "name", &container.name), field());
    // Not planned with, but printed (-o wide, ManifestWorks), read by berth doctor and
    // refused by the API server when it is not a string.
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*c, "image", &container.image), field());
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeDoctorContainerFields(*c, &container), field());
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeResources(*c, catalog, &container), field());
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeContainerPorts(*c, host_network, &container), field());
    if (init) {
      std::string restart_policy;
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(*c, "restartPolicy", &restart_policy), field());
      container.restartable = restart_policy == "Always";
    }
    out->push_back(std::move(container));
  }
  return core::OkStatus();
}

core::Result<core::SelectorRequirement> DecodeRequirement(dom::element e, bool allow_gt_lt) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  core::SelectorRequirement req;
  BERTH_RETURN_IF_ERROR(GetString(obj, "key", &req.key));
  std::string op;
  BERTH_RETURN_IF_ERROR(GetString(obj, "operator", &op));
  auto parsed = core::ParseSelectorOp(op, allow_gt_lt);
  BERTH_IO_RETURN_IF_ERROR_AT(parsed, "operator");
  req.op = *parsed;
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "values", &req.values));
  return req;
}

core::Status DecodeRequirements(dom::object obj, std::string_view key, bool allow_gt_lt,
                                std::vector<core::SelectorRequirement>* out) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, key, &array, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : array) {
    auto req = DecodeRequirement(item, allow_gt_lt);
    const size_t index = i++;
    auto field = [&] { return std::string(key) + IndexField(index); };
    BERTH_IO_RETURN_IF_ERROR_AT(req, field());
    out->push_back(std::move(*req));
  }
  return core::OkStatus();
}

}  // namespace

core::Status DecodeResourceListAt(dom::object obj, std::string_view key,
                                  model::ResourceCatalog& catalog, model::ResourceVector* out,
                                  bool* given) {
  std::vector<NamedQuantity> list;
  BERTH_RETURN_IF_ERROR(DecodeResourceList(obj, key, &list, given));
  return ToResourceVector(list, key, catalog, out);
}

core::Result<core::LabelSelector> DecodeLabelSelector(dom::object obj) {
  core::LabelSelector selector;
  BERTH_RETURN_IF_ERROR(GetStringMap(obj, "matchLabels", &selector.match_labels));
  BERTH_RETURN_IF_ERROR(DecodeRequirements(obj, "matchExpressions", /*allow_gt_lt=*/false,
                                           &selector.match_expressions));
  BERTH_RETURN_IF_ERROR(selector.Validate());
  return selector;
}

namespace {

// obj[key] as an optional label selector: absent stays nullopt (matches nothing).
core::Status DecodeOptionalSelector(dom::object obj, std::string_view key,
                                    std::optional<core::LabelSelector>* out) {
  dom::object sel;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &sel, &found));
  if (!found) return core::OkStatus();
  auto selector = DecodeLabelSelector(sel);
  BERTH_IO_RETURN_IF_ERROR_AT(selector, std::string(key));
  *out = std::move(*selector);
  return core::OkStatus();
}

core::Result<core::NodeSelectorTerm> DecodeNodeSelectorTerm(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  core::NodeSelectorTerm term;
  BERTH_RETURN_IF_ERROR(
      DecodeRequirements(obj, "matchExpressions", /*allow_gt_lt=*/true, &term.match_expressions));
  BERTH_RETURN_IF_ERROR(
      DecodeRequirements(obj, "matchFields", /*allow_gt_lt=*/true, &term.match_fields));
  return term;
}

core::Status DecodeNodeAffinity(dom::object na, model::NodeAffinity* out) {
  dom::object required;
  bool found = false;
  BERTH_RETURN_IF_ERROR(
      GetObject(na, "requiredDuringSchedulingIgnoredDuringExecution", &required, &found));
  if (found) {
    const std::string prefix = "requiredDuringSchedulingIgnoredDuringExecution";
    core::NodeSelector selector;
    dom::array terms;
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(required, "nodeSelectorTerms", &terms), prefix);
    size_t i = 0;
    for (dom::element item : terms) {
      auto term = DecodeNodeSelectorTerm(item);
      const size_t index = i++;
      auto field = [&] { return prefix + ".nodeSelectorTerms" + IndexField(index); };
      BERTH_IO_RETURN_IF_ERROR_AT(term, field());
      selector.terms.push_back(std::move(*term));
    }
    BERTH_IO_RETURN_IF_ERROR_AT(selector.Validate(), prefix);
    out->required = std::move(selector);
  }
  dom::array preferred;
  BERTH_RETURN_IF_ERROR(
      GetArray(na, "preferredDuringSchedulingIgnoredDuringExecution", &preferred, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : preferred) {
    const size_t index = i++;
    auto field = [&] {
      return std::string("preferredDuringSchedulingIgnoredDuringExecution") + IndexField(index);
    };
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field());
    model::PreferredSchedulingTerm pref;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*obj, "weight", &pref.weight), field());
    dom::element preference;
    if (Find(*obj, "preference", &preference)) {
      auto term = DecodeNodeSelectorTerm(preference);
      BERTH_IO_RETURN_IF_ERROR_AT(term, field() + ".preference");
      BERTH_IO_RETURN_IF_ERROR_AT(term->Validate(), field() + ".preference");
      pref.preference = std::move(*term);
    }
    out->preferred.push_back(std::move(pref));
  }
  return core::OkStatus();
}

core::Result<model::PodAffinityTerm> DecodePodAffinityTerm(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::PodAffinityTerm term;
  BERTH_RETURN_IF_ERROR(DecodeOptionalSelector(obj, "labelSelector", &term.label_selector));
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "namespaces", &term.namespaces));
  BERTH_RETURN_IF_ERROR(DecodeOptionalSelector(obj, "namespaceSelector", &term.namespace_selector));
  BERTH_RETURN_IF_ERROR(GetString(obj, "topologyKey", &term.topology_key));
  if (term.topology_key.empty()) return FieldError("topologyKey", "required value");
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "matchLabelKeys", &term.match_label_keys));
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "mismatchLabelKeys", &term.mismatch_label_keys));
  return term;
}

core::Status DecodePodAffinityRules(dom::object obj, model::PodAffinityRules* out) {
  dom::array required;
  bool found = false;
  BERTH_RETURN_IF_ERROR(
      GetArray(obj, "requiredDuringSchedulingIgnoredDuringExecution", &required, &found));
  if (found) {
    size_t i = 0;
    for (dom::element item : required) {
      auto term = DecodePodAffinityTerm(item);
      const size_t index = i++;
      auto field = [&] {
        return std::string("requiredDuringSchedulingIgnoredDuringExecution") + IndexField(index);
      };
      BERTH_IO_RETURN_IF_ERROR_AT(term, field());
      out->required.push_back(std::move(*term));
    }
  }
  dom::array preferred;
  BERTH_RETURN_IF_ERROR(
      GetArray(obj, "preferredDuringSchedulingIgnoredDuringExecution", &preferred, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : preferred) {
    const size_t index = i++;
    auto field = [&] {
      return std::string("preferredDuringSchedulingIgnoredDuringExecution") + IndexField(index);
    };
    auto wobj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(wobj, field());
    model::WeightedPodAffinityTerm weighted;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*wobj, "weight", &weighted.weight), field());
    dom::element term_elem;
    if (!Find(*wobj, "podAffinityTerm", &term_elem)) {
      return FieldError(field() + ".podAffinityTerm", "required value");
    }
    auto term = DecodePodAffinityTerm(term_elem);
    BERTH_IO_RETURN_IF_ERROR_AT(term, field() + ".podAffinityTerm");
    weighted.term = std::move(*term);
    out->preferred.push_back(std::move(weighted));
  }
  return core::OkStatus();
}

core::Status DecodeAffinity(dom::object affinity, model::Pod* pod) {
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(affinity, "nodeAffinity", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeNodeAffinity(part, &pod->node_affinity), "nodeAffinity");
  }
  BERTH_RETURN_IF_ERROR(GetObject(affinity, "podAffinity", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePodAffinityRules(part, &pod->pod_affinity), "podAffinity");
  }
  BERTH_RETURN_IF_ERROR(GetObject(affinity, "podAntiAffinity", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePodAffinityRules(part, &pod->pod_anti_affinity),
                                "podAntiAffinity");
  }
  return core::OkStatus();
}

}  // namespace

core::Result<core::Toleration> DecodeToleration(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  core::Toleration t;
  BERTH_RETURN_IF_ERROR(GetString(obj, "key", &t.key));
  std::string op;
  BERTH_RETURN_IF_ERROR(GetString(obj, "operator", &op));
  auto parsed_op = core::ParseTolerationOp(op);
  BERTH_IO_RETURN_IF_ERROR_AT(parsed_op, "operator");
  t.op = *parsed_op;
  BERTH_RETURN_IF_ERROR(GetString(obj, "value", &t.value));
  std::string effect;
  BERTH_RETURN_IF_ERROR(GetString(obj, "effect", &effect));
  if (!effect.empty()) {
    auto parsed = core::ParseTaintEffect(effect);
    BERTH_IO_RETURN_IF_ERROR_AT(parsed, "effect");
    t.effect = *parsed;
  }
  int64_t seconds = 0;
  bool has_seconds = false;
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "tolerationSeconds", &seconds, &has_seconds));
  if (has_seconds) t.toleration_seconds = seconds;
  // Upstream validateTolerations.
  if (t.op == core::TolerationOp::kExists && !t.value.empty()) {
    return FieldError("operator", "value must be empty when operator is Exists");
  }
  if (t.key.empty() && t.op != core::TolerationOp::kExists) {
    return FieldError("operator", "operator must be Exists when key is empty");
  }
  return t;
}

namespace {

core::Result<model::TopologySpreadConstraint> DecodeSpreadConstraint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::TopologySpreadConstraint c;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "maxSkew", &c.max_skew));
  if (c.max_skew <= 0) return FieldError("maxSkew", "must be greater than zero");
  BERTH_RETURN_IF_ERROR(GetString(obj, "topologyKey", &c.topology_key));
  if (c.topology_key.empty()) return FieldError("topologyKey", "required value");
  std::string when;
  BERTH_RETURN_IF_ERROR(GetString(obj, "whenUnsatisfiable", &when));
  if (when == "ScheduleAnyway") {
    c.when_unsatisfiable = model::UnsatisfiableAction::kScheduleAnyway;
  } else if (when.empty() || when == "DoNotSchedule") {
    c.when_unsatisfiable = model::UnsatisfiableAction::kDoNotSchedule;
  } else {
    return FieldError("whenUnsatisfiable", "unsupported value " + core::Quote(when) + ": supported values: \"DoNotSchedule\", "
                                               "\"ScheduleAnyway\"");
  }
  BERTH_RETURN_IF_ERROR(DecodeOptionalSelector(obj, "labelSelector", &c.label_selector));
  int32_t min_domains = 0;
  bool has_min = false;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "minDomains", &min_domains, &has_min));
  if (has_min) {
    if (min_domains <= 0) return FieldError("minDomains", "must be greater than zero");
    c.min_domains = min_domains;
  }
  for (auto [key, target] : {std::pair<const char*, model::NodeInclusionPolicy*>{
                                 "nodeAffinityPolicy", &c.node_affinity_policy},
                             std::pair<const char*, model::NodeInclusionPolicy*>{
                                 "nodeTaintsPolicy", &c.node_taints_policy}}) {
    std::string policy;
    BERTH_RETURN_IF_ERROR(GetString(obj, key, &policy));
    if (policy == "Honor") {
      *target = model::NodeInclusionPolicy::kHonor;
    } else if (policy == "Ignore") {
      *target = model::NodeInclusionPolicy::kIgnore;
    } else if (!policy.empty()) {
      return FieldError(
          key, "unsupported value " + core::Quote(policy) + R"(: supported values: "Honor", "Ignore")");
    }
  }
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "matchLabelKeys", &c.match_label_keys));
  return c;
}

// spec.resourceClaims[]: a name and exactly one of resourceClaimName and
// resourceClaimTemplateName (validatePodResourceClaim). A template reference's claim_name is
// filled in by Reader::Finish, which generates the claim.
core::Status DecodePodResourceClaims(dom::object spec, model::Pod* pod) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(spec, "resourceClaims", &array, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : array) {
    const size_t index = i++;
    auto field = [&] { return std::string("resourceClaims") + IndexField(index); };
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field());
    model::PodResourceClaim claim;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &claim.name), field());
    if (claim.name.empty()) return FieldError(field() + ".name", "required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "resourceClaimName", &claim.claim_name), field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "resourceClaimTemplateName", &claim.template_name),
                                field());
    if (claim.claim_name.empty() == claim.template_name.empty()) {
      return FieldError(field(), claim.claim_name.empty()
                                     ? "required value: must specify one of: `resourceClaimName`, "
                                       "`resourceClaimTemplateName`"
                                     : "at most one of `resourceClaimName` or "
                                       "`resourceClaimTemplateName` may be specified");
    }
    for (const model::PodResourceClaim& other : pod->resource_claims) {
      if (other.name == claim.name) {
        return FieldError(field() + ".name", "duplicate value " + core::Quote(claim.name));
      }
    }
    pod->resource_claims.push_back(std::move(claim));
  }
  return core::OkStatus();
}

// spec.volumes[]: only hostPath and persistentVolumeClaim volumes are kept (what berth
// doctor checks); the others (configMap, secret, projected, emptyDir: on nearly every pod)
// cost no allocation. A kept source must name its path or claim, as upstream requires.
core::Status DecodePodVolumes(dom::object spec, model::Pod* pod) {
  dom::array volumes;
  BERTH_RETURN_IF_ERROR(GetArray(spec, "volumes", &volumes));
  size_t i = 0;
  for (dom::element item : volumes) {
    const size_t index = i++;
    auto field = [&] { return std::string("volumes") + IndexField(index); };
    auto volume = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(volume, field());
    dom::object host_path;
    dom::object claim;
    bool has_host_path = false;
    bool has_claim = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(*volume, "hostPath", &host_path, &has_host_path),
                                field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(*volume, "persistentVolumeClaim", &claim, &has_claim),
                                field());
    if (!has_host_path && !has_claim) continue;
    model::PodVolume kept;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*volume, "name", &kept.name), field());
    if (has_host_path) {
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(host_path, "path", &kept.host_path),
                                  field() + ".hostPath");
      if (kept.host_path.empty()) return FieldError(field() + ".hostPath.path", "Required value");
    }
    if (has_claim) {
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(claim, "claimName", &kept.claim_name),
                                  field() + ".persistentVolumeClaim");
      if (kept.claim_name.empty()) {
        return FieldError(field() + ".persistentVolumeClaim.claimName", "Required value");
      }
    }
    pod->volumes.push_back(std::move(kept));
  }
  return core::OkStatus();
}

// spec.workloadRef (scheduling.k8s.io gang API): name and podGroup required, each a DNS
// label as the API server validates them, podGroupReplicaKey optional (a DNS label too).
core::Status DecodeWorkloadRef(dom::object spec, model::Pod* pod) {
  dom::object ref;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "workloadRef", &ref, &found));
  if (!found) return core::OkStatus();
  model::WorkloadReference out;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "name", &out.name), "workloadRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "podGroup", &out.pod_group), "workloadRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "podGroupReplicaKey", &out.pod_group_replica_key),
                              "workloadRef");
  const std::pair<const char*, const std::string*> fields[] = {
      {"workloadRef.name", &out.name},
      {"workloadRef.podGroup", &out.pod_group},
      {"workloadRef.podGroupReplicaKey", &out.pod_group_replica_key}};
  for (const auto& [field, value] : fields) {
    if (value->empty()) {
      if (value == &out.pod_group_replica_key) continue;
      return FieldError(field, "required value");
    }
    if (std::string problem = core::Dns1123LabelProblem(*value); !problem.empty()) {
      return InvalidValue(field, *value, problem);
    }
  }
  pod->workload_ref = std::move(out);
  return core::OkStatus();
}

core::Status DecodePodSpec(dom::object spec, model::ResourceCatalog& catalog, model::Pod* pod,
                           bool* has_priority) {
  bool host_network = false;
  BERTH_RETURN_IF_ERROR(GetBool(spec, "hostNetwork", &host_network));
  BERTH_RETURN_IF_ERROR(DecodeContainers(spec, "initContainers", /*init=*/true, host_network,
                                         catalog, &pod->init_containers));
  BERTH_RETURN_IF_ERROR(DecodeContainers(spec, "containers", /*init=*/false, host_network,
                                         catalog, &pod->containers));
  BERTH_RETURN_IF_ERROR(
      DecodeResourceListAt(spec, "overhead", catalog, &pod->overhead, &pod->overhead_given));
  BERTH_RETURN_IF_ERROR(GetString(spec, "nodeName", &pod->node_name));
  BERTH_RETURN_IF_ERROR(GetString(spec, "schedulerName", &pod->scheduler_name));
  std::string restart_policy;
  BERTH_RETURN_IF_ERROR(GetString(spec, "restartPolicy", &restart_policy));
  if (!restart_policy.empty() && restart_policy != "Always" && restart_policy != "OnFailure" &&
      restart_policy != "Never") {
    return InvalidValue("restartPolicy", restart_policy,
                        R"(supported values: "Always", "Never", "OnFailure")");
  }
  if (pod->scheduler_name.empty()) pod->scheduler_name = "default-scheduler";
  BERTH_RETURN_IF_ERROR(GetStringMap(spec, "nodeSelector", &pod->node_selector));
  BERTH_RETURN_IF_ERROR(ValidateLabelMap(pod->node_selector, "nodeSelector"));
  dom::object affinity;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "affinity", &affinity, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeAffinity(affinity, pod), "affinity");
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "tolerations", DecodeToleration, &pod->tolerations));
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "topologySpreadConstraints", DecodeSpreadConstraint,
                                   &pod->topology_spread_constraints));
  BERTH_RETURN_IF_ERROR(GetString(spec, "priorityClassName", &pod->priority_class_name));
  BERTH_RETURN_IF_ERROR(GetInt32(spec, "priority", &pod->priority, has_priority));
  BERTH_RETURN_IF_ERROR(GetString(spec, "preemptionPolicy", &pod->preemption_policy));
  if (!pod->preemption_policy.empty() && pod->preemption_policy != "PreemptLowerPriority" &&
      pod->preemption_policy != "Never") {
    return InvalidValue("preemptionPolicy", pod->preemption_policy,
                        R"(supported values: "Never", "PreemptLowerPriority")");
  }
  BERTH_RETURN_IF_ERROR(DecodePodResourceClaims(spec, pod));
  BERTH_RETURN_IF_ERROR(DecodePodVolumes(spec, pod));
  BERTH_RETURN_IF_ERROR(GetString(spec, "runtimeClassName", &pod->runtime_class_name));
  int64_t active_deadline_s = 0;
  bool has_active_deadline = false;
  BERTH_RETURN_IF_ERROR(
      GetInt64(spec, "activeDeadlineSeconds", &active_deadline_s, &has_active_deadline));
  if (has_active_deadline) pod->active_deadline_seconds = active_deadline_s;
  BERTH_RETURN_IF_ERROR(GetString(spec, "serviceAccountName", &pod->service_account_name));
  // serviceAccount is serviceAccountName's deprecated alias, which the API server copies over.
  if (pod->service_account_name.empty()) {
    BERTH_RETURN_IF_ERROR(GetString(spec, "serviceAccount", &pod->service_account_name));
  }
  BERTH_RETURN_IF_ERROR(DecodeWorkloadRef(spec, pod));
  // Every later sum (pod sets, nodes, quota) starts from pod totals that fit in int64.
  BERTH_RETURN_IF_ERROR(model::CheckPodRequestsInRange(*pod, catalog));
  return core::OkStatus();
}

core::Result<model::PodCondition> DecodeCondition(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::PodCondition c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &c.type));
  BERTH_RETURN_IF_ERROR(GetString(obj, "status", &c.status));
  BERTH_RETURN_IF_ERROR(GetString(obj, "reason", &c.reason));
  BERTH_RETURN_IF_ERROR(GetString(obj, "message", &c.message));
  return c;
}

core::Status DecodePodStatus(dom::object status, model::Pod* pod) {
  std::string phase;
  BERTH_RETURN_IF_ERROR(GetString(status, "phase", &phase));
  if (phase.empty() || phase == "Pending") {
    pod->phase = model::PodPhase::kPending;
  } else if (phase == "Running") {
    pod->phase = model::PodPhase::kRunning;
  } else if (phase == "Succeeded") {
    pod->phase = model::PodPhase::kSucceeded;
  } else if (phase == "Failed") {
    pod->phase = model::PodPhase::kFailed;
  } else {
    pod->phase = model::PodPhase::kUnknown;
  }
  BERTH_RETURN_IF_ERROR(DecodeList(status, "conditions", DecodeCondition, &pod->conditions));
  BERTH_RETURN_IF_ERROR(GetString(status, "nominatedNodeName", &pod->nominated_node_name));
  std::string started;
  BERTH_RETURN_IF_ERROR(GetString(status, "startTime", &started));
  if (!started.empty()) {
    auto ts = core::Timestamp::Parse(started);
    BERTH_IO_RETURN_IF_ERROR_AT(ts, "startTime");
    pod->start_time = *ts;
  }
  // The claims the resourceclaim controller generated for template references (a cluster
  // dump names them `<pod>-<claim>-<suffix>`): the pod uses those, as kube-scheduler does.
  dom::array claim_statuses;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(status, "resourceClaimStatuses", &claim_statuses, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : claim_statuses) {
    const size_t index = i++;
    auto field = [&] { return std::string("resourceClaimStatuses") + IndexField(index); };
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field());
    std::string name;
    std::string claim_name;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &name), field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "resourceClaimName", &claim_name), field());
    for (model::PodResourceClaim& claim : pod->resource_claims) {
      if (claim.name == name && !claim.template_name.empty()) claim.claim_name = claim_name;
    }
  }
  return core::OkStatus();
}

}  // namespace

core::Result<core::NodeSelector> DecodeNodeSelector(dom::object obj) {
  core::NodeSelector selector;
  dom::array terms;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "nodeSelectorTerms", &terms));
  size_t i = 0;
  for (dom::element item : terms) {
    auto term = DecodeNodeSelectorTerm(item);
    const size_t index = i++;
    auto field = [&] { return std::string("nodeSelectorTerms") + IndexField(index); };
    BERTH_IO_RETURN_IF_ERROR_AT(term, field());
    selector.terms.push_back(std::move(*term));
  }
  BERTH_RETURN_IF_ERROR(selector.Validate());
  return selector;
}

core::Result<core::Taint> DecodeTaint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object t, AsObject(e));
  core::Taint taint;
  BERTH_RETURN_IF_ERROR(GetString(t, "key", &taint.key));
  if (taint.key.empty()) return FieldError("key", "required value");
  BERTH_RETURN_IF_ERROR(GetString(t, "value", &taint.value));
  std::string effect;
  BERTH_RETURN_IF_ERROR(GetString(t, "effect", &effect));
  auto parsed = core::ParseTaintEffect(effect);
  BERTH_IO_RETURN_IF_ERROR_AT(parsed, "effect");
  taint.effect = *parsed;
  return taint;
}

// The Ready condition of status.conditions into node->ready, ready_reason and
// ready_transition; other condition types (MemoryPressure, ...) are not read.
core::Status DecodeNodeReady(dom::object status, model::Node* node) {
  dom::array conditions;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(status, "conditions", &conditions, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : conditions) {
    const std::string at = std::string("conditions") + IndexField(i++);
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, at);
    std::string type;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "type", &type), at);
    if (type != "Ready") continue;
    std::string status_text;
    std::string time;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "status", &status_text), at);
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "reason", &node->ready_reason), at);
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "lastTransitionTime", &time), at);
    node->ready = status_text == "True";
    if (!time.empty()) {
      auto ts = core::Timestamp::Parse(time);
      BERTH_IO_RETURN_IF_ERROR_AT(ts, at + ".lastTransitionTime");
      node->ready_transition = *ts;
    }
  }
  return core::OkStatus();
}

namespace {

// The timeAdded of the node.kubernetes.io/unschedulable taint (core.Taint keeps no time:
// only this one is read, for how long a node has been cordoned).
core::Status DecodeCordonTime(dom::object spec, std::optional<core::Timestamp>* out) {
  dom::array taints;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(spec, "taints", &taints, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : taints) {
    const size_t index = i++;
    BERTH_ASSIGN_OR_RETURN(dom::object t, AsObject(item));  // DecodeTaint read it first
    std::string key, added;
    BERTH_RETURN_IF_ERROR(GetString(t, "key", &key));
    if (key != "node.kubernetes.io/unschedulable") continue;
    bool has_time = false;
    BERTH_RETURN_IF_ERROR(GetString(t, "timeAdded", &added, &has_time));
    if (!has_time) continue;
    auto parsed = core::Timestamp::Parse(added);
    if (!parsed.has_value()) {
      return FieldError("taints" + IndexField(index) + ".timeAdded", parsed.error().message());
    }
    *out = *parsed;
  }
  return core::OkStatus();
}

}  // namespace

core::Result<model::Node> DecodeNode(dom::object obj, model::ResourceCatalog& catalog) {
  model::Node node;
  BERTH_ASSIGN_OR_RETURN(node.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                     /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "unschedulable", &node.unschedulable), "spec");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "taints", DecodeTaint, &node.taints), "spec");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeCordonTime(spec, &node.unschedulable_since), "spec");
  }
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    std::vector<NamedQuantity> capacity;
    std::vector<NamedQuantity> allocatable;
    bool has_allocatable = false;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(status, "capacity", &capacity), "status");
    dom::object unused;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "allocatable", &unused, &has_allocatable),
                                "status");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(status, "allocatable", &allocatable), "status");
    BERTH_IO_RETURN_IF_ERROR_AT(ToResourceVector(capacity, "capacity", catalog, &node.capacity),
                                "status");
    if (has_allocatable) {
      BERTH_IO_RETURN_IF_ERROR_AT(
          ToResourceVector(allocatable, "allocatable", catalog, &node.allocatable), "status");
    } else {
      node.allocatable = node.capacity;
    }
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeNodeReady(status, &node), "status");
  }
  return node;
}

core::Result<model::Namespace> DecodeNamespace(dom::object obj) {
  model::Namespace ns;
  BERTH_ASSIGN_OR_RETURN(ns.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                   /*name_required=*/true, NameRule::kDnsLabel));
  return ns;
}

core::Result<model::Pod> DecodePod(dom::object obj, model::ResourceCatalog& catalog,
                                   bool* has_priority) {
  model::Pod pod;
  BERTH_ASSIGN_OR_RETURN(pod.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                    /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(DecodeControllerRef(obj, &pod.owner));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) {
    return FieldError("spec.containers", "required value: a pod needs at least one container");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodSpec(spec, catalog, &pod, has_priority), "spec");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodePodStatus(status, &pod), "status");
  return pod;
}

core::Status DecodePodTemplate(dom::object tmpl, const model::WorkloadObject& owner,
                               model::ResourceCatalog& catalog, model::PodSetTemplate* pod_set,
                               PodSetSource* source) {
  model::Pod& pod = pod_set->pod_template;
  BERTH_ASSIGN_OR_RETURN(pod.meta, DecodeObjectMeta(tmpl, /*namespaced=*/true,
                                                    /*name_required=*/false));
  pod.meta.name.clear();
  pod.meta.namespace_ = owner.meta.namespace_;
  pod.meta.uid.clear();
  pod.meta.creation_timestamp = owner.meta.creation_timestamp;
  pod.owner = model::OwnerRef{owner.api_version, owner.kind, owner.meta.name, owner.meta.uid};
  pod.cluster = owner.cluster;
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(tmpl, "spec", &spec, &found));
  if (!found) {
    return FieldError("spec.containers", "required value: a pod needs at least one container");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodSpec(spec, catalog, &pod, &source->has_priority), "spec");
  source->template_json = simdjson::minify(tmpl);
  return core::OkStatus();
}

}  // namespace berth::io::internal
