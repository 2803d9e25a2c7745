// A small reader for the YAML the device plugin's config files are written in. It builds a
// tree of mappings, sequences and scalars and then reads the plugin's fields from it; anything
// outside the subset (anchors, tags, multi-document files) makes the text "not a plugin
// config", so a rule never acts on a half-read file.
#include "diag/rules/gpu_plugin_config.h"

#include <algorithm>
#include <utility>

namespace berth::diag::rules {

namespace {

struct GpuYamlNode {
  enum class Kind { kScalar, kMap, kSeq };
  Kind kind = Kind::kScalar;
  std::string scalar;
  // A mapping as two parallel vectors: std::pair of an incomplete type does not compile
  // with every standard library (a vector of one does).
  std::vector<std::string> keys;
  std::vector<GpuYamlNode> values;
  std::vector<GpuYamlNode> seq;

  const GpuYamlNode* Get(std::string_view key) const {
    if (kind != Kind::kMap) return nullptr;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &values[i];
    }
    return nullptr;
  }
  void Put(std::string key, GpuYamlNode value) {
    keys.push_back(std::move(key));
    values.push_back(std::move(value));
  }
};

struct GpuYamlLine {
  size_t indent = 0;
  std::string text;
};

std::string_view GpuYamlTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Drops a comment: '#' at the start or after a blank, outside quotes.
std::string_view GpuYamlStripComment(std::string_view s) {
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
      return s.substr(0, i);
    }
  }
  return s;
}

std::string GpuYamlUnquote(std::string_view s) {
  s = GpuYamlTrim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return std::string(s.substr(1, s.size() - 2));
  }
  return std::string(s);
}

// The position of the ':' that ends a mapping key (followed by a blank or the end), outside
// quotes and brackets; npos when the text is not "key: value".
size_t GpuYamlKeyColon(std::string_view s) {
  char quote = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ':' && depth == 0 && (i + 1 == s.size() || s[i + 1] == ' ')) return i;
  }
  return std::string_view::npos;
}

// Flow collections ({a: 1, b: [x, y]}, JSON) over one string.
class GpuYamlFlow {
 public:
  explicit GpuYamlFlow(std::string_view text) : s_(text) {}

  std::optional<GpuYamlNode> ParseAll() {
    auto node = Value();
    Skip();
    if (!node.has_value() || pos_ != s_.size()) return std::nullopt;
    return node;
  }

 private:
  void Skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }

  std::optional<GpuYamlNode> Value() {
    Skip();
    if (pos_ >= s_.size()) return std::nullopt;
    if (s_[pos_] == '{') return Map();
    if (s_[pos_] == '[') return Seq();
    return Scalar();
  }

  std::optional<GpuYamlNode> Scalar() {
    GpuYamlNode n;
    if (s_[pos_] == '"' || s_[pos_] == '\'') {
      const char q = s_[pos_++];
      const size_t end = s_.find(q, pos_);
      if (end == std::string_view::npos) return std::nullopt;
      n.scalar = std::string(s_.substr(pos_, end - pos_));
      pos_ = end + 1;
      return n;
    }
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '}' && s_[pos_] != ']' &&
           !(s_[pos_] == ':' && (pos_ + 1 == s_.size() || s_[pos_ + 1] == ' '))) {
      ++pos_;
    }
    n.scalar = std::string(GpuYamlTrim(s_.substr(start, pos_ - start)));
    return n;
  }

  std::optional<GpuYamlNode> Map() {
    GpuYamlNode n;
    n.kind = GpuYamlNode::Kind::kMap;
    ++pos_;
    Skip();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return n;
    }
    while (true) {
      auto key = Scalar();
      Skip();
      if (!key.has_value() || pos_ >= s_.size() || s_[pos_] != ':') return std::nullopt;
      ++pos_;
      auto value = Value();
      if (!value.has_value()) return std::nullopt;
      n.Put(key->scalar, std::move(*value));
      Skip();
      if (pos_ >= s_.size()) return std::nullopt;
      if (s_[pos_] == ',') {
        ++pos_;
        Skip();
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return n;
      }
      return std::nullopt;
    }
  }

  std::optional<GpuYamlNode> Seq() {
    GpuYamlNode n;
    n.kind = GpuYamlNode::Kind::kSeq;
    ++pos_;
    Skip();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return n;
    }
    while (true) {
      auto value = Value();
      if (!value.has_value()) return std::nullopt;
      n.seq.push_back(std::move(*value));
      Skip();
      if (pos_ >= s_.size()) return std::nullopt;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return n;
      }
      return std::nullopt;
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

