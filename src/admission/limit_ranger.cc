// Why this shape: upstream works on ResourceLists keyed by name, where "named" and "zero"
// differ; berth's pods hold dense ResourceVectors, so a request counts as named when it is
// non-zero or (cpu, memory) the reader saw it written. Amounts are compared in milli-units,
// as upstream does whenever they fit, and printed as canonical quantities.
#include "admission/limit_ranger.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "core/quantity.h"

namespace berth::admission {
namespace {

constexpr std::string_view kLimitTypeContainer = "Container";
constexpr std::string_view kLimitTypePod = "Pod";

// ResourceVector units (milli-cores for cpu, whole units otherwise) from milli-units,
// rounded up like upstream's Quantity.Value().
int64_t UnitsOfMilli(model::ResourceId id, int64_t milli) {
  if (id == model::kCpu) return milli;
  return milli / 1000 + (milli % 1000 > 0 ? 1 : 0);
}

core::Int128 MilliOfUnits(model::ResourceId id, int64_t units) {
  return id == model::kCpu ? core::Int128{units} : core::Int128{units} * 1000;
}

bool RequestNamed(const model::Container& c, model::ResourceId id) {
  if (c.requests.Get(id) != 0) return true;
  if (id == model::kCpu) return c.cpu_request_named;
  if (id == model::kMemory) return c.memory_request_named;
  return false;
}

bool LimitNamed(const model::Container& c, model::ResourceId id) { return c.limits.Get(id) != 0; }

std::string Canonical(const model::QuotaEntry& e) {
  auto q = core::Quantity::Parse(e.amount);
  return q.has_value() ? q->ToString() : e.amount;
}

std::string Observed(const model::ResourceCatalog& catalog, model::ResourceId id, int64_t units) {
  return model::AmountQuantity(catalog.Name(id), units).ToString();
}

// One side of a bound: the amount and whether it was named at all.
struct Side {
  bool named = false;
  int64_t units = 0;
};

// The requests and limits a bound is checked against: one container's, or the pod's sums.
struct Observation {
  Side request;
  Side limit;
};

void MinConstraint(std::string_view type, const std::string& name, const model::QuotaEntry& bound,
                   model::ResourceId id, const Observation& o, const model::ResourceCatalog& catalog,
                   std::vector<std::string>* errors) {
  const std::string head = "minimum " + name + " usage per " + std::string(type) + " is " + Canonical(bound);
  if (!o.request.named) {
    errors->push_back(head + ".  No request is specified");
  } else if (MilliOfUnits(id, o.request.units) < bound.milli) {
    errors->push_back(head + ", but request is " + Observed(catalog, id, o.request.units));
  } else if (o.limit.named && MilliOfUnits(id, o.limit.units) < bound.milli) {
    errors->push_back(head + ", but limit is " + Observed(catalog, id, o.limit.units));
  }
}

void MaxConstraint(std::string_view type, const std::string& name, const model::QuotaEntry& bound,
                   model::ResourceId id, const Observation& o, const model::ResourceCatalog& catalog,
                   std::vector<std::string>* errors) {
  const std::string head = "maximum " + name + " usage per " + std::string(type) + " is " + Canonical(bound);
  if (!o.limit.named) {
    errors->push_back(head + ".  No limit is specified");
  } else if (MilliOfUnits(id, o.limit.units) > bound.milli) {
    errors->push_back(head + ", but limit is " + Observed(catalog, id, o.limit.units));
  } else if (o.request.named && MilliOfUnits(id, o.request.units) > bound.milli) {
    errors->push_back(head + ", but request is " + Observed(catalog, id, o.request.units));
  }
}

void RatioConstraint(std::string_view type, const std::string& name, const model::QuotaEntry& bound,
                     const Observation& o, std::vector<std::string>* errors) {
  const std::string head = name + " max limit to request ratio per " + std::string(type) + " is " +
                           Canonical(bound);
  if (!o.request.named || o.request.units == 0) {
    errors->push_back(head + ", but no request is specified or request is 0");
    return;
  }
  if (!o.limit.named || o.limit.units == 0) {
    errors->push_back(head + ", but no limit is specified or limit is 0");
    return;
  }
  // Both amounts are in the same unit, so their ratio is unit-free; the bound is compared in
  // milli-units as upstream does.
  const double ratio = static_cast<double>(o.limit.units) / static_cast<double>(o.request.units);
  if (ratio * 1000.0 > static_cast<double>(bound.milli)) {
    char shown[64];
    std::snprintf(shown, sizeof shown, "%f", ratio);
    errors->push_back(head + ", but provided ratio is " + shown);
  }
}

// Checks one item's min, max and ratio entries against `observe(id)`.
template <typename Observe>
void CheckItem(const model::LimitRangeItem& item, model::ResourceCatalog& catalog,
               const Observe& observe, std::vector<std::string>* errors) {
  for (const model::QuotaEntry& e : item.min) {
    const model::ResourceId id = catalog.Intern(e.name);
    MinConstraint(item.type, e.name, e, id, observe(id), catalog, errors);
  }
  for (const model::QuotaEntry& e : item.max) {
    const model::ResourceId id = catalog.Intern(e.name);
    MaxConstraint(item.type, e.name, e, id, observe(id), catalog, errors);
  }
  for (const model::QuotaEntry& e : item.max_limit_request_ratio) {
    const model::ResourceId id = catalog.Intern(e.name);
    RatioConstraint(item.type, e.name, e, observe(id), errors);
  }
}

Observation OfContainer(const model::Container& c, model::ResourceId id) {
  return Observation{.request = {.named = RequestNamed(c, id), .units = c.requests.Get(id)},
                     .limit = {.named = LimitNamed(c, id), .units = c.limits.Get(id)}};
}

// The pod's requests and limits (upstream podRequests/podLimits): the app containers' sum,
// or an init container's amount where larger; named when any container names it.
Observation OfPod(const model::Pod& pod, model::ResourceId id) {
  Observation sum;
  for (const model::Container& c : pod.containers) {
    const Observation one = OfContainer(c, id);
    sum.request.named |= one.request.named;
    sum.limit.named |= one.limit.named;
    sum.request.units = model::SaturatingAdd(sum.request.units, one.request.units);
    sum.limit.units = model::SaturatingAdd(sum.limit.units, one.limit.units);
  }
  for (const model::Container& c : pod.init_containers) {
    const Observation one = OfContainer(c, id);
    sum.request.named |= one.request.named;
    sum.limit.named |= one.limit.named;
    sum.request.units = std::max(sum.request.units, one.request.units);
    sum.limit.units = std::max(sum.limit.units, one.limit.units);
  }
  return sum;
}

// Fills one container's unnamed requests and limits from the range's Container defaults
// (later items win, as upstream builds one default list), and says what it set.
void MergeDefaults(const model::LimitRange& range, model::ResourceCatalog& catalog,
                   model::Container* c, std::vector<std::string>* notes) {
  std::vector<std::pair<std::string, int64_t>> limits;
  std::vector<std::pair<std::string, int64_t>> requests;
  auto put = [](std::vector<std::pair<std::string, int64_t>>& list, const model::QuotaEntry& e) {
    for (auto& [name, milli] : list) {
      if (name == e.name) {
        milli = e.milli;
        return;
      }
    }
    list.emplace_back(e.name, e.milli);
  };
  for (const model::LimitRangeItem& item : range.limits) {
    if (item.type != kLimitTypeContainer) continue;
    for (const model::QuotaEntry& e : item.default_requests) put(requests, e);
    for (const model::QuotaEntry& e : item.default_limits) put(limits, e);
  }
  std::vector<std::string> set_limits;
  std::vector<std::string> set_requests;
  for (const auto& [name, milli] : limits) {
    const model::ResourceId id = catalog.Intern(name);
    if (LimitNamed(*c, id)) continue;
    c->limits.Set(id, UnitsOfMilli(id, milli));
    set_limits.push_back(name);
  }
  for (const auto& [name, milli] : requests) {
    const model::ResourceId id = catalog.Intern(name);
    if (RequestNamed(*c, id)) continue;
    c->requests.Set(id, UnitsOfMilli(id, milli));
    if (id == model::kCpu) c->cpu_request_named = true;
    if (id == model::kMemory) c->memory_request_named = true;
    set_requests.push_back(name);
  }
  auto note = [&](std::vector<std::string>& names, const char* what) {
    if (names.empty()) return;
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    notes->push_back(text + " " + what + " for container " + c->name);
  };
  note(set_requests, "request");
  note(set_limits, "limit");
}

}  // namespace

std::string LimitRangerResult::Message() const {
  if (errors.size() == 1) return errors.front();
  std::string joined = "[";
  for (size_t i = 0; i < errors.size(); ++i) joined += (i == 0 ? "" : ", ") + errors[i];
  return joined + "]";
}

model::LimitRange DefaultedLimitRange(const model::LimitRange& range) {
  model::LimitRange out = range;
  auto has = [](const std::vector<model::QuotaEntry>& list, const std::string& name) {
    for (const model::QuotaEntry& e : list) {
      if (e.name == name) return true;
    }
    return false;
  };
  for (model::LimitRangeItem& item : out.limits) {
    if (item.type != kLimitTypeContainer) continue;
    for (const model::QuotaEntry& e : item.max) {
      if (!has(item.default_limits, e.name)) item.default_limits.push_back(e);
    }
    for (const model::QuotaEntry& e : item.default_limits) {
      if (!has(item.default_requests, e.name)) item.default_requests.push_back(e);
    }
    for (const model::QuotaEntry& e : item.min) {
      if (!has(item.default_requests, e.name)) item.default_requests.push_back(e);
    }
  }
  return out;
}

LimitRangerResult ApplyLimitRanges(std::span<const model::LimitRange* const> ranges,
                                   model::ResourceCatalog& catalog, model::Pod* pod) {
  LimitRangerResult result;
  std::vector<std::string> notes;
  for (const model::LimitRange* range : ranges) {
    for (model::Container& c : pod->containers) MergeDefaults(*range, catalog, &c, &notes);
    for (model::Container& c : pod->init_containers) MergeDefaults(*range, catalog, &c, &notes);
    for (const model::LimitRangeItem& item : range->limits) {
      if (item.type == kLimitTypeContainer) {
        for (const model::Container& c : pod->containers) {
          CheckItem(item, catalog, [&](model::ResourceId id) { return OfContainer(c, id); },
                    &result.errors);
        }
        for (const model::Container& c : pod->init_containers) {
          CheckItem(item, catalog, [&](model::ResourceId id) { return OfContainer(c, id); },
                    &result.errors);
        }
      } else if (item.type == kLimitTypePod) {
        CheckItem(item, catalog, [&](model::ResourceId id) { return OfPod(*pod, id); },
                  &result.errors);
      }
    }
    if (!result.errors.empty()) break;
  }
  if (!notes.empty()) {
    result.annotation = "LimitRanger plugin set: ";
    for (size_t i = 0; i < notes.size(); ++i) result.annotation += (i == 0 ? "" : "; ") + notes[i];
  }
  return result;
}

}  // namespace berth::admission
