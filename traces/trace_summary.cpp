// One pass over a trace for `slicewise trace inspect`.
#include "traces/trace_summary.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace slicewise::traces {

void CountQuantiles::add(std::int64_t value, std::int64_t times) {
  counts_[value] += times;
  count_ += times;
  sum_ += static_cast<double>(value) * static_cast<double>(times);
}

std::int64_t CountQuantiles::quantile(double q) const {
  if (count_ == 0) return 0;
  const auto rank = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(q * static_cast<double>(count_))));
  std::int64_t seen = 0;
  for (const auto& [value, n] : counts_) {
    seen += n;
    if (seen >= rank) return value;
  }
  return counts_.rbegin()->first;
}

namespace {

/// A row's tokens, duration, GPUs, memory and key, into the summary's distributions and counts.
void add_row_figures(TraceSummary& s, const TraceRow& row) {
  if (row.prompt_tokens > 0.0 || row.output_tokens > 0.0) {
    s.prompt_tokens.add(std::llround(row.prompt_tokens));
    s.output_tokens.add(std::llround(row.output_tokens));
  }
  if (row.duration_s >= 0.0) s.duration_ms.add(std::llround(row.duration_s * 1000.0));
  if (row.num_gpus > 0) {
    s.num_gpus.add(row.num_gpus);
    s.gpu_milli.add(std::llround(row.gpu_frac * 1000.0));
    s.total_gpus += row.num_gpus;
  }
  if (row.memory_gib > 0.0) s.memory_mib.add(std::llround(row.memory_gib * 1024.0));
  if (!row.key.empty()) {
    ++s.rows_per_key[row.key];
    s.gpus_per_key[row.key] += row.num_gpus;
  }
}

/// Arrivals per minute over the whole span: every minute counts, the quiet ones as 0.
void add_per_minute(TraceSummary& s, const std::map<std::int64_t, std::int64_t>& minutes) {
  if (minutes.empty()) return;
  const std::int64_t from = minutes.begin()->first;
  const std::int64_t to = minutes.rbegin()->first;
  std::int64_t busy = 0;
  for (const auto& [minute, n] : minutes) {
    s.per_minute.add(n);
    ++busy;
  }
  s.per_minute.add(0, (to - from + 1) - busy);
}

}  // namespace

TraceSummary summarize(TraceReader& reader) {
  TraceSummary s;
  s.path = reader.path();
  s.format = std::string(to_string(reader.format()));
  s.absolute_time = reader.absolute_time();
  s.must_be_sorted = formats_sorted(reader.format());
  std::map<std::int64_t, std::int64_t> minutes;  // minute since the first row -> arrivals
  bool first = true;
  double previous = 0.0;
  TraceRow row;
  while (reader.next(row)) {
    if (row.failed) ++s.num_failed;
    if (!row.complete) ++s.num_incomplete;
    if (row.has_time) {
      if (first) {
        s.first_at_s = row.at_s;
        s.last_at_s = row.at_s;
        first = false;
      } else if (row.at_s < previous) {
        if (s.num_out_of_order == 0) s.first_out_of_order_line = row.line;
        ++s.num_out_of_order;
      }
      previous = row.at_s;
      s.first_at_s = std::min(s.first_at_s, row.at_s);
      s.last_at_s = std::max(s.last_at_s, row.at_s);
      ++minutes[static_cast<std::int64_t>(std::floor(row.at_s / 60.0))];
    } else {
      ++s.num_without_time;
    }
    add_row_figures(s, row);
  }
  s.epoch_s = reader.epoch_s();
  s.num_rows = reader.num_rows();
  s.num_bad_rows = reader.num_bad_rows();
  s.bad_rows = reader.bad_rows();
  add_per_minute(s, minutes);
  return s;
}

std::string format_utc(double seconds_since_epoch) {
  const auto ms = static_cast<std::int64_t>(std::llround(seconds_since_epoch * 1000.0));
  const std::int64_t days = ms >= 0 ? ms / 86'400'000 : -((-ms + 86'399'999) / 86'400'000);
  const std::int64_t in_day = ms - days * 86'400'000;
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u %02lld:%02lld:%02lld.%03lld", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<long long>(in_day / 3'600'000), static_cast<long long>(in_day / 60'000 % 60),
                static_cast<long long>(in_day / 1000 % 60), static_cast<long long>(in_day % 1000));
  return buffer;
}

}  // namespace slicewise::traces
