// networking.k8s.io/v1 NetworkPolicy, for berth doctor's tenancy rules (a tenant namespace
// without a default-deny policy). Only what decides isolation is kept: the pods selected,
// the directions the policy isolates and how many rules allow traffic back in or out. The
// API server's defaulting is applied (no policyTypes: Ingress, plus Egress when egress rules
// are given), and its validation of what is read: label selectors, policy types, and each
// peer naming exactly one kind of source.
#include <string>
#include <string_view>

#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {
namespace {

core::Status CheckNetworkPeer(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object peer, AsObject(e));
  int sources = 0;
  for (std::string_view key : {"podSelector", "namespaceSelector"}) {
    dom::object selector;
    bool found = false;
    BERTH_RETURN_IF_ERROR(GetObject(peer, key, &selector, &found));
    if (!found) continue;
    ++sources;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeLabelSelector(selector), std::string(key));
  }
  dom::object block;
  bool has_block = false;
  BERTH_RETURN_IF_ERROR(GetObject(peer, "ipBlock", &block, &has_block));
  if (has_block) {
    std::string cidr;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(block, "cidr", &cidr), "ipBlock");
    if (cidr.empty()) return FieldError("ipBlock.cidr", "Required value");
    if (sources > 0) return FieldError("", "Forbidden: may not specify both ipBlock and another peer");
    ++sources;
  }
  if (sources == 0) return FieldError("", "Required value: must specify a peer");
  return core::OkStatus();
}

// spec.ingress or spec.egress (`key`): the number of rules, each an object whose peers
// (`peers_key`: from or to) are valid.
core::Status CountNetworkRules(dom::object spec, std::string_view key, std::string_view peers_key,
                               size_t* count) {
  dom::array rules;
  BERTH_RETURN_IF_ERROR(GetArray(spec, key, &rules));
  size_t i = 0;
  for (dom::element item : rules) {
    const std::string at = std::string(key) + IndexField(i++);
    auto rule = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(rule, at);
    dom::array peers;
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(*rule, peers_key, &peers), at);
    size_t p = 0;
    for (dom::element peer : peers) {
      const size_t index = p++;
      BERTH_IO_RETURN_IF_ERROR_AT(CheckNetworkPeer(peer),
                                  at + "." + std::string(peers_key) + IndexField(index));
    }
  }
  *count = i;
  return core::OkStatus();
}

}  // namespace

core::Result<model::NetworkPolicy> DecodeNetworkPolicy(dom::object obj) {
  model::NetworkPolicy policy;
  BERTH_ASSIGN_OR_RETURN(policy.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  dom::object selector;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "podSelector", &selector, &found), "spec");
  if (found) {
    auto decoded = DecodeLabelSelector(selector);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "spec.podSelector");
    policy.pod_selector = std::move(*decoded);
  }
  BERTH_IO_RETURN_IF_ERROR_AT(CountNetworkRules(spec, "ingress", "from", &policy.ingress_rules),
                              "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(CountNetworkRules(spec, "egress", "to", &policy.egress_rules),
                              "spec");
  std::vector<std::string> types;
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(spec, "policyTypes", &types), "spec");
  if (types.size() > 2) {
    return FieldError("spec.policyTypes",
                      "Too many: " + std::to_string(types.size()) + ": must have at most 2 items");
  }
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == "Ingress") {
      policy.ingress_type = true;
    } else if (types[i] == "Egress") {
      policy.egress_type = true;
    } else {
      return Unsupported("spec.policyTypes" + IndexField(i), types[i], {"Egress", "Ingress"});
    }
  }
  if (types.empty()) {
    policy.ingress_type = true;
    policy.egress_type = policy.egress_rules > 0;
  }
  return policy;
}

}  // namespace berth::io::internal
