#include "io/internal/json_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "core/check.h"
#include "core/excerpt.h"

namespace berth::io::internal {

namespace {

core::Error TypeError(std::string_view key, const char* what) {
  return core::InvalidArgument(std::string("must be ") + what,
                               core::Location{"", "", std::string(key)});
}

// Integers may arrive as doubles (YAML "2.0", or JSON written by a float-happy tool); they
// are accepted when they hold a whole value, as Go's json decoder accepts 2.0 for an int.
bool ElementToInt64(dom::element e, int64_t* out) {
  int64_t i = 0;
  if (e.get_int64().get(i) == simdjson::SUCCESS) {
    *out = i;
    return true;
  }
  double d = 0;
  if (e.is_double() && e.get_double().get(d) == simdjson::SUCCESS) {
    if (d >= -9.2e18 && d <= 9.2e18 && static_cast<double>(static_cast<int64_t>(d)) == d) {
      *out = static_cast<int64_t>(d);
      return true;
    }
  }
  return false;
}

// An empty array and an empty object, parsed once and never changed (reading a document is
// thread-safe). GetArray and GetObject leave them in *out when the member is absent or null,
// so a caller that does not check `found` iterates nothing instead of reading through a
// default-constructed view, which has no document behind it (a missing `shape` or
// `nodeSelectorTerms` crashed the reader so).
struct EmptyValues {
  dom::parser parser;
  dom::array array;
  dom::object object;
};

const EmptyValues& Empty() {
  static const EmptyValues* const kEmpty = [] {
    auto* empty = new EmptyValues;  // never freed: lives as long as the process
    constexpr std::string_view kText = R"({"a":[],"o":{}})";
    dom::object root;
    const bool ok = empty->parser.parse(kText.data(), kText.size()).get(root) == simdjson::SUCCESS &&
                    root["a"].get(empty->array) == simdjson::SUCCESS &&
                    root["o"].get(empty->object) == simdjson::SUCCESS;
    BERTH_CHECK(ok, "a constant JSON text parses");
    return empty;
  }();
  return *kEmpty;
}

}  // namespace

bool Find(dom::object obj, std::string_view key, dom::element* out) {
  dom::element e;
  if (obj.at_key(key).get(e) != simdjson::SUCCESS) return false;
  if (e.is_null()) return false;
  *out = e;
  return true;
}

core::Status GetString(dom::object obj, std::string_view key, std::string* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return TypeError(key, "a string");
  out->assign(s);
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetBool(dom::object obj, std::string_view key, bool* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  bool b = false;
  if (e.get_bool().get(b) != simdjson::SUCCESS) return TypeError(key, "a boolean");
  *out = b;
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetInt64(dom::object obj, std::string_view key, int64_t* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  int64_t i = 0;
  if (!ElementToInt64(e, &i)) return TypeError(key, "an integer");
  *out = i;
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetInt32(dom::object obj, std::string_view key, int32_t* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  int64_t i = 0;
  if (!ElementToInt64(e, &i) || i < std::numeric_limits<int32_t>::min() ||
      i > std::numeric_limits<int32_t>::max()) {
    return TypeError(key, "a 32-bit integer");
  }
  *out = static_cast<int32_t>(i);
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetObject(dom::object obj, std::string_view key, dom::object* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) {
    *out = Empty().object;
    return core::OkStatus();
  }
  if (e.get_object().get(*out) != simdjson::SUCCESS) return TypeError(key, "an object");
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetArray(dom::object obj, std::string_view key, dom::array* out, bool* found) {
  if (found != nullptr) *found = false;
  dom::element e;
  if (!Find(obj, key, &e)) {
    *out = Empty().array;
    return core::OkStatus();
  }
  if (e.get_array().get(*out) != simdjson::SUCCESS) return TypeError(key, "an array");
  if (found != nullptr) *found = true;
  return core::OkStatus();
}

core::Status GetStringList(dom::object obj, std::string_view key, std::vector<std::string>* out) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, key, &array, &found));
  if (!found) return core::OkStatus();
  out->clear();
  out->reserve(array.size());
  size_t i = 0;
  for (dom::element item : array) {
    std::string_view s;
    if (item.get_string().get(s) != simdjson::SUCCESS) {
      return TypeError(KeyField("", key) + IndexField(i), "a string");
    }
    out->emplace_back(s);
    ++i;
  }
  return core::OkStatus();
}

core::Status GetStringMap(dom::object obj, std::string_view key, core::Labels* out) {
  dom::object map;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &map, &found));
  if (!found) return core::OkStatus();
  for (auto [k, v] : map) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) {
      // A YAML `version: 1` or `enabled: true` label: upstream rejects it too.
      return TypeError(KeyField(key, k), "a string");
    }
    out->insert_or_assign(std::string(k), std::string(s));
  }
  return core::OkStatus();
}

core::Result<dom::object> AsObject(dom::element e) {
  dom::object obj;
  if (e.get_object().get(obj) != simdjson::SUCCESS) {
    return core::InvalidArgument("must be an object");
  }
  return obj;
}

core::Result<core::Quantity> ParseQuantityElement(dom::element e) {
  std::string_view s;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  if (e.get_string().get(s) == simdjson::SUCCESS) return core::Quantity::Parse(s);
  if (e.get_int64().get(i) == simdjson::SUCCESS) return core::Quantity::Parse(std::to_string(i));
  if (e.get_uint64().get(u) == simdjson::SUCCESS) return core::Quantity::Parse(std::to_string(u));
  if (e.is_double() && e.get_double().get(d) == simdjson::SUCCESS) {
    std::array<char, 64> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), d);
    if (ec != std::errc()) return core::InvalidArgument("must be a quantity");
    return core::Quantity::Parse(
        std::string_view(buf.data(), static_cast<size_t>(end - buf.data())));
  }
  return core::InvalidArgument("must be a quantity (a string such as \"500m\" or a number)");
}

core::Error FieldError(std::string field, std::string message) {
  return core::InvalidArgument(std::move(message), core::Location{"", "", std::move(field)});
}

core::Error InvalidValue(std::string field, std::string_view value, const std::string& problem) {
  return FieldError(std::move(field), "Invalid value: " + core::Quote(value) + ": " + problem);
}

std::string IndexField(size_t index) {
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "[" + std::to_string(i).
  std::string out = "[";
  out += std::to_string(index);
  out += ']';
  return out;
}

std::string KeyField(std::string_view prefix, std::string_view key) {
  std::string out(prefix);
  if (key.find_first_of("./") != std::string_view::npos) {
    out += '[';
    out += key;
    out += ']';
  } else {
    if (!out.empty()) out += '.';
    out += key;
  }
  return out;
}

namespace {

// A part of an object label as written, or quoted when no valid object could have it.
void AppendLabelPart(std::string_view part, std::string* out) {
  const bool plain = part.size() <= core::kMaxDnsSubdomainBytes &&
                     std::none_of(part.begin(), part.end(), [](char c) {
                       return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                     });
  if (plain) {
    *out += part;
  } else {
    *out += core::Quote(part);
  }
}

}  // namespace

std::string ObjectLabel(std::string_view kind, std::string_view ns, std::string_view name) {
  std::string out;
  AppendLabelPart(kind, &out);
  if (name.empty()) return out;
  if (!ns.empty()) {
    out += '/';
    AppendLabelPart(ns, &out);
  }
  out += '/';
  AppendLabelPart(name, &out);
  return out;
}

}  // namespace berth::io::internal
