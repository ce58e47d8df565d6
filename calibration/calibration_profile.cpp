// Calibration profiles: JSON in and out.
#include "calibration/calibration_profile.hpp"

#include <algorithm>
#include <set>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration {

namespace {

constexpr const char* kDefaultsSource = "uncalibrated default (docs/model.md §3)";

CalibratedConstant read_constant(JsonReader& r) {
  CalibratedConstant c;
  c.name = r.required_string("name");
  if (!c.name.empty() && std::find(constant_names().begin(), constant_names().end(), c.name) == constant_names().end()) {
    r.error("name", unknown_choice(c.name, constant_names()));
  }
  c.gpu = r.optional_string("gpu", "*");
  c.value = r.required_number("value", NumberRange::positive());
  c.std_error = r.optional_number("std_error", 0.0, NumberRange::non_negative());
  c.fitted = r.optional_bool("fitted", false);
  c.num_points = static_cast<int>(r.optional_integer("num_points", 0, NumberRange::non_negative()));
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
        r.error("sources", "entry " + std::to_string(i) + " must be a string");
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
  v.num_predicted = static_cast<int>(r.required_integer("num_predicted", NumberRange::non_negative()));
  v.mape = r.required_number("mape", NumberRange::non_negative());
  v.mape_uncalibrated = r.optional_number("mape_uncalibrated", 0.0, NumberRange::non_negative());
  v.mape_naive = r.optional_number("mape_naive", 0.0, NumberRange::non_negative());
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
  static const std::vector<std::string> names = {"time_slicing_efficiency", "mps_efficiency", "hami_launch_overhead_frac",
                                                 "roofline_sharpness"};
  return names;
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
    out["validation"].push_back({{"constant", v.constant},
                                 {"gpu", v.gpu},
                                 {"protocol", v.protocol},
                                 {"num_predicted", v.num_predicted},
                                 {"mape", v.mape},
                                 {"mape_uncalibrated", v.mape_uncalibrated},
                                 {"mape_naive", v.mape_naive}});
  }
  return out;
}

CalibrationProfile CalibrationProfile::from_json(const nlohmann::json& json, const std::string& file) {
  Diagnostics diagnostics;
  JsonReader r(json, "", diagnostics, file);
  CalibrationProfile p;
  p.id = r.required_string("id");
  p.description = r.optional_string("description", "");
  p.created = r.optional_string("created", "");
  if (const auto* files = r.optional_array("data_files")) {
    for (const auto& f : *files) {
      if (f.is_string()) p.data_files.push_back(f.get<std::string>());
    }
  }
  if (const auto* constants = r.required_array("constants")) {
    for (std::size_t i = 0; i < constants->size(); ++i) {
      JsonReader entry((*constants)[i], r.pointer("constants") + "/" + std::to_string(i), diagnostics, file);
      p.constants.push_back(read_constant(entry));
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

CalibrationProfile CalibrationProfile::load(const std::filesystem::path& path) {
  return from_json(read_json_file(path), path.string());
}

const CalibrationProfile& CalibrationProfile::shipped() {
  static const CalibrationProfile profile = load(data_dir() / "calibration" / "default.json");
  return profile;
}

CalibrationProfile uncalibrated_profile() {
  CalibrationProfile p;
  p.id = "uncalibrated";
  p.description = "The defaults of docs/model.md §3; nothing fitted.";
  p.constants = {
      uncalibrated("time_slicing_efficiency", 2.0 / 2.1, "q / (q + c) with q = 2 ms, c = 0.1 ms"),
      uncalibrated("mps_efficiency", 1.0, "no interference beyond the resource split"),
      uncalibrated("hami_launch_overhead_frac", 0.02, "order of magnitude of interposer overhead"),
  };
  return p;
}

}  // namespace slicewise::calibration
