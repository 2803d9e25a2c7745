// core/v1 ResourceQuota, LimitRange and ServiceAccount, for berth doctor. The checks are the
// cheap ones of kube-apiserver's ValidateResourceQuota and ValidateLimitRange (quantities,
// scopes, the Pod type's forbidden defaults, min above max), so an object the API server
// would refuse is an error here too rather than a rule's surprise. Amounts are kept by their
// full names and as written: a quota's `requests.nvidia.com/gpu` and `limits.nvidia.com/gpu`
// differ in what they bound, and doctor says which one a namespace lacks.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/labels.h"
#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"
#include "model/resources.h"

namespace berth::io::internal {
namespace {

int64_t QuotaMilliSaturated(const core::Quantity& q) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const core::Int128 milli = q.milli();
  if (milli > kMax) return kMax;
  if (milli < kMin) return kMin;
  return static_cast<int64_t>(milli);
}

// Upstream's integerResources (pkg/apis/core/helper): counts of objects, which a quota may
// not hold fractions of; extended resources are whole devices as well.
bool IsQuotaIntegerResource(std::string_view name) {
  static constexpr std::string_view kCounts[] = {
      "pods",    "services",      "replicationcontrollers",   "resourcequotas",
      "secrets", "configmaps",    "persistentvolumeclaims",   "services.nodeports",
      "services.loadbalancers"};
  return std::find(std::begin(kCounts), std::end(kCounts), name) != std::end(kCounts) ||
         model::IsExtendedResourceName(name);
}

// obj[key] (a ResourceList) as quota entries in document order: each amount a quantity,
// not negative, and a whole number for `integer_names` resources (ValidateResourceQuantityValue).
core::Status DecodeQuotaEntries(dom::object obj, std::string_view key, bool integer_names,
                                std::vector<model::QuotaEntry>* out) {
  dom::object list;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &list, &found));
  if (!found) return core::OkStatus();
  out->reserve(list.size());
  for (auto [name, value] : list) {
    auto q = ParseQuantityElement(value);
    BERTH_IO_RETURN_IF_ERROR_AT(q, KeyField(key, name));
    if (q->IsNegative()) {
      return InvalidValue(KeyField(key, name), q->ToString(), "must be greater than or equal to 0");
    }
    if (integer_names && !q->IsInteger() && IsQuotaIntegerResource(name)) {
      return InvalidValue(KeyField(key, name), q->ToString(), "must be an integer");
    }
    model::QuotaEntry entry;
    entry.name.assign(name);
    std::string_view text;
    if (value.get_string().get(text) == simdjson::SUCCESS) {
      entry.amount.assign(text);
    } else {
      entry.amount = q->ToString();  // a YAML or JSON number: its canonical spelling
    }
    entry.milli = QuotaMilliSaturated(*q);
    out->push_back(std::move(entry));
  }
  return core::OkStatus();
}

// Upstream's standardResourceQuotaScopes.
bool IsQuotaScope(std::string_view scope) {
  static constexpr std::string_view kScopes[] = {
      "Terminating",   "NotTerminating", "BestEffort",           "NotBestEffort",
      "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass"};
  return std::find(std::begin(kScopes), std::end(kScopes), scope) != std::end(kScopes);
}

core::Status DecodeScopeSelector(dom::object spec, model::NamespaceQuota* quota) {
  dom::object selector;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "scopeSelector", &selector, &found));
  if (!found) return core::OkStatus();
  dom::array expressions;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(selector, "matchExpressions", &expressions),
                              "scopeSelector");
  size_t i = 0;
  for (dom::element item : expressions) {
    const std::string at = "scopeSelector.matchExpressions" + IndexField(i++);
    auto e = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(e, at);
    std::string scope;
    std::string op;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*e, "scopeName", &scope), at);
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*e, "operator", &op), at);
    if (!IsQuotaScope(scope)) return InvalidValue(at + ".scopeName", scope, "unsupported scope");
    if (op != "In" && op != "NotIn" && op != "Exists" && op != "DoesNotExist") {
      return Unsupported(at + ".operator", op, {"DoesNotExist", "Exists", "In", "NotIn"});
    }
    model::ScopeSelectorRequirement requirement;
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(*e, "values", &requirement.values), at);
    // ValidateScopeSelectorRequirement: In and NotIn need values, Exists and DoesNotExist
    // take none.
    const bool set_op = op == "In" || op == "NotIn";
    if (set_op && requirement.values.empty()) {
      return FieldError(at + ".values",
                        "Required value: must be at least one value when `operator` is 'In' or "
                        "'NotIn' for scope selector");
    }
    if (!set_op && !requirement.values.empty()) {
      return FieldError(at + ".values",
                        "Invalid value: may not be specified when `operator` is 'Exists' or "
                        "'DoesNotExist' for scope selector");
    }
    requirement.scope_name = scope;
    requirement.op = std::move(op);
    quota->scope_selector.push_back(std::move(requirement));
    quota->scope_selector_scopes.push_back(std::move(scope));
  }
  return core::OkStatus();
}

}  // namespace

