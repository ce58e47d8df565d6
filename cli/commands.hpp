// One options struct, setup_ and run_ per subcommand (CLI11's subcom_in_files pattern).
// setup_x registers the subcommand and binds its flags to the options; run_x does the work and
// returns the exit code, throwing slicewise::Error subclasses for bad input.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace slicewise::cli {

/// Where a command writes.
struct Io {
  std::ostream& out;
  std::ostream& err;
};

struct ValidateOptions {
  std::vector<std::string> files;
};
CLI::App* setup_validate(CLI::App& app, ValidateOptions& options);
int run_validate(const ValidateOptions& options, Io io);

struct GpusOptions {
  bool json = false;
};
CLI::App* setup_gpus(CLI::App& app, GpusOptions& options);
int run_gpus(const GpusOptions& options, Io io);

struct ModelsOptions {
  bool json = false;
};
CLI::App* setup_models(CLI::App& app, ModelsOptions& options);
int run_models(const ModelsOptions& options, Io io);

struct StrategiesOptions {
  std::string kind;  ///< "" = every kind
  bool markdown = false;
  bool example = false;
};
CLI::App* setup_strategies(CLI::App& app, StrategiesOptions& options);
int run_strategies(const StrategiesOptions& options, Io io);

struct MigOptions {
  std::string gpu;
  std::string layout;
  bool enumerate = false;
  bool include_media_extensions = false;
};
CLI::App* setup_mig(CLI::App& app, MigOptions& options);
int run_mig(const MigOptions& options, Io io);

struct PricesOptions {
  std::string gpu;
  std::string cloud;
  std::string region;
  std::string file;  ///< --file: list this table file instead of the shipped tables
  bool json = false;
  // `prices import`
  bool importing = false;
  std::vector<std::string> import_files;
  std::string import_format;
  std::string import_out;
  std::string import_name;
  std::string import_retrieved;  ///< --retrieved: the day the provider files were fetched (YYYY-MM-DD)
};
CLI::App* setup_prices(CLI::App& app, PricesOptions& options);
int run_prices(const PricesOptions& options, Io io);
void setup_prices_import(CLI::App& prices, PricesOptions& options);
int run_prices_import(const PricesOptions& options, Io io);

enum class ProgressMode { automatic, bar, json, none };
/// --progress on `sub`: bar, json or none (any case), written plainly in --help; left `automatic`
/// (a bar on a terminal, else none) when not given. For every long command.
CLI::Option* add_progress_option(CLI::App& sub, ProgressMode& mode, const std::string& description);

struct CalibrateOptions {
  std::vector<std::string> files;
  std::string out;      ///< profile JSON to write
  std::string id;       ///< profile id; empty = calibrated-<date>
  std::string created;  ///< date written into the profile; empty = today (UTC)
  bool cross_validate = false;
};
CLI::App* setup_calibrate(CLI::App& app, CalibrateOptions& options);
int run_calibrate(const CalibrateOptions& options, Io io);

struct ValidateModelOptions {
  std::vector<std::string> files;
  std::string calibration;  ///< profile JSON; empty = the shipped default
  bool all_rows = false;    ///< also print the baseline rows
};
CLI::App* setup_validate_model(CLI::App& app, ValidateModelOptions& options);
int run_validate_model(const ValidateModelOptions& options, Io io);

struct SimulateOptions {
  std::string file;
  std::vector<std::string> strategies;  ///< names to run; empty = all
  std::string out;                      ///< result JSON path; empty = none
  ProgressMode progress = ProgressMode::automatic;
  int jobs = 1;             ///< strategies simulated at once (one process each)
  std::string calibration;  ///< calibration profile JSON; empty = the shipped default
  int uncertainty = 0;      ///< samples of the fitted constants (0 = none)
};
CLI::App* setup_simulate(CLI::App& app, SimulateOptions& options);
int run_simulate(const SimulateOptions& options, Io io);

struct AdviseOptions {
  std::string file;
  std::string out;                      ///< folder for the advice files
  std::vector<std::string> strategies;  ///< strategy kinds; empty = all
  std::vector<std::string> gpus;        ///< GPU ids; empty = every GPU the price table sells
  std::vector<std::string> options;     ///< purchase options; empty = the scenario's
  int max_gpus = 16;
  int jobs = 1;
  std::string calibration;
  ProgressMode progress = ProgressMode::automatic;
  bool no_prune = false;  ///< size every candidate (the whole Pareto front)
};
CLI::App* setup_advise(CLI::App& app, AdviseOptions& options);
int run_advise(const AdviseOptions& options, Io io);

