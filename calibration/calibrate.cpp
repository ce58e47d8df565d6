// Collects the fits into a profile, cross-validates them, and validates a profile on rows.
#include "calibration/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "calibration/fit_steps.hpp"
#include "calibration/mig_fit.hpp"
#include "calibration/mps_fit.hpp"
#include "calibration/sharing_defaults.hpp"
#include "calibration/sharing_fit.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration {

using namespace detail;  // the shared fit steps and the MPS fits

namespace {

void fit_sharing(const std::vector<Measurement>& rows, SharingConstant constant, const CalibrateOptions& options,
                 CalibrationOutcome& out) {
  std::vector<std::string> skipped;
  const auto points = co_run_points(rows, strategy_of(constant), skipped);
  out.notes.insert(out.notes.end(), skipped.begin(), skipped.end());
  if (points.empty()) return;
  const models::SharingParams base = base_params(out.profile);
  const FitReport fit = fit_sharing_constant(points, constant, base);
  require_usable(fit, to_string(constant));
  require_in_range(to_string(constant), fit, to_string(constant));
  std::vector<const Measurement*> used;
  std::set<std::string> gpus;
  for (const auto& p : points) {
    used.push_back(p.row);
    gpus.insert(p.row->gpu);
  }
  CalibratedConstant c = constant_from(to_string(constant), "*", fit, used);
  c.note = "measured on " + join({gpus.begin(), gpus.end()}, ", ") +
           "; applied to every GPU (the driver's scheduling, not the chip, sets it)";
  out.fits.push_back({c.name, "*", fit});
  store(c, out.profile);
  if (options.cross_validate)
    out.profile.validation.push_back(cross_validate_sharing(points, constant, base, out.folds));
}

// ---- Time slices and bursts: the slice and the two switch costs ----

/// The time-slice model's constants, from the time-slicing co-runs whose bursts are known (the
/// probes' kernel_ms, the co-location loops'); a note says why when the rows cannot fit it.
void fit_time_slices(const std::vector<Measurement>& rows, const CalibrateOptions& options, CalibrationOutcome& out) {
  std::vector<std::string> skipped;
  std::vector<CoRunPoint> points;
  for (auto& p : co_run_points(rows, models::StrategyKind::time_slicing, skipped)) {
    // Only bursts the runs set (kernel_ms) fit the slice; bursts derived from a solo request time
    // leave their rows out of sample (validate-model predicts them).
    const bool known = std::all_of(p.burst_is_input.begin(), p.burst_is_input.end(), [](bool given) { return given; });
    if (known) points.push_back(std::move(p));
  }
  if (points.empty()) return;
  std::string why;
  if (!time_slices_determined(points, why)) {
    out.notes.push_back("time slices (timeslice_ms, yield_switch_ms, preempt_switch_ms): not fitted: " + why);
    return;
  }
  const models::SharingParams base = base_params(out.profile);
  const TimeSliceFit fit = fit_time_slices(points, base);
  require_usable(fit.switches, "the time slices' switch costs");
  std::vector<const Measurement*> used;
  std::set<std::string> gpus;
  for (const auto& p : points) {
    used.push_back(p.row);
    gpus.insert(p.row->gpu);
  }
  const std::string note = "measured on " + join({gpus.begin(), gpus.end()}, ", ") +
                           "; applied to every GPU (the driver's scheduling sets it)";
  CalibratedConstant slice = constant_from("timeslice_ms", "*", fit.switches, used);
  slice.value = fit.slice_ms;
  slice.std_error = fit.slice_std_error_ms;
  slice.note = note + "; searched from 0.5 to 10 ms";
  CalibratedConstant yield = constant_from("yield_switch_ms", fit.switches, 0, used);
  CalibratedConstant preempt = constant_from("preempt_switch_ms", fit.switches, 1, used);
  yield.note = preempt.note = note;
  out.fits.push_back({"time slices (slice " + short_number(fit.slice_ms) + " ms)", "*", fit.switches});
  for (auto* c : {&slice, &yield, &preempt}) store(*c, out.profile);
  if (!options.cross_validate) return;
  auto fit_fold =
      [&](const std::vector<CoRunPoint>& train) -> std::optional<std::pair<models::SharingParams, std::string>> {
    std::string ignored;
    if (!time_slices_determined(train, ignored)) return std::nullopt;
    const TimeSliceFit f = fit_time_slices(train, base);
    if (!f.switches.usable()) return std::nullopt;
    return std::pair{time_slice_params(f, base), short_number(f.slice_ms) + " / " +
                                                     short_number(f.switches.params[0].value) + " / " +
                                                     short_number(f.switches.params[1].value) + " ms"};
  };
  out.profile.validation.push_back(cross_validate(
      points, "timeslice_ms",
      "leave one workload out: fit the slice and both switch costs on the other workloads' time-slicing rows, "
      "predict this one's",
      params_for(SharingConstant::time_slicing_efficiency,
                 value_in(uncalibrated_profile(), SharingConstant::time_slicing_efficiency), base),
      fit_fold, out.folds));
}

void fit_mig(const std::vector<Measurement>& rows, const CalibrateOptions& options, const models::GpuCatalog& gpus,
             const models::MigCatalog& mig, CalibrationOutcome& out) {
  for (const auto& gpu : mig_gpus(rows)) {
    auto points = scaling_points(rows, gpu, gpus, mig);
    FitReport fit = fit_mig_scaling(points);
    // Fit again without the instances no occupancy fits (one leaving can uncover another), and say
    // which they were.
    for (auto runaways = runaway_instances(points, fit); !runaways.empty(); runaways = runaway_instances(points, fit)) {
      for (const auto& runaway : runaways) {
        out.notes.push_back(gpu + ": " + runaway.why);
        std::erase_if(points, [&](const MigPoint& p) { return p.instance == runaway.instance; });
      }
      fit = fit_mig_scaling(points);
    }
    require_usable(fit, "roofline_sharpness on " + gpu);
    require_in_range("roofline_sharpness", fit, "roofline_sharpness on " + gpu);
    std::vector<const Measurement*> used;
    used.reserve(points.size());
    for (const auto& p : points) used.push_back(p.row);
    CalibratedConstant c = constant_from("roofline_sharpness", gpu, fit, used);
    const bool green =
        std::any_of(points.begin(), points.end(), [](const MigPoint& p) { return p.instance.starts_with("green:"); });
    c.note = std::string(green ? "SM scaling on green contexts" : "MIG slice scaling") +
             "; fitted jointly with each workload's whole-GPU time and SM occupancy (" +
             std::to_string(fit.params.size() - 1) + " nuisance parameters)";
    out.profile.constants.push_back(c);
    out.fits.push_back({c.name, gpu, fit});
    if (!options.cross_validate) continue;
    const MigCvReport report = cross_validate_mig(points);
    CrossValidation cv;
    cv.constant = "roofline_sharpness";
    cv.gpu = gpu;
    cv.protocol =
        "leave one workload out: sharpness fitted on the other workloads; each instance of the held-out "
        "workload pinned by its largest and smallest profile, its other profiles predicted";
    cv.num_predicted = report.num_predicted;
    cv.mape = report.mape_fitted;
    cv.mape_uncalibrated = report.mape_hard;
    cv.mape_naive = report.mape_proportional;
    if (report.num_predicted == 0) cv.not_predicted = join(report.skipped, "; ");
    out.profile.validation.push_back(cv);
  }
}

}  // namespace

