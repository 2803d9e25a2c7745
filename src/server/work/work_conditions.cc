// Semantics ported from apimachinery (meta/conditions.go SetStatusCondition), OCM
// pkg/work/helper/helpers.go (MergeManifestConditions, MergeStatusConditions) and
// pkg/work/spoke/conditions/helpers.go (AggregateManifestConditions,
// PruneConditionsGeneratedByConditionRules). Conditions are rebuilt in the Go struct's field
// order on every write so the bytes do not depend on the order a peer wrote them in.
#include "server/work/work_conditions.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace berth::server::work {

namespace {

std::string CondField(const Json& condition, const char* key) {
  if (!condition.is_object()) return "";
  auto it = condition.find(key);
  return it != condition.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t CondGeneration(const Json& condition) {
  if (!condition.is_object()) return 0;
  auto it = condition.find("observedGeneration");
  return it != condition.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// {type, status, observedGeneration?, lastTransitionTime, reason, message}.
Json CanonicalCondition(const std::string& type, const std::string& status, int64_t generation,
                        const std::string& transition, const std::string& reason,
                        const std::string& message) {
  Json c = Json::object();
  c["type"] = type;
  c["status"] = status;
  if (generation != 0) c["observedGeneration"] = generation;
  c["lastTransitionTime"] = transition;
  c["reason"] = reason;
  c["message"] = message;
  return c;
}

// The resourceMeta of a manifest entry, as a comparable key; with or without the ordinal.
std::string ManifestMetaKey(const Json& manifest, bool with_ordinal) {
  if (!manifest.is_object()) return "";
  auto meta = manifest.find("resourceMeta");
  if (meta == manifest.end() || !meta->is_object()) return "";
  Json key = *meta;
  if (!with_ordinal) key.erase("ordinal");
  return key.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool ManifestMetaWithoutOrdinalEmpty(const Json& manifest) {
  auto meta = manifest.find("resourceMeta");
  if (meta == manifest.end() || !meta->is_object()) return true;
  for (auto it = meta->begin(); it != meta->end(); ++it) {
    if (it.key() == "ordinal") continue;
    if (it->is_string() && !it->get<std::string>().empty()) return false;
  }
  return true;
}

struct ConditionTally {
  int true_count = 0;
  int false_count = 0;
  int unknown_count = 0;
  std::string message;
};

Json AggregateAvailable(const ConditionTally& t, int64_t generation, size_t total) {
  const std::string of_total = " of " + std::to_string(total);
  if (t.false_count > 0) {
    return MakeCondition("Available", "False", "ResourcesNotAvailable",
                         std::to_string(t.false_count) + of_total + " resources are not available",
                         generation);
  }
  if (t.unknown_count > 0) {
    return MakeCondition(
        "Available", "Unknown", "ResourcesStatusUnknown",
        std::to_string(t.unknown_count) + of_total + " resources have unknown status", generation);
  }
  if (t.true_count == 0) {
    // Upstream's message, trailing space included.
    return MakeCondition("Available", "Unknown", "ResourcesStatusUnknown",
                         "cannot get any available resource ", generation);
  }
  return MakeCondition("Available", "True", "ResourcesAvailable", "All resources are available",
                       generation);
}

Json AggregateFromRules(const std::string& type, int64_t generation, const ConditionTally& t) {
  std::string status;
  if (type == "Progressing") {
    // Progressing while any resource is.
    status = t.true_count > 0 ? "True" : (t.unknown_count > 0 ? "Unknown" : "False");
  } else {
    status = t.false_count > 0                            ? "False"
             : (t.unknown_count > 0 || t.true_count == 0) ? "Unknown"
                                                          : "True";
  }
  const int total = t.true_count + t.false_count + t.unknown_count;
  const std::string message =
      total == 1 && !t.message.empty()
          ? t.message
          : "Aggregated from " + std::to_string(total) + " manifest conditions";
  return MakeCondition(type, status, "ConditionRulesAggregated", message, generation);
}

}  // namespace

Json MakeCondition(std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message, int64_t observed_generation) {
  Json c = Json::object();
  c["type"] = std::string(type);
  c["status"] = std::string(status);
  if (observed_generation != 0) c["observedGeneration"] = observed_generation;
  c["reason"] = std::string(reason);
  c["message"] = std::string(message);
  return c;
}

const Json* FindCondition(const Json& conditions, std::string_view type) {
  if (!conditions.is_array()) return nullptr;
  for (const Json& c : conditions) {
    if (CondField(c, "type") == type) return &c;
  }
  return nullptr;
}

bool IsConditionTrue(const Json& conditions, std::string_view type) {
  const Json* c = FindCondition(conditions, type);
  return c != nullptr && CondField(*c, "status") == "True";
}

void RemoveCondition(Json& conditions, std::string_view type) {
  if (!conditions.is_array()) return;
  Json kept = Json::array();
  for (Json& c : conditions) {
    if (CondField(c, "type") != type) kept.push_back(std::move(c));
  }
  conditions = std::move(kept);
}

void SetCondition(Json& conditions, const Json& condition, core::Timestamp now) {
  if (!conditions.is_array()) conditions = Json::array();
  const std::string type = CondField(condition, "type");
  const std::string status = CondField(condition, "status");
  std::string transition = CondField(condition, "lastTransitionTime");
  for (Json& existing : conditions) {
    if (CondField(existing, "type") != type) continue;
    std::string kept_transition = CondField(existing, "lastTransitionTime");
    std::string kept_status = CondField(existing, "status");
    if (kept_status != status) {
      kept_status = status;
      kept_transition = transition.empty() ? now.ToString() : transition;
    }
    existing = CanonicalCondition(type, kept_status, CondGeneration(condition), kept_transition,
                                  CondField(condition, "reason"), CondField(condition, "message"));
    return;
  }
  if (transition.empty()) transition = now.ToString();
  conditions.push_back(CanonicalCondition(type, status, CondGeneration(condition), transition,
                                          CondField(condition, "reason"),
                                          CondField(condition, "message")));
}

Json MergeStatusConditions(const Json& conditions, const Json& updates, core::Timestamp now) {
  Json merged = conditions.is_array() ? conditions : Json::array();
  if (!updates.is_array()) return merged;
  for (const Json& update : updates) {
    const std::string type = CondField(update, "type");
    if (const Json* old = FindCondition(merged, type);
        old != nullptr && CondGeneration(*old) != CondGeneration(update)) {
      RemoveCondition(merged, type);
    }
    SetCondition(merged, update, now);
  }
  return merged;
}

Json MergeManifestConditions(const Json& old_manifests, const Json& updates, core::Timestamp now) {
  std::map<std::string, const Json*> by_meta;
  std::map<std::string, const Json*> by_meta_without_ordinal;
  std::set<std::string> duplicated;
  if (old_manifests.is_array()) {
    for (const Json& m : old_manifests) {
      by_meta[ManifestMetaKey(m, true)] = &m;
      if (!m.is_object() || ManifestMetaWithoutOrdinalEmpty(m)) continue;
      const std::string key = ManifestMetaKey(m, false);
      if (!by_meta_without_ordinal.emplace(key, &m).second) duplicated.insert(key);
    }
  }
  for (const std::string& key : duplicated) by_meta_without_ordinal.erase(key);

  Json merged = Json::array();
  if (!updates.is_array()) return merged;
  for (const Json& update : updates) {
    const Json* old = nullptr;
    if (auto it = by_meta.find(ManifestMetaKey(update, true)); it != by_meta.end()) {
      old = it->second;
    } else if (auto jt = by_meta_without_ordinal.find(ManifestMetaKey(update, false));
               jt != by_meta_without_ordinal.end()) {
      old = jt->second;
    }
    Json entry = Json::object();
    entry["resourceMeta"] =
        update.contains("resourceMeta") ? update["resourceMeta"] : Json::object();
    const Json empty_conditions = Json::array();
    const Json& new_conditions =
        update.contains("conditions") ? update["conditions"] : empty_conditions;
    if (old != nullptr) {
      entry["statusFeedback"] =
          old->contains("statusFeedback") ? (*old)["statusFeedback"] : Json::object();
      entry["conditions"] = MergeStatusConditions(
          old->contains("conditions") ? (*old)["conditions"] : empty_conditions, new_conditions,
          now);
    } else {
      entry["statusFeedback"] =
          update.contains("statusFeedback") ? update["statusFeedback"] : Json::object();
      Json stamped = Json::array();
      if (new_conditions.is_array()) {
        for (const Json& c : new_conditions) {
          // Every condition of a new entry is stamped now, whatever it carried.
          Json fresh = c;
          if (fresh.is_object()) fresh.erase("lastTransitionTime");
          SetCondition(stamped, fresh, now);
        }
      }
      entry["conditions"] = std::move(stamped);
    }
    merged.push_back(std::move(entry));
  }
  return merged;
}

InCondition AllInCondition(std::string_view type, const Json& manifests) {
  InCondition out;
  if (!manifests.is_array()) return out;
  for (const Json& m : manifests) {
    if (!m.is_object() || !m.contains("conditions")) continue;
    const Json& conditions = m["conditions"];
    if (!conditions.is_array()) continue;
    for (const Json& c : conditions) {
      if (CondField(c, "type") != type) continue;
      out.exists = true;
      if (CondField(c, "status") == "False") return InCondition{false, true};
    }
  }
  out.in = out.exists;
  return out;
}

bool IsRuleCondition(const Json& condition) {
  return CondField(condition, "reason").starts_with("ConditionRule");
}

Json AggregateManifestConditions(int64_t generation, const Json& manifests) {
  std::map<std::string, ConditionTally> tallies;  // sorted by type, as upstream sorts
  tallies["Available"];
  size_t total = 0;
  if (manifests.is_array()) {
    total = manifests.size();
    for (const Json& m : manifests) {
      if (!m.is_object() || !m.contains("conditions") || !m["conditions"].is_array()) continue;
      for (const Json& c : m["conditions"]) {
        const std::string type = CondField(c, "type");
        if (type != "Available" && !IsRuleCondition(c)) continue;
        ConditionTally& t = tallies[type];
        const std::string status = CondField(c, "status");
        if (status == "False") ++t.false_count;
        if (status == "True") ++t.true_count;
        if (status == "Unknown") ++t.unknown_count;
        if (const std::string msg = CondField(c, "message"); !msg.empty()) t.message = msg;
      }
    }
  }
  Json out = Json::array();
  for (const auto& [type, tally] : tallies) {
    out.push_back(type == "Available" ? AggregateAvailable(tally, generation, total)
                                      : AggregateFromRules(type, generation, tally));
  }
  return out;
}

void PruneRuleConditions(Json& conditions, int64_t generation) {
  if (!conditions.is_array()) return;
  Json kept = Json::array();
  for (Json& c : conditions) {
    if (IsRuleCondition(c) && CondGeneration(c) != generation) continue;
    kept.push_back(std::move(c));
  }
  conditions = std::move(kept);
}

}  // namespace berth::server::work