core::Result<model::NamespaceQuota> DecodeResourceQuota(dom::object obj) {
  model::NamespaceQuota quota;
  BERTH_ASSIGN_OR_RETURN(quota.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return quota;  // a quota without spec bounds nothing, as upstream allows
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuotaEntries(spec, "hard", /*integer_names=*/true, &quota.hard),
                              "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(spec, "scopes", &quota.scopes), "spec");
  for (size_t i = 0; i < quota.scopes.size(); ++i) {
    if (!IsQuotaScope(quota.scopes[i])) {
      return InvalidValue("spec.scopes" + IndexField(i), quota.scopes[i], "unsupported scope");
    }
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeScopeSelector(spec, &quota), "spec");
  // status.used: the quota controller's last count, which admission starts from.
  dom::object status;
  bool has_status = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &has_status));
  if (has_status) {
    dom::object used;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "used", &used, &quota.has_used), "status");
    if (quota.has_used) {
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeQuotaEntries(status, "used", /*integer_names=*/false, &quota.used), "status");
    }
  }
  return quota;
}

namespace {

const model::QuotaEntry* FindQuotaEntry(const std::vector<model::QuotaEntry>& entries,
                                        std::string_view name) {
  for (const model::QuotaEntry& e : entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

core::Result<model::LimitRangeItem> DecodeLimitRangeItem(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::LimitRangeItem item;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &item.type));
  // validateLimitRangeTypeName: the type is a qualified name (Container, Pod,
  // PersistentVolumeClaim, or a domain-prefixed one).
  if (std::string problem = core::QualifiedNameProblem(item.type); !problem.empty()) {
    return InvalidValue("type", item.type, problem);
  }
  BERTH_RETURN_IF_ERROR(DecodeQuotaEntries(obj, "default", false, &item.default_limits));
  BERTH_RETURN_IF_ERROR(DecodeQuotaEntries(obj, "defaultRequest", false, &item.default_requests));
  BERTH_RETURN_IF_ERROR(DecodeQuotaEntries(obj, "max", false, &item.max));
  BERTH_RETURN_IF_ERROR(DecodeQuotaEntries(obj, "min", false, &item.min));
  BERTH_RETURN_IF_ERROR(
      DecodeQuotaEntries(obj, "maxLimitRequestRatio", false, &item.max_limit_request_ratio));
  if (item.type == "Pod") {
    if (!item.default_limits.empty()) {
      return FieldError("default", "Forbidden: may not be specified when `type` is 'Pod'");
    }
    if (!item.default_requests.empty()) {
      return FieldError("defaultRequest", "Forbidden: may not be specified when `type` is 'Pod'");
    }
  }
  // ValidateLimitRange: a ratio below 1 would make every limit smaller than its request.
  for (const model::QuotaEntry& ratio : item.max_limit_request_ratio) {
    if (ratio.milli < 1000) {
      return InvalidValue(KeyField("maxLimitRequestRatio", ratio.name), ratio.amount,
                          "ratio must be greater than or equal to 1");
    }
  }
  for (const model::QuotaEntry& min : item.min) {
    const model::QuotaEntry* max = FindQuotaEntry(item.max, min.name);
    if (max != nullptr && min.milli > max->milli) {
      return InvalidValue(KeyField("min", min.name), min.amount,
                          "min value " + min.amount + " is greater than max value " + max->amount);
    }
  }
  return item;
}

}  // namespace

core::Result<model::LimitRange> DecodeLimitRange(dom::object obj) {
  model::LimitRange range;
  BERTH_ASSIGN_OR_RETURN(range.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return range;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "limits", DecodeLimitRangeItem, &range.limits),
                              "spec");
  return range;
}

core::Result<model::ServiceAccount> DecodeServiceAccount(dom::object obj) {
  model::ServiceAccount account;
  BERTH_ASSIGN_OR_RETURN(account.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  // Type-checked only: a kubelet mounts the token unless this says false.
  bool automount = true;
  BERTH_RETURN_IF_ERROR(GetBool(obj, "automountServiceAccountToken", &automount));
  return account;
}

}  // namespace berth::io::internal
