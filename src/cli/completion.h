// Shell completion for berth (`berth completion bash|zsh`): the script is generated from
// the command tree main.cc builds its CLI11 app from, so it knows every subcommand, nested
// subcommand (`rollout status`), long and short flag and the values of flags with a fixed
// set (`-o yaml|json|...`) as the binary it came from, and never goes stale. Pure functions;
// thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"

namespace berth::cli {

struct CompletionFlag {
  std::vector<std::string> names;    // "-o", "--output"
  bool takes_value = false;          // its value is the next word
  std::vector<std::string> choices;  // the values it accepts; empty: any (files are offered)
};

// One command: its name, flags, subcommands and fixed positional values (`completion bash`),
// the last two offered where a word that is not a flag is typed. The root is "berth".
struct CompletionCommand {
  std::string name;
  std::vector<CompletionFlag> flags;
  std::vector<CompletionCommand> subcommands;
  std::vector<std::string> arguments;  // values of a positional argument with a fixed set
};

// Writes the completion script for `shell` ("bash" or "zsh") to `out`: bash's defines
// _berth and registers it with `complete`; zsh's is a `#compdef berth` function file (for
// site-functions/_berth) that also registers itself when sourced. InvalidArgument for
// another shell, naming the two.
core::Status WriteCompletionScript(const std::string& shell, const CompletionCommand& root,
                                   std::ostream& out);

}  // namespace berth::cli
