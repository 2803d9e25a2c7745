// FNV-1a is fixed by its definition (std::hash is not), so a hash written into a
// ControllerRevision's name today still matches the template read back by another build.
// Ten characters of a 27-letter alphabet keep 47 bits: far more than one template's history
// of a dozen revisions needs to stay free of collisions, and as short as Kubernetes'
// pod-template-hash.
#include "io/internal/canonical_hash.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace berth::io::internal {
namespace {

namespace dom = simdjson::dom;

void AppendCanonicalString(std::string_view text, std::string* out) {
  constexpr std::string_view kHex = "0123456789abcdef";
  out->push_back('"');
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (c < 0x20) {
      out->append("\\u00");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 0xf]);
    } else {
      out->push_back(ch);
    }
  }
  out->push_back('"');
}

void AppendCanonical(dom::element value, std::string* out) {
  switch (value.type()) {
    case dom::element_type::OBJECT: {
      std::vector<std::pair<std::string_view, dom::element>> fields;
      for (dom::key_value_pair field : dom::object(value))
        fields.emplace_back(field.key, field.value);
      std::sort(fields.begin(), fields.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      out->push_back('{');
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendCanonicalString(fields[i].first, out);
        out->push_back(':');
        AppendCanonical(fields[i].second, out);
      }
      out->push_back('}');
      return;
    }
    case dom::element_type::ARRAY: {
      out->push_back('[');
      bool first = true;
      for (dom::element item : dom::array(value)) {
        if (!first) out->push_back(',');
        first = false;
        AppendCanonical(item, out);
      }
      out->push_back(']');
      return;
    }
    case dom::element_type::STRING:
      AppendCanonicalString(std::string_view(value), out);
      return;
    case dom::element_type::INT64:
      out->append(std::to_string(int64_t(value)));
      return;
    case dom::element_type::UINT64:
      out->append(std::to_string(uint64_t(value)));
      return;
    case dom::element_type::DOUBLE: {
      const double d = double(value);
      // A whole number within int64 prints as the integer it equals.
      if (d > -9.2e18 && d < 9.2e18 && d == static_cast<double>(static_cast<int64_t>(d))) {
        out->append(std::to_string(static_cast<int64_t>(d)));
        return;
      }
      std::array<char, 64> buffer{};
      auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), d);
      out->append(buffer.data(), ec == std::errc() ? end : buffer.data());
      return;
    }
    case dom::element_type::BOOL:
      out->append(bool(value) ? "true" : "false");
      return;
    case dom::element_type::NULL_VALUE:
      out->append("null");
      return;
  }
}

}  // namespace

std::string CanonicalJson(dom::element value) {
  std::string out;
  AppendCanonical(value, &out);
  return out;
}

namespace {

std::string HashCanonicalText(const std::string& canonical) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : canonical) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out(kCanonicalHashLength, kAlphabet[0]);
  for (size_t i = 0; i < kCanonicalHashLength; ++i) {
    out[i] = kAlphabet[hash % kAlphabet.size()];
    hash /= kAlphabet.size();
  }
  return out;
}

}  // namespace

std::string CanonicalJsonHash(dom::element value) {
  return HashCanonicalText(CanonicalJson(value));
}

core::Result<std::string> CanonicalJsonOfText(std::string_view json) {
  dom::parser parser;
  dom::element value;
  if (parser.parse(json.data(), json.size()).get(value) != simdjson::SUCCESS) {
    return core::InvalidArgument("not JSON");
  }
  return CanonicalJson(value);
}

core::Result<std::string> CanonicalJsonHashOfText(std::string_view json) {
  BERTH_ASSIGN_OR_RETURN(std::string canonical, CanonicalJsonOfText(json));
  return HashCanonicalText(canonical);
}

}  // namespace berth::io::internal
