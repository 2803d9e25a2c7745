// Every object of the unstructured tree is a small host map that lives inside Impl and is
// re-pointed on Reset, rather than a cel::Value::Map built per cluster: building those maps
// (hash tables, shared owners, quantity strings) was most of the time of a CEL predicate
// over a large fleet. Field tables are constant arrays of (name, getter), searched
// linearly: objects have at most five fields, so a scan beats hashing.
#include "placement/managed_cluster_value.h"

#include <array>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace berth::placement {

namespace {

std::optional<std::string_view> StringKey(const cel::Value& key) {
  if (key.kind() != cel::ValueKind::kString) return std::nullopt;
  return key.string_value();
}

// metadata.labels / metadata.annotations: string → string, borrowed.
class LabelsMap final : public cel::MapValue {
 public:
  void Reset(const core::Labels* labels) { labels_ = labels; }
  size_t Size() const override { return labels_->size(); }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (!k) return std::nullopt;
    auto it = labels_->find(*k);
    if (it == labels_->end()) return std::nullopt;
    return cel::Value::StringView(it->second);
  }
  cel::Value KeyAt(size_t index) const override {
    return cel::Value::StringView(
        std::next(labels_->begin(), static_cast<ptrdiff_t>(index))->first);
  }

 private:
  const core::Labels* labels_ = nullptr;
};

// status.capacity / status.allocatable: quantities as the strings JSON holds.
class QuantityMap final : public cel::MapValue {
 public:
  void Reset(const std::map<std::string, core::Quantity>* map) { map_ = map; }
  size_t Size() const override { return map_->size(); }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (!k) return std::nullopt;
    auto it = map_->find(std::string(*k));
    if (it == map_->end()) return std::nullopt;
    return cel::Value::String(it->second.ToString());
  }
  cel::Value KeyAt(size_t index) const override {
    return cel::Value::StringView(std::next(map_->begin(), static_cast<ptrdiff_t>(index))->first);
  }

 private:
  const std::map<std::string, core::Quantity>* map_ = nullptr;
};

// One element of status.clusterClaims: {name, value}.
class ClaimItem final : public cel::MapValue {
 public:
  explicit ClaimItem(const model::NamedValue* claim) : claim_(claim) {}
  size_t Size() const override { return 2; }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (k == "name") return cel::Value::StringView(claim_->name);
    if (k == "value") return cel::Value::StringView(claim_->value);
    return std::nullopt;
  }
  cel::Value KeyAt(size_t index) const override {
    return cel::Value::StringView(index == 0 ? "name" : "value");
  }

 private:
  const model::NamedValue* claim_;
};

// One element of spec.taints: {key, value, effect[, timeAdded]}.
class TaintItem final : public cel::MapValue {
 public:
  explicit TaintItem(const model::ClusterTaint* taint) : taint_(taint) {}
  size_t Size() const override { return taint_->time_added.has_value() ? 4 : 3; }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (k == "key") return cel::Value::StringView(taint_->key);
    if (k == "value") return cel::Value::StringView(taint_->value);
    if (k == "effect") {
      return cel::Value::StringView(model::ClusterTaintEffectName(taint_->effect));
    }
    if (k == "timeAdded" && taint_->time_added.has_value()) {
      return cel::Value::String(taint_->time_added->ToString());
    }
    return std::nullopt;
  }
  cel::Value KeyAt(size_t index) const override {
    static constexpr std::array<const char*, 4> kKeys = {"key", "value", "effect", "timeAdded"};
    return cel::Value::StringView(kKeys[index]);
  }

 private:
  const model::ClusterTaint* taint_;
};

// One element of status.conditions: {type, status, reason, message}.
class ConditionItem final : public cel::MapValue {
 public:
  explicit ConditionItem(const model::Condition* condition) : condition_(condition) {}
  size_t Size() const override { return 4; }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (k == "type") return cel::Value::StringView(condition_->type);
    if (k == "status") {
      return cel::Value::StringView(model::ConditionStatusName(condition_->status));
    }
    if (k == "reason") return cel::Value::StringView(condition_->reason);
    if (k == "message") return cel::Value::StringView(condition_->message);
    return std::nullopt;
  }
  cel::Value KeyAt(size_t index) const override {
    static constexpr std::array<const char*, 4> kKeys = {"type", "status", "reason", "message"};
    return cel::Value::StringView(kKeys[index]);
  }

 private:
  const model::Condition* condition_;
};

// A list of item maps over a model vector; the item vector keeps its capacity across
// clusters.
template <typename Item, typename Element>
class ItemList final : public cel::ListValue {
 public:
  void Reset(const std::vector<Element>& elements) {
    items_.clear();
    for (const Element& e : elements) items_.emplace_back(&e);
  }
  size_t Size() const override { return items_.size(); }
  cel::Value At(size_t index) const override { return cel::Value::MapView(&items_[index]); }

