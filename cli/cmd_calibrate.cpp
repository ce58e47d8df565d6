// `slicewise calibrate DATA... --out profile.json [--cv]` fits the model constants to measurements;
// `slicewise validate-model DATA [--calibration profile.json]` shows predicted against measured.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <CLI/CLI.hpp>

#include "calibration/calibrate.hpp"
#include "calibration/measurement.hpp"
#include "cli/commands.hpp"
#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

namespace {

using report::Align;

/// Every file's measurements, in order; a file given twice is refused (its rows would count twice
/// and shrink the standard errors).
std::vector<calibration::Measurement> load_all(const char* command, const std::vector<std::string>& files,
                                               std::vector<std::string>& notes) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (files[i] == files[j] || std::filesystem::equivalent(files[i], files[j], ec)) {
        throw ConfigError(command, files[i],
                          "given twice (as argument " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                              "); each measurement file may be given once");
      }
    }
  }
  std::vector<calibration::Measurement> rows;
  for (const auto& file : files) {
    auto part =
        calibration::load_measurements(file, models::GpuCatalog::shipped(), models::MigCatalog::shipped(), &notes);
    rows.insert(rows.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
  return rows;
}

std::string today_utc() {
  const std::chrono::year_month_day day{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(day.year()), static_cast<unsigned>(day.month()),
                static_cast<unsigned>(day.day()));
  return text;
}

/// Refuses a profile --out that is one of the measurement files, a folder, or in a missing folder,
/// before anything is fitted.
void check_out(const std::string& out, const std::vector<std::string>& files) {
  constexpr const char* kCommand = "slicewise calibrate";
  std::error_code ec;
  for (const auto& file : files) {
    if (std::filesystem::equivalent(out, file, ec)) {
      throw ConfigError(kCommand, "--out",
                        out + " is a measurement file being read; write the profile to another file");
    }
  }
  const std::filesystem::path path(out);
  if (std::filesystem::is_directory(path, ec)) {
    throw ConfigError(kCommand, "--out", out + " is a directory; expected a file to write the profile to");
  }
  if (path.has_parent_path() && !std::filesystem::is_directory(path.parent_path(), ec)) {
    throw ConfigError(kCommand, "--out", "no folder " + path.parent_path().string() + " to write " + out + " in");
  }
  check_writable_output(path);  // a read-only folder, found before the fit and not after it
}

/// "the 1 measurement", "the 4 measurements".
std::string measurements(std::size_t n) {
  return "the " + std::to_string(n) + (n == 1 ? " measurement" : " measurements");
}

std::string pct(double frac) { return report::format_fixed(100.0 * frac, 1); }

std::string value_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

/// The predicted rows' error by strategy and workload, in first-seen order: which workloads the
/// model misses. Empty when they are all one group (the MAPE line says it) or one row each (the
/// table above says it).
std::string error_by_workload(const calibration::ModelValidation& result) {
  struct Group {
    std::string strategy, workload;
    int rows = 0;
    double error = 0.0;
  };
  std::vector<Group> groups;
  for (const auto& v : result.rows) {
    if (v.baseline) continue;
    const std::string strategy = models::to_string(v.row->strategy);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.strategy == strategy && g.workload == v.row->workload; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{strategy, v.row->workload});
    ++it->rows;
    it->error += std::abs(v.error);
  }
  if (groups.size() < 2 || static_cast<int>(groups.size()) == result.num_predicted) return "";
  report::TextTable table({{"strategy"}, {"workload"}, {"rows", Align::right}, {"MAPE %", Align::right}});
  for (const auto& g : groups) table.add_row({g.strategy, g.workload, std::to_string(g.rows), pct(g.error / g.rows)});
  return "\nby strategy and workload:\n\n" + table.to_text();
}

}  // namespace

