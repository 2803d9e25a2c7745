#include "cli/inventory_command.h"

#include <optional>
#include <utility>

#include "cli/exit_code.h"
#include "cli/input_loader.h"
#include "cli/text_table.h"
#include "engine/plan.h"
#include "io/json_writer.h"

namespace berth::cli {

namespace {

// The devices module's types reach cli through engine/inventory.h.
using gpu::DeviceOccupancy;
using gpu::GpuDevice;
using gpu::NodeGpuInventory;
using gpu::PhysicalGpu;
using gpu::SharedGpu;

// 750 -> "0.75", 1000 -> "1", 0 -> "0".
std::string Milli(int64_t milli) {
  std::string out = std::to_string(milli / 1000);
  int64_t rest = milli % 1000;
  if (rest == 0) return out;
  std::string digits = std::to_string(rest);
  digits.insert(0, 3 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

std::string PodName(const model::Snapshot& snapshot, model::PodIndex pod) {
  return engine::PodKey(snapshot.pod(pod));
}

// Whether the view names `pod` (-n).
bool Shown(const model::Snapshot& snapshot, const InventoryView& view, model::PodIndex pod) {
  return view.filter.MatchesNamespace(snapshot.pod(pod).meta.namespace_);
}

// The nodes of `cluster` the view prints (-l).
std::vector<const engine::NodeInventory*> ShownNodes(const model::Snapshot& snapshot,
                                                     const InventoryView& view,
                                                     const engine::ClusterInventory& cluster) {
  std::vector<const engine::NodeInventory*> nodes;
  for (const engine::NodeInventory& n : cluster.nodes) {
    if (view.filter.MatchesLabels(snapshot.node(n.node).meta.labels)) nodes.push_back(&n);
  }
  return nodes;
}

// The shared GPU (KAI reservation) on physical GPU `gpu`, or nullptr.
const SharedGpu* SharedOn(const gpu::NodeOccupancy& occ, int32_t gpu) {
  for (const SharedGpu& s : occ.fractions.shared()) {
    if (s.gpu == gpu) return &s;
  }
  return nullptr;
}

std::string DeviceName(const PhysicalGpu& gpu, const GpuDevice& d) {
  if (d.mig_instance < 0) return "whole";
  const gpu::GpuMigInstance& m = gpu.mig[static_cast<size_t>(d.mig_instance)];
  if (m.start < 0) return m.profile;
  std::string slices = std::to_string(m.start);
  if (m.size > 1) slices += "-" + std::to_string(m.start + m.size - 1);
  return m.profile + " [" + slices + "]";
}

std::string NodeHeader(const model::Node& node, const NodeGpuInventory& inv) {
  std::string out = "Node " + node.meta.name + ": " + std::to_string(inv.gpus.size()) + " x " +
                    (inv.product.empty() ? "unlabelled GPU" : inv.product);
  const PhysicalGpu& g = inv.gpus.front();
  std::vector<std::string> parts;
  if (g.memory_mib > 0) parts.push_back(std::to_string(g.memory_mib) + " MiB");
  if (!g.family.empty()) parts.push_back(g.family);
  if (!g.compute_capability.empty()) parts.push_back("compute " + g.compute_capability);
  if (!g.clique.empty()) parts.push_back("NVLink clique " + g.clique);
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? " (" : ", ") + parts[i];
  if (!parts.empty()) out += ")";
  return out;
}

std::string MigLine(const NodeGpuInventory& inv) {
  std::string out = "MIG: " + std::string(gpu::MigStrategyName(inv.mig_strategy));
  if (inv.mig_strategy != gpu::MigStrategy::kNone) out += " strategy";
  size_t partitioned = 0;
  for (const PhysicalGpu& g : inv.gpus) partitioned += g.mig_enabled ? 1 : 0;
  if (partitioned > 0) {
    out += ", " + std::to_string(partitioned) + " of " + std::to_string(inv.gpus.size()) +
           " GPUs partitioned";
    if (inv.geometry != nullptr) out += " (" + std::string(inv.geometry->name) + " geometry)";
  }
  if (!inv.mig_config.empty()) {
    out += ", mig.config " + inv.mig_config;
    if (!inv.mig_config_state.empty()) out += " (" + inv.mig_config_state + ")";
  }
  return out;
}

std::string SharingLine(const NodeGpuInventory& inv) {
  const gpu::GpuSharing& s = inv.sharing;
  std::string out = "Sharing: " + std::string(gpu::SharingModeName(s.mode));
  if (s.mode == gpu::SharingMode::kNone) return out;
  out += ", " + std::to_string(s.replicas) + " replicas per device";
  if (s.renamed) out += ", renamed to <resource>.shared";
  if (s.fail_requests_greater_than_one) out += ", failRequestsGreaterThanOne";
  return out;
}

void PrintNode(const model::Snapshot& snapshot, const engine::NodeInventory& n, std::ostream& out,
               const InventoryView& view) {
  const NodeGpuInventory& inv = n.gpus;
  const gpu::NodeOccupancy& occ = n.occupancy;
  out << NodeHeader(snapshot.node(n.node), inv) << '\n';
  out << "  " << MigLine(inv) << '\n';
  out << "  " << SharingLine(inv) << '\n';
  using Align = TextTable::Align;
  TextTable table(
      {Align::kRight, Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kLeft});
  if (!view.no_headers) table.AddRow({"GPU", "DEVICE", "RESOURCE", "USED", "FREE", "PODS"});
  const int64_t gpu_memory = inv.GpuMemoryMib();
  for (size_t i = 0; i < inv.devices.size(); ++i) {
    const GpuDevice& d = inv.devices[i];
    const DeviceOccupancy& o = occ.devices[i];
    const PhysicalGpu& gpu = inv.gpus[static_cast<size_t>(d.gpu)];
    std::string used = std::to_string(o.used) + "/" + std::to_string(d.replicas);
    std::string free = std::to_string(d.replicas - o.used);
    std::string pods;
    const SharedGpu* shared = d.mig_instance < 0 ? SharedOn(occ, d.gpu) : nullptr;
    if (shared != nullptr) {
      used = Milli(shared->milli_used);
      free = Milli(gpu::kMilliGpu - shared->milli_used);
      if (gpu_memory > 0) {
        used += ", " + std::to_string(shared->memory_used_mib) + " MiB";
        free += ", " + std::to_string(gpu_memory - shared->memory_used_mib) + " MiB";
      }
      for (const gpu::FractionHolder& h : shared->holders) {
        if (!Shown(snapshot, view, h.pod)) continue;
        pods +=
            (pods.empty() ? "" : ", ") + PodName(snapshot, h.pod) + " " + Milli(h.portion.milli);
      }
    } else {
      for (const gpu::DeviceHolder& h : o.holders) {
        if (h.pod.v < 0 || !Shown(snapshot, view, h.pod)) continue;
        pods += (pods.empty() ? "" : ", ") + PodName(snapshot, h.pod);
        if (h.replicas > 1) pods += " x" + std::to_string(h.replicas);
      }
    }
    table.AddRow({std::to_string(d.gpu), DeviceName(gpu, d),
                  shared != nullptr ? "gpu-fraction" : d.resource, used, free,
                  pods.empty() ? "-" : pods});
  }
  table.Print(out, "  ");
  for (const gpu::UnassignedDemand& u : occ.unassigned) {
    if (!Shown(snapshot, view, u.pod)) continue;
    out << "  on no device: " << PodName(snapshot, u.pod) << " (" << u.resource;
    if (u.amount > 0) out << " " << u.amount;
    out << "): " << u.reason << '\n';
  }
  for (const std::string& note : inv.notes) out << "  note: " << note << '\n';
}

void JsonNode(const model::Snapshot& snapshot, const engine::NodeInventory& n, io::JsonWriter& w,
              const InventoryView& view) {
  const NodeGpuInventory& inv = n.gpus;
  const gpu::NodeOccupancy& occ = n.occupancy;
  const PhysicalGpu& first = inv.gpus.front();
  w.BeginObject();
  w.Field("name", snapshot.node(n.node).meta.name);
  w.Field("product", inv.product);
  w.Field("gpuCount", static_cast<int64_t>(inv.gpus.size()));
  w.Field("memoryMiB", first.memory_mib);
  w.Field("family", first.family);
  w.Field("computeCapability", first.compute_capability);
  w.Field("clique", first.clique);
  w.Key("mig");
  w.BeginObject();
  w.Field("strategy", gpu::MigStrategyName(inv.mig_strategy));
  w.Field("geometry", inv.geometry != nullptr ? inv.geometry->name : "");
  w.Field("config", inv.mig_config);
  w.Field("configState", inv.mig_config_state);
  w.EndObject();
  w.Key("sharing");
  w.BeginObject();
  w.Field("strategy", gpu::SharingModeName(inv.sharing.mode));
  w.Field("replicas", int64_t{inv.sharing.replicas});
  w.FieldBool("renamed", inv.sharing.renamed);
  w.FieldBool("failRequestsGreaterThanOne", inv.sharing.fail_requests_greater_than_one);
  w.EndObject();
  w.Key("gpus");
  w.BeginArray();
  for (const PhysicalGpu& g : inv.gpus) {
    w.BeginObject();
    w.Field("index", int64_t{g.index});
    w.FieldBool("migEnabled", g.mig_enabled);
    w.Key("devices");
    w.BeginArray();
    for (size_t i = 0; i < inv.devices.size(); ++i) {
      const GpuDevice& d = inv.devices[i];
      if (d.gpu != g.index) continue;
      const DeviceOccupancy& o = occ.devices[i];
      w.BeginObject();
      if (d.mig_instance < 0) {
        w.Field("kind", "gpu");
      } else {
        const gpu::GpuMigInstance& m = g.mig[static_cast<size_t>(d.mig_instance)];
        w.Field("kind", "mig");
        w.Field("profile", m.profile);
        w.Key("placement");
        if (m.start < 0) {
          w.Null();
        } else {
          w.BeginObject();
          w.Field("start", int64_t{m.start});
          w.Field("size", int64_t{m.size});
          w.EndObject();
        }
      }
      w.Field("resource", d.resource);
      w.Field("replicas", int64_t{d.replicas});
      w.Field("used", int64_t{o.used});
      bool reserved = false;
      w.Key("pods");
      w.BeginArray();
      for (const gpu::DeviceHolder& h : o.holders) {
        if (h.pod.v < 0) {
          reserved = true;
          continue;
        }
        if (!Shown(snapshot, view, h.pod)) continue;
        w.BeginObject();
        w.Field("pod", PodName(snapshot, h.pod));
        w.Field("replicas", int64_t{h.replicas});
        w.EndObject();
      }
      w.EndArray();
      w.FieldBool("reservedForFractions", reserved);
      w.EndObject();
    }
    w.EndArray();
    w.Key("fractions");
    const SharedGpu* shared = SharedOn(occ, g.index);
    if (shared == nullptr) {
      w.Null();
    } else {
      w.BeginObject();
      w.Field("usedMilli", shared->milli_used);
      w.Field("usedMemoryMiB", shared->memory_used_mib);
      w.Key("pods");
      w.BeginArray();
      for (const gpu::FractionHolder& h : shared->holders) {
        if (!Shown(snapshot, view, h.pod)) continue;
        w.BeginObject();
        w.Field("pod", PodName(snapshot, h.pod));
        w.Field("milli", h.portion.milli);
        w.Field("memoryMiB", h.portion.memory_mib);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("unassigned");
  w.BeginArray();
  for (const gpu::UnassignedDemand& u : occ.unassigned) {
    if (!Shown(snapshot, view, u.pod)) continue;
    w.BeginObject();
    w.Field("pod", PodName(snapshot, u.pod));
    w.Field("resource", u.resource);
    w.Field("amount", u.amount);
    w.Field("reason", u.reason);
    w.EndObject();
  }
  w.EndArray();
  w.Key("notes");
  w.BeginArray();
  for (const std::string& note : inv.notes) w.String(note);
  w.EndArray();
  w.EndObject();
}

}  // namespace

void PrintInventoryTable(const model::Snapshot& snapshot, const engine::Inventory& inventory,
                         std::ostream& out, const InventoryView& view) {
  if (inventory.clusters.empty()) {
    out << "No node advertises NVIDIA GPUs (nvidia.com/gpu, nvidia.com/mig-*) or carries GPU "
           "Feature Discovery labels.\n";
    return;
  }
  bool first = true;
  for (const engine::ClusterInventory& cluster : inventory.clusters) {
    const std::vector<const engine::NodeInventory*> nodes = ShownNodes(snapshot, view, cluster);
    if (nodes.empty()) continue;
    if (!first) out << '\n';
    first = false;
    out << "Cluster " << cluster.name << '\n';
    for (const engine::NodeInventory* node : nodes) {
      out << '\n';
      PrintNode(snapshot, *node, out, view);
    }
  }
  if (first) out << "No GPU node matches the selector.\n";
}

void PrintInventoryJson(const model::Snapshot& snapshot, const engine::Inventory& inventory,
                        std::ostream& out, const InventoryView& view) {
  io::JsonWriter w(out);
  w.BeginObject();
  w.Key("clusters");
  w.BeginArray();
  for (const engine::ClusterInventory& cluster : inventory.clusters) {
    const std::vector<const engine::NodeInventory*> nodes = ShownNodes(snapshot, view, cluster);
    if (nodes.empty()) continue;
    w.BeginObject();
    w.Field("name", cluster.name);
    w.Key("nodes");
    w.BeginArray();
    for (const engine::NodeInventory* node : nodes) JsonNode(snapshot, *node, w, view);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
}

int RunInventoryCommand(const InventoryFlags& flags, std::ostream& out, std::ostream& err) {
  if (flags.output != "table" && flags.output != "json") {
    PrintError(core::InvalidArgument("--output: unknown format \"" + flags.output +
                                     "\" (want table or json)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto filter = ObjectFilter::FromFlags(flags.filter);
  if (!filter.has_value()) {
    PrintError(filter.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  const InventoryView view{filter.value(), flags.no_headers};
  std::optional<LoadedInput> loaded = LoadInput({.files = flags.files,
                                                 .clusters = flags.clusters,
                                                 .demo = false,
                                                 .scoring = flags.scoring,
                                                 .now = flags.now,
                                                 .cycles = std::nullopt},
                                                err);
  if (!loaded) return ToInt(ExitCode::kFailed);
  // The input is handed over: the inventory and its names are read from the planned snapshot.
  const engine::Plan plan = engine::RunPlan(std::move(loaded->input.snapshot), loaded->options);
  const model::Snapshot& snapshot = plan.planned;
  // The engine's diagnostics are not printed here (as before the shared preamble): the
  // inventory reports devices, and `berth plan` reports the objects the allocator refused.
  const engine::Inventory inventory = engine::BuildInventory(plan);
  if (flags.output == "json") {
    PrintInventoryJson(snapshot, inventory, out, view);
  } else {
    PrintInventoryTable(snapshot, inventory, out, view);
  }
  return ToInt(loaded->code);
}

}  // namespace berth::cli
