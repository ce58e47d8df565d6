// The steps every constant's fit in `slicewise calibrate` shares (calibrate.cpp, mps_fit.cpp): the
// rows it rests on, the checks that refuse an unusable fit, the profile entry it becomes, and its
// leave-one-workload-out cross-validation. Internal to sw_calibration.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "calibration/calibration_outcome.hpp"
#include "calibration/mig_fit.hpp"
#include "calibration/sharing_fit.hpp"

namespace slicewise::calibration::detail {

/// The GPUs with MIG rows or green-context SM-scaling rows: what the roofline sharpness is fitted on.
std::set<std::string> mig_gpus(const std::vector<Measurement>& rows);
/// The points of `gpu` that scale a workload's SMs: its MIG slices and its green contexts.
std::vector<MigPoint> scaling_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                     const models::GpuCatalog& gpus, const models::MigCatalog& mig);

/// "source (date)" of each distinct source of `rows`, sorted.
std::vector<std::string> sources_of(const std::vector<const Measurement*>& rows);
/// The profile entry of `fit`'s first parameter for `gpu` ("*": every GPU), with its sources.
CalibratedConstant constant_from(const std::string& name, const std::string& gpu, const FitReport& fit,
                                 const std::vector<const Measurement*>& rows);
/// The profile entry of parameter `index` of `fit`, for every GPU.
CalibratedConstant constant_from(const std::string& name, const FitReport& fit, std::size_t index,
                                 const std::vector<const Measurement*>& rows);
/// Puts `c` into `profile`: in place of the entry of its name (its default), else at the end.
void store(CalibratedConstant c, CalibrationProfile& profile);

/// CalibrationError naming `what` unless `fit` is usable.
void require_usable(const FitReport& fit, const std::string& what);
/// CalibrationError unless `fit`'s value is in constant_range(name): a fitted constant outside it
/// would give a profile that does not load.
void require_in_range(const std::string& name, const FitReport& fit, const std::string& what);

/// The value of a sharing constant in `profile` (its uncalibrated default when absent).
double value_in(const CalibrationProfile& profile, SharingConstant constant);
/// The sharing parameters `profile` gives the co-run model: efficiencies and MPS interference.
models::SharingParams base_params(const CalibrationProfile& profile);
/// A fitted value for the cross-validation report: 4 significant digits.
std::string short_number(double value);

/// What a cross-validation refits on a training set: the parameters and their description for
/// the report; nullopt when the set cannot be fitted.
using RefitFn =
    std::function<std::optional<std::pair<models::SharingParams, std::string>>(const std::vector<CoRunPoint>&)>;

/// Leave-one-workload-out: for each workload, `fit` on the other workloads' points gives the
/// parameters that predict this one's points, compared with the uncalibrated parameters and the
/// fair-share rule (time × n_contexts); each workload's fold goes to `folds`. Workloads whose
/// training set cannot be fitted are left out; when that leaves none, not_predicted says why.
CrossValidation cross_validate(const std::vector<CoRunPoint>& points, const std::string& constant,
                               const std::string& protocol, const models::SharingParams& uncalibrated,
                               const RefitFn& fit, std::vector<CvFold>& folds);
/// Leave-one-workload-out of a co-run constant fitted alone (an exact solve is allowed).
CrossValidation cross_validate_sharing(const std::vector<CoRunPoint>& points, SharingConstant constant,
                                       const models::SharingParams& base, std::vector<CvFold>& folds);

}  // namespace slicewise::calibration::detail
