// Calibration profiles: JSON in and out.
#include "calibration/calibration_profile.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "calibration/measurement_row.hpp"
#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration {

namespace {

constexpr const char* kDefaultsSource = "uncalibrated default (docs/model.md §3)";

/// Largest count a profile may give (num_points, num_predicted): keeps them inside an int.
constexpr double kMaxCount = 1e9;

/// A date YYYY-MM-DD, when the key is present.
void check_date(JsonReader& r, std::string_view key, const std::string& value) {
  if (!value.empty() && !is_iso_date(value)) r.error(key, "expected a date YYYY-MM-DD (got \"" + value + "\")");
}

CalibratedConstant read_constant(JsonReader& r, const models::GpuCatalog& gpus) {
  CalibratedConstant c;
  c.name = r.required_string("name");
  const bool known = std::find(constant_names().begin(), constant_names().end(), c.name) != constant_names().end();
  if (!c.name.empty() && !known) r.error("name", unknown_choice(c.name, constant_names()));
  c.gpu = r.optional_string("gpu", "*");
  if (c.gpu != "*") {
    if (const auto* gpu = gpus.find(c.gpu)) {
      c.gpu = gpu->id;  // an alias names the catalog id the simulator looks up
    } else {
      r.error("gpu", "unknown GPU " + quoted_excerpt(c.gpu) +
                         "; expected \"*\" (every GPU) or a catalog id (`slicewise gpus`)" +
                         gpus.did_you_mean_suffix(c.gpu));
    }
  }
  c.value = r.required_number("value", known ? constant_range(c.name) : NumberRange::positive());
  c.std_error = r.optional_number("std_error", 0.0, NumberRange::non_negative());
  c.fitted = r.optional_bool("fitted", false);
  c.num_points = static_cast<int>(r.optional_integer("num_points", 0, NumberRange::between(0, kMaxCount)));
  c.rmse = r.optional_number("rmse", 0.0, NumberRange::non_negative());
  c.mape = r.optional_number("mape", 0.0, NumberRange::non_negative());
  c.r2 = r.optional_number("r2", 0.0);
  c.fit_message = r.optional_string("fit_message", "");
  if (const auto* sources = r.optional_array("sources")) {
    for (std::size_t i = 0; i < sources->size(); ++i) {
      const auto& s = (*sources)[i];
      if (s.is_string()) {
        c.sources.push_back(s.get<std::string>());
      } else {
        r.error("sources", "entry " + std::to_string(i) + " must be a string (got " + describe_json(s) + ")");
      }
    }
  }
  c.note = r.optional_string("note", "");
  r.finish();
  return c;
}

CrossValidation read_validation(JsonReader& r) {
  CrossValidation v;
  v.constant = r.required_string("constant");
  v.gpu = r.optional_string("gpu", "*");
  v.protocol = r.optional_string("protocol", "");
  v.num_predicted = static_cast<int>(r.required_integer("num_predicted", NumberRange::between(0, kMaxCount)));
  // With nothing predicted there is no error: calibrate writes null and says why in not_predicted.
  const auto mape = [&](std::string_view key, bool required) {
    const auto* value = r.optional_value(key);
    if (v.num_predicted == 0 && (value == nullptr || value->is_null())) return 0.0;
    return required ? r.required_number(key, NumberRange::non_negative())
                    : r.optional_number(key, 0.0, NumberRange::non_negative());
  };
  v.mape = mape("mape", true);
  v.mape_uncalibrated = mape("mape_uncalibrated", false);
  v.mape_naive = mape("mape_naive", false);
  v.not_predicted = r.optional_string("not_predicted", "");
  r.finish();
  return v;
}

CalibratedConstant uncalibrated(std::string name, double value, std::string note) {
  CalibratedConstant c;
  c.name = std::move(name);
  c.value = value;
  c.sources = {kDefaultsSource};
  c.note = std::move(note);
  return c;
}

}  // namespace

const std::vector<std::string>& constant_names() {
  static const std::vector<std::string> names = {
      "time_slicing_efficiency",   "mps_efficiency",     "mps_interference",
      "hami_launch_overhead_frac", "roofline_sharpness", "timeslice_ms",
      "yield_switch_ms",           "preempt_switch_ms",  "bandwidth_sm_frac"};
  return names;
}

NumberRange constant_range(const std::string& name) {
  if (name == "roofline_sharpness") return NumberRange::at_least(1.0);
  if (name == "mps_interference") return NumberRange::non_negative();  // 0 = no memory-pressure term
  if (name == "timeslice_ms") return NumberRange::positive();
  if (name == "yield_switch_ms" || name == "preempt_switch_ms") return NumberRange::non_negative();
  return NumberRange::positive_fraction();  // the two efficiencies and hami_launch_overhead_frac
}

const CalibratedConstant* CalibrationProfile::find(const std::string& name, const std::string& gpu) const {
  const CalibratedConstant* any = nullptr;
  for (const auto& c : constants) {
    if (c.name != name) continue;
    if (c.gpu == gpu) return &c;
    if (c.gpu == "*") any = &c;
  }
  return any;
}

double CalibrationProfile::worst_fit_mape() const {
  double worst = 0.0;
  for (const auto& c : constants) {
    if (c.fitted) worst = std::max(worst, c.mape);
  }
  return worst;
}