struct ExportConfigOptions {
  std::string input;     ///< an advise folder or a result JSON
  std::string strategy;  ///< empty = the advice's answer / the result's only shared strategy
  std::string out;
  std::string namespace_name = "gpu-operator";
};
CLI::App* setup_export_config(CLI::App& app, ExportConfigOptions& options);
int run_export_config(const ExportConfigOptions& options, Io io);

struct RoiOptions {
  std::string result;
  std::string pricing;  ///< table name or file; empty = the scenario's
  std::string region;   ///< region; empty = the scenario's (none when pricing is given)
  std::string option;   ///< purchase option; empty = the scenario's
  std::string onprem;   ///< on-prem table ("onprem" = shipped, or a file); empty = none
  /// The chargeback model in use: reservation | usage.
  std::string chargeback = "reservation";
  bool json = false;
};
CLI::App* setup_roi(CLI::App& app, RoiOptions& options);
int run_roi(const RoiOptions& options, Io io);
/// `--chargeback reservation|usage` (default reservation), shared by `roi` and `report`.
void add_chargeback_option(CLI::App& sub, std::string& chargeback);

struct TraceOptions {
  std::string action;  ///< "inspect", "convert" or "fleet"
  std::string file;
  std::string format;  ///< empty = detect
  std::string on_bad_row = "fail";
  std::string split_column;       ///< inspect: rows per value; convert: written as a last column
  std::string to;                 ///< convert: target format (native)
  std::string out;                ///< convert, fleet: output file; empty = standard output
  std::vector<std::string> maps;  ///< fleet: MODEL=GPU_ID, the catalog GPU of a trace model
  bool skip_unmapped = false;     ///< fleet: leave out models with no GPU instead of failing
};

CLI::App* setup_trace(CLI::App& app, TraceOptions& options);
int run_trace(const TraceOptions& options, Io io);
void setup_trace_fleet(CLI::App& trace, TraceOptions& options);
int run_trace_fleet(const TraceOptions& options, Io io);

struct SweepOptions {
  std::string file;
  std::string out;       ///< the sweep folder
  int jobs = 1;          ///< points run at once, one process each
  std::string shard;     ///< "K/N": run the points whose index % N == K - 1
  int shards = 0;        ///< N, with shard_index or emit; 0 = not given
  int shard_index = -1;  ///< 0-based I (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX); -1 = not given
  std::string emit;      ///< "slurm" | "k8s": write the job files to `out` instead of running
  std::string image;     ///< emit k8s: the container image (needed there)
  bool resume = false;   ///< continue a sweep folder, skipping the points already done
  ProgressMode progress = ProgressMode::automatic;
  std::vector<std::string> fail_if;  ///< gates: exit 3 when one trips
};
CLI::App* setup_sweep(CLI::App& app, SweepOptions& options);
int run_sweep(const SweepOptions& options, Io io);

struct MergeOptions {
  std::vector<std::string> folders;
  std::string out;
  std::vector<std::string> fail_if;
};
CLI::App* setup_merge(CLI::App& app, MergeOptions& options);
int run_merge(const MergeOptions& options, Io io);

struct ReportOptions {
  std::string input;   ///< a result JSON or a sweep folder
  std::string format;  ///< md | html | pdf | xlsx; empty = from the extension of out
  std::string out;
  std::string point;  ///< sweep folder: the point to detail; empty = the first
  /// The chargeback model in use: reservation | usage.
  std::string chargeback = "reservation";
};
CLI::App* setup_report(CLI::App& app, ReportOptions& options);
int run_report(const ReportOptions& options, Io io);

/// `profile import`: scenario tenants from GPU telemetry (docs/telemetry.md).
struct ProfileOptions {
  std::string file;
  std::string format;         ///< dcgm-prometheus | dcgmi-dmon | pai-sensor
  std::string out;            ///< tenants JSON; empty = only the table
  std::string group_by;       ///< empty = the format's default
  std::string name;           ///< non-empty: one tenant of every sample, of this name
  std::string reference_gpu;  ///< catalog GPU of every tenant; empty = from the file's GPU model
  double busy_above = 0.0;    ///< a sample is busy when its GR_ENGINE_ACTIVE is above this
  std::string on_bad_row = "fail";
};
CLI::App* setup_profile(CLI::App& app, ProfileOptions& options);
int run_profile(const ProfileOptions& options, Io io);

}  // namespace slicewise::cli
