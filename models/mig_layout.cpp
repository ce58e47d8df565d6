// MIG layouts: parsing, placement on the memory-slot grid (exhaustive backtracking over the allowed
// start slots, larger profiles first), the reason an invalid layout is invalid, and enumeration of
// every maximal valid layout.
#include "models/mig_layout.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>

#include "core/spell.hpp"

namespace slicewise::models {

namespace {

constexpr int kMaxCount = 64;                    // "Nx" prefix bound: far above any GPU's instance limit
constexpr std::string_view kTimes = "\xC3\x97";  // U+00D7 MULTIPLICATION SIGN in UTF-8
const std::string kSyntaxHint = "expected profiles joined by '+', e.g. 3g.40gb+2g.20gb+1g.10gb+1g.10gb";

using SlotMask = std::uint64_t;  // memory_slots <= 32 (checked by the catalog loader)

SlotMask slot_mask(int start, int size) { return ((SlotMask{1} << size) - 1) << start; }

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

/// "a", "a and b", "a, b and c" (`conjunction` "or" for alternatives).
std::string list_text(const std::vector<std::string>& items, std::string_view conjunction) {
  if (items.size() <= 1) return items.empty() ? std::string() : items.front();
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return join(head, ", ") + " " + std::string(conjunction) + " " + items.back();
}

/// "slots 0-3" or "slot 4".
std::string slots_text(int start, int size) {
  return size == 1 ? "slot " + std::to_string(start)
                   : "slots " + std::to_string(start) + "-" + std::to_string(start + size - 1);
}

/// "slot 0", "slots 0 or 4", "slots 0, 2, 4 or 6".
std::string starts_text(const std::vector<int>& starts) {
  std::vector<std::string> items;
  items.reserve(starts.size());
  for (int s : starts) items.push_back(std::to_string(s));
  return (starts.size() == 1 ? "slot " : "slots ") + list_text(items, "or");
}

/// Exhaustive placement of `order` (larger profiles first) on the slot grid. Remembers the deepest
/// partial placement so that a failure can name what blocks the next instance.
class SlotSearch {
 public:
  explicit SlotSearch(const std::vector<const MigProfile*>& order) : order_(order), starts_(order.size(), 0) {}

  bool run() { return place(0, 0); }
  const std::vector<int>& starts() const { return starts_; }
  std::size_t best_depth() const { return best_depth_; }
  const std::vector<int>& best_starts() const { return best_starts_; }

 private:
  bool place(std::size_t depth, SlotMask used) {
    if (depth > best_depth_) {
      best_depth_ = depth;
      best_starts_.assign(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(depth));
    }
    if (depth == order_.size()) return true;
    const MigProfile* profile = order_[depth];
    // Instances of one profile are interchangeable: keep their starts increasing.
    const bool same_as_previous = depth > 0 && order_[depth - 1] == profile;
    for (int start : profile->placement_starts) {
      if (same_as_previous && start <= starts_[depth - 1]) continue;
      const SlotMask mask = slot_mask(start, profile->memory_slices);
      if (used & mask) continue;
      starts_[depth] = start;
      if (place(depth + 1, used | mask)) return true;
    }
    return false;
  }

