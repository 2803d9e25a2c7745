// What each scheme needs follows the tools that read it: KServe's storage initializer
// splits s3:// and gs:// into bucket and object prefix, hf:// into repository owner and
// model (an optional ":revision" stays in the path), pvc:// into claim name and path, and
// oci:// (ModelCar) into registry and repository; Fluid mounts oss://, hdfs:// and local://
// as a UFS. A URI berth cannot place is an error rather than a guess: a wrong model source
// would make every load-time estimate wrong without a word.
#include "io/internal/storage_uri.h"

#include <string>

#include "core/excerpt.h"
#include "core/labels.h"

namespace berth::io::internal {
namespace {

struct SchemeRule {
  std::string_view scheme;
  bool kserve;
  bool fluid;
  // What the part after "scheme://" up to the first '/' is, for the error; empty when the
  // scheme needs none (local:///path).
  std::string_view location_is;
  bool path_required;
};

constexpr SchemeRule kRules[] = {
    {"s3", true, true, "bucket", false},          {"gs", true, true, "bucket", false},
    {"hf", true, false, "repository owner", true}, {"pvc", true, true, "claim name", false},
    {"oci", true, false, "registry", true},        {"https", true, true, "host", false},
    {"http", true, true, "host", false},           {"oss", false, true, "bucket", false},
    {"hdfs", false, true, "name node", false},     {"local", false, true, "", true},
};

std::string Accepted(UriSchemes schemes) {
  std::string out;
  for (const SchemeRule& r : kRules) {
    if (schemes == UriSchemes::kKServe ? !r.kserve : !r.fluid) continue;
    if (!out.empty()) out += ", ";
    out += std::string(r.scheme) + "://";
  }
  return out;
}

}  // namespace

core::Result<model::StorageLocation> ParseStorageUri(std::string_view uri, UriSchemes schemes) {
  const size_t sep = uri.find("://");
  if (uri.empty()) return core::InvalidArgument("Required value");
  if (sep == std::string_view::npos || sep == 0) {
    return core::InvalidArgument("Invalid value: " + core::Quote(uri) +
                                 ": not a URI (scheme://...); accepted: " + Accepted(schemes));
  }
  const std::string_view scheme = uri.substr(0, sep);
  const SchemeRule* rule = nullptr;
  for (const SchemeRule& r : kRules) {
    if (r.scheme == scheme && (schemes == UriSchemes::kKServe ? r.kserve : r.fluid)) rule = &r;
  }
  if (rule == nullptr) {
    return core::InvalidArgument("Invalid value: " + core::Quote(uri) + ": unsupported scheme " +
                                 core::Quote(scheme) + "; accepted: " + Accepted(schemes));
  }
  const std::string_view rest = uri.substr(sep + 3);
  model::StorageLocation out;
  out.uri = std::string(uri);
  out.scheme = std::string(scheme);
  if (rule->location_is.empty()) {
    out.path = std::string(rest);
  } else {
    const size_t slash = rest.find('/');
    out.location = std::string(rest.substr(0, slash));
    if (slash != std::string_view::npos) out.path = std::string(rest.substr(slash + 1));
    if (out.location.empty()) {
      return core::InvalidArgument("Invalid value: " + core::Quote(uri) + ": no " +
                                   std::string(rule->location_is) + " after " +
                                   std::string(scheme) + "://");
    }
    if (scheme == "pvc") {
      if (std::string problem = core::Dns1123SubdomainProblem(out.location); !problem.empty()) {
        return core::InvalidArgument("Invalid value: " + core::Quote(uri) +
                                     ": claim name: " + problem);
      }
    }
  }
  if (rule->path_required && out.path.empty()) {
    return core::InvalidArgument("Invalid value: " + core::Quote(uri) + ": no " +
                                 (scheme == "hf"    ? std::string("model name")
                                  : scheme == "oci" ? std::string("repository")
                                                    : std::string("path")) +
                                 " after " + std::string(scheme) + "://" + out.location);
  }
  return out;
}

}  // namespace berth::io::internal