CLI::App* setup_calibrate(CLI::App& app, CalibrateOptions& options) {
  auto* sub =
      app.add_subcommand("calibrate", "Fit the model constants to measurements and write a calibration profile");
  sub->add_option("data", options.files, "Measurement files (docs/measurement-format.md)")->required();
  sub->add_option("--out", options.out, "Profile JSON to write")->required();
  sub->add_option("--id", options.id, "Profile id (default calibrated-<date>)");
  sub->add_option("--date", options.created, "Date written into the profile, YYYY-MM-DD (default today, UTC)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return calibration::is_iso_date(text) ? std::string() : "expected a date YYYY-MM-DD (got \"" + text + "\")";
          },
          "YYYY-MM-DD"));
  sub->add_flag("--cv", options.cross_validate, "Leave-one-workload-out cross-validation of every fitted constant");
  return sub;
}

namespace {
/// The cross-validation tables (per constant, per held-out workload), when --cv ran.
std::string cross_validation_text(const calibration::CalibrationOutcome& outcome) {
  std::ostringstream out;
  if (!outcome.profile.validation.empty()) {
    report::TextTable cv({{"constant"},
                          {"gpu"},
                          {"predicted", Align::right},
                          {"CV MAPE %", Align::right},
                          {"uncalibrated %", Align::right},
                          {"naive %", Align::right}});
    for (const auto& v : outcome.profile.validation) {
      // Nothing predicted has no error: "-", and the reason below, not a 0.0 % that reads as perfect.
      const bool none = v.num_predicted == 0;
      cv.add_row({v.constant, v.gpu, std::to_string(v.num_predicted), none ? "-" : pct(v.mape),
                  none ? "-" : pct(v.mape_uncalibrated), none ? "-" : pct(v.mape_naive)});
    }
    out << "\nleave-one-workload-out cross-validation\n" << cv.to_text();
    for (const auto& v : outcome.profile.validation) {
      if (v.num_predicted == 0) {
        out << v.constant << " (" << v.gpu << "): cross-validation predicted nothing: " << v.not_predicted << "\n";
      }
    }
  }
  if (!outcome.folds.empty()) {
    // Per held-out workload: the constant fitted on the other workloads' rows, and the error on this
    // one's rows next to the model without the constant (its uncalibrated default).
    report::TextTable folds({{"constant"},
                             {"held-out workload"},
                             {"predicted", Align::right},
                             {"fitted without it", Align::right},
                             {"CV MAPE %", Align::right},
                             {"uncalibrated %", Align::right},
                             {"naive %", Align::right}});
    for (const auto& f : outcome.folds) {
      folds.add_row({f.constant, f.workload, std::to_string(f.num_predicted), f.fitted, pct(f.mape),
                     pct(f.mape_uncalibrated), pct(f.mape_naive)});
    }
    out << "\nper held-out workload\n" << folds.to_text();
  }
  return out.str();
}

/// The fitted constants, each fit's message, and the cross-validation tables when there are any.
std::string constants_text(const calibration::CalibrationOutcome& outcome) {
  report::TextTable table({{"constant"},
                           {"gpu"},
                           {"value", Align::right},
                           {"± std err", Align::right},
                           {"points", Align::right},
                           {"MAPE %", Align::right},
                           {"R²", Align::right},
                           {"source"}});
  for (const auto& c : outcome.profile.constants) {
    // A constant left at its edge has a one-sided std_error and the rows it was tried on.
    const bool edge = !c.fitted && c.std_error > 0.0;
    table.add_row({c.name, c.gpu, value_text(c.value),
                   c.fitted ? value_text(c.std_error)
                   : edge   ? value_text(c.std_error) + " (one-sided)"
                            : "-",
                   c.fitted || edge ? std::to_string(c.num_points) : "-", c.fitted || edge ? pct(c.mape) : "-",
                   c.fitted ? report::format_fixed(c.r2, 3) : "-",
                   c.fitted ? c.sources.front()
                   : edge   ? "at its edge on these rows"
                            : "uncalibrated default"});
  }
  std::ostringstream out;
  out << table.to_text();
  for (const auto& fit : outcome.fits) out << fit.constant << " (" << fit.gpu << "): " << fit.report.message << "\n";
  out << cross_validation_text(outcome);
  return out.str();
}
}  // namespace

