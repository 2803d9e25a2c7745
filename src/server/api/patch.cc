// JSON patch works on a copy so a failing operation leaves nothing half-applied (RFC 6902
// section 5: the whole patch fails). Pointers are resolved one step at a time, and every
// failure says which operation and path, as evanphx/json-patch's messages do upstream.
#include "server/api/patch.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/api/request_info.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kAccepted[] = {"application/json-patch+json",
                                          "application/merge-patch+json"};
constexpr std::string_view kAcceptedBuiltIn[] = {"application/json-patch+json",
                                                 "application/merge-patch+json",
                                                 "application/strategic-merge-patch+json"};

// Depth of nesting, iteratively (a hostile body must not overflow the stack here).
size_t Depth(const Json& j) {
  size_t max_depth = 0;
  std::vector<std::pair<const Json*, size_t>> stack{{&j, 1}};
  while (!stack.empty()) {
    auto [cur, d] = stack.back();
    stack.pop_back();
    if (d > max_depth) max_depth = d;
    if (d > kMaxPatchDepth) return d;
    if (cur->is_structured()) {
      for (const Json& child : *cur) stack.emplace_back(&child, d + 1);
    }
  }
  return max_depth;
}

ApiError DoesNotApply(std::string why) {
  ApiError e;
  e.code = 422;
  e.reason = "Invalid";
  e.message = "the server rejected our request due to an error in our request";
  StatusDetails d;
  d.causes.push_back(StatusCause{"UnexpectedServerResponse", std::move(why), ""});
  e.details = std::move(d);
  return e;
}

struct Pointer {
  std::vector<std::string> tokens;
};

std::optional<Pointer> ParsePointer(const std::string& text) {
  Pointer p;
  if (text.empty()) return p;
  if (text[0] != '/') return std::nullopt;
  std::string cur;
  for (size_t i = 1; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '/') {
      p.tokens.push_back(std::move(cur));
      cur.clear();
    } else if (text[i] == '~') {
      if (i + 1 >= text.size() || (text[i + 1] != '0' && text[i + 1] != '1')) return std::nullopt;
      cur += text[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      cur += text[i];
    }
  }
  return p;
}

// An array index token: digits without a leading zero; nullopt otherwise.
std::optional<size_t> ArrayIndex(const std::string& token) {
  if (token.empty() || token.size() > 9) return std::nullopt;
  if (token.size() > 1 && token[0] == '0') return std::nullopt;
  size_t n = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  return n;
}

// The value at all but the last token (the container an operation works in); nullptr when
// it does not exist.
Json* Parent(Json& doc, const Pointer& p) {
  Json* cur = &doc;
  for (size_t i = 0; i + 1 < p.tokens.size(); ++i) {
    const std::string& t = p.tokens[i];
    if (cur->is_object()) {
      auto it = cur->find(t);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      auto idx = ArrayIndex(t);
      if (!idx || *idx >= cur->size()) return nullptr;
      cur = &(*cur)[*idx];
    } else {
      return nullptr;
    }
  }
  return cur;
}

Json* Find(Json& doc, const Pointer& p) {
  if (p.tokens.empty()) return &doc;
  Json* parent = Parent(doc, p);
  if (parent == nullptr) return nullptr;
  const std::string& last = p.tokens.back();
  if (parent->is_object()) {
    auto it = parent->find(last);
    return it == parent->end() ? nullptr : &*it;
  }
  if (parent->is_array()) {
    auto idx = ArrayIndex(last);
    return idx && *idx < parent->size() ? &(*parent)[*idx] : nullptr;
  }
  return nullptr;
}

std::optional<std::string> Add(Json& doc, const Pointer& p, Json value, const std::string& path) {
  if (p.tokens.empty()) {
    doc = std::move(value);
    return std::nullopt;
  }
  Json* parent = Parent(doc, p);
  if (parent == nullptr) return "add operation does not apply: doc is missing path: " + path;
  const std::string& last = p.tokens.back();
  if (parent->is_object()) {
    (*parent)[last] = std::move(value);
    return std::nullopt;
  }
  if (parent->is_array()) {
    if (last == "-") {
      parent->push_back(std::move(value));
      return std::nullopt;
    }
    auto idx = ArrayIndex(last);
    if (!idx || *idx > parent->size()) {
      return "add operation does not apply: index out of bounds: " + path;
    }
    parent->insert(parent->begin() + static_cast<ptrdiff_t>(*idx), std::move(value));
    return std::nullopt;
  }
  return "add operation does not apply: doc is missing path: " + path;
}

std::optional<std::string> Remove(Json& doc, const Pointer& p, const std::string& op,
                                  const std::string& path, Json* removed) {
  if (p.tokens.empty()) return op + " operation does not apply: cannot remove the whole document";
  Json* parent = Parent(doc, p);
  const std::string missing = op + " operation does not apply: doc is missing path: " + path;
  if (parent == nullptr) return missing;
  const std::string& last = p.tokens.back();
  if (parent->is_object()) {
    auto it = parent->find(last);
    if (it == parent->end()) return missing;
    if (removed != nullptr) *removed = std::move(*it);
    parent->erase(it);
    return std::nullopt;
  }
  if (parent->is_array()) {
    auto idx = ArrayIndex(last);
    if (!idx || *idx >= parent->size()) return missing;
    if (removed != nullptr) *removed = std::move((*parent)[*idx]);
    parent->erase(parent->begin() + static_cast<ptrdiff_t>(*idx));
    return std::nullopt;
  }
  return missing;
}

}  // namespace

