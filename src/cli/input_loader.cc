#include "cli/input_loader.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli/demo_fleet.h"
#include "cli/flags.h"

namespace berth::cli {

namespace {

// A member cluster's name must be a DNS label: it names a ManagedCluster and a namespace.
bool IsDnsLabel(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return name.front() != '-' && name.back() != '-';
}

// A --cluster name that no ManagedCluster names is most likely a typo when the input has a
// hub (its objects then belong to no cluster the fleet places on), or when its path held
// nothing; both are warned about, since a plan over them is still a plan.
void WarnUnknownClusters(const std::vector<std::pair<ClusterPath, size_t>>& clusters,
                         const model::Snapshot& snapshot, core::Diagnostics& diags) {
  std::set<std::string_view> managed;
  for (const model::ManagedCluster& mc : snapshot.managed_clusters) managed.insert(mc.meta.name);
  for (const auto& [cluster, objects] : clusters) {
    if (managed.count(cluster.name) > 0) continue;
    const std::string flag = "--cluster " + cluster.name + "=" + cluster.path;
    if (objects == 0) {
      diags.Warn(core::NotFound(flag + ": no ManagedCluster is named \"" + cluster.name +
                                "\" and " + cluster.path + " holds no objects"));
    } else if (!managed.empty()) {
      diags.Warn(core::NotFound(flag + ": no ManagedCluster is named \"" + cluster.name +
                                "\"; its " + std::to_string(objects) + " object" +
                                (objects == 1 ? " belongs" : "s belong") +
                                " to no cluster of the fleet"));
    }
  }
}

}  // namespace

core::Result<ClusterPath> ParseClusterFlag(const std::string& flag) {
  const size_t eq = flag.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == flag.size()) {
    return core::InvalidArgument("--cluster expects NAME=PATH, got \"" + flag + "\"");
  }
  ClusterPath out{flag.substr(0, eq), flag.substr(eq + 1)};
  if (!IsDnsLabel(out.name)) {
    return core::InvalidArgument("--cluster " + flag + ": cluster name \"" + out.name +
                                 "\" must be a DNS label (lower-case letters, digits and '-', "
                                 "at most 63 characters)");
  }
  return out;
}

std::optional<io::Input> LoadPaths(const std::vector<std::string>& paths, core::Diagnostics& diags,
                                   const std::vector<std::string>& clusters) {
  io::Reader reader(diags);
  bool all_readable = true;
  auto read = [&](const std::string& path, const io::ReadOptions& options) {
    core::Status status = reader.ReadPath(path, options);
    if (!status.ok()) {
      core::Error error = std::move(status).error();
      error.WithFile(path);
      diags.Report(std::move(error));
      all_readable = false;
    }
  };
  for (const std::string& path : paths) read(path, {});
  // A cluster given twice is refused rather than merged: which path was meant for it is the
  // user's call (kubectl has one context per name). Objects per flag feed the check below.
  std::map<std::string, std::string> flag_of;  // cluster name -> its first flag
  std::vector<std::pair<ClusterPath, size_t>> read_clusters;
  for (const std::string& flag : clusters) {
    core::Result<ClusterPath> cluster = ParseClusterFlag(flag);
    if (!cluster.has_value()) {
      diags.Report(std::move(cluster).error());
      all_readable = false;
      continue;
    }
    auto [it, inserted] = flag_of.emplace(cluster->name, flag);
    if (!inserted) {
      diags.Report(core::InvalidArgument("--cluster " + flag + ": cluster \"" + cluster->name +
                                         "\" is already given by --cluster " + it->second +
                                         " (give each cluster once)"));
      all_readable = false;
      continue;
    }
    io::ReadOptions options;
    options.cluster = cluster->name;
    const size_t before = reader.ObjectsRead();
    read(cluster->path, options);
    read_clusters.emplace_back(std::move(*cluster), reader.ObjectsRead() - before);
  }
  if (!all_readable) return std::nullopt;
  io::Input input = reader.Finish();
  WarnUnknownClusters(read_clusters, input.snapshot, diags);
  return input;
}

