// bench/main.cpp — runs the pebble / Box2D 2.4.1 benchmark pairs with Google Benchmark's usual
// flags (--benchmark_repetitions, --benchmark_min_time, --benchmark_filter, --benchmark_format,
// --benchmark_out, ...) and ends with a Markdown table of median real times and their ratios.
// One flag of its own: --pebble_table_time=cpu builds the table from CPU time instead, which
// leaves out the time the process spent descheduled on a busy machine.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace bench {

std::vector<Pair>& pairs() {
  static std::vector<Pair> list;
  return list;
}

}  // namespace bench

namespace {

/// Per benchmark: the median time per iteration (one query) in nanoseconds.
struct Timing {
  double ns = 0;       // the time the table shows (real or CPU)
  double real_ns = 0;  // both, to tell a busy machine: real time > CPU time means descheduled
  double cpu_ns = 0;
  bool is_median = false;  // from the "median" aggregate rather than a single run
  long long repetitions = 1;
};

/// Forwards everything to the reporter the flags asked for, and keeps the median time of each
/// benchmark: the "median" aggregate when --benchmark_repetitions > 1, else the one run.
class MedianCollector final : public benchmark::BenchmarkReporter {
public:
  MedianCollector(std::unique_ptr<benchmark::BenchmarkReporter> inner, bool cpu_time)
      : inner_(std::move(inner)), cpu_time_(cpu_time) {}

  bool ReportContext(const Context& context) override { return inner_->ReportContext(context); }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const double to_ns = 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
      const double real_ns = run.GetAdjustedRealTime() * to_ns, cpu_ns = run.GetAdjustedCPUTime() * to_ns;
      const Timing measured{cpu_time_ ? cpu_ns : real_ns, real_ns, cpu_ns, false, run.repetitions};
      Timing& timing = timings_[run.run_name.function_name];
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") {
        timing = measured;
        timing.is_median = true;
      } else if (run.run_type == Run::RT_Iteration && !timing.is_median) {
        timing = measured;
      }
    }
    inner_->ReportRuns(runs);
  }

  void Finalize() override { inner_->Finalize(); }

  const std::map<std::string, Timing>& timings() const { return timings_; }

private:
  std::unique_ptr<benchmark::BenchmarkReporter> inner_;
  bool cpu_time_;
  std::map<std::string, Timing> timings_;
};

/// The value of --name=value in argv, or fallback. Read before benchmark::Initialize, which
/// removes the flags it knows.
std::string flag_value(int argc, char** argv, const char* name, const char* fallback) {
  const std::string prefix = std::string("--") + name + "=";
  std::string value = fallback;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) value = argv[i] + prefix.size();
  }
  return value;
}

/// The display reporter Google Benchmark would pick for --benchmark_format and --benchmark_color.
std::unique_ptr<benchmark::BenchmarkReporter> display_reporter(int argc, char** argv) {
  const std::string format = flag_value(argc, argv, "benchmark_format", "console");
  if (format == "json") return std::make_unique<benchmark::JSONReporter>();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // 1.7.1 marks CSV as deprecated
  if (format == "csv") return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  const std::string color = flag_value(argc, argv, "benchmark_color", "auto");
  const char* term = std::getenv("TERM");
  const bool tty_color = isatty(STDOUT_FILENO) && term != nullptr && std::strcmp(term, "dumb") != 0;
  const bool use_color = color == "auto" ? tty_color : (color == "true" || color == "yes" || color == "1");
  const bool tabular = flag_value(argc, argv, "benchmark_counters_tabular", "false") == "true";
  int options = benchmark::ConsoleReporter::OO_None;
  if (use_color) options |= benchmark::ConsoleReporter::OO_Color;
  if (tabular) options |= benchmark::ConsoleReporter::OO_Tabular;
  return std::make_unique<benchmark::ConsoleReporter>(static_cast<benchmark::ConsoleReporter::OutputOptions>(options));
}

/// Removes --name=value from argv (for flags Google Benchmark does not know) and returns value,
/// or fallback when absent.
std::string take_flag(int& argc, char** argv, const char* name, const char* fallback) {
  const std::string value = flag_value(argc, argv, name, fallback);
  const std::string prefix = std::string("--") + name + "=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) != 0) argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return value;
}

