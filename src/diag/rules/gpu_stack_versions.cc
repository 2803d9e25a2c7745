// Version rules: CUDA images against their nodes' drivers and GPU architectures, drivers
// against architectures, the GPU Operator against the cluster's Kubernetes, and RuntimeClasses.
// All compare with the table of gpu_compat_table.h. GPU nodes are grouped into classes of equal
// (driver, CUDA, family) once per rule; a pod spec is checked against the classes its
// nodeSelector can reach, memoized per selector, so the cost is classes per spec.
#include <map>
#include <set>
#include <string>

#include "diag/rules/gpu_stack_checks.h"
#include "gpu/gpu_inventory.h"

namespace berth::diag::rules {

namespace {

struct GpuVersionClass {
  std::optional<DriverVersion> driver;
  std::optional<CudaVersion> driver_cuda;
  std::string family;
  int32_t nodes = 0;
};

class GpuVersionIndex {
 public:
  explicit GpuVersionIndex(const DoctorContext& ctx) : ctx_(ctx), class_of_(ctx.snapshot().nodes.size(), -1) {
    std::map<std::string, int32_t> keys;
    for (size_t i = 0; i < ctx.snapshot().nodes.size(); ++i) {
      const model::NodeIndex at{static_cast<int32_t>(i)};
      if (!ctx.IsGpuNode(at)) continue;
      const model::Node& node = ctx.snapshot().node(at);
      GpuVersionClass c;
      c.driver = GpuStackNodeDriver(node);
      c.driver_cuda = GpuStackNodeDriverCuda(node);
      c.family = std::string(GpuStackLabel(node, gpu::kLabelGpuFamily));
      if (!c.driver.has_value() && !c.driver_cuda.has_value() && c.family.empty()) continue;
      std::string key = node.cluster + "\n" + (c.driver ? c.driver->ToString() : "") + "\n" +
                        (c.driver_cuda ? c.driver_cuda->ToString() : "") + "\n" + c.family;
      auto [it, added] = keys.emplace(key, static_cast<int32_t>(classes_.size()));
      if (added) {
        classes_.push_back(std::move(c));
        by_cluster_[node.cluster].push_back(it->second);
      }
      ++classes_[static_cast<size_t>(it->second)].nodes;
      class_of_[i] = it->second;
    }
  }

  const GpuVersionClass& Class(int32_t i) const { return classes_[static_cast<size_t>(i)]; }

  // The classes of the GPU nodes a pod's nodeSelector admits (required affinity is not read:
  // considering more nodes can only make a finding less likely).
  const std::vector<int32_t>& Reachable(const model::Pod& pod) {
    auto cluster = by_cluster_.find(pod.cluster);
    if (cluster == by_cluster_.end()) return none_;
    if (pod.node_selector.empty()) return cluster->second;
    std::string key = pod.cluster;
    for (const auto& [k, v] : pod.node_selector) key += "\n" + k + "=" + v;
    auto memo = memo_.find(key);
    if (memo != memo_.end()) return memo->second;
    const std::vector<model::NodeIndex>* candidates = &ctx_.NodesOf(pod.cluster);
    for (const auto& [k, v] : pod.node_selector) {
      const auto& with = ctx_.NodesWithLabel(pod.cluster, k, v);
      if (with.size() < candidates->size()) candidates = &with;
    }
    std::set<int32_t> found;
    for (model::NodeIndex n : *candidates) {
      const int32_t c = class_of_[static_cast<size_t>(n.v)];
      if (c < 0 || found.contains(c)) continue;
      const model::Node& node = ctx_.snapshot().node(n);
      bool ok = true;
      for (const auto& [k, v] : pod.node_selector) {
        auto it = node.meta.labels.find(k);
        if (it == node.meta.labels.end() || it->second != v) {
          ok = false;
          break;
        }
      }
      if (ok) found.insert(c);
    }
    return memo_.emplace(key, std::vector<int32_t>(found.begin(), found.end())).first->second;
  }