CalibrationOutcome calibrate(const std::vector<Measurement>& rows, const std::vector<std::string>& files,
                             const CalibrateOptions& options, const models::GpuCatalog& gpus,
                             const models::MigCatalog& mig) {
  CalibrationOutcome out;
  out.profile = uncalibrated_profile();
  out.profile.created = options.created;
  out.profile.id = options.id.empty() ? "calibrated-" + options.created : options.id;
  out.profile.description = "Fitted by slicewise calibrate from " + std::to_string(rows.size()) + " measurements.";
  out.profile.data_files = files;
  // Time-slicing first: HAMi's overhead is fitted with the efficiency held at its fitted value.
  fit_sharing(rows, SharingConstant::time_slicing_efficiency, options, out);
  fit_time_slices(rows, options, out);
  // MPS: the SMs that saturate bandwidth (a thread cap's limit on a memory-bound client), then the
  // flat efficiency and the memory-pressure κ, together (both slow clients down).
  fit_bandwidth_sms(rows, gpus, out);
  fit_mps(rows, options, out);
  fit_sharing(rows, SharingConstant::hami_launch_overhead_frac, options, out);
  fit_mig(rows, options, gpus, mig, out);
  for (const auto& c : out.profile.constants) {
    if (!c.fitted && c.num_points == 0) {
      out.notes.push_back(c.name + ": no measurements; keeps its uncalibrated default " + std::to_string(c.value));
    }
  }
  return out;
}

