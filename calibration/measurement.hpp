// Measurements the model constants are fitted to (docs/measurement-format.md): the loader of their
// files (a row and the checks of its columns are measurement_row.hpp's).
#pragma once

#include <string>
#include <vector>

#include "calibration/measurement_row.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"

namespace slicewise::calibration {

/// Reads one measurement file: the CSV of docs/measurement-format.md, or the MISO MIG step table
/// (told apart by its header). `.gz`/`.zst` are read transparently. The first problem throws
/// TraceError `file:line: column: problem`.
/// `notes`, when given, receives what was read but not taken (a co-location file's MPS rows).
std::vector<Measurement> load_measurements(const std::string& path, const models::GpuCatalog& gpus,
                                           const models::MigCatalog& mig, std::vector<std::string>* notes = nullptr);

}  // namespace slicewise::calibration
