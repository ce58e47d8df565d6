// TraceSource: trace rows -> a tenant's arrivals.
#include "traces/trace_source.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/error.hpp"

namespace slicewise::traces {

namespace {

/// Whether the mapping keeps rows with this key (its `select` lists it, or is empty).
bool selected(const TraceMapping& mapping, const std::string& key) {
  return mapping.select.empty() || std::find(mapping.select.begin(), mapping.select.end(), key) != mapping.select.end();
}

/// The request of a kept row arriving at `sim_s`, its work and demand scaled by the row's duration
/// and GPU fraction where the mapping says so.
RequestRecord record_of(const TraceRow& row, double sim_s, const TraceMapping& mapping) {
  RequestRecord record;
  record.arrived_at_s = sim_s;
  record.prompt_tokens = row.prompt_tokens;
  record.output_tokens = row.output_tokens;
  if (mapping.solo_latency_s > 0.0 && row.duration_s >= 0.0)
    record.work_scale = row.duration_s / mapping.solo_latency_s;
  if (mapping.gpu_frac_demand && row.gpu_frac > 0.0) record.demand_scale = row.gpu_frac / mapping.sm_occupancy_frac;
  if (!row.prefix_hashes.empty()) {
    record.prefix_hashes = std::make_shared<const std::vector<std::uint64_t>>(row.prefix_hashes);
  }
  record.prefix_block_tokens = row.prefix_block_tokens;
  return record;
}

}  // namespace

TraceSource::TraceSource(std::unique_ptr<TraceReader> reader, TraceMapping mapping)
    : reader_(std::move(reader)), mapping_(std::move(mapping)), rng_(mapping_.seed) {
  SW_CHECK(mapping_.time_compression > 0.0 && mapping_.multiplier > 0.0, "trace mapping factors must be positive");
  SW_CHECK(mapping_.multiplier <= kMaxTraceMultiplier,
           "trace multiplier above kMaxTraceMultiplier");  // copies are an int
  SW_CHECK(mapping_.sample_frac > 0.0 && mapping_.sample_frac <= 1.0, "sample_frac must be in (0, 1]");
  SW_CHECK(mapping_.horizon_s > 0.0, "trace replay needs a horizon");
  SW_CHECK(mapping_.sm_occupancy_frac > 0.0, "sm_occupancy_frac must be positive");
}

bool TraceSource::next_row(TraceRow& row) {
  if (!formats_sorted(reader_->format())) {
    if (!sorted_loaded_) {
      TraceRow r;
      while (reader_->next(r)) {
        if (r.has_time) {
          sorted_.push_back(std::move(r));
        } else {
          ++num_without_time_;
        }
      }
      std::stable_sort(sorted_.begin(), sorted_.end(),
                       [](const TraceRow& a, const TraceRow& b) { return a.at_s < b.at_s; });
      sorted_loaded_ = true;
    }
    if (sorted_next_ == sorted_.size()) return false;
    row = std::move(sorted_[sorted_next_++]);
    return true;
  }
  while (reader_->next(row)) {
    if (!row.has_time) {
      ++num_without_time_;
      continue;
    }
    if (origin_s_ && row.at_s < last_at_s_) {
      throw TraceError(reader_->path(), row.line, "",
                       out_of_order_message(row.at_s - *origin_s_, last_line_, last_at_s_ - *origin_s_));
    }
    last_at_s_ = row.at_s;
    last_line_ = row.line;
    return true;
  }
  return false;
}

bool TraceSource::next_kept(RequestRecord& record, int& copies) {
  TraceRow row;
  while (!done_ && next_row(row)) {
    if (!origin_s_) origin_s_ = row.at_s;
    const double t = row.at_s - *origin_s_;
    if (t < mapping_.window_start_s) continue;
    if (mapping_.window_end_s && t >= *mapping_.window_end_s) break;
    const double sim_s = (t - mapping_.window_start_s) / mapping_.time_compression;
    if (sim_s >= mapping_.horizon_s) break;
    if (!selected(mapping_, row.key)) continue;
    // Two draws per row whatever the outcome, so one tenant's sampling never shifts another's.
    const double keep = unit_interval(rng_());
    const double extra = unit_interval(rng_());
    if (keep >= mapping_.sample_frac) continue;
    const double whole = std::floor(mapping_.multiplier);
    copies = static_cast<int>(whole) + (extra < mapping_.multiplier - whole ? 1 : 0);
    if (copies == 0) continue;
    record = record_of(row, sim_s, mapping_);
    return true;
  }
  done_ = true;
  return false;
}

bool TraceSource::next_spread(RequestRecord& record, int& copies) {
  if (!mapping_.spread_ties) return next_kept(record, copies);
  while (tie_ready_.empty()) {
    // Gather the rows of one time; the first row of a later time closes the group.
    if (tie_next_) {
      tie_group_.push_back(*tie_next_);
      tie_next_.reset();
    }
    RequestRecord r;
    int c = 0;
    bool more = false;
    while ((more = next_kept(r, c))) {
      if (!tie_group_.empty() && r.arrived_at_s > tie_group_.front().first.arrived_at_s) {
        tie_next_.emplace(r, c);
        break;
      }
      tie_group_.emplace_back(r, c);
    }
    if (tie_group_.empty()) return false;
    if (tie_next_) {
      const double t = tie_group_.front().first.arrived_at_s;
      const double gap = tie_next_->first.arrived_at_s - t;
      const auto n = static_cast<double>(tie_group_.size());
      for (std::size_t k = 0; k < tie_group_.size(); ++k)
        tie_group_[k].first.arrived_at_s = t + gap * static_cast<double>(k) / n;
    }
    for (auto& item : tie_group_) tie_ready_.push_back(item);
    tie_group_.clear();
    if (!more && !tie_next_) break;
  }
  if (tie_ready_.empty()) return false;
  std::tie(record, copies) = tie_ready_.front();
  tie_ready_.pop_front();
  return true;
}

bool TraceSource::next(RequestRecord& out) {
  while (ready_.empty()) {
    RequestRecord record;
    int copies = 0;
    const bool more = next_spread(record, copies);
    if (held_) {
      // Spread the held row's extra copies evenly over the gap to this row (none at the end).
      const double gap = more ? record.arrived_at_s - held_->arrived_at_s : 0.0;
      for (int j = 1; j < held_copies_; ++j) {
        RequestRecord copy = *held_;
        copy.arrived_at_s += gap * j / held_copies_;
        ready_.push_back(copy);
      }
      held_.reset();
    }
    if (!more) break;
    ready_.push_back(record);
    held_ = record;
    held_copies_ = copies;
  }
  if (ready_.empty()) return false;
  out = ready_.front();
  ready_.pop_front();
  ++num_emitted_;
  return true;
}

}  // namespace slicewise::traces
