// MIG geometry catalog (data/mig_profiles.json): strict loading with the geometry checks (slices
// within the GPU, placement starts inside the slot grid, names consistent with the figures).
#include "models/mig_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "models/catalog_fields.hpp"

namespace slicewise::models {

using nlohmann::json;

const MigProfile* MigGpu::find(std::string_view profile_name) const {
  for (const auto& profile : profiles) {
    if (profile.name == profile_name) return &profile;
  }
  return nullptr;
}

std::vector<std::string> MigGpu::profile_names() const {
  std::vector<std::string> names;
  names.reserve(profiles.size());
  for (const auto& profile : profiles) names.push_back(profile.name);
  return names;
}

namespace {

/// Slots are bit positions in an unsigned mask during placement, so the grid stays small.
constexpr double kMaxSlices = 32;
constexpr std::string_view kMediaSuffix = "+me";

/// The N of a well-formed name "<N>g.<M>gb[+me]"; nullopt when the name has another shape.
std::optional<int> compute_slices_of_name(const std::string& name) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t begin = i;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
    return i > begin && i - begin <= 4;
  };
  if (!digits()) return std::nullopt;
  const int compute = std::stoi(name.substr(0, i));
  if (name.compare(i, 2, "g.") != 0) return std::nullopt;
  i += 2;
  if (!digits() || name.compare(i, 2, "gb") != 0) return std::nullopt;
  i += 2;
  if (i != name.size() && name.substr(i) != kMediaSuffix) return std::nullopt;
  return compute;
}

bool ends_with_media_suffix(const std::string& name) { return name.ends_with(kMediaSuffix); }

/// "placement_starts": integers inside [0, memory_slots - memory_slices], no repeats; sorted.
/// memory_slots 0 means the grid is unknown (already reported): only the types are checked.
std::vector<int> read_starts(JsonReader& r, int memory_slots, int memory_slices) {
  std::vector<int> starts;
  const json* array = r.required_array("placement_starts");
  if (!array) return starts;
  if (array->empty()) r.error("placement_starts", "must list at least one start slot (got [])");
  const int last = memory_slots - memory_slices;
  std::map<int, std::string> seen;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const json& value = (*array)[i];
    const std::string pointer = r.pointer("placement_starts") + "/" + std::to_string(i);
    auto problem = [&](std::string message) {
      r.diagnostics().push_back(Diagnostic{r.file(), 0, 0, pointer, std::move(message)});
    };
    const double start = value.is_number() ? value.get<double>() : std::nan("");
    if (!std::isfinite(start) || std::floor(start) != start) {  // not a number, or not an integer
      problem("expected integer (got " + describe_json(value) + ")");
      continue;
    }
    if (memory_slots > 0 && (start < 0 || start > last)) {
      problem("must be in [0, " + std::to_string(last) + "]: a " + std::to_string(memory_slices) + "-slice profile " +
              "must fit in the " + std::to_string(memory_slots) + " memory slots (got " + describe_json(value) + ")");
      continue;
    }
    if (start < 0 || start > kMaxSlices) continue;  // grid unknown (reported elsewhere): nothing to keep
    const int slot = static_cast<int>(start);
    if (auto [it, inserted] = seen.emplace(slot, pointer); !inserted) {
      problem("duplicate placement start " + std::to_string(slot) + " (also " + it->second + ")");
      continue;
    }
    starts.push_back(slot);
  }
  std::sort(starts.begin(), starts.end());
  return starts;
}

/// compute_slices and memory_slices, checked against the GPU and the name. True when the memory
/// slices are known to fit the GPU's slot grid (so that the placement starts can be checked).
bool read_slices(JsonReader& r, const MigGpu& gpu, MigProfile& p, std::optional<int> name_compute) {
  const std::size_t before_compute = r.diagnostics().size();
  p.compute_slices = detail::read_int(r, "compute_slices", NumberRange::at_least(1));
  if (r.diagnostics().size() == before_compute && r.valid()) {
    if (gpu.compute_slices > 0 && p.compute_slices > gpu.compute_slices) {
      r.error("compute_slices", "must be <= " + std::to_string(gpu.compute_slices) +
                                    ", the GPU's compute_slices (got " + std::to_string(p.compute_slices) + ")");
    } else if (name_compute && *name_compute != p.compute_slices) {
      r.error("compute_slices",
              "must match the name \"" + p.name + "\" (got " + std::to_string(p.compute_slices) + ")");
    }
  }
  const std::size_t before_memory = r.diagnostics().size();
  p.memory_slices = detail::read_int(r, "memory_slices", NumberRange::at_least(1));
  const bool memory_ok = r.diagnostics().size() == before_memory && r.valid();
  if (memory_ok && gpu.memory_slots > 0 && p.memory_slices > gpu.memory_slots) {
    r.error("memory_slices", "must be <= " + std::to_string(gpu.memory_slots) + ", the GPU's memory_slots (got " +
                                 std::to_string(p.memory_slices) + ")");
  }
  return memory_ok && p.memory_slices <= gpu.memory_slots;
}

