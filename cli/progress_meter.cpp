// The progress bar and its time estimates (progress_meter.hpp).
#include "cli/progress_meter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

namespace slicewise::cli {

namespace {

constexpr int kBarWidth = 30;
constexpr double kRedrawEveryS = 0.1;
/// Below this much work or time an extrapolation is a guess from one sample.
constexpr double kEtaMinFraction = 0.01;
constexpr double kEtaMinElapsedS = 0.5;

double rounded_ms(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

}  // namespace

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double search_fraction(int run, double simulated, double horizon) {
  const double current = horizon > 0.0 ? std::clamp(simulated / horizon, 0.0, 1.0) : 1.0;
  return 1.0 - std::pow(0.75, std::max(0, run - 1) + current);
}

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[48];
  if (s < 60) {
    std::snprintf(text, sizeof text, "%ld s", s);
  } else if (s < 3600) {
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s / 60 % 60);
  }
  return text;
}

ProgressMeter::ProgressMeter(ProgressMode mode, std::ostream& err, std::string label, Clock clock)
    : mode_(mode), err_(err), label_(std::move(label)), clock_(std::move(clock)), start_s_(clock_()) {}

double ProgressMeter::elapsed_s() const { return std::max(0.0, clock_() - start_s_); }

std::optional<double> ProgressMeter::eta_s() const {
  const double elapsed = elapsed_s();
  if (fraction_ >= 1.0) return 0.0;
  if (fraction_ < kEtaMinFraction || elapsed < kEtaMinElapsedS) return std::nullopt;
  return elapsed * (1.0 - fraction_) / fraction_;
}

void ProgressMeter::annotate(nlohmann::json& line) const {
  line["total_fraction"] = rounded_ms(fraction_);
  line["elapsed_s"] = rounded_ms(elapsed_s());
  const auto eta = eta_s();
  line["eta_s"] = eta ? nlohmann::json(rounded_ms(*eta)) : nlohmann::json(nullptr);
}

std::string ProgressMeter::bar_text(const std::string& detail) const {
  const int filled = std::clamp(static_cast<int>(fraction_ * kBarWidth), 0, kBarWidth);
  char percent[16];
  std::snprintf(percent, sizeof percent, "%3d %%", static_cast<int>(std::floor(100.0 * fraction_)));
  std::string text = label_ + " [" + std::string(static_cast<std::size_t>(filled), '#') +
                     std::string(static_cast<std::size_t>(kBarWidth - filled), ' ') + "] " + percent;
  if (!detail.empty()) text += ", " + detail;
  text += ", " + duration_text(elapsed_s()) + " elapsed";
  const auto eta = eta_s();
  if (!eta) {
    text += ", estimating the time left";
  } else if (fraction_ < 1.0 && *eta < 0.5) {
    text += ", under 1 s left";  // not "about 0 s left" while work remains
  } else {
    text += ", about " + duration_text(*eta) + " left";
  }
  return text;
}

void ProgressMeter::update(double fraction, const std::string& detail) {
  if (!std::isnan(fraction)) fraction_ = std::max(fraction_, std::clamp(fraction, 0.0, 1.0));
  if (mode_ != ProgressMode::bar) return;
  const double now = clock_();
  if (fraction_ < 1.0 && last_draw_s_ >= 0.0 && now - last_draw_s_ < kRedrawEveryS) return;
  std::string text = bar_text(detail);
  if (text == last_text_) return;
  // Spaces over what is left of a longer line before, not an erase sequence: slicewise writes no
  // control sequence to a terminal (cli/terminal_output.hpp).
  const std::size_t pad = last_text_.size() > text.size() ? last_text_.size() - text.size() : 0;
  err_ << "\r" << text << std::string(pad, ' ') << std::flush;
  last_text_ = std::move(text);
  last_draw_s_ = now;
  drawn_ = true;
}

void ProgressMeter::close() {
  if (mode_ == ProgressMode::bar && drawn_) err_ << "\n" << std::flush;
  drawn_ = false;
}

}  // namespace slicewise::cli
