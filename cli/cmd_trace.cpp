// `slicewise trace inspect FILE` and `slicewise trace convert FILE --to native`: look at a trace
// before replaying it, and turn any supported format into slicewise's native CSV. `trace fleet`
// (a node list -> a scenario fleet) lives in cmd_trace_fleet.cpp.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "traces/native_trace.hpp"
#include "traces/trace_summary.hpp"

namespace slicewise::cli {

namespace {

std::unique_ptr<traces::TraceReader> open_for(const TraceOptions& options) {
  std::optional<traces::TraceFormat> format;
  if (!options.format.empty()) format = traces::trace_format_from_string(options.format);
  traces::ReadOptions read;
  read.on_bad_row = traces::bad_row_policy_from_string(options.on_bad_row).value_or(traces::BadRowPolicy::fail);
  read.key_column = options.split_column;
  return traces::open_trace(options.file, format, read);
}

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

/// "mean 1.5  p50 1  p90 2  p99 3  max 4", values divided by `scale`.
std::string percentiles(const traces::CountQuantiles& q, double scale = 1.0, int digits = 0) {
  auto v = [&](double x) { return fixed(x / scale, digits); };
  return "mean " + fixed(q.mean() / scale, digits + 1) + "  p50 " + v(static_cast<double>(q.quantile(0.5))) + "  p90 " +
         v(static_cast<double>(q.quantile(0.9))) + "  p99 " + v(static_cast<double>(q.quantile(0.99))) + "  max " +
         v(static_cast<double>(q.max()));
}

void print_summary(const traces::TraceSummary& s, const std::string& split_column, std::ostream& out) {
  out << "file:    " << s.path << "\n";
  out << "format:  " << s.format << "\n";
  out << "rows:    " << s.num_rows << " (bad rows skipped: " << s.num_bad_rows << ")\n";
  const std::int64_t timed = s.num_rows - s.num_without_time;
  if (timed > 0) {
    const double span = s.last_at_s - s.first_at_s;
    if (s.absolute_time) {
      out << "span:    " << traces::format_utc(s.epoch_s + s.first_at_s) << " to "
          << traces::format_utc(s.epoch_s + s.last_at_s) << " UTC (" << fixed(span, 1) << " s)\n";
    } else {
      out << "span:    " << format_number(s.first_at_s) << " s to " << format_number(s.last_at_s)
          << " s on the trace's clock (" << fixed(span, 1) << " s)\n";
    }
    out << "arrivals per minute:  " << percentiles(s.per_minute) << "\n";
    if (span > 0.0) out << "mean arrival rate:    " << fixed(static_cast<double>(timed) / span, 3) << " per s\n";
  }
  if (s.num_without_time > 0) out << "rows without a time:  " << s.num_without_time << " (not replayed)\n";
  if (s.num_out_of_order > 0 && s.must_be_sorted) {
    out << "rows out of order:    " << s.num_out_of_order << " (first at line " << s.first_out_of_order_line
        << "; this format must be in arrival order: replay and convert stop there)\n";
  } else if (s.num_out_of_order > 0) {
    out << "rows out of order:    " << s.num_out_of_order << " (sorted before replay)\n";
  }
  if (s.prompt_tokens.count() > 0) {
    out << "prompt tokens:        " << percentiles(s.prompt_tokens) << "\n";
    out << "output tokens:        " << percentiles(s.output_tokens) << "\n";
  }
  if (s.duration_ms.count() > 0) {
    out << "duration s:           " << percentiles(s.duration_ms, 1000.0, 1) << " (" << s.duration_ms.count()
        << " rows)\n";
  }
  if (s.num_gpus.count() > 0) {
    out << "GPUs per row:         " << percentiles(s.num_gpus) << " (" << s.num_gpus.count() << " rows, "
        << s.total_gpus << " GPUs)\n";
    out << "share of each GPU:    " << percentiles(s.gpu_milli, 1000.0, 2) << "\n";
  }
  if (s.memory_mib.count() > 0) out << "GPU memory GiB:       " << percentiles(s.memory_mib, 1024.0, 1) << "\n";
  if (s.num_failed > 0) out << "failed rows:          " << s.num_failed << " (kept; marked failed by the trace)\n";
  if (s.num_incomplete > 0) out << "incomplete rows:      " << s.num_incomplete << " (a measurement is missing)\n";
  if (!s.rows_per_key.empty()) {
    out << "rows per " << excerpt(split_column) << ":\n";
    for (const auto& [key, n] : s.rows_per_key) {
      out << "  " << excerpt(key) << ": " << n;
      if (s.total_gpus > 0) out << " (" << s.gpus_per_key.at(key) << " GPUs)";
      out << "\n";
    }
  }
  if (!s.bad_rows.empty()) {
    out << "first bad rows:\n";
    for (const auto& m : s.bad_rows) out << "  " << m << "\n";
  }
}

/// Refuses an --out that names the trace itself or a folder, before anything is read.
void check_out(const TraceOptions& options) {
  std::error_code ec;
  if (std::filesystem::equivalent(options.out, options.file, ec)) {
    throw ConfigError("slicewise trace convert", "--out",
                      options.out + " is the trace being converted; write the conversion to another file");
  }
  if (std::filesystem::is_directory(options.out, ec))
    throw TraceError(options.out, 0, "", "cannot write: is a directory");
  const std::filesystem::path out(options.out);
  if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path(), ec)) {
    throw TraceError(options.out, 0, "", "cannot write: no folder " + out.parent_path().string());
  }
}

}  // namespace

