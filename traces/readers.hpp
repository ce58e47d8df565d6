// Factories of the format readers (internal to sw_traces; use open_trace).
#pragma once

#include <memory>
#include <string>

#include "traces/trace_reader.hpp"

namespace slicewise::traces {

std::unique_ptr<TraceReader> open_azure_llm(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_mooncake(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_burstgpt(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_genai(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_openb_pods(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_openb_nodes(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_pai_task(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_pai_sensor(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_philly(const std::string& path, const ReadOptions& options);
std::unique_ptr<TraceReader> open_native(const std::string& path, const ReadOptions& options);

}  // namespace slicewise::traces
