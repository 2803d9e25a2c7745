// WriteCompletionScript: the bash and zsh scripts written from a command tree, and berth's
// version as JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/completion.h"
#include "cli/version.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

CompletionCommand SmallTree() {
  CompletionCommand root{.name = "berth", .flags = {{.names = {"-h", "--help"}}}};
  CompletionCommand plan{.name = "plan"};
  plan.flags.push_back({.names = {"-o", "--output"}, .takes_value = true, .choices = {"yaml", "json"}});
  plan.flags.push_back({.names = {"-f", "--filename"}, .takes_value = true});
  CompletionCommand rollout{.name = "rollout"};
  rollout.subcommands.push_back({.name = "status"});
  CompletionCommand completion{.name = "completion", .arguments = {"bash", "zsh"}};
  root.subcommands = {plan, rollout, completion};
  return root;
}

TEST(CompletionTest, BashScriptHasEveryCommandFlagAndChoice) {
  std::ostringstream out;
  ASSERT_TRUE(WriteCompletionScript("bash", SmallTree(), out).ok());
  const std::string script = out.str();
  EXPECT_NE(script.find("      \"berth rollout status\") cmdpath=\"berth rollout status\" ;;\n"),
            std::string::npos);
  EXPECT_NE(script.find("    \"berth plan -o\"|\"berth plan --output\")\n"
                        "      COMPREPLY=($(compgen -W \"yaml json\" -- \"$cur\"))\n"),
            std::string::npos);
  EXPECT_NE(script.find("    \"berth plan -f\"|\"berth plan --filename\")\n"
                        "      COMPREPLY=($(compgen -f -- \"$cur\"))\n"),
            std::string::npos);
  EXPECT_NE(script.find("    \"berth\")\n      commands=\"plan rollout completion\"\n"
                        "      flags=\"-h --help\" ;;\n"),
            std::string::npos);
  EXPECT_NE(script.find("commands=\"bash zsh\""), std::string::npos);
  EXPECT_EQ(script.find("\"berth -h\")"), std::string::npos);  // a flag takes no value
  EXPECT_TRUE(script.ends_with("complete -F _berth berth\n"));
}

TEST(CompletionTest, ZshScriptIsAFunctionFile) {
  std::ostringstream out;
  ASSERT_TRUE(WriteCompletionScript("zsh", SmallTree(), out).ok());
  const std::string script = out.str();
  EXPECT_TRUE(script.starts_with("#compdef berth\n"));
  EXPECT_NE(script.find("      (\"berth rollout status\") cmdpath=\"berth rollout status\" ;;\n"),
            std::string::npos);
  EXPECT_NE(script.find("    (\"berth plan -o\"|\"berth plan --output\")\n      compadd -- yaml json\n"),
            std::string::npos);
  EXPECT_NE(script.find("    (\"berth plan -f\"|\"berth plan --filename\")\n      _files\n"),
            std::string::npos);
  // zsh's `path` is PATH: the script must not assign it.
  EXPECT_EQ(script.find("local path"), std::string::npos);
}

TEST(CompletionTest, OtherShellsAreAnError) {
  std::ostringstream out;
  const core::Status fish = WriteCompletionScript("fish", SmallTree(), out);
  ASSERT_FALSE(fish.ok());
  EXPECT_EQ(fish.error().message(), "completion: unknown shell \"fish\" (want bash or zsh)");
  EXPECT_TRUE(out.str().empty());
}

TEST(VersionTest, JsonLeavesOutAnUnknownCommit) {
  std::ostringstream known;
  PrintVersionJson({"0.1.0", "abc123", "clang 18.1.3", "Release"}, known);
  EXPECT_EQ(known.str(),
            "{\n  \"version\": \"0.1.0\",\n  \"commit\": \"abc123\",\n  \"compiler\": \"clang "
            "18.1.3\",\n  \"buildType\": \"Release\"\n}\n");
  std::ostringstream unknown;
  PrintVersionJson({"0.1.0", "", "gcc 13.2.0", ""}, unknown);
  EXPECT_EQ(unknown.str(),
            "{\n  \"version\": \"0.1.0\",\n  \"compiler\": \"gcc 13.2.0\",\n  \"buildType\": \"\"\n}\n");
  EXPECT_EQ(VersionString(), "berth " + CurrentBuildInfo().version);
  EXPECT_FALSE(CurrentBuildInfo().compiler.empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