MigProfile read_profile(JsonReader& r, const MigGpu& gpu) {
  MigProfile p;
  const std::size_t before_name = r.diagnostics().size();
  p.name = detail::read_nonempty_string(r, "name");
  const auto name_compute = compute_slices_of_name(p.name);
  if (r.diagnostics().size() == before_name && r.valid() && !name_compute) {
    r.error("name", "expected a profile name like 3g.40gb or 1g.10gb+me (got \"" + p.name + "\")");
  }
  const bool geometry_ok = read_slices(r, gpu, p, name_compute);
  p.memory_gib = r.required_number("memory_gib", NumberRange::positive());
  p.num_sms = detail::read_int(r, "num_sms", NumberRange::positive());
  p.max_instances = detail::read_int(r, "max_instances", NumberRange::at_least(1));
  const std::size_t before_starts = r.diagnostics().size();
  p.placement_starts = read_starts(r, geometry_ok ? gpu.memory_slots : 0, geometry_ok ? p.memory_slices : 0);
  const bool starts_ok = r.diagnostics().size() == before_starts && !p.placement_starts.empty();
  if (starts_ok && p.max_instances > static_cast<int>(p.placement_starts.size())) {
    r.error("max_instances", "must be <= " + std::to_string(p.placement_starts.size()) +
                                 ", the number of placement_starts (got " + std::to_string(p.max_instances) + ")");
  }
  const std::size_t before_media = r.diagnostics().size();
  p.media_extensions = r.optional_bool("media_extensions", false);
  if (r.diagnostics().size() == before_media && name_compute && p.media_extensions != ends_with_media_suffix(p.name)) {
    r.error("media_extensions",
            p.media_extensions ? "must be false for \"" + p.name + "\" (only \"+me\" profiles have media extensions)"
                               : "must be true for \"" + p.name + "\" (a \"+me\" profile has media extensions)");
  }
  p.estimated = r.optional_bool("estimated", false);
  p.note = r.optional_string("note", "");
  if (p.estimated && p.note.empty())
    r.error("estimated", "an estimated profile must say what was estimated in \"note\"");
  r.finish();
  return p;
}

MigGpu read_gpu(JsonReader& r, Diagnostics& problems) {
  MigGpu gpu;
  gpu.gpu_id = detail::read_nonempty_string(r, "gpu");
  gpu.compute_slices = detail::read_int(r, "compute_slices", NumberRange::between(1, kMaxSlices));
  gpu.memory_slots = detail::read_int(r, "memory_slots", NumberRange::between(1, kMaxSlices));
  gpu.source = detail::read_nonempty_string(r, "source");
  gpu.as_of = detail::read_date(r, "as_of");
  std::map<std::string, std::string> first_name;
  if (const json* profiles = r.required_array("profiles")) {
    if (profiles->empty()) r.error("profiles", "must list at least one profile (got [])");
    for (std::size_t i = 0; i < profiles->size(); ++i) {
      JsonReader pr((*profiles)[i], r.pointer("profiles") + "/" + std::to_string(i), problems, r.file());
      MigProfile profile = read_profile(pr, gpu);
      if (!profile.name.empty()) {
        if (auto [it, inserted] = first_name.emplace(profile.name, pr.pointer("name")); !inserted) {
          pr.error("name", "duplicate profile \"" + profile.name + "\" (also " + it->second + ")");
        }
      }
      gpu.profiles.push_back(std::move(profile));
    }
  }
  r.finish();
  return gpu;
}

}  // namespace

MigCatalog MigCatalog::load(const std::filesystem::path& file) {
  const json document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  MigCatalog catalog;
  JsonReader top(document, "", problems, name);
  top.schema_version(detail::kCatalogSchemaVersion);
  detail::read_nonempty_string(top, "source");
  detail::read_date(top, "as_of");
  top.optional_string("note", "");  // free text for maintainers
  std::map<std::string, std::string> first_gpu;
  if (const json* gpus = top.required_array("gpus")) {
    if (gpus->empty()) top.error("gpus", "must list at least one GPU (got [])");
    for (std::size_t g = 0; g < gpus->size(); ++g) {
      JsonReader r((*gpus)[g], "/gpus/" + std::to_string(g), problems, name);
      MigGpu gpu = read_gpu(r, problems);
      if (!gpu.gpu_id.empty()) {
        if (auto [it, inserted] = first_gpu.emplace(gpu.gpu_id, r.pointer("gpu")); !inserted) {
          r.error("gpu", "duplicate GPU \"" + gpu.gpu_id + "\" (also " + it->second + ")");
        }
      }
      catalog.gpus_.push_back(std::move(gpu));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return catalog;
}

const MigCatalog& MigCatalog::shipped() {
  static const MigCatalog catalog = load(data_dir() / "mig_profiles.json");
  return catalog;
}

const MigGpu* MigCatalog::find(std::string_view gpu_id) const {
  for (const auto& gpu : gpus_) {
    if (gpu.gpu_id == gpu_id) return &gpu;
  }
  return nullptr;
}

}  // namespace slicewise::models
