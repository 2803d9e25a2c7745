// ProgressBar: a one-line progress bar for long `berth simulate` grids, drawn on stderr only
// when stderr is a terminal (so logs and CI output stay clean). Called by the CLI's run loop,
// possibly from several worker threads: Advance is thread-safe. Redraws only when the drawn
// text would change (at most ~1000 times per bar), so calling it per event costs an atomic
// add and a comparison.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace berth::sim::report {

class ProgressBar {
 public:
  // Draws on stderr when isatty(2).
  ProgressBar(std::string label, int64_t total);
  // Draws on `out` when `enabled` (tests pass a temporary file).
  ProgressBar(std::string label, int64_t total, std::FILE* out, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  // Ends the line if Finish was not called.
  ~ProgressBar();

  void Advance(int64_t n = 1);
  // Draws the final state and ends the line; later calls do nothing.
  void Finish();

  bool enabled() const { return enabled_; }
  int64_t done() const { return done_.load(std::memory_order_relaxed); }

  // The text of the bar for `done` of `total` ("label [#####.....]  50% 5/10"), without the
  // carriage return; exposed for tests.
  static std::string Render(const std::string& label, int64_t done, int64_t total);

 private:
  void Draw(int64_t done);

  const std::string label_;
  const int64_t total_;
  std::FILE* const out_;
  const bool enabled_;
  std::atomic<int64_t> done_{0};
  std::mutex mu_;
  int64_t drawn_permille_ = -1;  // guarded by mu_
  bool finished_ = false;        // guarded by mu_
};

}  // namespace berth::sim::report