ApiResult<PatchType> PatchTypeOf(std::string_view content_type, std::string_view group) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
  while (!type.empty() && type.front() == ' ') type.remove_prefix(1);
  if (type == "application/json-patch+json") return PatchType::kJsonPatch;
  if (type == "application/merge-patch+json") return PatchType::kMergePatch;
  const bool built_in = IsBuiltInGroup(group);
  if (type == "application/strategic-merge-patch+json" && built_in) {
    return PatchType::kStrategicMergePatch;
  }
  if (built_in) return UnsupportedMediaTypeError(kAcceptedBuiltIn);
  return UnsupportedMediaTypeError(kAccepted);
}

Json MergePatch(Json target, const Json& patch) {
  if (!patch.is_object()) return patch;
  if (!target.is_object()) target = Json::object();
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.value().is_null()) {
      target.erase(it.key());
    } else {
      auto existing = target.find(it.key());
      Json base = existing == target.end() ? Json() : std::move(*existing);
      target[it.key()] = MergePatch(std::move(base), it.value());
    }
  }
  return target;
}

ApiResult<Json> ApplyMergePatch(const Json& target, std::string_view patch_text) {
  Json patch = Json::parse(patch_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded()) return BadRequestError("invalid JSON in the merge patch body");
  if (Depth(patch) > kMaxPatchDepth) {
    return BadRequestError("the merge patch nests deeper than " + std::to_string(kMaxPatchDepth) +
                           " levels");
  }
  return MergePatch(target, patch);
}

ApiResult<Json> ApplyJsonPatch(const Json& target, std::string_view patch_text) {
  const Json ops = Json::parse(patch_text, nullptr, /*allow_exceptions=*/false);
  if (ops.is_discarded()) return BadRequestError("invalid JSON in the JSON patch body");
  if (!ops.is_array()) {
    return BadRequestError("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  }
  if (ops.size() > kMaxJsonPatchOperations) {
    return RequestEntityTooLargeError("The allowed maximum operations in a JSON patch is " +
                                      std::to_string(kMaxJsonPatchOperations) + ", got " +
                                      std::to_string(ops.size()));
  }
  if (Depth(ops) > kMaxPatchDepth) {
    return BadRequestError("the JSON patch nests deeper than " + std::to_string(kMaxPatchDepth) +
                           " levels");
  }
  Json doc = target;
  for (const Json& op : ops) {
    if (!op.is_object()) return BadRequestError("a JSON patch operation must be an object");
    auto op_it = op.find("op");
    auto path_it = op.find("path");
    if (op_it == op.end() || !op_it->is_string()) {
      return BadRequestError("a JSON patch operation has no \"op\"");
    }
    const std::string name = op_it->get<std::string>();
    if (name != "add" && name != "remove" && name != "replace" && name != "move" &&
        name != "copy" && name != "test") {
      return BadRequestError("Unexpected kind: " + name);
    }
    if (path_it == op.end() || !path_it->is_string()) {
      return BadRequestError(name + " operation has no string \"path\"");
    }
    const std::string path = path_it->get<std::string>();
    auto pointer = ParsePointer(path);
    if (!pointer.has_value()) {
      return DoesNotApply(name + " operation does not apply: invalid JSON pointer " + path);
    }
    auto value_it = op.find("value");
    const bool needs_value = name == "add" || name == "replace" || name == "test";
    if (needs_value && value_it == op.end()) {
      return BadRequestError(name + " operation has no \"value\"");
    }
    std::optional<Pointer> from;
    std::string from_text;
    if (name == "move" || name == "copy") {
      auto from_it = op.find("from");
      if (from_it == op.end() || !from_it->is_string()) {
        return BadRequestError(name + " operation has no string \"from\"");
      }
      from_text = from_it->get<std::string>();
      from = ParsePointer(from_text);
      if (!from.has_value()) {
        return DoesNotApply(name + " operation does not apply: invalid JSON pointer " +
                            from_text);
      }
    }
    std::optional<std::string> failure;
    if (name == "add") {
      failure = Add(doc, *pointer, *value_it, path);
    } else if (name == "remove") {
      failure = Remove(doc, *pointer, "remove", path, nullptr);
    } else if (name == "replace") {
      Json* at = Find(doc, *pointer);
      if (at == nullptr) {
        failure = "replace operation does not apply: doc is missing key: " + path;
      } else {
        *at = *value_it;
      }
    } else if (name == "test") {
      Json* at = Find(doc, *pointer);
      if (at == nullptr || *at != *value_it) {
        failure = "testing value " + path + " failed: test failed";
      }
    } else if (name == "copy") {
      Json* at = Find(doc, *from);
      if (at == nullptr) {
        failure = "copy operation does not apply: doc is missing from path: " + from_text;
      } else {
        Json value = *at;
        failure = Add(doc, *pointer, std::move(value), path);
      }
    } else {  // move
      const bool into_child = path.size() > from_text.size() &&
                              path.compare(0, from_text.size(), from_text) == 0 &&
                              path[from_text.size()] == '/';
      if (into_child) {
        failure = "move operation does not apply: cannot move " + from_text +
                  " into its own child " + path;
      } else if (path != from_text) {
        Json value;
        failure = Remove(doc, *from, "move", from_text, &value);
        if (!failure) failure = Add(doc, *pointer, std::move(value), path);
      } else if (Find(doc, *from) == nullptr) {
        failure = "move operation does not apply: doc is missing from path: " + from_text;
      }
    }
    if (failure.has_value()) return DoesNotApply(std::move(*failure));
  }
  return doc;
}

}  // namespace berth::server
