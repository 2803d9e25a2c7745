#include "cli/input_loader.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "cli/demo_fleet.h"

namespace berth::cli {

std::optional<io::Input> LoadPaths(const std::vector<std::string>& paths,
                                   core::Diagnostics& diags) {
  io::Reader reader(diags);
  bool all_readable = true;
  for (const std::string& path : paths) {
    core::Status status = reader.ReadPath(path);
    if (!status.ok()) {
      core::Error error = std::move(status).error();
      error.WithFile(path);
      diags.Report(std::move(error));
      all_readable = false;
    }
  }
  if (!all_readable) return std::nullopt;
  return reader.Finish();
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

io::Input LoadDemoFleet(core::Diagnostics& diags) {
  io::Reader reader(diags);
  for (const EmbeddedFile& file : DemoFleetFiles()) {
    reader.ReadText(file.text, "<demo>/" + std::string(file.path));
  }
  return reader.Finish();
}

}  // namespace berth::cli
