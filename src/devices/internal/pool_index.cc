#include "devices/internal/pool_index.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace berth::devices::internal {
namespace {

std::string KeyOf(const std::string& driver, const std::string& pool, const std::string& device) {
  // NUL cannot occur in any of the three names, so the joined key is unambiguous even for
  // pool names that contain '/'.
  std::string key;
  key.reserve(driver.size() + pool.size() + device.size() + 2);
  key.append(driver).push_back('\0');
  key.append(pool).push_back('\0');
  key.append(device);
  return key;
}

std::string SliceObject(const model::ResourceSlice& slice) {
  return "ResourceSlice/" + slice.meta.name;
}

bool IsCounterSlice(const model::ResourceSlice& slice) { return !slice.shared_counters.empty(); }

// "pool NAME of driver DRIVER", plus the node when every slice of the generation is
// published for the same one, so a warning says where the devices went missing.
std::string DescribePool(const model::Snapshot& snapshot, const Pool& pool, const PoolGen& gen) {
  std::string out = "pool " + pool.name + " of driver " + pool.driver;
  std::string node;
  for (int32_t s : gen.slices) {
    const std::string& n = snapshot.resource_slices[s].node_name;
    if (n.empty() || (!node.empty() && n != node)) return out;
    node = n;
  }
  if (!node.empty()) out += " on node " + node;
  return out;
}

}  // namespace

bool NodeSelectionMatches(const model::Node& node, const std::string& node_name, bool all_nodes,
                          const std::optional<core::NodeSelector>& selector) {
  if (!node_name.empty()) return node.meta.name == node_name;
  if (all_nodes) return true;
  if (selector.has_value()) return selector->Matches(node.meta.labels, node.meta.name);
  return false;
}

PoolIndex::PoolIndex(const model::Snapshot& snapshot, const std::string& cluster,
                     core::Diagnostics& diags)
    : snapshot_(snapshot),
      slice_gen_(snapshot.resource_slices.size()),
      slice_first_record_(snapshot.resource_slices.size(), -1),
      views_(snapshot.nodes.size()) {
  for (size_t i = 0; i < snapshot.resource_slices.size(); ++i) {
    const model::ResourceSlice& slice = snapshot.resource_slices[i];
    if (slice.cluster != cluster) continue;
    AddSlice(static_cast<int32_t>(i));
    if (slice.node_selector.has_value() && slice.node_selector->terms.size() != 1) {
      diags.Report(
          core::InvalidArgument("a ResourceSlice node selector must have exactly one term, got " +
                                    std::to_string(slice.node_selector->terms.size()),
                                {"", SliceObject(slice), "spec.nodeSelector"}));
    }
  }
  for (size_t g = 0; g < gens_.size(); ++g) BuildGen(PoolGenId{static_cast<int32_t>(g)}, diags);
}

void PoolIndex::AddSlice(int32_t slice_index) {
  const model::ResourceSlice& slice = snapshot_.resource_slices[slice_index];
  auto [pit, inserted] =
      pool_ids_.try_emplace({slice.driver, slice.pool_name}, static_cast<int32_t>(pools_.size()));
  if (inserted) {
    pools_.push_back(Pool{slice.driver, slice.pool_name, {}, slice.pool_generation});
  }
  Pool& pool = pools_[pit->second];
  pool.max_generation = std::max(pool.max_generation, slice.pool_generation);
  PoolGenId gen_id;
  for (PoolGenId g : pool.gens) {
    if (gens_[g.v].generation == slice.pool_generation) gen_id = g;
  }
  if (gen_id.v < 0) {
    gen_id = PoolGenId{static_cast<int32_t>(gens_.size())};
    gens_.push_back(PoolGen{});
    gens_.back().pool = pit->second;
    gens_.back().generation = slice.pool_generation;
    pool.gens.push_back(gen_id);
  }
  gens_[gen_id.v].slices.push_back(slice_index);
  slice_gen_[slice_index] = gen_id;

  if (!slice.node_name.empty() && !IsCounterSlice(slice)) {
    slices_by_node_[slice.node_name].push_back(slice_index);
  } else {
    global_slices_.push_back(slice_index);
  }
}

