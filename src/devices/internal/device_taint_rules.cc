#include "devices/internal/device_taint_rules.h"

#include <optional>
#include <utility>

namespace berth::devices::internal {
namespace {

std::string RuleObject(const model::DeviceTaintRule& rule) {
  return "DeviceTaintRule/" + rule.meta.name;
}

// The compiled programs of a rule: its class's selectors, then its own. nullopt when the
// rule applies nowhere (its DeviceClass does not exist, which upstream treats as "does not
// apply", or a selector does not compile, which upstream treats as an error).
struct RulePrograms {
  std::vector<int32_t> class_programs;
  std::vector<int32_t> rule_programs;
};

std::optional<RulePrograms> Compile(const model::Snapshot& snapshot,
                                    const model::DeviceTaintRule& rule, SelectorMatcher& matcher,
                                    core::Diagnostics& diags) {
  RulePrograms out;
  if (!rule.selector.has_value()) return out;
  const model::DeviceTaintSelector& sel = *rule.selector;
  if (sel.device_class_name.has_value()) {
    const model::DeviceClass* cls = nullptr;
    for (const model::DeviceClass& c : snapshot.device_classes) {
      if (c.meta.name == *sel.device_class_name) cls = &c;
    }
    if (cls == nullptr) return std::nullopt;
    for (size_t i = 0; i < cls->selectors.size(); ++i) {
      auto program = matcher.Compile(cls->selectors[i].cel_expression);
      if (!program.has_value()) {
        diags.Report(
            core::InvalidArgument("class " + cls->meta.name + ": selector #" + std::to_string(i) +
                                      ": CEL compile error: " + program.error().message(),
                                  {"", RuleObject(rule), "spec.deviceSelector.deviceClassName"}));
        return std::nullopt;
      }
      out.class_programs.push_back(*program);
    }
  }
  for (size_t i = 0; i < sel.selectors.size(); ++i) {
    auto program = matcher.Compile(sel.selectors[i].cel_expression);
    if (!program.has_value()) {
      diags.Report(core::InvalidArgument(
          "selector #" + std::to_string(i) + ": CEL compile error: " + program.error().message(),
          {"", RuleObject(rule),
           "spec.deviceSelector.selectors[" + std::to_string(i) + "].cel.expression"}));
      return std::nullopt;
    }
    out.rule_programs.push_back(*program);
  }
  return out;
}

bool Selects(const model::DeviceTaintRule& rule, const RulePrograms& programs,
             const model::ResourceSlice& slice, const model::Device& device,
             SelectorMatcher& matcher) {
  if (rule.selector.has_value()) {
    const model::DeviceTaintSelector& sel = *rule.selector;
    if (sel.driver.has_value() && *sel.driver != slice.driver) return false;
    if (sel.pool.has_value() && *sel.pool != slice.pool_name) return false;
    if (sel.device.has_value() && *sel.device != device.name) return false;
  }
  for (const std::vector<int32_t>* list : {&programs.class_programs, &programs.rule_programs}) {
    for (int32_t program : *list) {
      auto matches = matcher.Matches(program, slice.driver, device);
      // A runtime error deselects the device (upstream records an event and moves on).
      if (!matches.has_value() || !*matches) return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::vector<model::DeviceTaint>> MatchDeviceTaintRules(const model::Snapshot& snapshot,
                                                                   const std::string& cluster,
                                                                   const PoolIndex& pools,
                                                                   SelectorMatcher& matcher,
                                                                   core::Diagnostics& diags) {
  std::vector<std::vector<model::DeviceTaint>> out;
  for (const model::DeviceTaintRule& rule : snapshot.device_taint_rules) {
    if (rule.cluster != cluster) continue;
    std::optional<RulePrograms> programs = Compile(snapshot, rule, matcher, diags);
    if (!programs.has_value()) continue;
    for (int32_t r = 0; r < pools.record_count(); ++r) {
      const DeviceRecordId rec{r};
      if (!Selects(rule, *programs, pools.slice_of(rec), pools.device(rec), matcher)) continue;
      if (out.empty()) out.resize(static_cast<size_t>(pools.record_count()));
      out[static_cast<size_t>(r)].push_back(rule.taint);
    }
  }
  return out;
}

}  // namespace berth::devices::internal