std::optional<GpuYamlNode> GpuYamlInline(std::string_view text) {
  text = GpuYamlTrim(text);
  if (!text.empty() && (text.front() == '{' || text.front() == '[')) return GpuYamlFlow(text).ParseAll();
  if (!text.empty() && (text.front() == '&' || text.front() == '*' || text.front() == '!' ||
                        text.front() == '|' || text.front() == '>')) {
    return std::nullopt;  // anchors, aliases, tags and block scalars are outside the subset
  }
  GpuYamlNode n;
  n.scalar = GpuYamlUnquote(text);
  return n;
}

// Indentation-structured blocks over the comment-free, non-blank lines.
class GpuYamlBlock {
 public:
  explicit GpuYamlBlock(std::vector<GpuYamlLine> lines) : lines_(std::move(lines)) {}

  std::optional<GpuYamlNode> ParseAll() {
    if (lines_.empty()) return std::nullopt;
    auto node = Block(lines_[0].indent);
    if (!node.has_value() || at_ != lines_.size()) return std::nullopt;
    return node;
  }

 private:
  static bool IsItem(const std::string& text) { return text == "-" || text.rfind("- ", 0) == 0; }

  std::optional<GpuYamlNode> Block(size_t indent) {
    if (at_ >= lines_.size() || lines_[at_].indent != indent) return std::nullopt;
    return IsItem(lines_[at_].text) ? Seq(indent) : Map(indent);
  }

  // The value after "key:" or "-" when it is written on the following lines.
  std::optional<GpuYamlNode> Nested(size_t parent_indent, bool allow_same_indent_seq) {
    if (at_ < lines_.size() && lines_[at_].indent > parent_indent) return Block(lines_[at_].indent);
    if (allow_same_indent_seq && at_ < lines_.size() && lines_[at_].indent == parent_indent &&
        IsItem(lines_[at_].text)) {
      return Seq(parent_indent);
    }
    return GpuYamlNode{};  // null: an empty scalar
  }

  std::optional<GpuYamlNode> Seq(size_t indent) {
    GpuYamlNode n;
    n.kind = GpuYamlNode::Kind::kSeq;
    while (at_ < lines_.size() && lines_[at_].indent == indent && IsItem(lines_[at_].text)) {
      std::string_view rest = GpuYamlTrim(std::string_view(lines_[at_].text).substr(1));
      if (rest.empty()) {
        ++at_;
        auto child = Nested(indent, false);
        if (!child.has_value()) return std::nullopt;
        n.seq.push_back(std::move(*child));
        continue;
      }
      if (GpuYamlKeyColon(rest) != std::string_view::npos && rest.front() != '{') {
        // "- key: value": a mapping whose first line starts where the key does.
        const size_t offset = lines_[at_].text.size() - rest.size();
        lines_[at_].indent = indent + offset;
        lines_[at_].text = std::string(rest);
        auto child = Map(indent + offset);
        if (!child.has_value()) return std::nullopt;
        n.seq.push_back(std::move(*child));
        continue;
      }
      auto child = GpuYamlInline(rest);
      if (!child.has_value()) return std::nullopt;
      n.seq.push_back(std::move(*child));
      ++at_;
    }
    return n;
  }

  std::optional<GpuYamlNode> Map(size_t indent) {
    GpuYamlNode n;
    n.kind = GpuYamlNode::Kind::kMap;
    while (at_ < lines_.size() && lines_[at_].indent == indent && !IsItem(lines_[at_].text)) {
      const std::string& text = lines_[at_].text;
      const size_t colon = GpuYamlKeyColon(text);
      if (colon == std::string_view::npos) return std::nullopt;
      std::string key = GpuYamlUnquote(std::string_view(text).substr(0, colon));
      std::string_view rest = GpuYamlTrim(std::string_view(text).substr(colon + 1));
      ++at_;
      std::optional<GpuYamlNode> value = rest.empty() ? Nested(indent, true) : GpuYamlInline(rest);
      if (!value.has_value()) return std::nullopt;
      n.Put(std::move(key), std::move(*value));
    }
    if (at_ < lines_.size() && lines_[at_].indent > indent) return std::nullopt;  // stray indent
    return n;
  }

  std::vector<GpuYamlLine> lines_;
  size_t at_ = 0;
};

