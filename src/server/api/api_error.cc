// Messages follow apimachinery's errors package word for word (NewNotFound, NewAlreadyExists,
// NewConflict, NewInvalid, NewForbidden, ...), because kubectl prints them verbatim and users
// and scripts match on them. Field order in ToJson is metav1.Status's, so the bytes match too.
#include "server/api/api_error.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

ApiError Make(int code, std::string reason, std::string message) {
  ApiError e;
  e.code = code;
  e.reason = std::move(reason);
  e.message = std::move(message);
  return e;
}

StatusDetails DetailsOf(const GroupResource& gr, std::string_view name) {
  StatusDetails d;
  d.name = std::string(name);
  d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

std::string QualifiedKind(std::string_view group, std::string_view kind) {
  std::string out(kind);
  if (!group.empty()) {
    out += '.';
    out += group;
  }
  return out;
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string GroupResource::String() const {
  return group.empty() ? resource : resource + "." + group;
}

Json ApiError::ToJson() const {
  Json j = Json::object();
  j["kind"] = "Status";
  j["apiVersion"] = "v1";
  Json meta = Json::object();
  if (!continue_token.empty()) meta["continue"] = continue_token;
  j["metadata"] = std::move(meta);
  j["status"] = "Failure";
  if (!message.empty()) j["message"] = message;
  if (!reason.empty()) j["reason"] = reason;
  if (details.has_value()) {
    Json d = Json::object();
    if (!details->name.empty()) d["name"] = details->name;
    if (!details->group.empty()) d["group"] = details->group;
    if (!details->kind.empty()) d["kind"] = details->kind;
    if (!details->causes.empty()) {
      Json causes = Json::array();
      for (const StatusCause& c : details->causes) {
        Json cause = Json::object();
        if (!c.reason.empty()) cause["reason"] = c.reason;
        if (!c.message.empty()) cause["message"] = c.message;
        if (!c.field.empty()) cause["field"] = c.field;
        causes.push_back(std::move(cause));
      }
      d["causes"] = std::move(causes);
    }
    if (details->retry_after_s > 0) d["retryAfterSeconds"] = details->retry_after_s;
    j["details"] = std::move(d);
  }
  j["code"] = code;
  return j;
}

ApiError NotFoundError(const GroupResource& gr, std::string_view name) {
  ApiError e = Make(404, "NotFound", gr.String() + " " + GoQuote(name) + " not found");
  e.details = DetailsOf(gr, name);
  return e;
}

ApiError PathNotFoundError() {
  ApiError e = Make(404, "NotFound", "the server could not find the requested resource");
  e.details = StatusDetails{};
  return e;
}

ApiError AlreadyExistsError(const GroupResource& gr, std::string_view name) {
  ApiError e = Make(409, "AlreadyExists", gr.String() + " " + GoQuote(name) + " already exists");
  e.details = DetailsOf(gr, name);
  return e;
}

ApiError ConflictError(const GroupResource& gr, std::string_view name, std::string_view why) {
  ApiError e = Make(409, "Conflict",
                    "Operation cannot be fulfilled on " + gr.String() + " " + GoQuote(name) + ": " +
                        std::string(why));
  e.details = DetailsOf(gr, name);
  return e;
}

ApiError ApplyConflictError(std::vector<StatusCause> causes, std::string message) {
  ApiError e = Make(409, "Conflict", std::move(message));
  StatusDetails details;
  details.causes = std::move(causes);
  e.details = std::move(details);
  return e;
}

ApiError StaleResourceVersionError(const GroupResource& gr, std::string_view name) {
  return ConflictError(
      gr, name,
      "the object has been modified; please apply your changes to the latest version and try "
      "again");
}

StatusCause CauseOf(const core::Error& error) {
  // berth's readers word their messages as apimachinery's field errors without the capital
  // ("required value", "unsupported value ..."); the cause type is read back from them so a
  // client switching on causes[].reason sees upstream's types.
  const std::string& m = error.message();
  const char* reason = "FieldValueInvalid";
  if (StartsWithNoCase(m, "required value")) {
    reason = "FieldValueRequired";
  } else if (StartsWithNoCase(m, "unsupported value")) {
    reason = "FieldValueNotSupported";
  } else if (StartsWithNoCase(m, "duplicate value")) {
    reason = "FieldValueDuplicate";
  } else if (StartsWithNoCase(m, "forbidden")) {
    reason = "FieldValueForbidden";
  } else if (StartsWithNoCase(m, "too long")) {
    reason = "FieldValueTooLong";
  } else if (StartsWithNoCase(m, "too many")) {
    reason = "FieldValueTooMany";
  }
  return StatusCause{reason, m, error.location().field};
}

ApiError InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                      std::span<const StatusCause> causes) {
  std::string message = QualifiedKind(group, kind) + " " + GoQuote(name) + " is invalid";
  std::vector<std::string> parts;
  for (const StatusCause& c : causes) {
    parts.push_back(c.field.empty() ? c.message : c.field + ": " + c.message);
  }
  if (parts.size() == 1) {
    message += ": " + parts[0];
  } else if (parts.size() > 1) {
    message += ": [";
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) message += ", ";
      message += parts[i];
    }
    message += "]";
  }
  ApiError e = Make(422, "Invalid", std::move(message));
  StatusDetails d;
  d.name = std::string(name);
  d.group = std::string(group);
  d.kind = std::string(kind);
  d.causes.assign(causes.begin(), causes.end());
  e.details = std::move(d);
  return e;
}

