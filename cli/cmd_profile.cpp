// `slicewise profile import FILE --format dcgm-prometheus|dcgmi-dmon|pai-sensor [--out tenants.json]`:
// scenario tenants from GPU telemetry one already has (docs/telemetry.md). The reading is
// traces/telemetry_readers.hpp's, the estimators calibration/tenant_profile.hpp's; this file checks
// the options, prints the table and writes the JSON.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include <CLI/CLI.hpp>

#include "calibration/tenant_profile.hpp"
#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "report/text_table.hpp"
#include "traces/telemetry_readers.hpp"

namespace slicewise::cli {

namespace {

constexpr const char* kCommand = "slicewise profile import";

/// The grouping asked for, or the format's default; one the format cannot tell apart is refused.
traces::TelemetryGrouping grouping_of(const ProfileOptions& options, traces::TelemetryFormat format) {
  const auto& allowed = traces::groupings_of(format);
  if (options.group_by.empty()) return allowed.front();
  const auto grouping = traces::telemetry_grouping_from_string(options.group_by);
  if (!grouping || std::find(allowed.begin(), allowed.end(), *grouping) == allowed.end()) {
    std::vector<std::string> names;
    names.reserve(allowed.size());
    for (const auto g : allowed) names.emplace_back(traces::to_string(g));
    throw ConfigError(kCommand, "--group-by",
                      quoted_excerpt(options.group_by) + " does not apply to --format " + options.format +
                          "; expected " + join(names, "|"));
  }
  return *grouping;
}

/// The catalog id --reference-gpu names (an alias gives its id); "" when not given.
std::string reference_gpu_of(const ProfileOptions& options) {
  if (options.reference_gpu.empty()) return "";
  const auto& gpus = models::GpuCatalog::shipped();
  const auto* spec = gpus.find(options.reference_gpu);
  if (spec == nullptr) {
    throw ConfigError(kCommand, "--reference-gpu",
                      "unknown GPU " + quoted_excerpt(options.reference_gpu) +
                          gpus.did_you_mean_suffix(options.reference_gpu) + "; see `slicewise gpus`");
  }
  return spec->id;
}

/// --busy-above as a fraction below 1 (at 1 no sample could be busy).
double busy_above_of(const ProfileOptions& options) {
  if (options.busy_above < 0.0 || options.busy_above >= 1.0) {
    throw ConfigError(kCommand, "--busy-above", "must be in [0, 1) (got " + format_number(options.busy_above) + ")");
  }
  return options.busy_above;
}

/// Refuses an --out that names the telemetry file or a folder, or lies in a missing folder, before
/// anything is read.
void check_out(const ProfileOptions& options) {
  if (options.out.empty()) return;
  std::error_code ec;
  if (std::filesystem::equivalent(options.out, options.file, ec)) {
    throw ConfigError(kCommand, "--out",
                      options.out + " is the telemetry being read; write the tenants to another file");
  }
  const std::filesystem::path out(options.out);
  if (std::filesystem::is_directory(out, ec)) {
    throw ConfigError(kCommand, "--out", options.out + " is a directory; expected a file to write the tenants to");
  }
  if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path(), ec)) {
    throw ConfigError(kCommand, "--out",
                      "no folder " + out.parent_path().string() + " to write " + options.out + " in");
  }
}

