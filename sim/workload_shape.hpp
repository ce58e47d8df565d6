// How much work one request of a tenant is and what it demands of a device: the solo time of each
// phase (generic: one phase; LLM: prefill then decode, from a roofline scaled to the measured solo
// latency) and the SM / bandwidth demand of each phase on the tenant's reference GPU.
#pragma once

#include "models/gpu_catalog.hpp"
#include "scenario/scenario.hpp"
#include "traces/request_source.hpp"

namespace slicewise::sim {

/// Demand of one request in one phase, as fractions of the reference GPU.
struct PhaseDemand {
  double sm = 0.0;  ///< SM fraction at full speed
  double bw = 0.0;  ///< bandwidth fraction at full speed
  /// Part of the demand shared by all requests of a batch (weights read once per decode step):
  /// k requests together demand (shared + k * (1 - shared)) times one request's demand (with
  /// per-request demand scales, Σ demand_scale in place of k).
  double shared_frac = 0.0;
};

/// A tenant's cost model, derived once per run.
struct WorkloadShape {
  bool llm = false;
  double duty = 1.0;    ///< GPU-busy fraction of a request's solo time
  PhaseDemand prefill;  ///< generic workloads use this phase only
  PhaseDemand decode;
  double roofline_scale = 1.0;       ///< measured / roofline GPU time (1 when no solo latency is given)
  double prefill_s_per_token = 0.0;  ///< roofline, reference GPU, before scaling
  double prefill_floor_s = 0.0;      ///< weights read once per prefill
  double decode_s_per_token = 0.0;
  double solo_latency_s = 0.0;  ///< generic: solo time of a typical request

  /// Solo time (seconds, CPU + GPU) of the request's first phase (generic: whole request).
  double first_phase_s(const traces::RequestRecord& request) const;
  /// Solo time of the decode phase (0 for generic workloads).
  double decode_phase_s(const traces::RequestRecord& request) const;
};

/// Derives the shape from the scenario's workload on its reference GPU. Throws ConfigError when an
/// LLM tenant's reference GPU lacks the TFLOPS and bandwidth the roofline needs.
WorkloadShape make_workload_shape(const scenario::Workload& workload, const models::GpuSpec& reference_gpu);

}  // namespace slicewise::sim