 private:
  std::vector<Item> items_;
};

struct Tree;
using Getter = cel::Value (*)(const Tree&);

struct FieldSpec {
  std::string_view name;
  Getter get;
};

// An object with fixed fields, each computed from the cluster on access.
class FieldMap final : public cel::MapValue {
 public:
  FieldMap(const Tree* tree, std::span<const FieldSpec> fields) : tree_(tree), fields_(fields) {}
  size_t Size() const override { return fields_.size(); }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    std::optional<std::string_view> k = StringKey(key);
    if (!k) return std::nullopt;
    for (const FieldSpec& f : fields_) {
      if (f.name == *k) return f.get(*tree_);
    }
    return std::nullopt;
  }
  cel::Value KeyAt(size_t index) const override {
    return cel::Value::StringView(fields_[index].name);
  }

 private:
  const Tree* tree_;
  std::span<const FieldSpec> fields_;
};

// Every object of the value, pointing at one cluster at a time. Not movable: the maps
// point at each other.
struct Tree {
  Tree();
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  const model::ManagedCluster* cluster = nullptr;
  FieldMap root;
  FieldMap metadata;
  FieldMap spec;
  FieldMap status;
  FieldMap version;
  LabelsMap labels;
  LabelsMap annotations;
  QuantityMap capacity;
  QuantityMap allocatable;
  ItemList<ClaimItem, model::NamedValue> claims;
  ItemList<TaintItem, model::ClusterTaint> taints;
  ItemList<ConditionItem, model::Condition> conditions;
};

constexpr std::array<FieldSpec, 5> kRootFields = {{
    {"apiVersion",
     [](const Tree&) { return cel::Value::StringView("cluster.open-cluster-management.io/v1"); }},
    {"kind", [](const Tree&) { return cel::Value::StringView("ManagedCluster"); }},
    {"metadata", [](const Tree& t) { return cel::Value::MapView(&t.metadata); }},
    {"spec", [](const Tree& t) { return cel::Value::MapView(&t.spec); }},
    {"status", [](const Tree& t) { return cel::Value::MapView(&t.status); }},
}};
constexpr std::array<FieldSpec, 3> kMetadataFields = {{
    {"name", [](const Tree& t) { return cel::Value::StringView(t.cluster->meta.name); }},
    {"labels", [](const Tree& t) { return cel::Value::MapView(&t.labels); }},
    {"annotations", [](const Tree& t) { return cel::Value::MapView(&t.annotations); }},
}};
constexpr std::array<FieldSpec, 2> kSpecFields = {{
    {"hubAcceptsClient",
     [](const Tree& t) { return cel::Value::Bool(t.cluster->hub_accepts_client); }},
    {"taints", [](const Tree& t) { return cel::Value::ListView(&t.taints); }},
}};
constexpr std::array<FieldSpec, 5> kStatusFields = {{
    {"clusterClaims", [](const Tree& t) { return cel::Value::ListView(&t.claims); }},
    {"capacity", [](const Tree& t) { return cel::Value::MapView(&t.capacity); }},
    {"allocatable", [](const Tree& t) { return cel::Value::MapView(&t.allocatable); }},
    {"conditions", [](const Tree& t) { return cel::Value::ListView(&t.conditions); }},
    {"version", [](const Tree& t) { return cel::Value::MapView(&t.version); }},
}};
constexpr std::array<FieldSpec, 1> kVersionFields = {{
    {"kubernetes",
     [](const Tree& t) { return cel::Value::StringView(t.cluster->kubernetes_version); }},
}};

Tree::Tree()
    : root(this, kRootFields),
      metadata(this, kMetadataFields),
      spec(this, kSpecFields),
      status(this, kStatusFields),
      version(this, kVersionFields) {}

}  // namespace

struct ManagedClusterValue::Impl : Tree {};

ManagedClusterValue::ManagedClusterValue() : impl_(std::make_unique<Impl>()) {}
ManagedClusterValue::~ManagedClusterValue() = default;

void ManagedClusterValue::Reset(const model::ManagedCluster& cluster) {
  Tree& i = *impl_;
  i.cluster = &cluster;
  i.labels.Reset(&cluster.meta.labels);
  i.annotations.Reset(&cluster.meta.annotations);
  i.capacity.Reset(&cluster.capacity);
  i.allocatable.Reset(&cluster.allocatable);
  i.claims.Reset(cluster.cluster_claims);
  i.taints.Reset(cluster.taints);
  i.conditions.Reset(cluster.conditions);
}

cel::Value ManagedClusterValue::value() const { return cel::Value::MapView(&impl_->root); }

}  // namespace berth::placement