std::vector<std::string> CalibrationProfile::sources() const {
  std::set<std::string> all;
  for (const auto& c : constants) {
    if (c.fitted) all.insert(c.sources.begin(), c.sources.end());
  }
  return {all.begin(), all.end()};
}

nlohmann::ordered_json CalibrationProfile::to_json() const {
  nlohmann::ordered_json out;
  out["id"] = id;
  out["description"] = description;
  out["created"] = created;
  out["data_files"] = data_files;
  out["constants"] = nlohmann::ordered_json::array();
  for (const auto& c : constants) {
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["gpu"] = c.gpu;
    j["value"] = c.value;
    j["std_error"] = c.std_error;
    j["fitted"] = c.fitted;
    if (c.fitted) {
      j["num_points"] = c.num_points;
      j["rmse"] = c.rmse;
      j["mape"] = c.mape;
      j["r2"] = c.r2;
      j["fit_message"] = c.fit_message;
    }
    j["sources"] = c.sources;
    if (!c.note.empty()) j["note"] = c.note;
    out["constants"].push_back(std::move(j));
  }
  out["validation"] = nlohmann::ordered_json::array();
  for (const auto& v : validation) {
    nlohmann::ordered_json j = {
        {"constant", v.constant},           {"gpu", v.gpu},   {"protocol", v.protocol},
        {"num_predicted", v.num_predicted}, {"mape", v.mape}, {"mape_uncalibrated", v.mape_uncalibrated},
        {"mape_naive", v.mape_naive}};
    if (v.num_predicted == 0) {
      // No error to give: a 0 would read as a perfect prediction.
      for (const char* key : {"mape", "mape_uncalibrated", "mape_naive"}) j[key] = nullptr;
      j["not_predicted"] = v.not_predicted;
    }
    out["validation"].push_back(std::move(j));
  }
  return out;
}

CalibrationProfile CalibrationProfile::from_json(const nlohmann::json& json, const std::string& file,
                                                 const models::GpuCatalog& gpus) {
  Diagnostics diagnostics;
  JsonReader r(json, "", diagnostics, file);
  CalibrationProfile p;
  p.id = r.required_string("id");
  if (r.valid() && r.has("id") && json.at("id").is_string() && p.id.empty()) r.error("id", "must not be empty");
  p.description = r.optional_string("description", "");
  p.created = r.optional_string("created", "");
  check_date(r, "created", p.created);
  if (const auto* files = r.optional_array("data_files")) {
    for (std::size_t i = 0; i < files->size(); ++i) {
      const auto& f = (*files)[i];
      if (f.is_string()) {
        p.data_files.push_back(f.get<std::string>());
      } else {
        r.error("data_files", "entry " + std::to_string(i) + " must be a string (got " + describe_json(f) + ")");
      }
    }
  }
  if (const auto* constants = r.required_array("constants")) {
    std::map<std::pair<std::string, std::string>, std::size_t> first;  // (name, gpu) -> index
    for (std::size_t i = 0; i < constants->size(); ++i) {
      JsonReader entry((*constants)[i], r.pointer("constants") + "/" + std::to_string(i), diagnostics, file);
      p.constants.push_back(read_constant(entry, gpus));
      const auto& c = p.constants.back();
      if (!entry.valid() || c.name.empty()) continue;
      const auto [at, inserted] = first.try_emplace({c.name, c.gpu}, i);
      if (!inserted) {
        entry.error_here("a second " + c.name + " for gpu \"" + c.gpu + "\" (the first is /constants/" +
                         std::to_string(at->second) + "); each constant may appear once per GPU");
      }
    }
  }
  if (const auto* validation = r.optional_array("validation")) {
    for (std::size_t i = 0; i < validation->size(); ++i) {
      JsonReader entry((*validation)[i], r.pointer("validation") + "/" + std::to_string(i), diagnostics, file);
      p.validation.push_back(read_validation(entry));
    }
  }
  r.finish();
  if (!diagnostics.empty()) throw ConfigError(std::move(diagnostics));
  return p;
}

CalibrationProfile CalibrationProfile::load(const std::filesystem::path& path, const models::GpuCatalog& gpus) {
  return from_json(read_json_file(path), path.string(), gpus);
}

const CalibrationProfile& CalibrationProfile::shipped() {
  static const CalibrationProfile profile = load(data_dir() / "calibration" / "default.json");
  return profile;
}

CalibrationProfile CalibrationProfile::load_or_shipped(const std::string& path) {
  return path.empty() ? shipped() : load(path);
}

CalibrationProfile uncalibrated_profile() {
  CalibrationProfile p;
  p.id = "uncalibrated";
  p.description = "The defaults of docs/model.md §3; nothing fitted.";
  p.constants = {
      uncalibrated("time_slicing_efficiency", 2.0 / 2.1, "q / (q + c) with q = 2 ms, c = 0.1 ms"),
      uncalibrated("mps_efficiency", 1.0, "no interference beyond the resource split"),
      uncalibrated("mps_interference", 0.0, "no memory-pressure slowdown below saturation"),
      uncalibrated("hami_launch_overhead_frac", 0.02, "order of magnitude of interposer overhead"),
  };
  return p;
}

}  // namespace slicewise::calibration
