// Validation mirrors apimachinery's ValidateListOptions (meta/internalversion/validation) and
// the storage layer's checks (etcd3 store: continue tokens, "specifying resource version is
// not allowed when using continue"); messages are upstream's so that clients that retry on
// 410 (client-go's pager relists without the token) react as they do against Kubernetes.
#include "server/api/list_options.h"

#include <charconv>
#include <utility>

#include "core/selector_text.h"
#include "server/api/request_info.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kContinueVersion = "meta.k8s.io/v1";
constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string Base64UrlEncode(std::string_view in) {
  std::string out;
  out.reserve((in.size() * 4 + 2) / 3);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t n = (static_cast<uint8_t>(in[i]) << 16) |
                       (static_cast<uint8_t>(in[i + 1]) << 8) | static_cast<uint8_t>(in[i + 2]);
    out += kB64[(n >> 18) & 63];
    out += kB64[(n >> 12) & 63];
    out += kB64[(n >> 6) & 63];
    out += kB64[n & 63];
  }
  if (i + 1 == in.size()) {
    const uint32_t n = static_cast<uint8_t>(in[i]) << 16;
    out += kB64[(n >> 18) & 63];
    out += kB64[(n >> 12) & 63];
  } else if (i + 2 == in.size()) {
    const uint32_t n = (static_cast<uint8_t>(in[i]) << 16) | (static_cast<uint8_t>(in[i + 1]) << 8);
    out += kB64[(n >> 18) & 63];
    out += kB64[(n >> 12) & 63];
    out += kB64[(n >> 6) & 63];
  }
  return out;
}

int B64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

// Go's RawURLEncoding.DecodeString: no padding; the error names the first bad byte.
std::optional<std::string> Base64UrlDecode(std::string_view in, size_t* bad_at) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const int v = B64Value(in[i]);
    if (v < 0) {
      *bad_at = i;
      return std::nullopt;
    }
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  if (in.size() % 4 == 1) {
    *bad_at = in.size() - 1;
    return std::nullopt;
  }
  return out;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t n = 0;
  if (s.empty()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return n;
}

const Json* Walk(const Json& object, std::string_view dotted) {
  const Json* cur = &object;
  size_t pos = 0;
  while (pos <= dotted.size()) {
    size_t dot = dotted.find('.', pos);
    if (dot == std::string_view::npos) dot = dotted.size();
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(std::string(dotted.substr(pos, dot - pos)));
    if (it == cur->end()) return nullptr;
    cur = &*it;
    pos = dot + 1;
  }
  return cur;
}

// Extra selectable fields of the built-in kinds (their registries' field sets), besides
// metadata.name and metadata.namespace, and the value each has when the field is absent.
struct ExtraField {
  std::string_view group;
  std::string_view kind;
  std::string_view field;
};

bool KindSelects(const model::KindInfo& kind, std::string_view field) {
  if (field == "metadata.name") return true;
  if (field == "metadata.namespace") return true;
  static constexpr ExtraField kExtra[] = {
      {"", "Pod", "spec.nodeName"},
      {"", "Pod", "spec.restartPolicy"},
      {"", "Pod", "spec.schedulerName"},
      {"", "Pod", "spec.serviceAccountName"},
      {"", "Pod", "spec.hostNetwork"},
      {"", "Pod", "status.phase"},
      {"", "Pod", "status.podIP"},
      {"", "Pod", "status.nominatedNodeName"},
      {"", "Node", "spec.unschedulable"},
      {"", "Namespace", "status.phase"},
      {"batch", "Job", "status.successful"},
  };
  for (const ExtraField& e : kExtra) {
    if (e.group == kind.group && e.kind == kind.kind && e.field == field) return true;
  }
  return false;
}

ApiError ListOptionsInvalid(std::vector<StatusCause> causes) {
  return InvalidError("meta.k8s.io", "ListOptions", "", causes);
}

StatusCause Forbidden(std::string field, std::string message) {
  return StatusCause{"FieldValueForbidden", "Forbidden: " + message, std::move(field)};
}

StatusCause NotSupported(std::string field, std::string_view value, std::string supported) {
  return StatusCause{"FieldValueNotSupported",
                     "Unsupported value: " + GoQuote(value) + ": supported values: " + supported,
                     std::move(field)};
}

}  // namespace