core::Diagnostics WithSourceFiles(const core::Diagnostics& diags,
                                  const io::DocumentStore& documents) {
  std::unordered_map<std::string, std::string> files;  // object label -> file
  bool needed = false;
  for (const core::Diagnostic& d : diags.entries()) {
    needed = needed || (d.error.location().file.empty() && !d.error.location().object.empty());
  }
  if (needed) {
    for (size_t i = 0; i < documents.size(); ++i) {
      const io::Document& doc = documents.Get(model::SourceRef{static_cast<int32_t>(i)});
      std::string label = doc.kind + "/";
      if (!doc.namespace_.empty()) label += doc.namespace_ + "/";
      label += doc.name;
      files.emplace(std::move(label), doc.file);  // the first object of a name wins
    }
  }
  core::Diagnostics out;
  for (const core::Diagnostic& d : diags.entries()) {
    core::Error error = d.error;
    if (error.location().file.empty()) {
      auto it = files.find(error.location().object);
      if (it != files.end()) error.WithFile(it->second);
    }
    if (d.severity == core::Severity::kError) {
      out.Report(std::move(error));
    } else {
      out.Warn(std::move(error));
    }
  }
  return out;
}

std::optional<LoadedInput> LoadInput(const LoadFlags& flags, std::ostream& err) {
  auto options = ParsePlanOptions(flags.scoring, flags.now, flags.cycles);
  if (!options.has_value()) {
    PrintError(options.error(), err);
    return std::nullopt;
  }
  core::Diagnostics diags;
  std::optional<io::Input> input = flags.demo ? std::optional<io::Input>(LoadDemoFleet(diags))
                                              : LoadPaths(flags.files, diags, flags.clusters);
  PrintDiagnostics(diags, err);
  if (!input) return std::nullopt;
  const ExitCode code = ExitCodeFor(diags, input->objects_read);
  if (code == ExitCode::kFailed) {
    // Errors already say why nothing was read; an empty input deserves its own sentence.
    if (!diags.has_errors()) {
      std::string paths;
      for (const std::string& path : flags.files) paths += (paths.empty() ? "" : ", ") + path;
      PrintError(core::NotFound("no Kubernetes objects found in " +
                                (flags.demo ? std::string("the demo fleet") : paths)),
                 err);
    }
    return std::nullopt;
  }
  return LoadedInput{std::move(*input), std::move(options).value(), code, std::move(diags)};
}

int ExitCodeAfterPlan(const LoadedInput& loaded, const core::Diagnostics& engine_diagnostics,
                      std::ostream& err) {
  const core::Diagnostics diags = WithSourceFiles(engine_diagnostics, loaded.input.documents);
  PrintDiagnostics(diags, err);
  return ToInt(loaded.code == ExitCode::kOk && diags.has_errors() ? ExitCode::kPartial
                                                                  : loaded.code);
}

io::Input LoadDemoFleet(core::Diagnostics& diags, bool with_hub_layer) {
  io::Reader reader(diags);
  for (const EmbeddedFile& file : DemoFleetFiles()) {
    reader.ReadText(file.text, "<demo>/" + std::string(file.path));
  }
  if (with_hub_layer) {
    for (const EmbeddedFile& file : DemoHubFiles()) {
      reader.ReadText(file.text, "<demo-hub>/" + std::string(file.path));
    }
  }
  return reader.Finish();
}

io::Input LoadFleetExample(core::Diagnostics& diags, const std::vector<std::string>& prefixes,
                           const std::vector<std::string>& skip, const io::ExpansionLimits& expansion) {
  io::Reader reader(diags);
  for (const EmbeddedFile& file : FleetExampleFiles()) {
    const std::string_view path = file.path;
    bool wanted = false;
    for (const std::string& p : prefixes) wanted = wanted || path.starts_with(p);
    const std::string_view base = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
    for (const std::string& name : skip) wanted = wanted && base != name;
    if (wanted) reader.ReadText(file.text, "<fleet>/" + std::string(path));
  }
  return reader.Finish(expansion);
}

std::vector<std::string> FleetExampleClusters() {
  std::set<std::string> names;
  constexpr std::string_view kPrefix = "clusters/";
  for (const EmbeddedFile& file : FleetExampleFiles()) {
    std::string_view path = file.path;
    if (!path.starts_with(kPrefix)) continue;
    path.remove_prefix(kPrefix.size());
    const size_t slash = path.find('/');
    if (slash != std::string_view::npos) names.emplace(path.substr(0, slash));
  }
  return {names.begin(), names.end()};
}

}  // namespace berth::cli