int run_calibrate(const CalibrateOptions& options, Io io) {
  check_out(options.out, options.files);
  std::vector<std::string> read_notes;
  const auto rows = load_all("slicewise calibrate", options.files, read_notes);
  calibration::CalibrateOptions fit_options;
  fit_options.id = options.id;
  fit_options.created = options.created.empty() ? today_utc() : options.created;
  fit_options.cross_validate = options.cross_validate;
  std::vector<std::string> names;
  for (const auto& file : options.files) names.push_back(std::filesystem::path(file).filename().string());
  auto outcome =
      calibration::calibrate(rows, names, fit_options, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  outcome.notes.insert(outcome.notes.begin(), read_notes.begin(), read_notes.end());
  if (outcome.fits.empty()) {
    for (const auto& note : outcome.notes) io.err << "note: " << note << "\n";
    throw CalibrationError("slicewise calibrate: nothing to fit: no constant can be fitted from " +
                           measurements(rows.size()) +
                           "; a profile needs dedicated baselines plus time_slicing, mps or hami rows "
                           "of the same workload, or mig rows of one context on at least 3 profiles per workload "
                           "(docs/calibration.md); no profile written");
  }

  io.out << outcome.profile.id << ": " << rows.size() << " measurements from " << options.files.size() << " file(s)\n\n"
         << constants_text(outcome);
  io.out.flush();
  for (const auto& note : outcome.notes) io.err << "note: " << note << "\n";
  write_file_atomically(options.out, outcome.profile.to_json().dump(1) + "\n");
  io.out << "profile written to " << options.out << "\n";
  return 0;
}

CLI::App* setup_validate_model(CLI::App& app, ValidateModelOptions& options) {
  auto* sub = app.add_subcommand("validate-model", "Compare a calibration profile's predictions with measurements");
  sub->add_option("data", options.files, "Measurement files (docs/measurement-format.md)")->required();
  sub->add_option("--calibration", options.calibration, "Calibration profile JSON (default: the shipped one)");
  sub->add_flag("--all", options.all_rows, "Also list the rows used as inputs (baselines, MIG pinning points)");
  return sub;
}

int run_validate_model(const ValidateModelOptions& options, Io io) {
  std::vector<std::string> read_notes;
  const auto rows = load_all("slicewise validate-model", options.files, read_notes);
  const auto profile = calibration::CalibrationProfile::load_or_shipped(options.calibration);
  auto result =
      calibration::validate_model(rows, profile, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  result.notes.insert(result.notes.begin(), read_notes.begin(), read_notes.end());
  if (result.num_predicted == 0) {
    for (const auto& note : result.notes) io.err << "note: " << note << "\n";
    throw CalibrationError("slicewise validate-model: nothing to predict in " + measurements(rows.size()) +
                           ": no time_slicing, mps or hami row with its dedicated baseline, and no "
                           "workload with mig rows on at least 3 profiles (docs/calibration.md)");
  }
  report::TextTable table({{"row"},
                           {"gpu"},
                           {"strategy"},
                           {"n", Align::right},
                           {"workload"},
                           {"metric"},
                           {"measured", Align::right},
                           {"predicted", Align::right},
                           {"error %", Align::right}});
  for (const auto& v : result.rows) {
    if (v.baseline && !options.all_rows) continue;
    const auto& m = *v.row;
    const std::string where = std::filesystem::path(m.file).filename().string() + ":" + std::to_string(m.line);
    const std::string strategy = models::to_string(m.strategy) + (m.mig_profile.empty() ? "" : " " + m.mig_profile);
    table.add_row({where, m.gpu, strategy, std::to_string(m.n_contexts), m.workload_key(), to_string(m.metric),
                   value_text(m.value), value_text(v.predicted),
                   v.baseline ? "input" : report::format_fixed(100.0 * v.error, 1)});
  }
  io.out << "profile " << profile.id << " against " << rows.size() << " measurements\n\n" << table.to_text();
  io.out << "\n"
         << result.num_predicted << " rows predicted, MAPE " << pct(result.mape) << " %\n"
         << error_by_workload(result);
  io.out.flush();
  for (const auto& note : result.notes) io.err << "note: " << note << "\n";
  return 0;
}

}  // namespace slicewise::cli