 private:
  const DoctorContext& ctx_;
  std::vector<int32_t> class_of_;
  std::vector<GpuVersionClass> classes_;
  std::map<std::string, std::vector<int32_t>, std::less<>> by_cluster_;
  std::map<std::string, std::vector<int32_t>> memo_;
  const std::vector<int32_t> none_;
};

// The driver CUDA X.Y was released with (the first table row at or above it).
std::optional<DriverVersion> GpuVersionDriverFor(CudaVersion app) {
  for (const CudaDriverRow& row : CudaToolkitDrivers()) {
    if (row.cuda >= app) return row.driver;
  }
  return std::nullopt;
}

std::string GpuVersionDescribe(const GpuVersionClass& c) {
  std::string s = "driver " + (c.driver ? c.driver->ToString() : std::string("(unlabelled)"));
  std::optional<CudaVersion> cuda = c.driver_cuda;
  if (!cuda.has_value() && c.driver.has_value()) cuda = CudaOfDriver(*c.driver);
  if (cuda.has_value()) s += " (CUDA " + cuda->ToString() + " at most)";
  return s;
}

// Calls `fn(container, field)` for every container of a GPU pod spec whose image names a
// CUDA version.
template <typename Fn>
void GpuVersionForCudaImages(const DoctorContext& ctx, Fn fn) {
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    if (ctx.PodGpuRequest(*spec.spec) == 0) continue;
    auto each = [&](const std::vector<model::Container>& containers, std::string_view list) {
      for (size_t i = 0; i < containers.size(); ++i) {
        std::optional<CudaVersion> cuda = CudaOfImage(containers[i].image);
        if (!cuda.has_value()) continue;
        fn(spec, containers[i], *cuda, spec.Field(std::string(list) + "[" + std::to_string(i) + "].image"));
      }
    };
    each(spec.spec->containers, "containers");
    each(spec.spec->init_containers, "initContainers");
  }
}

}  // namespace

// The CUDA version an image is built for against the drivers of the GPU nodes it may land on.
void CheckGpuDriverIncompatible(const DoctorContext& ctx, FindingSink& sink) {
  GpuVersionIndex index(ctx);
  GpuVersionForCudaImages(ctx, [&](const DoctorContext::PodSpecRef& spec, const model::Container& c,
                                   CudaVersion app, const std::string& field) {
    int32_t supported = 0, minor = 0, unsupported = 0;
    const GpuVersionClass* worst = nullptr;
    const GpuVersionClass* compat = nullptr;
    for (int32_t i : index.Reachable(*spec.spec)) {
      const GpuVersionClass& k = index.Class(i);
      switch (FitCuda(app, k.driver, k.driver_cuda)) {
        case CudaFit::kSupported: supported += k.nodes; break;
        case CudaFit::kMinorCompat: minor += k.nodes; compat = &k; break;
        case CudaFit::kUnsupported: unsupported += k.nodes; if (worst == nullptr) worst = &k; break;
        case CudaFit::kUnknown: break;
      }
    }
    const std::optional<DriverVersion> needed = GpuVersionDriverFor(app);
    const std::string needed_text = needed ? "driver " + needed->ToString() + " or newer" : "a driver for CUDA " + app.ToString();
    const std::string where = "GPU node(s) it may use in cluster " + spec.spec->cluster;
    const std::string image = "container " + c.name + " runs " + c.image + ", built for CUDA " + app.ToString();
    if (unsupported > 0 && supported + minor == 0) {
      sink.Add(spec.object, field,
               image + ", but every " + where + " runs " + GpuVersionDescribe(*worst) +
                   ": CUDA programs fail to start (CUDA driver version is insufficient for CUDA runtime version)",
               "upgrade those nodes to " + needed_text + " (ClusterPolicy spec.driver.version or an NVIDIADriver "
               "resource), or use an image built for the CUDA version the driver supports");
    } else if (minor > 0 && supported == 0) {
      sink.AddAt(Severity::kWarning, spec.object, field,
                 image + ", but the " + where + " run " + GpuVersionDescribe(*compat) +
                     ": it runs only through CUDA minor-version compatibility (PTX of a newer toolkit cannot be "
                     "JIT-compiled, APIs that need a newer driver fail)",
                 "upgrade the nodes to " + needed_text + ", or build the image for CUDA " +
                     (compat->driver_cuda ? compat->driver_cuda->ToString() : std::string("the driver's version")));
    } else if (unsupported > 0) {
      sink.AddAt(Severity::kWarning, spec.object, field,
                 image + ", but " + std::to_string(unsupported) + " of the " + std::to_string(supported + minor + unsupported) +
                     " labelled " + where + " run " + GpuVersionDescribe(*worst) +
                     ": kube-scheduler does not know, and the pod fails wherever it lands there",
                 "keep it off those nodes with required node affinity {key: " + std::string(gpu::kLabelCudaDriverMajor) +
                     ", operator: Gt, values: [\"" + std::to_string(needed ? needed->major - 1 : 0) +
                     "\"]}, or upgrade them to " + needed_text);
    }
  });
}