ApiError InvalidError(std::string_view group, std::string_view kind, std::string_view name,
                      std::span<const core::Error> errors) {
  std::vector<StatusCause> causes;
  causes.reserve(errors.size());
  for (const core::Error& err : errors) causes.push_back(CauseOf(err));
  return InvalidError(group, kind, name, causes);
}

ApiError ForbiddenError(const GroupResource& gr, std::string_view name, std::string_view why) {
  std::string message;
  if (gr.group.empty() && gr.resource.empty()) {
    message = "forbidden: " + std::string(why);
  } else if (name.empty()) {
    message = gr.String() + " is forbidden: " + std::string(why);
  } else {
    message = gr.String() + " " + GoQuote(name) + " is forbidden: " + std::string(why);
  }
  ApiError e = Make(403, "Forbidden", std::move(message));
  e.details = DetailsOf(gr, name);
  return e;
}

std::string ForbiddenReason(std::string_view user, std::string_view verb, const GroupResource& gr,
                            std::string_view subresource, std::string_view ns) {
  std::string resource = gr.resource;
  if (!subresource.empty()) resource += "/" + std::string(subresource);
  std::string out = "User " + GoQuote(user) + " cannot " + std::string(verb) + " resource " +
                    GoQuote(resource) + " in API group " + GoQuote(gr.group);
  if (!ns.empty()) return out + " in the namespace " + GoQuote(ns);
  return out + " at the cluster scope";
}

ApiError UnauthorizedError() { return Make(401, "Unauthorized", "Unauthorized"); }

ApiError TooManyRequestsError(std::string_view message, int64_t retry_after_s) {
  ApiError e = Make(429, "TooManyRequests", std::string(message));
  StatusDetails d;
  d.retry_after_s = std::max<int64_t>(retry_after_s, 1);
  e.details = std::move(d);
  return e;
}

ApiError RequestEntityTooLargeError(int64_t limit_bytes) {
  return Make(413, "RequestEntityTooLarge",
              "Request entity too large: limit is " + std::to_string(limit_bytes));
}

ApiError RequestEntityTooLargeError(std::string_view detail) {
  return Make(413, "RequestEntityTooLarge", "Request entity too large: " + std::string(detail));
}

ApiError LengthRequiredError(int64_t limit_bytes) {
  return Make(411, "BadRequest",
              "a request body must have a Content-Length (at most " + std::to_string(limit_bytes) +
                  " bytes): a body of unknown length (Transfer-Encoding: chunked) is not read");
}

ApiError ExpiredError(std::string_view message) {
  return Make(410, "Expired", std::string(message));
}

ApiError GoneError(std::string_view message) { return Make(410, "Gone", std::string(message)); }

ApiError BadRequestError(std::string_view message) {
  return Make(400, "BadRequest", std::string(message));
}

ApiError MethodNotSupportedError(const GroupResource& gr, std::string_view action) {
  ApiError e =
      Make(405, "MethodNotAllowed",
           std::string(action) + " is not supported on resources of kind " + GoQuote(gr.String()));
  StatusDetails d;
  d.group = gr.group;
  d.kind = gr.resource;
  e.details = std::move(d);
  return e;
}

ApiError MethodNotAllowedError() {
  ApiError e = Make(405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource");
  e.details = StatusDetails{};
  return e;
}

namespace {
std::string JoinTypes(std::span<const std::string_view> types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += types[i];
  }
  return out;
}
}  // namespace

ApiError UnsupportedMediaTypeError(std::span<const std::string_view> accepted) {
  return Make(415, "UnsupportedMediaType",
              "the body of the request was in an unknown format - accepted media types "
              "include: " +
                  JoinTypes(accepted));
}

ApiError NotAcceptableError(std::span<const std::string_view> accepted) {
  return Make(406, "NotAcceptable",
              "only the following media types are accepted: " + JoinTypes(accepted));
}

ApiError InternalApiError(std::string_view message) {
  ApiError e = Make(500, "InternalError", "Internal error occurred: " + std::string(message));
  StatusDetails d;
  d.causes.push_back(StatusCause{"", std::string(message), ""});
  e.details = std::move(d);
  return e;
}

}  // namespace berth::server
