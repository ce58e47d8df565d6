// Request cost of a generic workload: its solo time and demands.
#include "sim/workload_shape.hpp"

namespace slicewise::sim {

WorkloadShape make_workload_shape(const scenario::Workload& workload) {
  WorkloadShape shape;
  if (workload.kind == scenario::WorkloadKind::llm) {
    shape.llm = true;
    return shape;
  }
  shape.duty = workload.gpu_duty_frac;
  shape.demand = {workload.sm_occupancy_frac, workload.mem_bw_frac};
  shape.solo_latency_s = workload.solo_latency_s.value_or(0.0);
  shape.kernel_s = workload.kernel_ms.value_or(0.0) * 1e-3;
  return shape;
}

double WorkloadShape::solo_s(const traces::RequestRecord& request) const {
  return llm ? 0.0 : solo_latency_s * request.work_scale;
}

}  // namespace slicewise::sim
