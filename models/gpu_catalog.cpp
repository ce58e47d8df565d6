// GPU catalog (data/gpus.json): strict loading, lookup by id or alias.
#include "models/gpu_catalog.hpp"

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/catalog_fields.hpp"

namespace slicewise::models {

using nlohmann::json;

namespace {

const EnumTable<std::string>& arch_table() {
  static const EnumTable<std::string> table = {{"volta", "volta"}, {"turing", "turing"}, {"ampere", "ampere"},
                                               {"ada", "ada"},     {"hopper", "hopper"}, {"blackwell", "blackwell"}};
  return table;
}

const EnumTable<std::string>& interconnect_table() {
  static const EnumTable<std::string> table = {{"nvlink", "nvlink"}, {"pcie", "pcie"}};
  return table;
}

/// The idle power and its source: both or neither, 0 < idle_w < tdp_w (the power curve rises from
/// idle_w to tdp_w, so an idle power needs a TDP above it).
void read_idle(JsonReader& r, GpuSpec& gpu) {
  const std::size_t before = r.diagnostics().size();
  gpu.idle_w = r.maybe_number("idle_w", NumberRange::positive());
  const auto source = r.maybe_string("idle_source");
  if (source && source->empty()) r.error("idle_source", "expected a non-empty string (got \"\")");
  if (source) gpu.idle_source = *source;
  if (r.diagnostics().size() != before || !r.valid()) return;
  if (gpu.idle_w && !source) {
    r.error("idle_w", "needs \"idle_source\": where the idle power was measured");
  } else if (!gpu.idle_w && source) {
    r.error("idle_source", "given without \"idle_w\"");
  } else if (gpu.idle_w && !gpu.tdp_w) {
    r.error("idle_w", "needs \"tdp_w\": power rises from idle_w to tdp_w with utilisation");
  } else if (gpu.idle_w && gpu.tdp_w && *gpu.idle_w >= *gpu.tdp_w) {
    r.error("idle_w",
            "must be below tdp_w (" + format_number(*gpu.tdp_w) + " W) (got " + format_number(*gpu.idle_w) + ")");
  }
}

GpuSpec read_gpu(JsonReader& r, detail::NameRegistry& names) {
  GpuSpec gpu;
  gpu.id = detail::read_nonempty_string(r, "id");
  names.claim(gpu.id, r.pointer("id"));
  gpu.aliases = detail::read_aliases(r, names);
  gpu.name = detail::read_nonempty_string(r, "name");
  gpu.arch = r.required_enum("arch", arch_table());
  gpu.form_factor = detail::read_nonempty_string(r, "form_factor");
  gpu.num_sms = detail::read_int(r, "num_sms", NumberRange::positive());
  gpu.memory_gib = r.required_number("memory_gib", NumberRange::positive());
  gpu.memory_bandwidth_gbps = r.required_number("memory_bandwidth_gbps", NumberRange::positive());
  gpu.fp16_dense_tflops = r.maybe_number("fp16_dense_tflops", NumberRange::positive());
  gpu.bf16_dense_tflops = r.maybe_number("bf16_dense_tflops", NumberRange::positive());
  gpu.tdp_w = r.maybe_number("tdp_w", NumberRange::positive());
  read_idle(r, gpu);
  gpu.interconnect = r.optional_enum("interconnect", std::string(), interconnect_table());
  gpu.interconnect_gbps = r.optional_number("interconnect_gbps", 0.0, NumberRange::positive());
  if (gpu.interconnect.empty() != (gpu.interconnect_gbps == 0.0)) {
    r.error(gpu.interconnect.empty() ? "interconnect_gbps" : "interconnect",
            "give \"interconnect\" and \"interconnect_gbps\" together");
  }
  gpu.mig_capable = r.optional_bool("mig_capable", false);
  gpu.source = detail::read_nonempty_string(r, "source");
  gpu.as_of = detail::read_date(r, "as_of");
  r.finish();
  return gpu;
}

}  // namespace

GpuCatalog GpuCatalog::load(const std::filesystem::path& file) {
  const json document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  GpuCatalog catalog;
  JsonReader top(document, "", problems, name);
  top.schema_version(detail::kCatalogSchemaVersion);
  catalog.source_ = detail::read_nonempty_string(top, "source");
  catalog.as_of_ = detail::read_date(top, "as_of");
  top.optional_string("note", "");  // free text for maintainers
  detail::NameRegistry names(problems, name, "GPU");
  if (const json* gpus = top.required_array("gpus")) {
    if (gpus->empty()) top.error("gpus", "must list at least one GPU (got [])");
    for (std::size_t i = 0; i < gpus->size(); ++i) {
      JsonReader r((*gpus)[i], "/gpus/" + std::to_string(i), problems, name);
      catalog.gpus_.push_back(read_gpu(r, names));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return catalog;
}

const GpuCatalog& GpuCatalog::shipped() {
  static const GpuCatalog catalog = load(data_dir() / "gpus.json");
  return catalog;
}

const GpuSpec* GpuCatalog::find(std::string_view id_or_alias) const {
  if (const auto* gpu = detail::find_named(gpus_, id_or_alias)) return gpu;
  // As nvidia-smi names it: the catalog's name ("NVIDIA H100 SXM5 80GB"), or "NVIDIA " and an alias
  // ("NVIDIA H100 80GB HBM3").
  for (const auto& gpu : gpus_) {
    if (gpu.name == id_or_alias) return &gpu;
  }
  constexpr std::string_view kVendor = "NVIDIA ";
  if (id_or_alias.size() > kVendor.size() && id_or_alias.substr(0, kVendor.size()) == kVendor) {
    return detail::find_named(gpus_, id_or_alias.substr(kVendor.size()));
  }
  return nullptr;
}

std::vector<std::string> GpuCatalog::ids() const { return detail::ids_of(gpus_); }

std::string GpuCatalog::did_you_mean_suffix(std::string_view name) const {
  std::vector<KnownName> known;
  known.reserve(gpus_.size());
  for (const auto& gpu : gpus_) {
    KnownName& k = known.emplace_back(KnownName{gpu.id, gpu.aliases});
    k.aliases.push_back(gpu.name);  // "NVIDIA H100 PCIe", as nvidia-smi names it
  }
  return suggestion_suffix(suggestions(name, known));
}

}  // namespace slicewise::models
