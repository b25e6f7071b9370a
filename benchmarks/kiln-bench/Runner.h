//===- Runner.h - kiln-bench's measurements on Google Benchmark -*- C++ -*-===//
//
// The pieces Runner.cpp shares with Main.cpp: the reporter that stands
// between Google Benchmark and its console, JSON and CSV reporters, the
// progress lines, and the measurement of one group of cases.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_KILNBENCH_RUNNER_H
#define KILN_BENCHMARKS_KILNBENCH_RUNNER_H

#include "Bench.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kiln {
namespace bench {

/// Progress on stderr, once a run has lasted a few seconds: repetitions
/// done of those planned, and an estimate of the time left.
class Progress {
public:
  /// `cases` cases are expected, `reps` repetitions each; `quiet`: print
  /// nothing (another rank of the MPI job does).
  Progress(size_t cases, size_t reps, bool quiet = false);
  /// `cases` of the expected cases get `reps` repetitions each.
  void plan(size_t cases, size_t reps);
  /// One repetition of `name` is done.
  void repetition(const std::string &name);

private:
  size_t casesLeft, repsPerCase, planned = 0, done = 0;
  bool quiet;
  std::chrono::steady_clock::time_point start, lastPrint;
};

/// Google Benchmark's reporter for every group of the run: reports the
/// context once, holds a group's runs until its ratios are known, then adds
/// each run's throughput (bytes_per_second for GB/s, items_per_second for
/// flops and launches) and the ratios (ratio_paired, ratio_best; 0 where
/// there is no reference) and hands them on: the aggregates to the
/// console, everything to the --json and --csv files. When a runtime has
/// `devices` > 1 devices, every row also gets the multi-device counters
/// (devices, aggregate_per_second, device<i>_per_second for i <
/// `devices`, alone_per_second, efficiency, efficiency_best; 1 and zeros
/// on the rows of one device). Under mpirun (`ranks` > 0) every row also
/// gets ranks and busbw_per_second (the allreduce's bus bandwidth; 0 on the
/// other rows), and every rank but rank 0 is `quiet`: no console, no files.
class Reporter : public benchmark::BenchmarkReporter {
public:
  Reporter(const Options &options, int devices, int ranks = 0,
           bool quiet = false);
  ~Reporter() override;
  /// Why a file could not be opened, if one could not.
  std::string error;

  bool ReportContext(const Context &context) override;
  void ReportRuns(const std::vector<Run> &runs) override;
  /// Hands on the held runs; `rows` gives each benchmark's result by name.
  void flush(const std::map<std::string, const Result *> &rows);
  /// Ends the reports and closes the files; false (with `why`) when one
  /// could not be written.
  bool finish(std::string &why);

private:
  struct File {
    std::unique_ptr<std::ofstream> stream;
    std::unique_ptr<benchmark::BenchmarkReporter> reporter;
    std::string path;
  };
  std::unique_ptr<benchmark::BenchmarkReporter> console;
  /// Where the file reporters' messages go.
  std::ofstream discard;
  std::vector<File> files;
  std::vector<std::vector<Run>> pending;
  bool contextReported = false;
  int devices, ranks;
  bool counting;
};

/// Under callgrind (--count-instructions): the instructions the shader
/// code executed while `fn` ran (code outside any mapped file, a Vulkan
/// driver's JIT-compiled shaders, or spirv-cpu's kernel library), read
/// back from the profile dumped right after it; throws std::runtime_error
/// when the profile cannot be read.
double countInstructions(const std::function<void()> &fn,
                         const std::string &name);

/// Checks the cases of `group`, warms up those that are right, measures
/// them as described in Runner.cpp and appends a result per case (failed
/// ones included) to `results`; a case's ratios `against` another variant
/// are taken over that variant's earlier result. Returns false when the device
/// stopped taking work (lost, or past its timeout).
bool measureGroup(Runtime &rt, const Options &options, Group &group,
                  Reporter &reporter, Progress &progress,
                  std::vector<Result> &results);

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_KILNBENCH_RUNNER_H
