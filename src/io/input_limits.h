// The bounds io puts on the text it reads (docs/limits.md), one table for the files `plan`
// reads and, later, the objects the hub takes over its API. Each input over a bound is one
// error naming the file, the document (index and first line) and the line, and only that
// document (or List item, or file for the per-file bounds) is dropped. Enforced by
// reader.cc (bytes and objects per file), internal/yaml_to_json.cc (YAML) and
// internal/json_duplicates.cc (JSON, in the scan that looks for duplicate keys).
#pragma once

#include <cstdint>

namespace berth::io {

// Bytes of one file (or stdin, or one text given to Reader::ReadText). 2 GiB holds a
// `kubectl get -A -o json|yaml` dump of the largest cluster Kubernetes supports (150,000
// pods, about 1.1 GB as kubectl prints them). A larger file is not read at all.
inline constexpr int64_t kMaxFileBytes = int64_t{2} << 30;

// Documents plus List items of one file. A million is more than six times the objects of
// that largest cluster; the objects past it are not read.
inline constexpr int64_t kMaxObjectsPerFile = 1'000'000;

// Objects and arrays (YAML mappings and sequences) inside one another in one document,
// the outermost counting 1. Real objects nest fewer than 20 deep (a Pod's managedFields);
// the bound sits far below yaml-cpp's (2,000) and simdjson's (1,024) own, so YAML and JSON
// give the same message, and far below what recursive writers could overflow.
inline constexpr int kMaxNestingDepth = 256;

// Bytes of one string (YAML scalar or JSON string as written, keys included): kube-apiserver
// takes no request body over 3 MiB, so no real object holds a longer one.
inline constexpr int64_t kMaxStringBytes = int64_t{3} << 20;

// YAML aliases. One document may copy at most this many bytes by expanding aliases.
inline constexpr int64_t kMaxAliasBytes = int64_t{64} << 20;
// And the node-count rule of go-yaml v3 (sigs.k8s.io/yaml, so kubectl and the API server):
// once more than kAliasMinAliasNodes nodes came from aliases and more than kAliasMinNodes
// nodes were read, the share of nodes that came from aliases may be at most 99% up to
// kAliasRatioLowNodes nodes, falling linearly to 10% at kAliasRatioHighNodes and beyond.
inline constexpr int64_t kAliasMinAliasNodes = 100;
inline constexpr int64_t kAliasMinNodes = 1'000;
inline constexpr int64_t kAliasRatioLowNodes = 400'000;
inline constexpr int64_t kAliasRatioHighNodes = 4'000'000;

// Pods created from workloads (Job parallelism, Deployment replicas, JobSet replicas x
// parallelism, ...). Per workload, Kubernetes' own bound on an Indexed Job's completions and
// parallelism. In all, what one run may create: a created pod costs about 3.2 KB through
// plan and output (docs/limits.md), so 400,000 of them stay near 1.3 GB, under the 2 GiB a
// plan should fit in. Pods read as Pods are not counted: the file bounds above cover them.
inline constexpr int64_t kMaxPodsPerWorkload = 100'000;
inline constexpr int64_t kMaxExpandedPods = 400'000;

}  // namespace berth::io