void PoolIndex::BuildGen(PoolGenId id, core::Diagnostics& diags) {
  PoolGen& gen = gens_[id.v];
  const Pool& pool = pools_[gen.pool];
  // A pool the API server accepts can still be unusable: its slices repeat a device name,
  // reference counters no slice defines, or define a counter set twice. Upstream's
  // GatherPools marks such a pool invalid and allocates from the others; berth does the same
  // and warns, once per pool, about the generation the allocator reads (older generations
  // are ignored anyway).
  const bool current = gen.generation == pool.max_generation;
  const std::string described = DescribePool(snapshot_, pool, gen);
  auto warn = [&](const std::string& reason, core::Location where) {
    if (!current) return;
    diags.Warn(core::InvalidArgument(
        described + " is invalid (" + reason + "); devices are not allocated from it",
        std::move(where)));
  };
  if (current && !gen.slices.empty()) {
    const model::ResourceSlice& first = snapshot_.resource_slices[gen.slices.front()];
    const auto have = static_cast<int64_t>(gen.slices.size());
    if (have != first.resource_slice_count) {
      // Incomplete for every node (a node's view may see fewer slices still): upstream
      // skips it, and an "All" request that sees it fails.
      diags.Warn(core::InvalidArgument(
          described + " is incomplete (" + std::to_string(have) + " of " +
              std::to_string(first.resource_slice_count) + " slices at generation " +
              std::to_string(gen.generation) + "); devices are not allocated from it",
          {"", SliceObject(first), "spec.pool.resourceSliceCount"}));
    }
  }

  // Counter sets: one flat index per (set, counter). A set defined twice makes the pool
  // invalid (upstream getAndValidateCounterSets).
  std::map<std::string, std::map<std::string, int32_t>> sets;
  for (int32_t s : gen.slices) {
    const model::ResourceSlice& slice = snapshot_.resource_slices[s];
    for (size_t k = 0; k < slice.shared_counters.size(); ++k) {
      const model::CounterSet& set = slice.shared_counters[k];
      auto [it, fresh] = sets.try_emplace(set.name);
      if (!fresh) {
        if (gen.counters_invalid_reason.empty()) {
          gen.counters_invalid_reason = "duplicate counter set name " + set.name;
        }
        warn("counter set " + set.name + " is defined more than once",
             {"", SliceObject(slice), "spec.sharedCounters[" + std::to_string(k) + "].name"});
        continue;
      }
      for (const auto& [counter, value] : set.counters) {
        it->second[counter] = static_cast<int32_t>(gen.counter_names.size());
        gen.counter_names.push_back(set.name + "/" + counter);
        gen.counter_totals.push_back(value.milli());
      }
    }
  }

  // Device records, with counter consumption resolved; unknown sets or counters make the
  // pool invalid (upstream validateDeviceCounterConsumption).
  std::set<std::string> names;
  bool reported_duplicate = false;
  for (int32_t s : gen.slices) {
    const model::ResourceSlice& slice = snapshot_.resource_slices[s];
    slice_first_record_[static_cast<size_t>(s)] = static_cast<int32_t>(records_.size());
    for (size_t d = 0; d < slice.devices.size(); ++d) {
      const model::Device& device = slice.devices[d];
      DeviceRecordId rid{static_cast<int32_t>(records_.size())};
      DeviceRecord rec;
      rec.slice = s;
      rec.device = static_cast<int32_t>(d);
      rec.key = InternKey(slice.driver, slice.pool_name, device.name);
      rec.gen = id;
      rec.node_local =
          slice.per_device_node_selection ? !device.node_name.empty() : !slice.node_name.empty();
      rec.multi = device.allow_multiple_allocations;
      rec.has_taints = !device.taints.empty();
      rec.consumes_counters = !device.consumes_counters.empty();
      rec.has_capacity = !device.capacity.empty();
      const std::string field = "spec.devices[" + std::to_string(d) + "]";
      for (size_t c = 0; c < device.consumes_counters.size(); ++c) {
        const model::DeviceCounterConsumption& use = device.consumes_counters[c];
        const std::string use_field = field + ".consumesCounters[" + std::to_string(c) + "]";
        auto set = sets.find(use.counter_set);
        if (set == sets.end()) {
          if (gen.counters_invalid_reason.empty()) {
            gen.counters_invalid_reason = "counter set " + use.counter_set + " not found";
          }
          warn("device " + device.name + " consumes counter set " + use.counter_set +
                   ", which no slice of the pool defines",
               {"", SliceObject(slice), use_field + ".counterSet"});
          continue;
        }
        for (const auto& [counter, value] : use.counters) {
          auto it = set->second.find(counter);
          if (it == set->second.end()) {
            if (gen.counters_invalid_reason.empty()) {
              gen.counters_invalid_reason =
                  "counter " + counter + " not found in counter set " + use.counter_set;
            }
            warn("device " + device.name + " consumes counter " + counter + ", which counter set " +
                     use.counter_set + " does not define",
                 {"", SliceObject(slice), use_field + ".counters." + counter});
            continue;
          }
          rec.counters.emplace_back(it->second, value.milli());
        }
      }
      if (!IsCounterSlice(slice) && !names.insert(device.name).second && !reported_duplicate) {
        // Reported once per pool generation; whether a node's view is invalid is decided
        // per node from the slices that node sees, as upstream does.
        reported_duplicate = true;
        warn("duplicate device name " + device.name, {"", SliceObject(slice), field + ".name"});
      }
      key_records_[rec.key.v].push_back(rid);
      gen.records.push_back(rid);
      records_.push_back(std::move(rec));
    }
  }
  if (!gen.counters_invalid_reason.empty()) {
    for (DeviceRecordId r : gen.records) records_[r.v].counters.clear();
  }
}

