// B2: reading the Azure LLM 2023 format. Writes a synthetic file in that exact format (7-digit
// fractions, sorted, no trailing newline) of N rows, then reads it with the azure-llm reader and,
// as a baseline in the same run, with a bare memchr line count over the same bytes. Also reports
// the peak RSS after reading, which must not grow with N (run it with two sizes).
//   sw_trace_read_bench [--rows N] [--repeat R] [--keep FILE]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "traces/trace_reader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string write_trace(const std::string& path, long rows) {
  std::ofstream out(path, std::ios::binary);
  out << "TIMESTAMP,ContextTokens,GeneratedTokens\n";
  std::uint64_t x = 88172645463325252ULL;  // xorshift: deterministic token counts
  long long ticks = 0;                     // 100 ns ticks since 2023-11-16 18:00:00
  char line[96];
  for (long i = 0; i < rows; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ticks += 1 + static_cast<long long>(x % 3'000'000);    // mean 0.15 s apart
    const long long s = 18LL * 3600 + ticks / 10'000'000;  // seconds since 2023-11-16 00:00 (days stay in November)
    const int n = std::snprintf(line, sizeof line, "2023-11-%02lld %02lld:%02lld:%02lld.%07lld,%llu,%llu%s",
                                16 + s / 86400, s / 3600 % 24, s / 60 % 60, s % 60, ticks % 10'000'000,
                                static_cast<unsigned long long>(2 + x % 8000),
                                static_cast<unsigned long long>(6 + (x >> 20) % 1000), i + 1 < rows ? "\n" : "");
    out.write(line, n);
  }
  return path;
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int main(int argc, char** argv) {
  long rows = 2'000'000;
  int repeat = 5;
  std::string keep;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rows") == 0) rows = static_cast<long>(std::atof(argv[i + 1]));
    if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--keep") == 0) keep = argv[i + 1];
  }
  const std::string path =
      keep.empty() ? (std::filesystem::temp_directory_path() / "sw_azure_bench.csv").string() : keep;
  if (keep.empty() || !std::filesystem::exists(path)) write_trace(path, rows);
  const double bytes = static_cast<double>(std::filesystem::file_size(path));
  std::printf("B2: %ld rows, %.1f MB, azure-llm format\n", rows, bytes / 1e6);
  std::vector<double> base, reader_rate, ratio;
  for (int r = 0; r < repeat; ++r) {
    // Baseline: count lines with memchr over 1 MiB fread blocks.
    auto t0 = Clock::now();
    long lines = 0;
    {
      std::FILE* f = std::fopen(path.c_str(), "rb");
      std::vector<char> buffer(1 << 20);
      std::size_t n = 0;
      while ((n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0) {
        for (const char* p = buffer.data(); (p = static_cast<const char*>(std::memchr(p, '\n', buffer.data() + n - p)));
             ++p)
          ++lines;
      }
      std::fclose(f);
    }
    const double base_s = seconds_since(t0);
    t0 = Clock::now();
    auto reader = slicewise::traces::open_trace(path, slicewise::traces::TraceFormat::azure_llm);
    slicewise::traces::TraceRow row;
    long read = 0;
    double tokens = 0.0;
    while (reader->next(row)) {
      ++read;
      tokens += row.prompt_tokens;
    }
    const double reader_s = seconds_since(t0);
    if (read != rows || lines != rows) {
      std::fprintf(stderr, "row count mismatch: %ld read, %ld lines, %ld written\n", read, lines, rows);
      return 1;
    }
    base.push_back(static_cast<double>(rows) / base_s);
    reader_rate.push_back(static_cast<double>(rows) / reader_s);
    ratio.push_back(reader_s / base_s);
    std::printf("run %d: baseline %.2f M lines/s, reader %.2f M rows/s, ratio %.1f (checksum %.0f)\n", r + 1,
                base.back() / 1e6, reader_rate.back() / 1e6, ratio.back(), tokens);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("median: baseline %.2f M lines/s, reader %.2f M rows/s, reader/baseline time %.1f\n", median(base) / 1e6,
              median(reader_rate) / 1e6, median(ratio));
  std::printf("peak RSS: %ld KiB\n", peak_rss_kib());
  if (keep.empty()) std::filesystem::remove(path);
  return 0;
}
