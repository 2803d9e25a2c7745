// A stand-in SelectorMatcher for the handful of selector shapes upstream's table test uses
// (driver equality, allowMultipleAllocations, quantity compareTo on a capacity, string and
// bool attributes, joined by &&). Lets allocator tests name the matcher they run against;
// the real CEL matcher is tested through Allocator's public constructor.
#pragma once

#include <regex>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "devices/internal/selector_matcher.h"

namespace berth::devices::testing {

class FakeSelectorMatcher : public internal::SelectorMatcher {
 public:
  core::Result<int32_t> Compile(const std::string& expression) override {
    std::vector<Term> terms;
    size_t start = 0;
    while (true) {
      size_t amp = expression.find(" && ", start);
      std::string part =
          expression.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
      Term t;
      if (!Parse(part, &t)) {
        return core::InvalidArgument("ERROR: <input>:1:1: undeclared reference to '" + part + "'");
      }
      terms.push_back(t);
      if (amp == std::string::npos) break;
      start = amp + 4;
    }
    programs_.push_back(terms);
    return static_cast<int32_t>(programs_.size() - 1);
  }

  core::Result<bool> Matches(int32_t program, const std::string& driver,
                             const model::Device& device) override {
    for (const Term& t : programs_[static_cast<size_t>(program)]) {
      switch (t.kind) {
        case Kind::kDriver:
          if (driver != t.value) return false;
          break;
        case Kind::kMulti:
          if (device.allow_multiple_allocations != (t.value == "true")) return false;
          break;
        case Kind::kCapacityAtLeast: {
          const model::DeviceCapacity* cap = Find(device.capacity, driver, t.domain, t.name);
          if (cap == nullptr) {
            if (t.domain != driver) return false;
            return core::InvalidArgument("no such key: " + t.name);
          }
          if (cap->value < core::Quantity::Parse(t.value).value()) return false;
          break;
        }
        case Kind::kAttrEquals:
        case Kind::kAttrTrue: {
          const model::DeviceAttribute* a = Find(device.attributes, driver, t.domain, t.name);
          if (a == nullptr) {
            if (t.domain != driver) return false;
            return core::InvalidArgument("no such key: " + t.name);
          }
          if (t.kind == Kind::kAttrTrue ? !a->bool_value : a->string_value != t.value) {
            return false;
          }
          break;
        }
      }
    }
    return true;
  }

 private:
  enum class Kind { kDriver, kMulti, kCapacityAtLeast, kAttrEquals, kAttrTrue };
  struct Term {
    Kind kind = Kind::kDriver;
    std::string domain, name, value;
  };

  template <typename M>
  static const typename M::mapped_type* Find(const M& m, const std::string& driver,
                                             const std::string& domain, const std::string& name) {
    auto it = m.find(domain + "/" + name);
    if (it != m.end()) return &it->second;
    if (domain == driver) {
      it = m.find(name);
      if (it != m.end()) return &it->second;
    }
    return nullptr;
  }

  static bool Parse(const std::string& s, Term* t) {
    std::smatch m;
    static const std::regex driver(R"re(device\.driver == "([^"]*)")re");
    static const std::regex multi(R"re(device\.allowMultipleAllocations == (true|false))re");
    static const std::regex cap(
        R"re(device\.capacity\["([^"]*)"\](?:\.(\w+)|\["([^"]*)"\])\.compareTo\(quantity\("([^"]*)"\)\) >= 0)re");
    static const std::regex attr_eq(R"re(device\.attributes\["([^"]*)"\]\.(\w+) == "([^"]*)")re");
    static const std::regex attr_true(R"re(device\.attributes\["([^"]*)"\]\.(\w+))re");
    if (std::regex_match(s, m, driver)) {
      *t = {Kind::kDriver, "", "", m[1]};
    } else if (std::regex_match(s, m, multi)) {
      *t = {Kind::kMulti, "", "", m[1]};
    } else if (std::regex_match(s, m, cap)) {
      *t = {Kind::kCapacityAtLeast, m[1], m[2].matched ? m[2].str() : m[3].str(), m[4]};
    } else if (std::regex_match(s, m, attr_eq)) {
      *t = {Kind::kAttrEquals, m[1], m[2], m[3]};
    } else if (std::regex_match(s, m, attr_true)) {
      *t = {Kind::kAttrTrue, m[1], m[2], ""};
    } else {
      return false;
    }
    return true;
  }

  std::vector<std::vector<Term>> programs_;
};

}  // namespace berth::devices::testing
