// One sweep point run in its own child process (SimGrid allows one engine per process): simulate,
// price, write the point file, exit.
#include "cli/sweep_point_child.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration/sharing_defaults.hpp"
#include "cli/child_pool.hpp"
#include "cli/simulate_run.hpp"
#include "cli/sweep_folder.hpp"
#include "core/json_file.hpp"
#include "report/roi_report.hpp"
#include "scenario/result_json.hpp"  // IWYU pragma: keep (to_json(SimResult), found by ADL)

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// An ostream that writes straight to a file descriptor (a child's progress pipe).
class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd) : fd_(fd) {}

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = static_cast<char>(c);
    return write_all(&ch, 1) ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return write_all(s, static_cast<std::size_t>(n)) ? n : 0;
  }

 private:
  bool write_all(const char* s, std::size_t n) {
    while (n > 0) {
      const auto written = ::write(fd_, s, n);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) return false;
      s += written;
      n -= static_cast<std::size_t>(written);
    }
    return true;
  }
  int fd_;
};

/// Simulates `point`, prices it and writes its point file; exits 1 at once when a strategy failed
/// (its message is already on stderr).
void write_point(const scenario::Sweep& sweep, const scenario::SweepPoint& point,
                 const calibration::CalibrationProfile& profile, const std::string& fingerprint, const fs::path& folder,
                 int progress_fd) {
  const auto scenario = scenario::point_scenario(sweep, point);
  FdStreambuf buffer(progress_fd);
  std::ostream progress(&buffer);
  std::ostringstream ignored;
  SimulateOptions options;
  options.progress = ProgressMode::json;
  std::vector<std::size_t> all(scenario.strategies.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  auto result =
      simulate_strategies(scenario, all, calibration::sharing_defaults(profile), options, Io{ignored, progress});
  if (!result) ::_exit(1);
  result->calibration = record_of(profile);
  const auto roi = report::priced_roi_report(*result, scenario);
  report::SweepPointRecord record = point_record(point);
  record.strategies = roi.strategies;
  record.tenants = roi.tenants;
  json document = {{"schema_version", 1},
                   {"fingerprint", fingerprint},
                   {"point", report::point_json(record)},
                   {"result", json(*result)}};
  write_file_atomically(point_file(folder, point.id), document.dump(1) + "\n");
}

}  // namespace

report::SweepPointRecord point_record(const scenario::SweepPoint& point) {
  report::SweepPointRecord record;
  record.id = point.id;
  record.index = point.index;
  for (const auto& value : point.values) {
    record.values.push_back(value);
    record.labels.push_back(scenario::value_label(value));
  }
  return record;
}

void run_point_child(const scenario::Sweep& sweep, const scenario::SweepPoint& point,
                     const calibration::CalibrationProfile& profile, const std::string& fingerprint,
                     const fs::path& folder, int progress_fd) {
  int code = 0;
  try {
    write_point(sweep, point, profile, fingerprint, folder, progress_fd);
  } catch (const Interrupted& e) {  // its strategies' processes are gone; die of the signal as a killed point
    std::signal(e.signal_number(), SIG_DFL);
    ::raise(e.signal_number());
    code = 128 + e.signal_number();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    code = 1;
  }
  std::fflush(stderr);
  ::_exit(code);
}

}  // namespace slicewise::cli