  const std::vector<const MigProfile*>& order_;
  std::vector<int> starts_;
  std::size_t best_depth_ = 0;
  std::vector<int> best_starts_;
};

/// Why the deepest partial placement could not take its next instance.
std::string collision_reason(const MigGpu& gpu, const std::vector<const MigProfile*>& order, const SlotSearch& search,
                             int total_memory_slices) {
  const std::size_t depth = search.best_depth();
  const MigProfile* blocked = order[depth];
  std::vector<std::pair<int, std::size_t>> blockers;  // (start, position), sorted by slot
  for (std::size_t i = 0; i < depth; ++i) {
    const int start = search.best_starts()[i];
    const SlotMask mask = slot_mask(start, order[i]->memory_slices);
    for (int candidate : blocked->placement_starts) {
      if (mask & slot_mask(candidate, blocked->memory_slices)) {
        blockers.emplace_back(start, i);
        break;
      }
    }
  }
  std::sort(blockers.begin(), blockers.end());
  std::vector<std::string> names;
  names.reserve(blockers.size());
  for (const auto& [start, i] : blockers) {
    names.push_back(order[i]->name + "@" + std::to_string(start) + " (" + slots_text(start, order[i]->memory_slices) +
                    ")");
  }
  if (names.empty()) return "no placement fits: no free start slot is left for " + blocked->name;
  std::string reason = "no placement fits: " + blocked->name + " can start only at " +
                       starts_text(blocked->placement_starts) + ", which " + list_text(names, "and") + " already use" +
                       (names.size() == 1 ? "s" : "");
  if (total_memory_slices > gpu.memory_slots) {
    reason += " (the layout needs " + std::to_string(total_memory_slices) + " memory slices; " + gpu.gpu_id + " has " +
              std::to_string(gpu.memory_slots) + ")";
  }
  return reason;
}

/// The counting rules, in the documented order: max_instances per profile, one +me instance per
/// GPU, compute slices. "" when none is broken.
std::string counting_violation(const MigGpu& gpu, const std::vector<const MigProfile*>& chosen) {
  std::map<const MigProfile*, int> counts;
  std::vector<std::string> media;
  int compute = 0;
  for (const MigProfile* profile : chosen) {
    ++counts[profile];
    compute += profile->compute_slices;
    if (profile->media_extensions && counts[profile] == 1) media.push_back(profile->name);
  }
  for (const MigProfile* profile : chosen) {
    if (counts[profile] > profile->max_instances) {
      return profile->name + " allows at most " + std::to_string(profile->max_instances) + " instance" +
             (profile->max_instances == 1 ? "" : "s") + " per GPU (got " + std::to_string(counts[profile]) + ")";
    }
  }
  if (media.size() > 1) {
    return "at most one +me (media extensions) instance per GPU (got " + std::to_string(media.size()) + ": " +
           join(media, ", ") + ")";
  }
  if (compute > gpu.compute_slices) {
    return "needs " + std::to_string(compute) + " compute slices; " + gpu.gpu_id + " has " +
           std::to_string(gpu.compute_slices);
  }
  return {};
}

/// Positions of `chosen` in placement order: most memory slices first, then the most constrained
/// (fewest starts); equal profiles adjacent so that the search can skip their permutations.
std::vector<std::size_t> placement_order(const std::vector<const MigProfile*>& chosen) {
  std::vector<std::size_t> position(chosen.size());
  for (std::size_t i = 0; i < position.size(); ++i) position[i] = i;
  std::stable_sort(position.begin(), position.end(), [&](std::size_t a, std::size_t b) {
    const MigProfile& x = *chosen[a];
    const MigProfile& y = *chosen[b];
    if (x.memory_slices != y.memory_slices) return x.memory_slices > y.memory_slices;
    if (x.placement_starts.size() != y.placement_starts.size())
      return x.placement_starts.size() < y.placement_starts.size();
    if (x.compute_slices != y.compute_slices) return x.compute_slices > y.compute_slices;
    return x.name < y.name;
  });
  return position;
}

/// The rule checks after name resolution, then the slot search.
MigPlacement place_profiles(const MigGpu& gpu, const std::vector<const MigProfile*>& chosen) {
  MigPlacement result;
  result.reason = counting_violation(gpu, chosen);
  if (!result.reason.empty()) return result;
  const std::vector<std::size_t> position = placement_order(chosen);
  std::vector<const MigProfile*> order;
  int memory = 0;
  for (std::size_t i : position) {
    order.push_back(chosen[i]);
    memory += chosen[i]->memory_slices;
  }
  SlotSearch search(order);
  if (!search.run()) {
    result.reason = collision_reason(gpu, order, search, memory);
    return result;
  }
  result.valid = true;
  result.instances.resize(chosen.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const MigProfile& p = *order[k];
    result.instances[position[k]] =
        MigInstance{p.name, search.starts()[k], p.memory_slices, p.compute_slices, p.num_sms, p.memory_gib};
  }
  for (const auto& instance : result.instances) {
    result.total_compute_slices += instance.compute_slices;
    result.total_sms += instance.num_sms;
    result.total_memory_gib += instance.memory_gib;
  }
  return result;
}

/// Compute slices and the GB figure of a name "<N>g.<M>gb[+me]"; {0, 0} for other shapes.
std::pair<int, int> name_figures(const std::string& name) {
  std::size_t i = 0;
  auto number = [&]() -> int {
    const std::size_t begin = i;
    while (i < name.size() && i - begin < 6 && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
    return i == begin ? -1 : std::stoi(name.substr(begin, i - begin));
  };
  const int compute = number();
  if (compute < 0 || name.compare(i, 2, "g.") != 0) return {0, 0};
  i += 2;
  const int gb = number();
  return gb < 0 ? std::pair{0, 0} : std::pair{compute, gb};
}

/// Splits one '+'-separated part "N x profile" / "N×profile" / "profile" into (count, name).
bool split_count(std::string_view part, int& count, std::string& name, std::string& error) {
  std::size_t digits = 0;
  while (digits < part.size() && std::isdigit(static_cast<unsigned char>(part[digits]))) ++digits;
  std::string_view rest = trim(part.substr(digits));
  std::size_t sign = 0;
  if (digits > 0 && (rest.starts_with('x') || rest.starts_with('X'))) sign = 1;
  if (digits > 0 && rest.starts_with(kTimes)) sign = kTimes.size();
  count = 1;
  name = std::string(part);
  if (sign == 0) return true;
  name = std::string(trim(rest.substr(sign)));
  if (name.empty()) {
    error = "missing profile after the count in \"" + std::string(part) + "\" (e.g. 7x1g.10gb)";
    return false;
  }
  if (digits > 3 || std::stoi(std::string(part.substr(0, digits))) > kMaxCount) {
    error = "count must be at most " + std::to_string(kMaxCount) + " in \"" + std::string(part) + "\"";
    return false;
  }
  count = std::stoi(std::string(part.substr(0, digits)));
  if (count < 1) {
    error = "count must be at least 1 in \"" + std::string(part) + "\"";
    return false;
  }
  return true;
}

/// The layouts of `valid` (instance counts per candidate) to which no candidate can be added, as
/// canonical text sorted by total compute slices (descending), then text.
std::vector<std::string> maximal_layouts(const std::set<std::vector<int>>& valid,
                                         const std::vector<const MigProfile*>& candidates) {
  std::vector<std::pair<int, std::string>> maximal;  // (total compute slices, canonical text)
  for (const auto& layout : valid) {
    bool extendable = false;
    for (std::size_t i = 0; i < layout.size() && !extendable; ++i) {
      auto bigger = layout;
      ++bigger[i];
      extendable = valid.count(bigger) > 0;
    }
    if (extendable) continue;
    std::vector<std::string> names;
    int compute = 0;
    for (std::size_t i = 0; i < layout.size(); ++i) {
      names.insert(names.end(), static_cast<std::size_t>(layout[i]), candidates[i]->name);
      compute += layout[i] * candidates[i]->compute_slices;
    }
    maximal.emplace_back(compute, canonical_mig_layout(std::move(names)));
  }
  std::sort(maximal.begin(), maximal.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::vector<std::string> out;
  out.reserve(maximal.size());
  for (auto& entry : maximal) out.push_back(std::move(entry.second));
  return out;
}

}  // namespace

std::vector<std::string> split_mig_layout(std::string_view text, std::string& error) {
  error.clear();
  if (trim(text).empty()) {
    error = "empty layout; " + kSyntaxHint;
    return {};
  }
  std::vector<std::string> names;
  std::size_t group_begin = 0;  // first name of the previous part (a count repeats it)
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(text.find('+', begin), text.size());
    const std::string_view part = trim(text.substr(begin, end - begin));
    if (part == "me" && !names.empty()) {
      // "1g.10gb+me" is one profile name, not two parts; "2x1g.10gb+me" is two of them.
      for (std::size_t i = group_begin; i < names.size(); ++i) names[i] += "+me";
    } else if (part.empty()) {
      error = "empty profile in \"" + std::string(text) + "\" (two '+' in a row, or one at an end)";
      return {};
    } else {
      int count = 0;
      std::string name;
      if (!split_count(part, count, name, error)) return {};
      group_begin = names.size();
      names.insert(names.end(), static_cast<std::size_t>(count), name);
    }
    if (end == text.size()) break;
    begin = end + 1;
  }
  return names;
}

MigPlacement place_mig_layout(const MigGpu& gpu, const std::vector<std::string>& profiles) {
  MigPlacement result;
  if (profiles.empty()) {
    result.reason = "empty layout; " + kSyntaxHint;
    return result;
  }
  std::vector<const MigProfile*> chosen;
  chosen.reserve(profiles.size());
  for (const auto& name : profiles) {
    const MigProfile* profile = gpu.find(name);
    if (!profile) {
      const auto names = gpu.profile_names();
      result.reason = "unknown MIG profile \"" + name + "\" for " + gpu.gpu_id + "; expected " + join(names, "|") +
                      did_you_mean_suffix(name, names);
      return result;
    }
    chosen.push_back(profile);
  }
  return place_profiles(gpu, chosen);
}

MigPlacement place_mig_layout(const MigGpu& gpu, std::string_view layout_text) {
  std::string error;
  const auto names = split_mig_layout(layout_text, error);
  if (!error.empty()) {
    MigPlacement result;
    result.reason = error;
    return result;
  }
  return place_mig_layout(gpu, names);
}

std::string canonical_mig_layout(std::vector<std::string> profiles) {
  // Within one GPU the GB figure of a name grows with its memory slices, so names alone order them.
  std::stable_sort(profiles.begin(), profiles.end(), [](const std::string& a, const std::string& b) {
    const auto fa = name_figures(a);
    const auto fb = name_figures(b);
    if (fa != fb) return fa > fb;
    return a < b;
  });
  return join(profiles, "+");
}

std::vector<std::string> enumerate_mig_layouts(const MigGpu& gpu, bool include_media_extensions) {
  std::vector<const MigProfile*> candidates;
  std::vector<int> bounds;  // most instances of each candidate that could ever fit
  for (const auto& profile : gpu.profiles) {
    if (profile.media_extensions && !include_media_extensions) continue;
    if (profile.compute_slices < 1 || profile.memory_slices < 1) continue;  // not a loadable profile
    candidates.push_back(&profile);
    bounds.push_back(std::min({profile.max_instances, gpu.compute_slices / profile.compute_slices,
                               gpu.memory_slots / profile.memory_slices}));
  }
  // Every count vector within the compute and memory budgets, kept when its placement is valid.
  std::set<std::vector<int>> valid;
  std::vector<int> counts(candidates.size(), 0);
  std::vector<const MigProfile*> chosen;
  auto visit = [&](auto&& self, std::size_t i, int compute, int memory) -> void {
    if (i == candidates.size()) {
      if (!chosen.empty() && place_profiles(gpu, chosen).valid) valid.insert(counts);
      return;
    }
    const MigProfile& p = *candidates[i];
    for (int k = 0; k <= bounds[i]; ++k) {
      if (compute + k * p.compute_slices > gpu.compute_slices || memory + k * p.memory_slices > gpu.memory_slots) break;
      counts[i] = k;
      chosen.insert(chosen.end(), static_cast<std::size_t>(k), &p);
      self(self, i + 1, compute + k * p.compute_slices, memory + k * p.memory_slices);
      chosen.resize(chosen.size() - static_cast<std::size_t>(k));
    }
    counts[i] = 0;
  };
  visit(visit, 0, 0, 0);
  return maximal_layouts(valid, candidates);
}

}  // namespace slicewise::models