// Kernels compiled only for older architectures do not run on newer GPUs (unless the image
// carries PTX the driver can JIT): a CUDA 11.7 image on Hopper, a 12.4 image on Blackwell.
void CheckCudaImageOlderThanGpu(const DoctorContext& ctx, FindingSink& sink) {
  GpuVersionIndex index(ctx);
  GpuVersionForCudaImages(ctx, [&](const DoctorContext::PodSpecRef& spec, const model::Container& c,
                                   CudaVersion app, const std::string& field) {
    int32_t known = 0, too_new = 0;
    const ArchitectureRow* arch = nullptr;
    for (int32_t i : index.Reachable(*spec.spec)) {
      const GpuVersionClass& k = index.Class(i);
      const ArchitectureRow* row = FindArchitecture(k.family);
      if (row == nullptr) continue;
      known += k.nodes;
      if (row->first_cuda > app) {
        too_new += k.nodes;
        arch = row;
      }
    }
    if (known == 0 || too_new < known) return;
    sink.Add(spec.object, field,
             "container " + c.name + " runs " + c.image + ", built for CUDA " + app.ToString() + ", but every GPU it may "
                 "use in cluster " + spec.spec->cluster + " is " + std::string(arch->family) +
                 ", which CUDA supports from " + arch->first_cuda.ToString() +
                 ": unless the image carries PTX its kernels fail (no kernel image is available for execution on "
                 "the device)",
             "use an image built with CUDA " + arch->first_cuda.ToString() + " or newer (e.g. nvidia/cuda:" +
                 arch->first_cuda.ToString() + ".0-runtime-ubuntu22.04 as the base)");
  });
}

// A node whose driver predates its GPU architecture (stale labels, or a pinned old driver
// that the operator reinstalls): the GPUs cannot be driven properly.
void CheckGpuDriverBelowArchitecture(const DoctorContext& ctx, FindingSink& sink) {
  for (const model::Node& node : ctx.snapshot().nodes) {
    const ArchitectureRow* arch = FindArchitecture(GpuStackLabel(node, gpu::kLabelGpuFamily));
    if (arch == nullptr) continue;
    std::optional<DriverVersion> driver = GpuStackNodeDriver(node);
    if (!driver.has_value() || *driver >= arch->first_driver) continue;
    sink.Add(RefOf(node, "v1", "Node"), GpuStackLabelField(gpu::kLabelCudaDriverMajor),
             "the node's " + std::string(arch->family) + " GPUs need driver " + arch->first_driver.ToString() +
                 " or newer (CUDA " + arch->first_cuda.ToString() + " is the first to support them) but it runs " +
                 driver->ToString(),
             "upgrade the node's driver to at least " + arch->first_driver.ToString() +
                 " (ClusterPolicy spec.driver.version or an NVIDIADriver resource selecting these nodes)");
  }
}

