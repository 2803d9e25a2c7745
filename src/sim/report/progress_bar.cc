#include "sim/report/progress_bar.h"

#include <unistd.h>

#include <algorithm>

namespace berth::sim::report {
namespace {

constexpr int kBarWidth = 30;

int64_t Permille(int64_t done, int64_t total) {
  if (total <= 0) return 1000;
  return std::clamp<int64_t>(done * 1000 / total, 0, 1000);
}

}  // namespace

ProgressBar::ProgressBar(std::string label, int64_t total)
    : ProgressBar(std::move(label), total, stderr, isatty(STDERR_FILENO) == 1) {}

ProgressBar::ProgressBar(std::string label, int64_t total, std::FILE* out, bool enabled)
    : label_(std::move(label)), total_(total), out_(out), enabled_(enabled && out != nullptr) {}

ProgressBar::~ProgressBar() { Finish(); }

std::string ProgressBar::Render(const std::string& label, int64_t done, int64_t total) {
  const int64_t permille = Permille(done, total);
  const auto filled = static_cast<int>(permille * kBarWidth / 1000);
  std::string out = label + " [";
  out.append(static_cast<size_t>(filled), '#');
  out.append(static_cast<size_t>(kBarWidth - filled), '.');
  const std::string pct = std::to_string(permille / 10);
  out += "] " + std::string(3 - std::min<size_t>(3, pct.size()), ' ') + pct + "% " +
         std::to_string(done) + "/" + std::to_string(total);
  return out;
}

void ProgressBar::Advance(int64_t n) {
  const int64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
  if (enabled_) {
    Draw(done);
  }
}

void ProgressBar::Draw(int64_t done) {
  const int64_t permille = Permille(done, total_);
  std::lock_guard<std::mutex> lock(mu_);
  // Another thread may have drawn a later state already; never step the bar backwards.
  if (finished_ || permille <= drawn_permille_) {
    return;
  }
  drawn_permille_ = permille;
  const std::string text = Render(label_, done, total_);
  std::fprintf(out_, "\r%s", text.c_str());
  std::fflush(out_);
}

void ProgressBar::Finish() {
  if (!enabled_) {
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) {
    return;
  }
  finished_ = true;
  const std::string text = Render(label_, done_.load(std::memory_order_relaxed), total_);
  std::fprintf(out_, "\r%s\n", text.c_str());
  std::fflush(out_);
}

}  // namespace berth::sim::report
