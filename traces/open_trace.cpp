// open_trace (trace_reader.hpp): the reader of each trace format.
#include "core/error.hpp"
#include "traces/readers.hpp"
#include "traces/trace_reader.hpp"

namespace slicewise::traces {

std::unique_ptr<TraceReader> open_trace(const std::string& path, std::optional<TraceFormat> format,
                                        const ReadOptions& options) {
  const TraceFormat f = format ? *format : detect_format(path);
  switch (f) {
    case TraceFormat::azure_llm: return open_azure_llm(path, options);
    case TraceFormat::mooncake: return open_mooncake(path, options);
    case TraceFormat::burstgpt: return open_burstgpt(path, options);
    case TraceFormat::openb_pods: return open_openb_pods(path, options);
    case TraceFormat::openb_nodes: return open_openb_nodes(path, options);
    case TraceFormat::pai_task: return open_pai_task(path, options);
    case TraceFormat::pai_sensor: return open_pai_sensor(path, options);
    case TraceFormat::genai_2026: return open_genai(path, options);
    case TraceFormat::philly: return open_philly(path, options);
    case TraceFormat::native: return open_native(path, options);
  }
  SW_CHECK(false, "unhandled trace format");
}

}  // namespace slicewise::traces