DeviceKeyId PoolIndex::InternKey(const std::string& driver, const std::string& pool,
                                 const std::string& device) {
  auto [it, fresh] =
      key_ids_.try_emplace(KeyOf(driver, pool, device), static_cast<int32_t>(key_names_.size()));
  if (fresh) {
    key_names_.push_back(driver + "/" + pool + "/" + device);
    key_records_.emplace_back();
  }
  return DeviceKeyId{it->second};
}

DeviceKeyId PoolIndex::FindKey(const std::string& driver, const std::string& pool,
                               const std::string& device) const {
  auto it = key_ids_.find(KeyOf(driver, pool, device));
  return it == key_ids_.end() ? DeviceKeyId{} : DeviceKeyId{it->second};
}

bool PoolIndex::SliceRelevant(const model::ResourceSlice& slice, const model::Node& node) const {
  // Counter sets matter to every node that uses the pool (upstream always keeps them).
  if (IsCounterSlice(slice)) return true;
  if (!slice.node_name.empty() || slice.all_nodes || slice.node_selector.has_value()) {
    return NodeSelectionMatches(node, slice.node_name, slice.all_nodes, slice.node_selector);
  }
  if (slice.per_device_node_selection) {
    return std::any_of(slice.devices.begin(), slice.devices.end(), [&](const model::Device& d) {
      return NodeSelectionMatches(node, d.node_name, d.all_nodes, d.node_selector);
    });
  }
  // No known node selection: some future extension; skipped like upstream.
  return false;
}

const NodeView& PoolIndex::ViewFor(model::NodeIndex node) const {
  std::optional<NodeView>& slot = views_[static_cast<size_t>(node.v)];
  if (!slot.has_value()) {
    slot = BuildView(snapshot_.node(node));
    ++views_built_;
  }
  return *slot;
}

