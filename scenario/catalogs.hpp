// The catalogs a scenario is read and checked against: GPUs, MIG geometries and price tables.
#pragma once

#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "pricing/price_table.hpp"

namespace slicewise::scenario {

/// The catalogs a scenario is checked against.
struct Catalogs {
  const models::GpuCatalog* gpus = nullptr;
  const models::MigCatalog* mig = nullptr;
  const std::vector<pricing::PriceTable>* prices = nullptr;
  /// The shipped catalogs (data_dir()).
  static Catalogs shipped();
};

}  // namespace slicewise::scenario
