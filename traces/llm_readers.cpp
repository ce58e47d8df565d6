// Readers of request-level inference traces: Azure LLM (2023, 2024, multimodal 2025), BurstGPT,
// Mooncake and Alibaba GenTD26. ../shared/traces/README.md lists the gotchas handled here.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "traces/csv_trace_reader.hpp"
#include "traces/readers.hpp"

namespace slicewise::traces {

namespace {

constexpr auto kMaxTokenCount = static_cast<std::int64_t>(kMaxTokens);

/// TIMESTAMP,[NumImages,]ContextTokens,GeneratedTokens. Three timestamp styles: 2023 has 7
/// fractional digits; 2024 has +00:00 and leaves the fraction out when it is zero; 2025 is ISO-8601
/// with Z. parse_datetime_ns takes all three.
class AzureLlmReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;
  bool absolute_time() const override { return true; }

 private:
  void bind(const CsvHeader& h) override {
    timestamp_ = require(h, "TIMESTAMP");
    context_ = require(h, "ContextTokens");
    generated_ = require(h, "GeneratedTokens");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.at_s = since_epoch_s(parse_datetime_field(f[timestamp_], "TIMESTAMP", at));
    row.prompt_tokens = static_cast<double>(parse_count(f[context_], "ContextTokens", at, kMaxTokenCount));
    row.output_tokens = static_cast<double>(parse_count(f[generated_], "GeneratedTokens", at, kMaxTokenCount));
  }
  std::size_t timestamp_ = 0, context_ = 0, generated_ = 0;
};

/// Timestamp,[Session ID,Elapsed time,]Model,Request tokens,Response tokens,Total tokens,Log Type.
/// Timestamp is whole seconds from the first day's midnight. Response tokens == 0 marks a failed
/// request: kept (prefill only) and counted.
class BurstGptReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    timestamp_ = require(h, "Timestamp");
    request_ = require(h, "Request tokens");
    response_ = require(h, "Response tokens");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.at_s = parse_seconds(f[timestamp_], "Timestamp", at);
    row.prompt_tokens = static_cast<double>(parse_count(f[request_], "Request tokens", at, kMaxTokenCount));
    row.output_tokens = static_cast<double>(parse_count(f[response_], "Response tokens", at, kMaxTokenCount));
    row.failed = row.output_tokens == 0.0;
  }
  std::size_t timestamp_ = 0, request_ = 0, response_ = 0;
};

/// gmt_create,predict_type,predict_status,exec_time_seconds,... gmt_create has 1 s resolution and
/// no zone; exec_time_seconds is the request's run time. FAILED requests are marked.
class GenAiReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;
  bool absolute_time() const override { return true; }

 private:
  void bind(const CsvHeader& h) override {
    created_ = require(h, "gmt_create");
    status_ = require(h, "predict_status");
    exec_ = require(h, "exec_time_seconds");
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    row.at_s = since_epoch_s(parse_datetime_field(f[created_], "gmt_create", at));
    row.duration_s = parse_seconds(f[exec_], "exec_time_seconds", at);
    row.failed = trim(f[status_]) == "FAILED";
  }
  std::size_t created_ = 0, status_ = 0, exec_ = 0;
};

/// One JSON object per line: timestamp (ms from the trace start), input_length, output_length,
/// hash_ids. Many requests share one timestamp (arrivals bucketed at about 3 s).
class MooncakeReader final : public TraceReader {
  /// Tokens per hash_ids block (the Mooncake release's README; ceil(input_length / 512) ids a row).
  static constexpr double kBlockTokens = 512.0;

 public:
  MooncakeReader(std::string path, const ReadOptions& options)
      : TraceReader(path, TraceFormat::mooncake, options), lines_(std::move(path)) {}

 private:
  bool read_row(TraceRow& row) override {
    std::string_view line;
    do {
      if (!lines_.next(line)) return false;
    } while (trim(line).empty());
    const FieldContext at{&path_, lines_.line_number()};
    const auto doc = parse_line(line, at);
    row = TraceRow{};
    row.line = at.line;
    row.at_s = field(doc, "timestamp", at, kMaxTraceSeconds * 1000.0) / 1000.0;
    row.prompt_tokens = field(doc, "input_length", at, kMaxTokens);
    row.output_tokens = field(doc, "output_length", at, kMaxTokens);
    read_hashes(doc, row, at);
    if (!options_.key_column.empty()) {
      const auto it = doc.find(options_.key_column);
      if (it == doc.end()) {
        throw TraceError(path_, at.line, options_.key_column, "no such key to split by in this row");
      }
      row.key = it->is_string() ? it->get<std::string>() : it->dump();
    }
    return true;
  }

