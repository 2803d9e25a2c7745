// A structure-aware mutator for YAML inputs: parses the input as a stream of documents,
// edits the trees (replaces a scalar by an interesting value, deletes or nulls a node,
// copies or moves a subtree, changes a node's type, duplicates a document, adds a key seen
// elsewhere in the input), and prints the stream again. Used by the targets whose input is
// Kubernetes objects, through LLVMFuzzerCustomMutator (BERTH_FUZZ_YAML_MUTATOR below), so
// most mutants stay well-formed objects that reach the decoders and the plan instead of
// dying in the YAML parser. Deterministic for a given seed; not thread-safe (libFuzzer
// calls it from one thread).
#pragma once

#include <cstddef>
#include <cstdint>

namespace berth::fuzz {

// Mutates data[0, size) in place into at most max_size bytes and returns the new size
// (libFuzzer's custom mutator contract). Input that is not YAML, and one mutation in
// four, goes to libFuzzer's own byte-level mutator instead.
size_t MutateYaml(uint8_t* data, size_t size, size_t max_size, unsigned int seed);

}  // namespace berth::fuzz

// Defines libFuzzer's custom mutator hook with MutateYaml, in the one target file that
// wants it.
#define BERTH_FUZZ_YAML_MUTATOR()                                                          \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, \
                                            unsigned int seed) {                         \
    return berth::fuzz::MutateYaml(data, size, max_size, seed);                          \
  }