NodeView PoolIndex::BuildView(const model::Node& node) const {
  std::vector<int32_t> relevant;
  if (auto it = slices_by_node_.find(node.meta.name); it != slices_by_node_.end()) {
    relevant = it->second;
  }
  for (int32_t s : global_slices_) {
    if (SliceRelevant(snapshot_.resource_slices[s], node)) relevant.push_back(s);
  }
  std::sort(relevant.begin(), relevant.end());

  // Per pool: the relevant slices of the highest relevant generation, in snapshot order.
  std::map<int32_t, std::vector<int32_t>> by_pool;
  for (int32_t s : relevant) {
    const PoolGen& g = gens_[slice_gen_[s].v];
    std::vector<int32_t>& list = by_pool[g.pool];
    if (!list.empty()) {
      const int64_t have = snapshot_.resource_slices[list.front()].pool_generation;
      if (g.generation < have) continue;
      if (g.generation > have) list.clear();
    }
    list.push_back(s);
  }

  std::vector<NodePool> regular;
  std::vector<NodePool> with_conditions;
  std::vector<std::vector<DeviceRecordId>> regular_devices;
  std::vector<std::vector<DeviceRecordId>> conditioned_devices;
  for (auto& [pool_index, slices] : by_pool) {
    const Pool& pool = pools_[pool_index];
    const model::ResourceSlice& first = snapshot_.resource_slices[slices.front()];
    const PoolGenId gen_id = slice_gen_[slices.front()];
    const PoolGen& gen = gens_[gen_id.v];
    NodePool np;
    np.pool = pool_index;
    const int64_t want = first.resource_slice_count;
    if (static_cast<int64_t>(slices.size()) != want) {
      // Slices published for other nodes may complete the pool, unless a newer generation
      // exists somewhere: then this one is being replaced and is ignored.
      if (pool.max_generation > gen.generation) continue;
      if (static_cast<int64_t>(gen.slices.size()) != want) {
        np.incomplete = true;
        regular.push_back(np);
        regular_devices.emplace_back();
        continue;
      }
    }
    np.gen = gen_id;
    std::stable_sort(slices.begin(), slices.end(), [&](int32_t a, int32_t b) {
      return snapshot_.resource_slices[a].meta.name < snapshot_.resource_slices[b].meta.name;
    });
    std::unordered_set<std::string_view> names;
    std::vector<DeviceRecordId> devices;
    for (int32_t s : slices) {
      const model::ResourceSlice& slice = snapshot_.resource_slices[s];
      if (IsCounterSlice(slice)) continue;
      for (const model::Device& d : slice.devices) {
        if (!names.insert(d.name).second && np.invalid_reason.empty()) {
          np.invalid_reason = "duplicate device name " + d.name;
        }
      }
    }
    if (np.invalid_reason.empty()) np.invalid_reason = gen.counters_invalid_reason;
    if (np.invalid()) {
      regular.push_back(np);
      regular_devices.emplace_back();
      continue;
    }
    for (int32_t s : slices) {
      const model::ResourceSlice& slice = snapshot_.resource_slices[s];
      if (IsCounterSlice(slice)) continue;
      // Records of one slice are contiguous and in device order.
      int32_t rec = slice_first_record_[static_cast<size_t>(s)];
      for (size_t d = 0; d < slice.devices.size(); ++d, ++rec) {
        const model::Device& device = slice.devices[d];
        if (slice.per_device_node_selection &&
            !NodeSelectionMatches(node, device.node_name, device.all_nodes, device.node_selector)) {
          continue;
        }
        if (!device.binding_conditions.empty()) np.binding_conditions = true;
        devices.push_back(DeviceRecordId{rec});
      }
    }
    if (np.binding_conditions) {
      with_conditions.push_back(np);
      conditioned_devices.push_back(std::move(devices));
    } else {
      regular.push_back(np);
      regular_devices.push_back(std::move(devices));
    }
  }

  // by_pool is ordered by pool index, which is first-seen order; sort by (driver, pool).
  auto order = [&](std::vector<NodePool>& list, std::vector<std::vector<DeviceRecordId>>& devs) {
    std::vector<size_t> idx(list.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
      const Pool& pa = pools_[list[a].pool];
      const Pool& pb = pools_[list[b].pool];
      if (pa.driver != pb.driver) return pa.driver < pb.driver;
      return pa.name < pb.name;
    });
    std::vector<std::pair<NodePool, std::vector<DeviceRecordId>>> out;
    out.reserve(idx.size());
    for (size_t i : idx) out.emplace_back(list[i], std::move(devs[i]));
    return out;
  };
  NodeView view;
  for (auto* group : {&regular, &with_conditions}) {
    auto sorted = group == &regular ? order(regular, regular_devices)
                                    : order(with_conditions, conditioned_devices);
    for (auto& [np, devs] : sorted) {
      np.first = static_cast<int32_t>(view.devices.size());
      view.devices.insert(view.devices.end(), devs.begin(), devs.end());
      np.last = static_cast<int32_t>(view.devices.size());
      if (np.invalid()) view.has_invalid = true;
      view.pools.push_back(std::move(np));
    }
  }
  view.devices.shrink_to_fit();
  return view;
}

size_t PoolIndex::MemoryBytes() const {
  size_t bytes = records_.capacity() * sizeof(DeviceRecord) + gens_.capacity() * sizeof(PoolGen) +
                 key_names_.capacity() * sizeof(std::string) +
                 key_records_.capacity() * sizeof(std::vector<DeviceRecordId>) +
                 views_.capacity() * sizeof(std::optional<NodeView>);
  for (const DeviceRecord& r : records_) bytes += r.counters.capacity() * sizeof(r.counters[0]);
  for (const std::string& s : key_names_) bytes += s.capacity() + 32;  // + hash map node
  for (const auto& v : key_records_) bytes += v.capacity() * sizeof(DeviceRecordId);
  for (const auto& v : views_) {
    if (!v.has_value()) continue;
    bytes +=
        v->pools.capacity() * sizeof(NodePool) + v->devices.capacity() * sizeof(DeviceRecordId);
  }
  return bytes;
}

}  // namespace berth::devices::internal
