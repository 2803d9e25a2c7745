#include "fuzz/yaml_mutator.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "io/internal/yaml_to_json.h"

// libFuzzer's byte-level mutator, for the fallback.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace berth::fuzz {
namespace {

// Values that have broken readers before or sit on a bound (issue 14): integer limits,
// quantities at the edge of int64 milli-units, empty and null spellings, names the API
// server refuses, long strings, other YAML types.
const std::vector<std::string>& InterestingScalars() {
  static const std::vector<std::string> values = {
      "0", "-1", "1", "2", "3", "8", "100", "2147483647", "2147483648", "-2147483648",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "5e18", "1e400",
      "0.5", "1.5", "-0", ".inf", ".nan", "500m", "1m", "0.001m", "1Gi", "1Ti", "9E", "5E",
      "8Ei", "16Ei", "1n", "null", "~", "true", "false", "\"\"", "''", "\"8\"", "UPPER_case",
      "a b/c/d", "a/b/c", "-bad-", "x.y", "nvidia.com/gpu", "example.com/gpu", "cpu",
      "memory", "pods", "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "NoSchedule",
      "NoExecute", "Any", "Never", "LowerPriority", "Indexed", "1s", "0s", "-1s",
      "2024-01-01T00:00:00Z", "not-a-time", "default", "team-a", "kube-system",
      std::string(254, 'a'), std::string(64, 'b'), "[]", "{}", "[1, 2]", "{a: b}"};
  return values;
}

struct Tree {
  std::vector<YAML::Node> documents;
  std::vector<YAML::Node> nodes;  // every node of every document, parents first
  std::vector<std::string> keys;  // every scalar map key seen
};

// Aliases share nodes, so a billion-laughs input is a small graph but a huge tree: the walk
// stops at a fixed number of nodes.
constexpr size_t kMaxCollectedNodes = 20000;

void Collect(const YAML::Node& node, Tree* tree, int depth) {
  if (depth > 64 || tree->nodes.size() >= kMaxCollectedNodes) return;
  tree->nodes.push_back(node);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it->first.IsScalar()) tree->keys.push_back(it->first.Scalar());
      Collect(it->second, tree, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (auto it = node.begin(); it != node.end(); ++it) Collect(*it, tree, depth + 1);
  }
}

YAML::Node ScalarFrom(const std::string& text) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception&) {
    return YAML::Node(text);
  }
}

template <typename T>
const T& Pick(const std::vector<T>& v, std::minstd_rand& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

// One edit of the trees; false when it found nothing to edit.
bool MutateOnce(Tree& tree, std::minstd_rand& rng) {
  if (tree.nodes.empty()) return false;
  YAML::Node node = Pick(tree.nodes, rng);
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0:
    case 1: {  // an interesting scalar in place of any node (maps and lists included)
      if (!node.IsScalar() && !node.IsNull() && (rng() & 1)) return false;
      node = ScalarFrom(Pick(InterestingScalars(), rng));
      return true;
    }
    case 2: {  // drop a map entry or list element
      if (node.IsMap() && node.size() > 0) {
        std::vector<YAML::Node> keys;
        for (auto it = node.begin(); it != node.end(); ++it) keys.push_back(it->first);
        node.remove(Pick(keys, rng));
        return true;
      }
      if (node.IsSequence() && node.size() > 0) {
        const size_t victim = std::uniform_int_distribution<size_t>(0, node.size() - 1)(rng);
        YAML::Node kept(YAML::NodeType::Sequence);
        for (size_t i = 0; i < node.size(); ++i) {
          if (i != victim) kept.push_back(node[i]);
        }
        node = kept;
        return true;
      }
      return false;
    }
    case 3: {  // null
      node = YAML::Node(YAML::NodeType::Null);
      return true;
    }
    case 4: {  // a copy of another subtree
      node = YAML::Clone(Pick(tree.nodes, rng));
      return true;
    }
    case 5: {  // duplicate a list element (the same container twice, the same object twice)
      if (!node.IsSequence() || node.size() == 0) return false;
      node.push_back(YAML::Clone(node[std::uniform_int_distribution<size_t>(0, node.size() - 1)(rng)]));
      return true;
    }
    case 6: {  // add a key seen elsewhere, with a copied value or an interesting one
      if (!node.IsMap() || tree.keys.empty()) return false;
      const std::string& key = Pick(tree.keys, rng);
      node[key] = (rng() & 1) ? YAML::Clone(Pick(tree.nodes, rng))
                              : ScalarFrom(Pick(InterestingScalars(), rng));
      return true;
    }
    default: {  // repeat a document: the same object read twice, or altered by later edits
      tree.documents.push_back(YAML::Clone(Pick(tree.documents, rng)));
      return true;
    }
  }
}

std::string Print(const std::vector<YAML::Node>& documents) {
  std::string out;
  for (const YAML::Node& doc : documents) {
    YAML::Emitter emitter;
    emitter << doc;
    if (!emitter.good()) continue;
    out += "---\n";
    out += emitter.c_str();
    out += "\n";
  }
  return out;
}

}  // namespace

size_t MutateYaml(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::minstd_rand rng(seed);
  if ((rng() & 3) == 0 || size == 0) return LLVMFuzzerMutate(data, size, max_size);
  Tree tree;
  // One yaml-cpp parse per document as the reader cuts them, never YAML::LoadAll: on some
  // inputs yaml-cpp 0.7 keeps returning empty documents without reading (the reader bounds
  // that loop, io/internal/yaml_to_json.cc), and LoadAll collected them until the process
  // passed 2.5 GB: the reader target's open out-of-memory finding was this mutator's.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const io::internal::YamlDocumentText& piece : io::internal::SplitYamlDocuments(text)) {
      if (piece.stray_directive_line > 0) continue;
      tree.documents.push_back(YAML::Load(std::string(piece.text)));
    }
  } catch (const YAML::Exception&) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  if (tree.documents.empty()) return LLVMFuzzerMutate(data, size, max_size);
  for (const YAML::Node& doc : tree.documents) Collect(doc, &tree, 0);
  const int edits = std::uniform_int_distribution<int>(1, 3)(rng);
  bool changed = false;
  try {
    for (int i = 0; i < edits; ++i) changed = MutateOnce(tree, rng) || changed;
  } catch (const YAML::Exception&) {
    // An edit yaml-cpp refuses (an alias cycle after a copy): keep what was done so far.
  }
  std::string out;
  try {
    out = Print(tree.documents);
  } catch (const YAML::Exception&) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  if (!changed || out.empty() || out.size() > max_size) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace berth::fuzz
