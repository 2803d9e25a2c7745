// A flat open-addressing table (linear probing, at most half full) rather than a node-based
// map: building it for 10,000 objects is a handful of allocations. Slots keep the full hash
// and the keys are copied back to back into one string, so a lookup hashes two short
// strings, compares hashes in the slot array and verifies one key in that compact copy,
// without touching the (scattered) AddOnPlacementScore objects. The CEL views are built
// eagerly in two flat vectors sized up front, so the pointers handed to cel::Value stay
// valid for the index's life.
#include "placement/addon_score_index.h"

#include <cstring>
#include <optional>

namespace berth::placement {

// One status.scores item as the map OCM's scores() builds: {"name": ..., "value": ...}.
class AddOnScoreIndex::ItemMap final : public cel::MapValue {
 public:
  explicit ItemMap(const model::AddOnScore* item) : item_(item) {}
  size_t Size() const override { return 2; }
  std::optional<cel::Value> Find(const cel::Value& key) const override {
    if (key.kind() != cel::ValueKind::kString) return std::nullopt;
    if (key.string_value() == "name") return cel::Value::StringView(item_->name);
    if (key.string_value() == "value") return cel::Value::Int(item_->value);
    return std::nullopt;
  }
  cel::Value KeyAt(size_t index) const override {
    return cel::Value::StringView(index == 0 ? "name" : "value");
  }

 private:
  const model::AddOnScore* item_;
};

class AddOnScoreIndex::ItemList final : public cel::ListValue {
 public:
  ItemList(const ItemMap* first, size_t count) : first_(first), count_(count) {}
  size_t Size() const override { return count_; }
  cel::Value At(size_t index) const override { return cel::Value::MapView(first_ + index); }

 private:
  const ItemMap* first_;
  size_t count_;
};

namespace {

// A multiply-xorshift hash over 8-byte words: names are short (a cluster name, an addon
// name), and the generic string hash costs several times more per lookup. The table keeps
// the full 64 bits, so a weak low byte only lengthens a probe, never confuses keys.
uint64_t HashBytes(std::string_view s, uint64_t seed) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  uint64_t h = (seed ^ s.size()) * kMul;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word = 0;
    std::memcpy(&word, p, 8);  // a fixed size: one load
    h = (h ^ word) * kMul;
    h ^= h >> 29;
  }
  if (n > 0) {
    uint64_t word = 0;
    for (size_t i = 0; i < n; ++i) word |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    h = (h ^ word) * kMul;
    h ^= h >> 29;
  }
  return h;
}

uint64_t Hash(std::string_view ns, std::string_view name) {
  return HashBytes(name, HashBytes(ns, 0x2545F4914F6CDD1DULL));
}

}  // namespace

AddOnScoreIndex::AddOnScoreIndex(const std::vector<model::AddOnPlacementScore>& scores) {
  size_t capacity = 16;
  while (capacity < 2 * scores.size()) capacity *= 2;
  slots_.assign(capacity, Slot{});
  entries_.reserve(scores.size());
  keys_of_.reserve(scores.size());
  size_t key_bytes = 0;
  for (const model::AddOnPlacementScore& s : scores) {
    key_bytes += s.meta.namespace_.size() + s.meta.name.size();
  }
  keys_.reserve(key_bytes);
  size_t item_count = 0;
  for (const model::AddOnPlacementScore& s : scores) {
    const std::string& ns = s.meta.namespace_;
    const std::string& name = s.meta.name;
    uint64_t hash = Hash(ns, name);
    Slot& slot = slots_[FindSlot(ns, name, hash)];
    if (slot.entry != 0) continue;  // a duplicate: the first one counts
    entries_.push_back(&s);
    slot = Slot{hash, static_cast<uint32_t>(entries_.size())};
    keys_of_.push_back({static_cast<uint32_t>(keys_.size()), static_cast<uint32_t>(ns.size()),
                        static_cast<uint32_t>(name.size())});
    keys_ += ns;
    keys_ += name;
    item_count += s.scores.size();
  }
  items_.reserve(item_count);
  lists_.reserve(entries_.size());
  for (const model::AddOnPlacementScore* s : entries_) {
    const ItemMap* first = items_.data() + items_.size();
    for (const model::AddOnScore& item : s->scores) items_.emplace_back(&item);
    lists_.emplace_back(first, s->scores.size());
  }
}

AddOnScoreIndex::~AddOnScoreIndex() = default;

size_t AddOnScoreIndex::FindSlot(std::string_view ns, std::string_view name, uint64_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.entry == 0) return slot;
    if (s.hash != hash) continue;
    const Key& k = keys_of_[s.entry - 1];
    std::string_view stored(keys_.data() + k.offset, k.ns_size + k.name_size);
    if (stored.substr(0, k.ns_size) == ns && stored.substr(k.ns_size) == name) return slot;
  }
}

const model::AddOnPlacementScore* AddOnScoreIndex::Find(std::string_view ns,
                                                        std::string_view name) const {
  uint32_t entry = slots_[FindSlot(ns, name, Hash(ns, name))].entry;
  return entry == 0 ? nullptr : entries_[entry - 1];
}

const cel::ListValue* AddOnScoreIndex::CelScores(std::string_view ns, std::string_view name) const {
  uint32_t entry = slots_[FindSlot(ns, name, Hash(ns, name))].entry;
  return entry == 0 ? nullptr : &lists_[entry - 1];
}

}  // namespace berth::placement