namespace {

/// What the simulator shares a GPU with for `constant`'s strategy under `profile`: its time slices,
/// when it has them, for time-slicing (named "timeslice_ms" then in `name`).
models::SharingParams validation_params(const CalibrationProfile& profile, SharingConstant constant,
                                        const models::SharingParams& base, std::string& name) {
  models::SharingParams params = params_for(constant, value_in(profile, constant), base);
  name = to_string(constant);
  if (constant != SharingConstant::time_slicing_efficiency) return params;
  const auto defaults = sharing_defaults(profile);
  if (!defaults.time_slices) return params;
  params.set_time_slices(defaults.quantum_ms, defaults.yield_switch_ms, defaults.preempt_switch_ms);
  name = "timeslice_ms";
  return params;
}

}  // namespace

namespace {

/// A predicted time in seconds as `row`'s metric: itself for a time, its inverse for a rate.
double in_row_metric(double seconds, const Measurement& row) { return is_time(row.metric) ? seconds : 1.0 / seconds; }

}  // namespace

ModelValidation validate_model(const std::vector<Measurement>& rows, const CalibrationProfile& profile,
                               const models::GpuCatalog& gpus, const models::MigCatalog& mig) {
  ModelValidation out;
  double sum = 0.0;
  const models::SharingParams base = base_params(profile);
  const auto defaults = sharing_defaults(profile);
  for (const auto constant : {SharingConstant::time_slicing_efficiency, SharingConstant::mps_efficiency,
                              SharingConstant::hami_launch_overhead_frac}) {
    auto points = co_run_points(rows, strategy_of(constant), out.notes);
    attach_bandwidth_sms(points, defaults);
    std::string name;
    const models::SharingParams params = validation_params(profile, constant, base, name);
    for (const auto& p : points) {
      ValidationRow v{p.row, name, false, 0.0, 0.0};
      v.predicted = predict_co_run(p, params);
      v.error = (v.predicted - p.row->value) / p.row->value;
      sum += std::abs(v.error);
      ++out.num_predicted;
      out.rows.push_back(v);
    }
  }
  for (const auto& gpu : mig_gpus(rows)) {
    const auto* sharpness = profile.find("roofline_sharpness", gpu);
    const double p = sharpness ? sharpness->value : std::numeric_limits<double>::infinity();
    const auto points = scaling_points(rows, gpu, gpus, mig);
    std::map<std::string, std::vector<const MigPoint*>> instances;
    for (const auto& point : points) instances[point.instance].push_back(&point);
    for (auto& [instance, members] : instances) {
      std::sort(members.begin(), members.end(),
                [](const MigPoint* a, const MigPoint* b) { return a->compute < b->compute; });
      if (members.size() < 3) {
        std::string note = gpu;
        note.append(" ").append(instance).append(": fewer than 3 MIG profiles; nothing to predict");
        out.notes.push_back(std::move(note));
        continue;
      }
      const FitReport pinned = fit_mig_scaling({*members.front(), *members.back()}, p, true);
      for (std::size_t k = 0; k < members.size(); ++k) {
        const MigPoint& point = *members[k];
        ValidationRow v{point.row, "roofline_sharpness", k == 0 || k + 1 == members.size(), 0.0, 0.0};
        // The scaling fit works in seconds; a rate row (throughput) is shown and scored as a rate.
        v.predicted = in_row_metric(predict_mig(point, pinned.params[0].value, pinned.params[1].value, p), *point.row);
        v.error = (v.predicted - point.row->value) / point.row->value;
        if (!v.baseline) {
          sum += std::abs(v.error);
          ++out.num_predicted;
        }
        out.rows.push_back(v);
      }
    }
  }
  out.mape = out.num_predicted > 0 ? sum / out.num_predicted : 0.0;
  return out;
}

CalibrationProfile sample_profile(const CalibrationProfile& profile, std::uint64_t seed) {
  CalibrationProfile sampled = profile;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (auto& c : sampled.constants) {
    const double z = normal(rng);      // drawn for every constant, so one's draw does not shift another's
    if (c.std_error <= 0.0) continue;  // uncalibrated: kept
    if (!c.fitted) {
      // Left at its no-effect edge with a one-sided bound (edge_std_error): half-normal into the range.
      if (c.name == "mps_efficiency" && c.value == 1.0) c.value = std::max(1e-3, 1.0 - std::abs(z) * c.std_error);
      if (c.name == "mps_interference" && c.value == 0.0) c.value = std::abs(z) * c.std_error;
      continue;
    }
    if (c.value <= 0.0) continue;  // log-normal needs a positive median
    c.value *= std::exp(z * c.std_error / c.value);
    if (c.name == "time_slicing_efficiency" || c.name == "mps_efficiency") c.value = std::min(1.0, c.value);
  }
  return sampled;
}

}  // namespace slicewise::calibration
