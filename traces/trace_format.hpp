// The trace formats slicewise reads, their names for --format and the scenario, and detection.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slicewise::traces {

enum class TraceFormat {
  azure_llm,   ///< Azure LLM inference 2023/2024, multimodal 2025 (TIMESTAMP,[NumImages,]ContextTokens,GeneratedTokens)
  mooncake,    ///< Mooncake FAST'25 JSON Lines (timestamp ms, input_length, output_length)
  burstgpt,    ///< BurstGPT v1/v2 and v3 (columns by header name)
  openb_pods,  ///< Alibaba v2023 openb pod list (also the 5-column multigpu files)
  openb_nodes,  ///< Alibaba v2023 openb node list (a fleet, not load)
  pai_task,     ///< Alibaba PAI v2020 task table (header-less)
  pai_sensor,   ///< Alibaba PAI v2020 sensor table (header-less; workload parameters, not load)
  genai_2026,   ///< Alibaba GenTD26 Stable Diffusion serving requests
  philly,       ///< Microsoft Philly cluster_job_log (one JSON array)
  native,       ///< slicewise's own CSV (docs/trace-formats.md)
};

/// What a reader does with a malformed row: stop with a message naming the line, or count the row
/// and go on.
enum class BadRowPolicy { fail, skip };
/// "fail" | "skip", as the scenario's load.on_bad_row and the CLI's --on-bad-row spell them.
const std::vector<std::pair<std::string, BadRowPolicy>>& bad_row_policy_table();
/// The table's names, in order.
std::vector<std::string> bad_row_policy_names();
std::optional<BadRowPolicy> bad_row_policy_from_string(std::string_view name);

/// "azure-llm", "mooncake", ...
std::string_view to_string(TraceFormat format);
/// Every format name, in declaration order.
const std::vector<std::string>& trace_format_names();
std::optional<TraceFormat> trace_format_from_string(std::string_view name);
/// False for formats whose files need not be in arrival order (openb variants, PAI, Philly):
/// their rows are sorted before replay.
bool formats_sorted(TraceFormat format);
/// False for formats that describe machines or per-instance averages rather than arrivals
/// (openb-nodes, pai-sensor).
bool carries_load(TraceFormat format);

/// The format of `path` from its first line (decompressed) and its name. Throws TraceError naming
/// the allowed --format values when it cannot tell.
TraceFormat detect_format(const std::string& path);

}  // namespace slicewise::traces
