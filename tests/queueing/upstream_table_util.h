// Helpers shared by the runners of Kueue's ported tables (upstream_*_test.cc): table paths,
// quantities in berth's units, ClusterQueues built from a table's YAML, test names,
// assignments rendered for comparison, and the left / inadmissible key lists. Test-only,
// header-only.
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing::upstream {

using testing::CqBuilder;

inline constexpr int64_t kNow = 100000;

inline std::string TablePath(const char* name) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  return std::string(root != nullptr ? root : ".") + "/tests/queueing/upstream/" + name;
}

// Quotas and amounts in berth's units: cpu in milli-cores, the rest in whole units.
// "xN:Q" is N times Q (a reservation built from the request times the pod count).
inline int64_t Amount(const std::string& resource, const std::string& text) {
  int64_t times = 1;
  std::string q_text = text;
  if (!text.empty() && text[0] == 'x') {
    const size_t colon = text.find(':');
    times = std::stoll(text.substr(1, colon - 1));
    q_text = text.substr(colon + 1);
  }
  auto q = core::Quantity::Parse(q_text);
  EXPECT_TRUE(q.has_value()) << text;
  if (!q.has_value()) return 0;
  auto v = resource == "cpu" ? q->MilliValue() : q->Value();
  // Past int64 the value saturates, as Kueue's conversion does (TestSchedule's "prevent
  // integer overflow in ResourceValue conversion to MilliValue").
  if (!v.has_value()) return std::numeric_limits<int64_t>::max();
  return *v * times;
}

inline model::PreemptionPolicy Policy(const std::string& name) {
  static const std::map<std::string, model::PreemptionPolicy> kPolicies = {
      {"Never", model::PreemptionPolicy::kNever},
      {"LowerPriority", model::PreemptionPolicy::kLowerPriority},
      {"LowerOrNewerEqualPriority", model::PreemptionPolicy::kLowerOrNewerEqualPriority},
      {"Any", model::PreemptionPolicy::kAny}};
  auto it = kPolicies.find(name);
  EXPECT_NE(it, kPolicies.end()) << name;
  return it == kPolicies.end() ? model::PreemptionPolicy::kNever : it->second;
}

// groups: one entry per resource group, each either a list [{flavor, resources: [rows]}]
// (the scheduler and flavor-assigner tables) or a map {flavor: [rows]} (the preemption
// tables); a row is [resource, nominal, borrowingLimit?, lendingLimit?] ("" = unset).
// `limits` false drops the limits: upstream's tables give some queues without a cohort a
// borrowingLimit, which Kueue's webhook rejects (berth marks such a queue inactive) but its
// cache, all these tests use, ignores, as a queue without a cohort never borrows or lends.
inline void AddQuotas(const YAML::Node& groups, CqBuilder& b, bool limits = true) {
  int group = 0;
  auto add_rows = [&](const std::string& flavor, const YAML::Node& rows) {
    for (const auto& row : rows) {
      const std::string resource = row[0].as<std::string>();
      auto limit = [&](size_t i) -> std::optional<int64_t> {
        if (!limits || row.size() <= i || row[i].as<std::string>().empty()) return std::nullopt;
        return Amount(resource, row[i].as<std::string>());
      };
      b.Quota(flavor, resource, Amount(resource, row[1].as<std::string>()), limit(2), limit(3),
              group);
    }
  };
  for (const auto& g : groups) {
    if (g.IsMap()) {
      for (const auto& kv : g) add_rows(kv.first.as<std::string>(), kv.second);
    } else {
      for (const auto& fq : g) add_rows(fq["flavor"].as<std::string>(), fq["resources"]);
    }
    ++group;
  }
}

// One {key, operator, values} of a table: a label selector's (node_selector false) or a node
// selector term's, where Gt and Lt are also operators. An unknown operator fails the test.
inline core::SelectorRequirement Requirement(const YAML::Node& e, bool node_selector) {
  core::SelectorRequirement r;
  r.key = e["key"].as<std::string>();
  const std::string op = e["operator"].as<std::string>();
  auto parsed = core::ParseSelectorOp(op, node_selector);
  EXPECT_TRUE(parsed.has_value()) << "operator " << op;
  if (parsed.has_value()) r.op = *parsed;
  for (const auto& v : e["values"]) r.values.push_back(v.as<std::string>());
  return r;
}

inline core::LabelSelector Selector(const YAML::Node& n) {
  core::LabelSelector s;
  for (const auto& kv : n["matchLabels"]) {
    s.match_labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }
  for (const auto& e : n["matchExpressions"]) s.match_expressions.push_back(Requirement(e, false));
  return s;
}