// The GPU Operator's platform-support page lists the Kubernetes minors each release was
// validated with; outside them operands may use removed APIs or be untested.
void CheckGpuOperatorKubernetesUnsupported(const DoctorContext& ctx, FindingSink& sink) {
  std::map<std::string, std::string, std::less<>> kubernetes;  // cluster → "v1.31.2"
  for (const model::ManagedCluster& mc : ctx.snapshot().managed_clusters) {
    std::string version = mc.kubernetes_version;
    if (version.empty()) {
      for (const model::NamedValue& claim : mc.cluster_claims) {
        if (claim.name == "kubeversion.open-cluster-management.io") version = claim.value;
      }
    }
    if (!version.empty()) kubernetes[mc.meta.name] = version;
  }
  if (kubernetes.empty()) return;
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    auto k8s = kubernetes.find(spec.spec->cluster);
    if (k8s == kubernetes.end()) continue;
    // "v1.31.2" / "1.31" → 31.
    std::string_view v = k8s->second;
    if (!v.empty() && v.front() == 'v') v.remove_prefix(1);
    if (!v.starts_with("1.")) continue;
    v.remove_prefix(2);
    int minor = 0;
    size_t digits = 0;
    while (digits < v.size() && digits < 3 && v[digits] >= '0' && v[digits] <= '9') minor = minor * 10 + (v[digits++] - '0');
    if (digits == 0) continue;
    const std::vector<model::Container>& containers = spec.spec->containers;
    for (size_t i = 0; i < containers.size(); ++i) {
      const std::string& image = containers[i].image;
      const size_t colon = image.rfind(':');
      const size_t slash = image.rfind('/');
      if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) continue;
      const std::string_view repository =
          std::string_view(image).substr(slash == std::string::npos ? 0 : slash + 1, colon - (slash == std::string::npos ? 0 : slash + 1));
      if (repository != "gpu-operator") continue;
      const OperatorRow* row = FindOperatorRelease(std::string_view(image).substr(colon + 1));
      if (row == nullptr || (minor >= row->kubernetes_min_minor && minor <= row->kubernetes_max_minor)) continue;
      sink.Add(spec.object, spec.Field("containers[" + std::to_string(i) + "].image"),
               "GPU Operator " + image.substr(colon + 1) + " was validated with Kubernetes 1." +
                   std::to_string(row->kubernetes_min_minor) + " to 1." + std::to_string(row->kubernetes_max_minor) +
                   " but cluster " + spec.spec->cluster + " runs " + k8s->second,
               "upgrade (or, for an older cluster, choose) a GPU Operator release whose platform-support page lists "
               "Kubernetes 1." + std::to_string(minor) + " (docs/gpus.md, Compatibility table)");
    }
  }
}

// The RuntimeClass admission plugin rejects a pod whose runtimeClassName names no RuntimeClass
// ("pod rejected: RuntimeClass \"nvidia\" not found"); an nvidia RuntimeClass whose handler is
// another runtime starts containers without the NVIDIA hook, so they see no GPU.
void CheckNvidiaRuntimeClassMissing(const DoctorContext& ctx, FindingSink& sink) {
  std::map<std::string, std::set<std::string>, std::less<>> defined;  // cluster → names
  for (const model::RuntimeClass& rc : ctx.snapshot().runtime_classes) {
    defined[rc.cluster].insert(rc.meta.name);
    if (!rc.meta.name.starts_with("nvidia") || rc.handler.starts_with("nvidia")) continue;
    sink.AddAt(Severity::kWarning, RefOf(rc, "node.k8s.io/v1", "RuntimeClass"), "handler",
               "RuntimeClass " + rc.meta.name + " has handler \"" + rc.handler +
                   "\": pods selecting it run without the NVIDIA container runtime, so no GPU driver or device is "
                   "injected into them",
               "set handler: " + rc.meta.name + " (the runtime the NVIDIA container toolkit configures in containerd "
               "or CRI-O), or delete the RuntimeClass and let the GPU Operator recreate it");
  }
  if (defined.empty()) return;  // RuntimeClasses were not given: nothing to compare with
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const std::string& name = spec.spec->runtime_class_name;
    if (name.empty()) continue;
    auto names = defined.find(spec.spec->cluster);
    if (names == defined.end() || names->second.contains(name)) continue;
    std::string known;
    for (const std::string& n : names->second) known += (known.empty() ? "" : ", ") + n;
    sink.Add(spec.object, spec.Field("runtimeClassName"),
             "runtimeClassName " + name + " names no RuntimeClass of cluster " + spec.spec->cluster + " (it has " +
                 known + "): the API server rejects the pod (pod rejected: RuntimeClass \"" + name + "\" not found)",
             "use one of " + known + ", or create the RuntimeClass (the GPU Operator's toolkit creates \"nvidia\" "
             "with handler nvidia)");
  }
}

}  // namespace berth::diag::rules
