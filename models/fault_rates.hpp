// Public fault rates the fault model defaults to (docs/faults.md), each with its source and date.
#pragma once

namespace slicewise::models {

/// GPU failures per GPU-hour: Meta's Llama 3 405B pre-training, 16,384 H100-80GB GPUs over a
/// 54-day snapshot (Llama Team, "The Llama 3 Herd of Models", arXiv:2407.21783, July 2024, Table 5;
/// the counts also in DataCenterDynamics, 2024-07-29): faulty GPU 148, GPU HBM3 memory 72, GPU SRAM
/// memory 19 and GPU system processor 17 unexpected interruptions, 256 in all, over
/// 16,384 × 54 × 24 = 21,233,664 GPU-hours: 1.2056e-5 per GPU-hour (one per 82,944 GPU-hours).
/// Network, host and software interruptions of the same table are not GPU failures and are left out.
inline constexpr double kGpuFailurePerGpuHour = 256.0 / (16384.0 * 54.0 * 24.0);
inline constexpr const char* kGpuFailureSource =
    "Llama 3 405B pre-training, 16,384 H100 over 54 days: 256 GPU interruptions (faulty GPU 148, HBM3 72, "
    "SRAM 19, GPU system processor 17), arXiv:2407.21783 Table 5 (2024-07)";

}  // namespace slicewise::models