/// "1 sample", "4 samples".
std::string counted(std::int64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// "0.700 ± 0.100", or "-" when the figure was left out.
std::string figure(const std::optional<double>& value, const std::optional<calibration::Spread>& spread) {
  if (!value || !spread) return "-";
  return report::format_fixed(*value, 3) + " ± " + report::format_fixed(spread->std_dev, 3);
}

/// The first line: what was read.
std::string headline(const traces::TelemetryData& data) {
  std::string line = data.path + ": " + std::string(traces::to_string(data.format)) + ", " +
                     counted(data.num_samples, "sample") + " of " +
                     counted(static_cast<std::int64_t>(data.workloads.size()), "workload") + " by " +
                     std::string(traces::to_string(data.group_by));
  if (data.time_span_s) {
    line += " over " + report::format_fixed(*data.time_span_s, 1) + " s";
  } else if (data.format == traces::TelemetryFormat::dcgm_prometheus) {
    line += " (no timestamps)";
  }
  if (data.num_incomplete > 0) line += "; " + counted(data.num_incomplete, "incomplete row") + " left out";
  return line + "\n";
}

/// The table of tenants, the notes and the workloads skipped.
std::string tenants_text(const calibration::TenantProfiles& profiles) {
  using report::Align;
  report::TextTable table({{"tenant"},
                           {"samples", Align::right},
                           {"busy", Align::right},
                           {"gpu_duty_frac", Align::right},
                           {"sm_occupancy_frac", Align::right},
                           {"mem_bw_frac", Align::right},
                           {"memory_gib", Align::right},
                           {"reference_gpu"}});
  for (const auto& t : profiles.tenants) {
    table.add_row({excerpt(t.name), std::to_string(t.num_samples), std::to_string(t.num_busy),
                   figure(t.gpu_duty_frac, t.duty), figure(t.sm_occupancy_frac, t.sm),
                   figure(t.mem_bw_frac, t.bandwidth), t.memory_gib ? report::format_fixed(*t.memory_gib, 3) : "-",
                   t.reference_gpu.empty() ? "-" : t.reference_gpu});
  }
  std::ostringstream out;
  out << table.to_text()
      << "± is the standard deviation over the busy samples (SM and bandwidth weighted by engine activity); "
         "memory_gib is the largest sample\n";
  for (const auto& t : profiles.tenants) {
    for (const auto& note : t.notes) out << "note: " << excerpt(t.name) << ": " << note << "\n";
  }
  for (const auto& s : profiles.skipped) {
    out << "skipped " << excerpt(s.name) << " (" << counted(s.num_samples, "sample") << "): " << s.reason << "\n";
  }
  return out.str();
}

}  // namespace

CLI::App* setup_profile(CLI::App& app, ProfileOptions& options) {
  auto* profile = app.add_subcommand("profile", "Scenario tenants from GPU telemetry one already has");
  profile->require_subcommand(1);
  auto* sub = profile->add_subcommand(
      "import", "Estimate gpu_duty_frac, sm_occupancy_frac, mem_bw_frac and memory_gib of each workload");
  sub->add_option("file", options.file, "Telemetry file (.gz and .zst are read transparently)")->required();
  one_of(sub->add_option("--format", options.format, "Telemetry format (docs/telemetry.md)")->required(),
         traces::telemetry_format_names());
  sub->add_option("--out", options.out, "Write the tenants JSON here (default: only the table)");
  one_of(sub->add_option("--group-by", options.group_by, "What one workload is"),
         {"container", "pod", "namespace", "gpu", "task", "job"},
         "container for dcgm-prometheus, gpu for dcgmi-dmon, task for pai-sensor");
  sub->add_option("--name", options.name, "One tenant of every sample, of this name");
  sub->add_option("--reference-gpu", options.reference_gpu,
                  "Catalog GPU id of every tenant (default: the file's GPU model, when the catalog has it)");
  sub->add_option("--busy-above", options.busy_above,
                  "A sample is busy when its GR_ENGINE_ACTIVE is above this fraction (default: 0)");
  one_of(sub->add_option("--on-bad-row", options.on_bad_row,
                         "A line that cannot be read: fail stops at the first, skip counts it and goes on"),
         traces::bad_row_policy_names(), "fail");
  return profile;
}

int run_profile(const ProfileOptions& options, Io io) {
  const auto format = traces::telemetry_format_from_string(options.format).value();
  traces::TelemetryOptions read;
  read.on_bad_row = traces::bad_row_policy_from_string(options.on_bad_row).value_or(traces::BadRowPolicy::fail);
  read.group_by = grouping_of(options, format);
  read.name = options.name;
  calibration::EstimateOptions estimate;
  estimate.busy_above = busy_above_of(options);
  estimate.reference_gpu = reference_gpu_of(options);
  check_out(options);

  const auto data = traces::read_telemetry(options.file, format, read);
  const auto profiles = calibration::estimate_tenants(data, estimate, models::GpuCatalog::shipped());
  if (data.num_bad_rows > 0) {
    io.err << "skipped " << counted(data.num_bad_rows, "bad line") << "; the first:\n";
    for (const auto& message : data.bad_rows) io.err << "  " << message << "\n";
  }
  if (profiles.tenants.empty()) {
    throw TraceError(options.file, 0, "",
                     "no tenant: no workload was ever busy (" + std::to_string(profiles.skipped.size()) +
                         " skipped; the first: " + excerpt(profiles.skipped.front().name) + ": " +
                         profiles.skipped.front().reason + ")");
  }
  io.out << headline(data) << "\n" << tenants_text(profiles);
  if (!options.out.empty()) {
    write_file_atomically(
        options.out,
        calibration::to_json(data, profiles).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
            "\n");
    io.out << "tenants written to " << options.out << "\n";
  }
  return 0;
}

}  // namespace slicewise::cli