ApiResult<std::vector<FieldRequirement>> ParseFieldSelector(std::string_view text,
                                                            const model::KindInfo& kind) {
  std::vector<FieldRequirement> out;
  if (text.empty()) return out;
  // Split on commas not escaped by a backslash.
  std::vector<std::string> terms;
  std::string cur;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      cur += text[i];
      cur += text[i + 1];
      ++i;
    } else if (text[i] == ',') {
      terms.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += text[i];
    }
  }
  terms.push_back(std::move(cur));
  for (const std::string& term : terms) {
    // The first unescaped operator, trying "!=", then "==", then "=" at each position.
    FieldRequirement r;
    size_t op_at = std::string::npos;
    size_t op_len = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (term[i] == '\\') {
        ++i;
        continue;
      }
      if (term.compare(i, 2, "!=") == 0) {
        r.op = FieldOp::kNotEquals;
        op_len = 2;
      } else if (term.compare(i, 2, "==") == 0) {
        op_len = 2;
      } else if (term[i] == '=') {
        op_len = 1;
      } else {
        continue;
      }
      op_at = i;
      break;
    }
    if (op_at == std::string::npos) {
      return BadRequestError("invalid selector: '" + std::string(text) + "'; can't understand '" +
                             term + "'");
    }
    std::string field = term.substr(0, op_at);
    std::string value;
    for (size_t i = op_at + op_len; i < term.size(); ++i) {
      if (term[i] == '\\' && i + 1 < term.size()) {
        value += term[++i];
      } else {
        value += term[i];
      }
    }
    if (!KindSelects(kind, field)) {
      return BadRequestError("field label not supported: " + field);
    }
    r.field = std::move(field);
    r.value = std::move(value);
    out.push_back(std::move(r));
  }
  return out;
}

std::string SelectableFieldValue(const Json& object, std::string_view field) {
  const Json* v = Walk(object, field);
  if (field == "status.successful") {
    return v != nullptr && v->is_number_integer() ? std::to_string(v->get<int64_t>()) : "0";
  }
  if (field == "spec.hostNetwork" || field == "spec.unschedulable") {
    return v != nullptr && v->is_boolean() && v->get<bool>() ? "true" : "false";
  }
  if (v == nullptr || !v->is_string()) return "";
  return v->get<std::string>();
}

bool MatchesFields(const std::vector<FieldRequirement>& requirements, const Json& object) {
  for (const FieldRequirement& r : requirements) {
    const bool equal = SelectableFieldValue(object, r.field) == r.value;
    if (equal != (r.op == FieldOp::kEquals)) return false;
  }
  return true;
}

core::Labels LabelsOf(const Json& object) {
  core::Labels out;
  const Json* labels = Walk(object, "metadata.labels");
  if (labels == nullptr || !labels->is_object()) return out;
  for (auto it = labels->begin(); it != labels->end(); ++it) {
    if (it.value().is_string()) out.emplace(it.key(), it.value().get<std::string>());
  }
  return out;
}

bool ListOptions::Matches(const Json& object) const {
  if (!MatchesFields(field_selector, object)) return false;
  if (label_selector.empty()) return true;
  // Only the labels the selector names are copied out (usually one or two), so a list over
  // 100,000 objects does not build every object's whole label map.
  core::Labels relevant;
  const Json* labels = Walk(object, "metadata.labels");
  if (labels != nullptr && labels->is_object()) {
    for (const core::SelectorRequirement& r : label_selector) {
      auto it = labels->find(r.key);
      if (it != labels->end() && it->is_string()) relevant.emplace(r.key, it->get<std::string>());
    }
  }
  return core::MatchesAll(label_selector, relevant);
}