  /// The line as a JSON object; a syntax error, another type or a key given twice throws.
  nlohmann::json parse_line(std::string_view line, const FieldContext& at) const {
    std::vector<std::string> keys;  // of the top-level object: a handful
    std::string twice;
    auto track_keys = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
      if (event == nlohmann::json::parse_event_t::key && depth == 1 && twice.empty()) {
        auto key = parsed.get<std::string>();
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) twice = key;
        keys.push_back(std::move(key));
      }
      return true;
    };
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(line, track_keys);
    } catch (const nlohmann::json::exception& e) {
      std::string problem = json_problem(e);  // "line 1, column 7: syntax error ...": the line is always 1
      if (problem.starts_with("line 1, ")) problem.erase(0, 8);
      throw TraceError(path_, at.line, "", "expected one JSON object per line (" + problem + ")");
    }
    if (!doc.is_object()) throw TraceError(path_, at.line, "", "expected one JSON object per line, got " + doc.dump());
    if (!twice.empty()) throw TraceError(path_, at.line, twice, "key given twice (each key may appear once)");
    return doc;
  }

  /// hash_ids, when the row has them: one integer >= 0 per block of 512 prompt tokens.
  void read_hashes(const nlohmann::json& doc, TraceRow& row, const FieldContext& at) const {
    const auto it = doc.find("hash_ids");
    if (it == doc.end()) return;
    if (!it->is_array())
      throw TraceError(path_, at.line, "hash_ids", "expected an array of integers >= 0, got " + it->dump());
    const double blocks = std::ceil(row.prompt_tokens / kBlockTokens);
    if (static_cast<double>(it->size()) != blocks) {
      throw TraceError(path_, at.line, "hash_ids",
                       "expected one hash per block of 512 prompt tokens: " + format_number(blocks) + " for " +
                           format_number(row.prompt_tokens) + " tokens (got " + std::to_string(it->size()) + ")");
    }
    row.prefix_hashes.reserve(it->size());
    for (const auto& id : *it) {
      if (!id.is_number_unsigned()) {
        throw TraceError(path_, at.line, "hash_ids", "expected an array of integers >= 0, got " + id.dump() + " in it");
      }
      row.prefix_hashes.push_back(id.get<std::uint64_t>());
    }
    // A block's hash names its whole prefix, so one row cannot list it twice.
    auto sorted = row.prefix_hashes;
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
      throw TraceError(path_, at.line, "hash_ids",
                       std::to_string(*twice) + " is listed twice (a block's hash names its whole prefix: once a row)");
    }
    row.prefix_block_tokens = row.prefix_hashes.empty() ? 0.0 : kBlockTokens;
  }

  /// A number >= 0 and <= `max`.
  double field(const nlohmann::json& doc, const char* key, const FieldContext& at, double max) const {
    const auto it = doc.find(key);
    if (it == doc.end()) throw TraceError(path_, at.line, key, "missing");
    if (!it->is_number() || it->get<double>() < 0.0) {
      throw TraceError(path_, at.line, key, "expected a number >= 0, got " + it->dump());
    }
    if (it->get<double>() > max) {
      throw TraceError(path_, at.line, key, "must be <= " + format_number(max) + " (got " + it->dump() + ")");
    }
    return it->get<double>();
  }

  LineReader lines_;
};

}  // namespace

std::unique_ptr<TraceReader> open_azure_llm(const std::string& path, const ReadOptions& options) {
  return open_csv<AzureLlmReader>(path, TraceFormat::azure_llm, options);
}

std::unique_ptr<TraceReader> open_burstgpt(const std::string& path, const ReadOptions& options) {
  return open_csv<BurstGptReader>(path, TraceFormat::burstgpt, options);
}

std::unique_ptr<TraceReader> open_genai(const std::string& path, const ReadOptions& options) {
  return open_csv<GenAiReader>(path, TraceFormat::genai_2026, options);
}

std::unique_ptr<TraceReader> open_mooncake(const std::string& path, const ReadOptions& options) {
  return std::make_unique<MooncakeReader>(path, options);
}

}  // namespace slicewise::traces