std::optional<GpuYamlNode> GpuYamlParse(std::string_view text) {
  std::vector<GpuYamlLine> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = GpuYamlStripComment(text.substr(start, end - start));
    start = end + 1;
    std::string_view body = GpuYamlTrim(raw);
    if (body.empty()) continue;
    if (body == "---" || body == "...") {
      if (!lines.empty()) return std::nullopt;  // one document only
      continue;
    }
    size_t indent = 0;
    while (indent < raw.size() && raw[indent] == ' ') ++indent;
    if (indent < raw.size() && raw[indent] == '\t') return std::nullopt;  // YAML forbids tabs
    lines.push_back(GpuYamlLine{indent, std::string(body)});
  }
  if (lines.empty()) return std::nullopt;
  if (lines[0].text.front() == '{' || lines[0].text.front() == '[') {
    std::string joined;
    for (const GpuYamlLine& l : lines) joined += l.text + "\n";
    return GpuYamlFlow(joined).ParseAll();
  }
  return GpuYamlBlock(std::move(lines)).ParseAll();
}

bool GpuYamlTrue(const GpuYamlNode* n) {
  return n != nullptr && n->kind == GpuYamlNode::Kind::kScalar &&
         (n->scalar == "true" || n->scalar == "True" || n->scalar == "TRUE");
}

std::optional<int64_t> GpuYamlInt(const GpuYamlNode* n) {
  if (n == nullptr || n->kind != GpuYamlNode::Kind::kScalar || n->scalar.empty() ||
      n->scalar.size() > 12) {
    return std::nullopt;
  }
  int64_t v = 0;
  for (char c : n->scalar) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string GpuYamlString(const GpuYamlNode* n) {
  return n != nullptr && n->kind == GpuYamlNode::Kind::kScalar ? n->scalar : std::string();
}

// ReplicatedResources: the resources replicated, with the two switches.
PluginSharing ReadReplicated(const GpuYamlNode& node, std::string mode) {
  PluginSharing s;
  s.mode = std::move(mode);
  s.rename_by_default = GpuYamlTrue(node.Get("renameByDefault"));
  s.fail_requests_greater_than_one = GpuYamlTrue(node.Get("failRequestsGreaterThanOne"));
  if (const GpuYamlNode* list = node.Get("resources"); list != nullptr && list->kind == GpuYamlNode::Kind::kSeq) {
    for (const GpuYamlNode& r : list->seq) {
      s.resources.push_back(
          PluginReplicatedResource{GpuYamlString(r.Get("name")), GpuYamlInt(r.Get("replicas")).value_or(0)});
    }
  }
  return s;
}

// Upstream Sharing.SharingStrategy: MPS when it replicates anything, else time-slicing when
// it does, else none.
bool Replicates(const PluginSharing& s) {
  return std::any_of(s.resources.begin(), s.resources.end(),
                     [](const PluginReplicatedResource& r) { return r.replicas > 1; });
}

}  // namespace

int64_t PluginSharing::MaxReplicas() const {
  int64_t most = 1;
  for (const PluginReplicatedResource& r : resources) most = std::max(most, r.replicas);
  return most;
}

std::optional<PluginConfig> ParsePluginConfig(std::string_view text) {
  std::optional<GpuYamlNode> root = GpuYamlParse(text);
  if (!root.has_value() || root->kind != GpuYamlNode::Kind::kMap) return std::nullopt;
  const GpuYamlNode* sharing = root->Get("sharing");
  const GpuYamlNode* flags = root->Get("flags");
  if (sharing == nullptr && flags == nullptr) return std::nullopt;
  PluginConfig config;
  config.version = GpuYamlString(root->Get("version"));
  if (config.version.empty()) config.version = "v1";
  if (config.version != "v1") return std::nullopt;
  if (flags != nullptr) config.mig_strategy = GpuYamlString(flags->Get("migStrategy"));
  config.sharing.mode = "none";
  if (sharing != nullptr) {
    if (const GpuYamlNode* mps = sharing->Get("mps"); mps != nullptr && mps->kind == GpuYamlNode::Kind::kMap) {
      PluginSharing s = ReadReplicated(*mps, "mps");
      // config.go: MPS keeps failing requests for more than one replica unless told not to.
      s.fail_requests_greater_than_one =
          mps->Get("failRequestsGreaterThanOne") == nullptr || s.fail_requests_greater_than_one;
      if (Replicates(s)) config.sharing = std::move(s);
    }
    if (config.sharing.mode == "none") {
      if (const GpuYamlNode* ts = sharing->Get("timeSlicing"); ts != nullptr && ts->kind == GpuYamlNode::Kind::kMap) {
        PluginSharing s = ReadReplicated(*ts, "time-slicing");
        if (Replicates(s)) config.sharing = std::move(s);
      }
    }
  }
  return config;
}

bool IsPluginConfigMap(const model::ConfigMap& config_map) {
  if (config_map.data.empty()) return false;
  return std::all_of(config_map.data.begin(), config_map.data.end(), [](const auto& entry) {
    return ParsePluginConfig(entry.second).has_value();
  });
}

}  // namespace berth::diag::rules