std::string EncodeContinue(const ContinueToken& token) {
  Json j = Json::object();
  j["v"] = kContinueVersion;
  j["rv"] = token.resource_version;
  j["start"] = token.start_key;
  return Base64UrlEncode(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

std::string ContinueAfter(int64_t resource_version, std::string_view last_key) {
  std::string start(last_key);
  start += '\0';
  return EncodeContinue(ContinueToken{resource_version, std::move(start)});
}

ApiResult<ContinueToken> DecodeContinue(std::string_view text) {
  auto invalid = [](const std::string& why) {
    return BadRequestError("invalid continue token: continue key is not valid: " + why);
  };
  size_t bad_at = 0;
  auto raw = Base64UrlDecode(text, &bad_at);
  if (!raw.has_value()) {
    return invalid("illegal base64 data at input byte " + std::to_string(bad_at));
  }
  Json j = Json::parse(*raw, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return invalid("the token is not a JSON object");
  auto v = j.find("v");
  const std::string version = v != j.end() && v->is_string() ? v->get<std::string>() : "";
  if (version != kContinueVersion) {
    return invalid("server does not recognize this encoded version " + GoQuote(version));
  }
  auto rv = j.find("rv");
  auto start = j.find("start");
  if (rv == j.end() || !rv->is_number_integer() || rv->get<int64_t>() == 0 ||
      rv->get<int64_t>() < -1) {
    return invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  if (start == j.end() || !start->is_string() || start->get<std::string>().empty()) {
    return invalid("encoded start key is empty");
  }
  return ContinueToken{rv->get<int64_t>(), start->get<std::string>()};
}

ApiResult<ContinueToken> CheckContinueNotExpired(const ContinueToken& token,
                                                 int64_t compacted_before) {
  if (token.resource_version == -1 || token.resource_version >= compacted_before) return token;
  ApiError e = ExpiredError(
      "The provided continue parameter is too old to display a consistent list result. You "
      "can start a new list without the continue parameter, or use the continue token in this "
      "response to retrieve the remainder of the results. Continuing with the provided token "
      "results in an inconsistent list - objects that were created, modified, or deleted "
      "between the time the first chunk was returned and now may show up in the list.");
  e.continue_token = EncodeContinue(ContinueToken{-1, token.start_key});
  return e;
}

ApiError TooOldResourceVersionError(int64_t resource_version, int64_t compacted_before) {
  return ExpiredError("too old resource version: " + std::to_string(resource_version) + " (" +
                      std::to_string(compacted_before) + ")");
}

ApiResult<ListOptions> ParseListOptions(const QueryParams& query, const model::KindInfo& kind,
                                        bool watch) {
  ListOptions o;
  o.watch = watch;
  if (auto ls = query.Get("labelSelector"); ls.has_value() && !ls->empty()) {
    auto parsed = core::ParseLabelSelectorText(*ls);
    if (!parsed.has_value()) return BadRequestError(parsed.error().message());
    o.label_selector = std::move(parsed).value();
  }
  if (auto fs = query.Get("fieldSelector"); fs.has_value()) {
    auto parsed = ParseFieldSelector(*fs, kind);
    if (!parsed.has_value()) return std::move(parsed).error();
    o.field_selector = std::move(parsed).value();
  }
  if (auto limit = query.Get("limit"); limit.has_value() && !limit->empty()) {
    auto n = ParseInt(*limit);
    if (!n.has_value()) {
      return BadRequestError("limit: Invalid value: " + GoQuote(*limit) + ": must be an integer");
    }
    o.limit = *n > 0 ? *n : 0;
  }
  if (auto t = query.Get("timeoutSeconds"); t.has_value() && !t->empty()) {
    auto n = ParseInt(*t);
    if (!n.has_value()) {
      return BadRequestError("timeoutSeconds: Invalid value: " + GoQuote(*t) +
                             ": must be an integer");
    }
    o.timeout_s = *n;
  }
  o.allow_watch_bookmarks = QueryBool(query, "allowWatchBookmarks");
  if (query.Has("sendInitialEvents")) o.send_initial_events = QueryBool(query, "sendInitialEvents");
  if (auto rv = query.Get("resourceVersion"); rv.has_value()) {
    o.resource_version = std::string(*rv);
    if (!rv->empty()) {
      auto n = ParseInt(*rv);
      if (!n.has_value() || *n < 0) {
        return BadRequestError("invalid resource version: " + GoQuote(*rv));
      }
      o.resource_version_number = *n;
    }
  }
  std::string match;
  if (auto m = query.Get("resourceVersionMatch"); m.has_value()) match = std::string(*m);
  const std::string continue_text(query.Get("continue").value_or(""));

  std::vector<StatusCause> causes;
  if (watch) {
    if (o.send_initial_events.has_value()) {
      if (match != "NotOlderThan") {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "sendInitialEvents requires setting resourceVersionMatch to "
                                   "NotOlderThan"));
      }
      causes.push_back(Forbidden("sendInitialEvents",
                                 "sendInitialEvents is forbidden for watch unless the WatchList "
                                 "feature gate is enabled"));
    }
    if (!match.empty()) {
      if (!o.send_initial_events.has_value()) {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden for watch unless "
                                   "sendInitialEvents is provided"));
      }
      if (match != "NotOlderThan") {
        causes.push_back(NotSupported("resourceVersionMatch", match, "\"NotOlderThan\""));
      }
      if (!continue_text.empty()) {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden when continue is provided"));
      }
    }
  } else {
    if (!match.empty()) {
      if (o.resource_version.empty()) {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden unless resourceVersion is "
                                   "provided"));
      }
      if (!continue_text.empty()) {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "resourceVersionMatch is forbidden when continue is provided"));
      }
      if (match != "Exact" && match != "NotOlderThan") {
        causes.push_back(NotSupported("resourceVersionMatch", match,
                                      "\"Exact\", \"NotOlderThan\", \"\""));
      }
      if (match == "Exact" && o.resource_version == "0") {
        causes.push_back(Forbidden("resourceVersionMatch",
                                   "resourceVersionMatch \"exact\" is forbidden for "
                                   "resourceVersion \"0\""));
      }
    }
    if (o.send_initial_events.has_value()) {
      causes.push_back(Forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    }
  }
  if (!causes.empty()) return ListOptionsInvalid(std::move(causes));
  if (match == "Exact") o.resource_version_match = ResourceVersionMatch::kExact;
  if (match == "NotOlderThan") o.resource_version_match = ResourceVersionMatch::kNotOlderThan;

  if (!continue_text.empty()) {
    auto token = DecodeContinue(continue_text);
    if (!token.has_value()) return std::move(token).error();
    if (!o.resource_version.empty() && o.resource_version != "0") {
      return BadRequestError("specifying resource version is not allowed when using continue");
    }
    o.continue_token = std::move(token).value();
  }
  return o;
}

}  // namespace berth::server
