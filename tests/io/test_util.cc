#include "io/test_util.h"

#include <cstdlib>

namespace berth::io::testing {

std::string FixturePath(const std::string& rel) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  std::string base = root != nullptr ? std::string(root) + "/" : std::string();
  return base + "tests/fixtures/io/" + rel;
}

Input ReadString(std::string_view text, core::Diagnostics& diags, const std::string& name) {
  Reader reader(diags);
  reader.ReadText(text, name);
  return reader.Finish();
}

const model::Pod* FindPod(const model::Snapshot& snap, const std::string& ns,
                          const std::string& name) {
  for (const model::Pod& pod : snap.pods) {
    if (pod.meta.namespace_ == ns && pod.meta.name == name) return &pod;
  }
  return nullptr;
}

std::vector<std::string> PodNames(const model::Snapshot& snap) {
  std::vector<std::string> names;
  for (const model::Pod& pod : snap.pods) names.push_back(pod.meta.name);
  return names;
}

std::string Dump(const core::Diagnostics& diags) {
  std::string out;
  for (const core::Diagnostic& d : diags.entries()) {
    const core::Location& l = d.error.location();
    out += (d.severity == core::Severity::kError ? "error " : "warning ") + l.file + "|" +
           l.object + "|" + l.field + "|" + d.error.message() + "\n";
  }
  return out;
}

}  // namespace berth::io::testing