// `cohortless_limits` false drops the limits of a queue without a cohort (AddQuotas).
inline CqBuilder BuildQueue(const YAML::Node& n, bool cohortless_limits = false) {
  CqBuilder b(n["name"].as<std::string>());
  if (n["cohort"]) b.Cohort(n["cohort"].as<std::string>());
  if (n["groups"]) AddQuotas(n["groups"], b, cohortless_limits || static_cast<bool>(n["cohort"]));
  // Upstream's ClusterQueue selects every namespace unless it names a selector.
  if (n["namespaceSelector"]) b.NamespaceSelector(Selector(n["namespaceSelector"]));
  if (n["queueingStrategy"] && n["queueingStrategy"].as<std::string>() == "StrictFIFO") b.Strict();
  if (const YAML::Node p = n["preemption"]) {
    if (p["WithinClusterQueue"])
      b.WithinClusterQueue(Policy(p["WithinClusterQueue"].as<std::string>()));
    if (p["ReclaimWithinCohort"]) {
      b.ReclaimWithinCohort(Policy(p["ReclaimWithinCohort"].as<std::string>()));
    }
    if (p["BorrowWithinCohort"]) {
      std::optional<int32_t> threshold;
      if (p["MaxPriorityThreshold"]) threshold = p["MaxPriorityThreshold"].as<int32_t>();
      b.BorrowWithinCohort(Policy(p["BorrowWithinCohort"].as<std::string>()), threshold);
    }
  }
  if (const YAML::Node f = n["fungibility"]) {
    auto policy = [](const YAML::Node& v) {
      return v.as<std::string>() == "TryNextFlavor" ? model::FungibilityPolicy::kTryNextFlavor
                                                    : model::FungibilityPolicy::kMayStopSearch;
    };
    if (f["whenCanBorrow"]) b.WhenCanBorrow(policy(f["whenCanBorrow"]));
    if (f["whenCanPreempt"]) b.WhenCanPreempt(policy(f["whenCanPreempt"]));
    if (f["preference"]) {
      b.Preference(f["preference"].as<std::string>() == "PreemptionOverBorrowing"
                       ? model::FungibilityPreference::kPreemptionOverBorrowing
                       : model::FungibilityPreference::kBorrowingOverPreemption);
    }
  }
  return b;
}

// A case's name as a gtest parameter name.
inline std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string out;
  for (char ch : info.param) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return out;
}

// The names of a table's `cases`.
inline std::vector<std::string> CaseNames(const YAML::Node& table) {
  std::vector<std::string> names;
  for (const auto& c : table["cases"]) names.push_back(c["name"].as<std::string>());
  return names;
}

inline model::CheckState State(const std::string& s) {
  if (s == "Ready") return model::CheckState::kReady;
  if (s == "Retry") return model::CheckState::kRetry;
  if (s == "Rejected") return model::CheckState::kRejected;
  return model::CheckState::kPending;
}

// One pod set assignment as "name|count|res=flavor:amount,..." for comparison.
inline std::string Render(const std::string& cq, const std::vector<model::PodSetAssignment>& psas,
                          const model::ResourceCatalog& /*catalog*/) {
  std::string out = cq;
  for (const auto& psa : psas) {
    out += " [" + psa.name + " x" + std::to_string(psa.count);
    for (const auto& [res, flavor] : psa.flavors) {
      auto it = psa.resource_usage.find(res);
      out += " " + res + "=" + flavor + ":" +
             std::to_string(it == psa.resource_usage.end() ? 0 : it->second);
    }
    out += "]";
  }
  return out;
}

inline std::vector<model::PodSetAssignment> Assignments(const YAML::Node& pod_sets) {
  std::vector<model::PodSetAssignment> out;
  for (const auto& ps : pod_sets) {
    model::PodSetAssignment psa;
    psa.name = ps["name"].as<std::string>();
    psa.count = ps["count"].as<int32_t>();
    for (const auto& kv : ps["flavors"]) {
      const std::string res = kv.first.as<std::string>();
      psa.flavors[res] = kv.second.as<std::string>();
      psa.resource_usage[res] = Amount(res, ps["usage"][res].as<std::string>());
    }
    out.push_back(std::move(psa));
  }
  return out;
}

using KeyLists = std::map<std::string, std::set<std::string>>;

inline KeyLists ReadKeyLists(const YAML::Node& n) {
  KeyLists out;
  for (const auto& kv : n) {
    for (const auto& k : kv.second) out[kv.first.as<std::string>()].insert(k.as<std::string>());
  }
  return out;
}

inline std::string Show(const KeyLists& m) {
  std::string out;
  for (const auto& [cq, keys] : m) {
    out += cq + ":";
    for (const auto& k : keys) out += " " + k;
    out += "; ";
  }
  return out.empty() ? "(none)" : out;
}

}  // namespace berth::queueing::upstream
