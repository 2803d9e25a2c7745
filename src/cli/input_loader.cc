#include "cli/input_loader.h"

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

io::Input LoadDemoFleet(core::Diagnostics& diags) {
  io::Reader reader(diags);
  for (const EmbeddedFile& file : DemoFleetFiles()) {
    reader.ReadText(file.text, "<demo>/" + std::string(file.path));
  }
  return reader.Finish();
}

}  // namespace berth::cli
