// The shipped catalogs (see catalogs.hpp).
#include "scenario/catalogs.hpp"

namespace slicewise::scenario {

Catalogs Catalogs::shipped() {
  return Catalogs{&models::GpuCatalog::shipped(), &models::MigCatalog::shipped(), &pricing::shipped_price_tables()};
}

}  // namespace slicewise::scenario