/// The Markdown table: one row per pair that ran, ratio < 1 means pebble is faster.
void print_table(std::FILE* out, const std::map<std::string, Timing>& timings, bool cpu_time) {
  if (timings.empty()) return;  // nothing ran (--benchmark_list_tests, a filter matching nothing)
  long long repetitions = 0;
  bool all_medians = true;
  double worst_wait = 1;  // largest real / CPU time: 1 on an idle machine
  for (const auto& [name, timing] : timings) {
    repetitions = std::max(repetitions, timing.repetitions);
    all_medians = all_medians && timing.is_median;
    if (timing.cpu_ns > 0) worst_wait = std::max(worst_wait, timing.real_ns / timing.cpu_ns);
  }
  std::fprintf(out, "\n%s %s time per query, ns (%lld repetition%s); ratio < 1: pebble is faster\n",
               all_medians ? "Median" : "Single-run", cpu_time ? "CPU" : "real", repetitions,
               repetitions == 1 ? "" : "s");
  std::fprintf(out, "pebble's contact queries ran their %s copy (pebble/simd.hpp; PEBBLE_SIMD=sse2 picks SSE2)\n\n",
               pebble::simd_path_name(pebble::simd_path()));
  std::fprintf(out, "| query | pebble ns | Box2D ns | ratio pebble/Box2D |\n");
  std::fprintf(out, "|---|---:|---:|---:|\n");
  for (const bench::Pair& pair : bench::pairs()) {
    const auto pebble = timings.find(pair.name + "/pebble");
    const auto box2d = timings.find(pair.name + "/box2d");
    if (pebble == timings.end() && box2d == timings.end()) continue;
    char pebble_ns[32] = "-", box2d_ns[32] = "-", ratio[32] = "-";
    if (pebble != timings.end()) std::snprintf(pebble_ns, sizeof pebble_ns, "%.1f", pebble->second.ns);
    if (box2d != timings.end()) std::snprintf(box2d_ns, sizeof box2d_ns, "%.1f", box2d->second.ns);
    if (pebble != timings.end() && box2d != timings.end() && box2d->second.ns > 0) {
      std::snprintf(ratio, sizeof ratio, "%.2f", pebble->second.ns / box2d->second.ns);
    }
    std::fprintf(out, "| %s | %s | %s | %s |\n", pair.label.c_str(), pebble_ns, box2d_ns, ratio);
  }
  if (!cpu_time && worst_wait > 1.1) {
    std::fprintf(out,
                 "\nThe machine was busy: one median real time is %.0f%% above its CPU time, so the process\n"
                 "waited for a core. Rerun on an idle machine, or pass --pebble_table_time=cpu.\n",
                 100 * (worst_wait - 1));
  }
}

}  // namespace

int main(int argc, char** argv) {
  bench::register_foundation_benchmarks();
  bench::register_contact_benchmarks();
  bench::register_cast_benchmarks();
  bench::register_world_benchmarks();
  bench::register_primitives_benchmarks();
  bench::register_terrain_benchmarks();
  bench::register_tiles_benchmarks();
  bench::register_decompose_benchmarks();
  bench::register_scene_benchmarks();
  bench::register_mover_benchmarks();
  bench::register_batch_benchmarks();

  const std::string table_time = take_flag(argc, argv, "pebble_table_time", "real");
  if (table_time != "real" && table_time != "cpu") {
    std::fprintf(stderr, "pebble_bench: --pebble_table_time must be real or cpu, not '%s'\n", table_time.c_str());
    return 1;
  }
  const bool cpu_time = table_time == "cpu";
  std::unique_ptr<benchmark::BenchmarkReporter> inner = display_reporter(argc, argv);
  const bool console = dynamic_cast<benchmark::ConsoleReporter*>(inner.get()) != nullptr;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  MedianCollector collector(std::move(inner), cpu_time);
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::Shutdown();
  // The table goes to stdout after console output, to stderr when stdout carries JSON or CSV.
  print_table(console ? stdout : stderr, collector.timings(), cpu_time);
  return 0;
}
