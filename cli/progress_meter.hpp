// A long command's progress on stderr (simulate, sweep, simulate --uncertainty, advise): a bar with
// the time elapsed and the time left, or the same figures on JSON progress lines. The fraction done
// only moves forward, and the time left extrapolates the mean rate since the start, so that the bar
// and its estimate move smoothly (docs/architecture.md, "Progress").
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"

namespace slicewise::cli {

/// Seconds on a monotone clock (std::chrono::steady_clock); a test passes its own.
double steady_seconds();

/// "7 s", "3 min 05 s", "2 h 04 min": a duration for a person, rounded to the second.
std::string duration_text(double seconds);

/// A sizing search's fraction done, its length unknown: in run number `run` (from 1), `simulated` of
/// `horizon` seconds into it, 1 − 0.75^(runs done + the run's fraction). It moves forward with
/// every run and reaches 1 only when the caller says the search ended.
double search_fraction(int run, double simulated, double horizon);

class ProgressMeter {
 public:
  using Clock = std::function<double()>;

  /// A meter drawing on `err` with `mode` (bar, json or none; `automatic` draws nothing). `label`
  /// starts the bar ("simulating"). The elapsed time counts from here.
  ProgressMeter(ProgressMode mode, std::ostream& err, std::string label, Clock clock = steady_seconds);

  /// The work done is `fraction` of the whole (clamped to [0, 1]; a value below one already shown
  /// keeps the shown one). `detail` follows the bar ("2/4 strategies"). With --progress bar the
  /// line is redrawn when its text changed, at most every 0.1 s (and always at 100 %).
  void update(double fraction, const std::string& detail);
  /// The work grew (the advisor added candidates): the next update's fraction stands even when it
  /// is below the one shown. Without this, a meter that had reached 100 % of the first work said
  /// "about 0 s left" through all of the new.
  void work_grew() { fraction_ = 0.0; }

  double fraction() const { return fraction_; }
  double elapsed_s() const;
  /// Seconds left at the mean rate so far: elapsed × (1 − f) / f. Unknown (nullopt) before 1 % of
  /// the work and half a second, when one early sample would say anything.
  std::optional<double> eta_s() const;

  /// Adds the meter's figures to a JSON progress line: "total_fraction", "elapsed_s" and "eta_s"
  /// (null while unknown), rounded to the millisecond.
  void annotate(nlohmann::json& line) const;

  /// The bar's text as drawn now (without the carriage return): for tests and the final line.
  std::string bar_text(const std::string& detail) const;

  /// Ends the bar's line (with --progress bar, when one was drawn).
  void close();

 private:
  ProgressMode mode_;
  std::ostream& err_;
  std::string label_;
  Clock clock_;
  double start_s_;
  double fraction_ = 0.0;
  double last_draw_s_ = -1.0;
  std::string last_text_;
  bool drawn_ = false;
};

}  // namespace slicewise::cli
