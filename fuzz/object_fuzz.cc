// Fuzz target: one object decoder of io's table of kinds at a time. The input's first line
// names the kind, "APIVERSION KIND" ("batch/v1 Job"); the rest is the object's body (YAML
// mapping entries or a JSON object), read through io's reader as a document of that
// apiVersion and kind. A first line that names no row of model::AllKinds() (a mutated one)
// picks a row and version by its hash, so every mutation of it still lands on a decoder and
// the fuzzer never spends time guessing apiVersion/kind pairs.
//
// Built three times (fuzz/CMakeLists.txt): berth_object_fuzz (every row) and, with
// BERTH_FUZZ_KIND fixing the row, berth_scheduler_config_fuzz
// (KubeSchedulerConfiguration) and berth_kueue_config_fuzz (Kueue's Configuration); those
// two read the whole input as the body.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/diagnostics.h"
#include "fuzz/fuzz_expansion.h"
#include "fuzz/fuzz_support.h"
#include "io/reader.h"
#include "model/kind_info.h"

namespace {

// The kind a body is read as: the row's group and version, or a fixed kind.
struct KindChoice {
  std::string api_version;
  std::string_view kind;
};

#ifndef BERTH_FUZZ_KIND
// The apiVersion of one of the row's versions (served, then read-only), picked by `version_pick`.
std::string ApiVersion(const berth::model::KindInfo& info, size_t version_pick) {
  const size_t served = info.versions.size();
  const size_t all = served + info.read_only_versions.size();
  if (all == 0) return "v1";
  const size_t i = version_pick % all;
  const std::string_view version =
      i < served ? info.versions[i] : info.read_only_versions[i - served];
  if (info.group.empty()) return std::string(version);
  return std::string(info.group) + "/" + std::string(version);
}
#endif

// The document: the apiVersion and kind, then the body. A body in JSON braces becomes a
// flow mapping with the two keys prepended, so JSON seeds stay JSON-shaped.
std::string Document(const KindChoice& choice, std::string_view body) {
  std::string doc;
  size_t start = 0;
  while (start < body.size() && (body[start] == ' ' || body[start] == '\n')) ++start;
  if (start < body.size() && body[start] == '{') {
    doc = "{\"apiVersion\": \"" + choice.api_version + "\", \"kind\": \"" +
          std::string(choice.kind) + "\", ";
    doc.append(body.substr(start + 1));
    return doc;
  }
  doc = "apiVersion: " + choice.api_version + "\nkind: " + std::string(choice.kind) + "\n";
  doc.append(body);
  return doc;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = berth::fuzz::AsText(data, size);
  if (berth::fuzz::MayAskForHugeCounts(input)) return 0;
  KindChoice choice;
#ifdef BERTH_FUZZ_KIND
  choice.api_version = BERTH_FUZZ_API_VERSION;
  choice.kind = BERTH_FUZZ_KIND;
#else
  const size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  const std::string_view line = input.substr(0, eol);
  input.remove_prefix(eol + 1);
  const size_t space = line.find(' ');
  const berth::model::KindInfo* named =
      space == std::string_view::npos
          ? nullptr
          : berth::model::FindKindForApiVersion(line.substr(0, space), line.substr(space + 1));
  if (named != nullptr) {
    choice.api_version = std::string(line.substr(0, space));
    choice.kind = named->kind;
  } else {
    const std::span<const berth::model::KindInfo> kinds = berth::model::AllKinds();
    const size_t hash = std::hash<std::string_view>{}(line);
    const berth::model::KindInfo& info = kinds[hash % kinds.size()];
    choice.api_version = ApiVersion(info, hash / kinds.size());
    choice.kind = info.kind;
  }
#endif
  berth::core::Diagnostics diags;
  berth::io::Reader reader(diags);
  reader.ReadText(Document(choice, input), "fuzz.yaml");
  (void)reader.Finish(berth::fuzz::kFuzzExpansionLimits);
  return 0;
}
