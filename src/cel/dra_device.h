// DraDevice: the `device` variable of a DRA device selector (kubernetes.DRADevice in
// k8s.io/dynamic-resource-allocation/cel), built by the host once per device and bound for
// every evaluation without copying. It reproduces upstream's lookup rules:
//   device.driver                      the driver name
//   device.attributes[domain][id]      bool, int, string or semver; an unknown DOMAIN is an
//                                      empty map, an unknown id is "no such key: id"
//   device.capacity[domain][id]        kubernetes.Quantity, same rules
//   device.allowMultipleAllocations    bool
// Names without a "domain/" prefix belong to the driver's domain. `in` and has() see only
// domains that exist. Build fully before the first evaluation; not thread-safe while being
// built, thread-safe to read afterwards. Not copyable (values point into it).
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/value.h"
#include "core/quantity.h"
#include "core/result.h"

namespace berth::cel {

class DraDevice final : public MapValue {
 public:
  explicit DraDevice(std::string driver);
  DraDevice(const DraDevice&) = delete;
  DraDevice& operator=(const DraDevice&) = delete;

  // Adds an attribute under "domain/id" or "id". `value` must be a bool, int, string or
  // semver Value (InvalidArgument otherwise, or when the name is already present). String
  // values may borrow host text that outlives the device.
  core::Status AddAttribute(std::string_view qualified_name, Value value);
  // Parses `version` as semver 2.0.0 (upstream's VersionValue); InvalidArgument
  // "parse semantic version: ..." when it is not one.
  core::Status AddVersionAttribute(std::string_view qualified_name, std::string_view version);
  // Adds a capacity (copied). InvalidArgument when the name is already present.
  core::Status AddCapacity(std::string_view qualified_name, const core::Quantity& value);
  void set_allow_multiple_allocations(bool allow) { allow_multiple_allocations_ = allow; }

  const std::string& driver() const { return driver_; }

  // The value to bind to `device`: a borrowed view of this object.
  Value AsValue() const { return Value::MapView(this); }

  // MapValue: the fields driver, attributes, capacity, allowMultipleAllocations.
  size_t Size() const override { return 4; }
  std::optional<Value> Find(const Value& key) const override;
  Value KeyAt(size_t index) const override;

 private:
  // One domain's id -> value map.
  class Domain final : public MapValue {
   public:
    explicit Domain(std::string name) : name_(std::move(name)) {}
    const std::string& name() const { return name_; }
    bool Add(std::string id, Value value);
    size_t Size() const override { return entries_.size(); }
    std::optional<Value> Find(const Value& key) const override;
    Value KeyAt(size_t index) const override { return Value::StringView(entries_[index].first); }

   private:
    std::string name_;
    std::vector<std::pair<std::string, Value>> entries_;
  };

  // domain -> Domain; an unknown domain finds `empty`.
  class Domains final : public MapValue {
   public:
    explicit Domains(const Domain* empty) : empty_(empty) {}
    Domain* FindOrAdd(std::string_view name);
    size_t Size() const override { return domains_.size(); }
    std::optional<Value> Find(const Value& key) const override;
    bool Contains(const Value& key) const override;
    Value KeyAt(size_t index) const override { return Value::StringView(domains_[index].name()); }

   private:
    const Domain* Lookup(std::string_view name) const;
    const Domain* empty_;
    std::deque<Domain> domains_;  // a deque: Values point at its elements
  };

  // Splits "domain/id", defaulting the domain to the driver.
  std::pair<std::string_view, std::string_view> Split(std::string_view qualified_name) const;

  std::string driver_;
  bool allow_multiple_allocations_ = false;
  Domain empty_{""};
  Domains attributes_{&empty_};
  Domains capacity_{&empty_};
  std::deque<core::Quantity> quantities_;  // capacity values, at stable addresses
};

}  // namespace berth::cel