CLI::App* setup_trace(CLI::App& app, TraceOptions& options) {
  auto* trace = app.add_subcommand("trace", "Inspect or convert a workload trace; make a fleet of a node list");
  trace->require_subcommand(1);
  const auto& formats = traces::trace_format_names();
  auto common = [&](CLI::App* sub) {
    sub->add_option("file", options.file, "Trace file (.gz and .zst are read transparently)")->required();
    one_of(sub->add_option("--format", options.format, "Trace format"), formats, "detected from the header");
    one_of(sub->add_option("--on-bad-row", options.on_bad_row,
                           "A row that cannot be read: fail stops at the first, skip counts it and goes on"),
           traces::bad_row_policy_names(), "fail");
    sub->add_option("--split-column", options.split_column, "Column whose values to count (e.g. Model, qos)");
  };
  auto* inspect = trace->add_subcommand("inspect", "Rows, time span, arrival rate, token and size percentiles");
  common(inspect);
  inspect->callback([&options] { options.action = "inspect"; });
  auto* convert = trace->add_subcommand("convert", "Convert to slicewise's native CSV (docs/trace-formats.md)");
  common(convert);
  one_of(convert->add_option("--to", options.to, "Target format")->required(), {"native"});
  convert->add_option("--out", options.out, "Output file (default: standard output)");
  convert->callback([&options] { options.action = "convert"; });
  setup_trace_fleet(*trace, options);
  return trace;
}

int run_trace(const TraceOptions& options, Io io) {
  if (options.action == "fleet") return run_trace_fleet(options, io);
  if (options.action == "convert" && !options.out.empty()) check_out(options);
  auto reader = open_for(options);
  if (options.action == "inspect") {
    const auto summary = traces::summarize(*reader);
    print_summary(summary, options.split_column, io.out);
    return 0;
  }
  std::int64_t rows = 0;
  if (options.out.empty()) {
    // Standard output cannot be taken back: a first pass converts into nothing, so that a trace
    // that fails part-way (a row out of order, a bad row) writes no row a pipe would take for the
    // whole trace. The second pass, from a fresh reader, writes.
    std::ostream discard(nullptr);
    traces::write_native(*reader, discard, options.split_column);
    reader = open_for(options);
    rows = traces::write_native(*reader, io.out, options.split_column);
  } else {
    // Written to a unique temporary file beside the target and renamed over it at the end: a failed
    // conversion leaves the previous file as it was.
    AtomicOutput target(options.out);
    target.close_for_library();
    {
      std::ofstream file(target.temporary(), std::ios::binary | std::ios::trunc);
      if (!file) target.fail(std::strerror(errno));
      rows = traces::write_native(*reader, file, options.split_column);
      file.close();  // flushes; a failed write or close leaves the stream failed
      if (!file) target.fail(std::strerror(errno));
    }
    target.commit();
    io.err << options.out << ": " << rows << " rows in native format\n";
  }
  if (reader->num_bad_rows() > 0) io.err << "skipped " << reader->num_bad_rows() << " bad rows\n";
  return 0;
}

}  // namespace slicewise::cli
