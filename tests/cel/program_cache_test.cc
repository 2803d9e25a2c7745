// ProgramCache: one compilation per distinct text, errors included, safe across threads.
#include "cel/program_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "cel/activation.h"
#include "cel/environment.h"
#include "cel/program.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

TEST(ProgramCacheTest, CompilesEachTextOnce) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  ProgramCache cache(env);
  core::Result<const Program*> a = cache.Get("x + 1");
  core::Result<const Program*> b = cache.Get("x + 1");
  core::Result<const Program*> c = cache.Get("x + 2");
  ASSERT_TRUE(a.has_value() && b.has_value() && c.has_value());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  EXPECT_EQ((*a)->expression(), "x + 1");
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(&cache.environment(), &env);

  Activation act(env);
  act.Bind(0, Value::Int(41));
  core::Result<Value> v = (*a)->Evaluate(act);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->int_value(), 42);
}

TEST(ProgramCacheTest, CachesCompileErrors) {
  Environment env;
  ProgramCache cache(env);
  core::Result<const Program*> a = cache.Get("y +");
  core::Result<const Program*> b = cache.Get("y +");
  ASSERT_FALSE(a.has_value());
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(a.error().message(), b.error().message());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(ProgramCacheTest, AppliesItsOptions) {
  Environment env;
  CompileOptions options;
  options.max_expression_code_points = 3;
  ProgramCache cache(env, options);
  EXPECT_TRUE(cache.Get("1+2").has_value());
  EXPECT_FALSE(cache.Get("1 + 2").has_value());
}

TEST(ProgramCacheTest, ConcurrentLookupsShareOnePrograms) {
  Environment env;
  ASSERT_TRUE(env.AddVariable("x").has_value());
  ProgramCache cache(env);
  constexpr int kThreads = 4;
  constexpr int kExpressions = 20;
  std::vector<std::vector<const Program*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < kExpressions; ++i) {
          core::Result<const Program*> p = cache.Get("x == " + std::to_string(i));
          if (round == 0) seen[t].push_back(p.has_value() ? *p : nullptr);
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(cache.size(), static_cast<size_t>(kExpressions));
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]);
  for (const Program* p : seen[0]) EXPECT_NE(p, nullptr);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
