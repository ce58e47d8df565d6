// How much work one request of a generic tenant is and what it demands of a device: its solo
// time and the SM / bandwidth demand on the tenant's reference GPU. LLM tenants are served by an
// engine (sim/llm_engine.hpp) whose steps set their demands; their shape only says so.
#pragma once

#include "scenario/scenario.hpp"
#include "traces/request_source.hpp"

namespace slicewise::sim {

/// Demand of one request, as fractions of the reference GPU.
struct PhaseDemand {
  double sm = 0.0;  ///< SM fraction at full speed
  double bw = 0.0;  ///< bandwidth fraction at full speed
};

/// A tenant's cost model, derived once per run.
struct WorkloadShape {
  /// An LLM tenant: a serving engine per context schedules its requests (TTFT and TPOT apply).
  bool llm = false;
  double duty = 1.0;            ///< GPU-busy fraction of a request's solo time
  PhaseDemand demand;           ///< generic workloads
  double solo_latency_s = 0.0;  ///< generic: solo time of a typical request
  double kernel_s = 0.0;        ///< generic: one kernel on the reference GPU; 0 = the model's default

  /// Solo time (seconds, CPU + GPU) of a generic request; 0 for an LLM tenant (its engine knows).
  double solo_s(const traces::RequestRecord& request) const;
};

/// Derives the shape from the scenario's workload.
WorkloadShape make_workload_shape(const scenario::Workload& workload);

}  // namespace slicewise::sim
