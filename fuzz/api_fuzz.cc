// Fuzz target: the hub API's request parsers (server/api), which read what any client sends
// before authentication has a say. The first byte picks the parser, the rest is its text:
//   0  a request line's path and query: ParseQuery, ParseRequest for each method, then
//      ParseListOptions (list and watch; its selectors included) for the resource it names;
//   1  a label selector (core/selector_text.h), matched against labels made from its text;
//   2  a continue token: one that decodes encodes back to itself;
//   3  "TARGET\nPATCH": the target JSON patched by merge, JSON and strategic merge patch;
//      a merge patch applied twice gives what it gave once (RFC 7386 is idempotent);
//   4  an Accept header and a patch Content-Type;
//   5  a protobuf request body (the k8s envelope; protobuf_meta.h): one that reads gives an
//      object with a kind;
//   6  a token file (kube-apiserver's CSV; token_authenticator.h): one that parses holds no
//      more users than lines, and an Authorization header made of the text is answered;
//   7  a stored Kueue object's JSON served at another version (kueue_conversion.h), every
//      kind that converts, every pair of versions: whatever its shape, nothing throws, and
//      converting to a version twice changes nothing the second time.
// No ApiError may escape as an exception, nothing may crash or run away with memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/labels.h"
#include "core/selector_text.h"
#include "fuzz/fuzz_support.h"
#include "model/kind_info.h"
#include "server/api/kueue_conversion.h"
#include "server/api/list_options.h"
#include "server/api/protobuf_meta.h"
#include "server/auth/token_authenticator.h"
#include "server/api/media_type.h"
#include "server/api/patch.h"
#include "server/api/query.h"
#include "server/api/request_info.h"
#include "server/api/strategic_merge.h"

namespace {

using berth::fuzz::PropertyFailed;
using Json = nlohmann::ordered_json;

void Request(std::string_view text) {
  const size_t q = text.find('?');
  const std::string_view path = text.substr(0, q);
  const std::string_view raw = q == std::string_view::npos ? "" : text.substr(q + 1);
  auto query = berth::server::ParseQuery(raw);
  if (!query.has_value()) return;
  for (std::string_view method : {"POST", "PATCH", "DELETE"}) {
    (void)berth::server::ParseRequest(method, path, *query);
  }
  // List options (their field and label selectors included) depend on the kind, not the
  // method: parsed once, for GET.
  auto info = berth::server::ParseRequest("GET", path, *query);
  if (!info.has_value() || info->kind == nullptr) return;
  (void)berth::server::ParseListOptions(*query, *info->kind, /*watch=*/false);
  (void)berth::server::ParseListOptions(*query, *info->kind, /*watch=*/true);
}

void LabelSelector(std::string_view text) {
  auto requirements = berth::core::ParseLabelSelectorText(text);
  if (!requirements.has_value()) return;
  // Labels that some requirements name, with values taken from the text.
  berth::core::Labels labels;
  for (const auto& r : *requirements) {
    labels[r.key] = r.values.empty() ? std::string() : r.values.front();
  }
  (void)berth::core::MatchesAll(*requirements, labels);
  (void)berth::core::MatchesAll(*requirements, {});
}

void Continue(std::string_view text) {
  auto token = berth::server::DecodeContinue(text);
  if (!token.has_value()) return;
  auto again = berth::server::DecodeContinue(berth::server::EncodeContinue(*token));
  if (!again.has_value() || !(*again == *token)) {
    PropertyFailed("a decoded continue token does not survive encoding", text);
  }
}

void Patches(std::string_view text) {
  const size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return;
  const Json target = Json::parse(text.substr(0, nl), nullptr, /*allow_exceptions=*/false);
  if (target.is_discarded()) return;
  const std::string_view patch = text.substr(nl + 1);
  auto once = berth::server::ApplyMergePatch(target, patch);
  if (once.has_value()) {
    auto twice = berth::server::ApplyMergePatch(*once, patch);
    if (!twice.has_value() || *twice != *once) {
      PropertyFailed("a merge patch applied twice differs from once", patch);
    }
  }
  (void)berth::server::ApplyJsonPatch(target, patch);
  (void)berth::server::ApplyStrategicMergePatch(target, patch);
}

void Headers(std::string_view text) {
  (void)berth::server::ParseAccept(text);
  (void)berth::server::PatchTypeOf(text, "");
  (void)berth::server::PatchTypeOf(text, "kueue.x-k8s.io");
}

void Protobuf(std::string_view text) {
  auto object = berth::server::MetadataObjectFromProtobuf(text);
  if (object && (!object->contains("kind") || !(*object)["kind"].is_string() ||
                 (*object)["kind"].get<std::string>().empty())) {
    PropertyFailed("a protobuf body read without a kind", text);
  }
}

void TokenFile(std::string_view text) {
  auto tokens = berth::server::TokenAuthenticator::Parse(text);
  if (!tokens) return;
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (tokens->size() > lines) PropertyFailed("a token file read into more users than lines", text);
  (void)tokens->Authenticate(std::string("Bearer ") + std::string(text.substr(0, text.find(','))));
}

void KueueConversion(std::string_view text) {
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(text, nullptr, false);
  if (!parsed.is_object()) return;
  for (const char* kind : {"ClusterQueue", "Workload", "Cohort"}) {
    for (const char* from : {"v1alpha1", "v1beta1", "v1beta2"}) {
      for (const char* to : {"v1alpha1", "v1beta1", "v1beta2"}) {
        nlohmann::ordered_json once = parsed;
        berth::server::ConvertKueueVersion(kind, from, to, once);
        nlohmann::ordered_json twice = once;
        berth::server::ConvertKueueVersion(kind, to, to, twice);
        if (twice != once) PropertyFailed("converting to the same version changed the object", text);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text = berth::fuzz::AsText(data + 1, size - 1);
  switch (data[0] % 8) {
    case 0: Request(text); break;
    case 1: LabelSelector(text); break;
    case 2: Continue(text); break;
    case 3: Patches(text); break;
    case 4: Headers(text); break;
    case 5: Protobuf(text); break;
    case 6: TokenFile(text); break;
    default: KueueConversion(text); break;
  }
  return 0;
}
