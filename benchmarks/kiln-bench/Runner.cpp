//===- Runner.cpp - kiln-bench's measurements on Google Benchmark --------===//
//
// Each group of cases (one kernel at one size: Kiln's variant and the
// reference's) is checked first; the cases that are right are warmed up,
// then registered with Google Benchmark, one benchmark per case with
// manual (GPU) time, one launch per iteration and one iteration per
// repetition, and run with their repetitions interleaved in random order
// (--benchmark_enable_random_interleaving), so that a slow moment of the
// machine hits both variants alike. Kiln's k-th repetition is paired with
// the reference's k-th; the median of those pairs' throughput ratios is the
// ratio the report trusts, beside the ratio of the best times.
//
// Google Benchmark's reporters (console, JSON, CSV) see every group through
// one Reporter, which adds each run's throughput and the ratios as
// counters, shows the aggregates on the console and writes everything to
// the files. With several devices listed, it also adds the multi-device
// counters: the device count, the aggregate throughput, each device's,
// device 0's alone and the scaling efficiency.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"
#include "Bench.h"
#include "MPI.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define KILN_BENCH_HAVE_CALLGRIND 1
#endif

namespace kiln {
namespace bench {

bool matchesFilter(const std::string &filter, const std::string &name) {
  if (filter.empty() || filter == "all")
    return true;
  bool negative = filter[0] == '-';
  std::regex re(negative ? filter.substr(1) : filter);
  return std::regex_search(name, re) != negative;
}

double Samples::best() const {
  return us.empty() ? NAN : *std::min_element(us.begin(), us.end());
}

double Samples::median() const {
  if (us.empty())
    return NAN;
  std::vector<double> v = us;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Samples::spreadPercent() const {
  if (us.size() < 2)
    return 0;
  auto [lo, hi] = std::minmax_element(us.begin(), us.end());
  return (*hi - *lo) / median() * 100;
}

/// Work per microsecond in the unit's scale: bytes -> GB/s, flops ->
/// GFLOP/s (both 1e3 per microsecond), launches -> thousands per second.
double Result::rate(double us) const {
  if (unit == "klaunch/s")
    return work / us * 1e3;
  return work / us / 1e3;
}
double Result::best() const { return rate(samples.best()); }
double Result::median() const { return rate(samples.median()); }
double Result::deviceRate(double us) const {
  Result one = *this;
  one.work = work / std::max(devices, 1);
  return one.rate(us);
}

double Result::efficiencyPaired() const {
  size_t n = std::min(alone.us.size(), samples.us.size());
  if (!multiDevice() || n == 0)
    return NAN;
  Samples ratios;
  for (size_t k = 0; k < n; ++k)
    ratios.us.push_back(alone.us[k] / samples.us[k]);
  return ratios.median();
}

double Result::efficiencyBest() const {
  if (!multiDevice() || alone.us.empty() || samples.us.empty())
    return NAN;
  return alone.best() / samples.best();
}

//===----------------------------------------------------------------------===//
// Progress
//===----------------------------------------------------------------------===//

Progress::Progress(size_t cases, size_t reps, bool quiet)
    : casesLeft(cases), repsPerCase(reps), quiet(quiet),
      start(std::chrono::steady_clock::now()), lastPrint(start) {}

void Progress::plan(size_t cases, size_t reps) {
  casesLeft -= std::min(casesLeft, cases);
  planned += cases * reps;
}

void Progress::repetition(const std::string &name) {
  ++done;
  auto now = std::chrono::steady_clock::now();
  double elapsed = std::chrono::duration<double>(now - start).count();
  double sincePrint = std::chrono::duration<double>(now - lastPrint).count();
  if (quiet || elapsed < 3 || sincePrint < 2)
    return;
  lastPrint = now;
  size_t total = std::max(planned + casesLeft * repsPerCase, done);
  double left = elapsed / double(done) * double(total - done);
  std::fprintf(stderr,
               "kiln-bench: %zu of %zu repetitions, %.0f s, about %.0f "
               "s left: %s\n",
               done, total, elapsed, left, name.c_str());
}

//===----------------------------------------------------------------------===//
// The reporter
//===----------------------------------------------------------------------===//

namespace {

using Run = benchmark::BenchmarkReporter::Run;

double fastest(const std::vector<double> &v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

/// The microseconds of `samples` that `run` reports: its repetition's, or
/// the statistic it is (NaN for the spread statistics).
double timeOf(const Run &run, const Samples &samples) {
  const std::vector<double> &us = samples.us;
  if (us.empty())
    return NAN;
  if (run.run_type == Run::RT_Iteration)
    return run.repetition_index >= 0 && size_t(run.repetition_index) < us.size()
               ? us[run.repetition_index]
               : NAN;
  if (run.aggregate_name == "mean") {
    double total = 0;
    for (double v : us)
      total += v;
    return total / double(us.size());
  }
  if (run.aggregate_name == "median")
    return samples.median();
  if (run.aggregate_name == "fastest")
    return samples.best();
  return NAN;
}

} // namespace

Reporter::Reporter(const Options &options, int devices, int ranks, bool quiet)
    : devices(devices), ranks(ranks), counting(options.countInstructions) {
  // Under mpirun the standard output is the launcher's pseudo-terminal
  // wherever it goes in the end: no colours.
  bool color = isatty(fileno(stdout)) && ranks == 0;
  console = std::make_unique<benchmark::ConsoleReporter>(
      color ? benchmark::ConsoleReporter::OO_ColorTabular
            : benchmark::ConsoleReporter::OO_Tabular);
  if (quiet) {
    // Another rank reports.
    console->SetOutputStream(&discard);
    console->SetErrorStream(&discard);
    return;
  }
  auto file = [&](const std::string &path,
                  std::unique_ptr<benchmark::BenchmarkReporter> reporter) {
    auto stream = std::make_unique<std::ofstream>(path);
    if (!*stream) {
      error = "cannot write '" + path + "'";
      return;
    }
    reporter->SetOutputStream(stream.get());
    // The CSV reporter repeats the context on its error stream; the
    // console has shown it already.
    reporter->SetErrorStream(&discard);
    files.push_back({std::move(stream), std::move(reporter), path});
  };
  if (!options.json.empty())
    file(options.json, std::make_unique<benchmark::JSONReporter>());
  if (!options.csv.empty()) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    file(options.csv, std::make_unique<benchmark::CSVReporter>());
#pragma GCC diagnostic pop
  }
}

Reporter::~Reporter() = default;

bool Reporter::ReportContext(const Context &context) {
  // Once for the whole run, although each group is a run of its own.
  if (contextReported)
    return true;
  contextReported = true;
  bool ok = console->ReportContext(context);
  for (File &f : files)
    ok &= f.reporter->ReportContext(context);
  return ok;
}

void Reporter::ReportRuns(const std::vector<Run> &runs) {
  pending.push_back(runs);
}

void Reporter::flush(const std::map<std::string, const Result *> &rows) {
  for (std::vector<Run> &runs : pending) {
    std::vector<Run> shown;
    for (Run &run : runs) {
      auto it = rows.find(run.run_name.function_name);
      const Result *r = it == rows.end() ? nullptr : it->second;
      bool timeStatistic = run.run_type == Run::RT_Iteration ||
                           (run.aggregate_unit == benchmark::kTime &&
                            run.aggregate_name != "stddev");
      if (r && !run.error_occurred && timeStatistic) {
        // The throughput at this run's time; GB/s as Google Benchmark's
        // bytes_per_second, flops and launches as items_per_second.
        double seconds = run.GetAdjustedRealTime() * 1e-6;
        double perSecond = seconds > 0 ? r->work / seconds : 0;
        run.counters[r->unit == "GB/s" ? "bytes_per_second"
                                       : "items_per_second"] = perSecond;
      }
      // The same columns on every row (CSV wants it): 0 where there is
      // no reference, and in the spread statistics (of a constant).
      auto value = [&](double v) {
        return std::isnan(v) || !timeStatistic ? 0.0 : v;
      };
      if (r) {
        run.counters["ratio_paired"] = value(r->ratioPaired);
        run.counters["ratio_best"] = value(r->ratioBest);
      }
      // --count-instructions: the shader instructions per launch, and this
      // variant's over the reference's (0 where there is none).
      if (r && counting) {
        auto count = [](double v) { return std::isnan(v) ? 0.0 : v; };
        run.counters["instructions"] = count(r->instructions);
        run.counters["instructions_ratio"] = count(r->instructionRatio);
      }
      // With several devices listed, every row has the multi-device
      // columns; a case on one device has devices 1 and zeros, and the
      // spread statistics have zeros. Throughputs are per second, in bytes
      // or flops as the row's own.
      bool multi = r && r->multiDevice() && !run.error_occurred;
      benchmark::UserCounters added;
      if (r && devices > 1) {
        auto perSecond = [&](double work, const Samples &samples) {
          return multi ? value(work / (timeOf(run, samples) * 1e-6)) : 0.0;
        };
        double share = r->work / std::max(r->devices, 1);
        added["devices"] = value(multi ? r->devices : 1);
        added["aggregate_per_second"] = perSecond(r->work, r->samples);
        for (int i = 0; i < devices; ++i)
          added["device" + std::to_string(i) + "_per_second"] =
              multi && i < r->devices ? perSecond(share, r->perDevice[i]) : 0.0;
        added["alone_per_second"] = perSecond(share, r->alone);
        added["efficiency"] = multi ? value(r->efficiencyPaired()) : 0.0;
        added["efficiency_best"] = multi ? value(r->efficiencyBest()) : 0.0;
      }
      // Under mpirun: the ranks, and the allreduce's bus bandwidth
      // (nccl-tests' busbw: algbw x 2(n-1)/n), as bytes per second.
      benchmark::UserCounters job;
      if (r && ranks > 0) {
        double seconds = run.GetAdjustedRealTime() * 1e-6;
        job["ranks"] = value(r->ranks);
        job["busbw_per_second"] =
            r->busFactor > 0 && seconds > 0 && !run.error_occurred
                ? value(r->work * r->busFactor / seconds)
                : 0.0;
      }
      for (const auto &[name, counter] : added)
        run.counters[name] = counter;
      for (const auto &[name, counter] : job)
        run.counters[name] = counter;
      // The console shows the statistics of each case, or its one
      // repetition when there is just one, and every error; the
      // multi-device columns only on the rows of several devices (under a
      // header of their own).
      if (run.error_occurred || run.run_type == Run::RT_Aggregate ||
          run.repetitions <= 1) {
        shown.push_back(run);
        if (!multi)
          for (const auto &entry : added)
            shown.back().counters.erase(entry.first);
        if (r && r->busFactor == 0)
          shown.back().counters.erase("busbw_per_second");
      }
    }
    if (!shown.empty())
      console->ReportRuns(shown);
    for (File &f : files)
      f.reporter->ReportRuns(runs);
  }
  pending.clear();
}

bool Reporter::finish(std::string &why) {
  console->Finalize();
  bool ok = true;
  for (File &f : files) {
    f.reporter->Finalize();
    f.stream->close();
    if (!*f.stream) {
      why = "cannot write '" + f.path + "'";
      ok = false;
    }
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Measuring a group
//===----------------------------------------------------------------------===//

namespace {

/// The median of Kiln's paired ratios over the reference: repetition k of
/// each, Kiln's throughput over the reference's.
double pairedRatio(const Samples &kiln, const Samples &reference) {
  size_t n = std::min(kiln.us.size(), reference.us.size());
  if (n == 0)
    return NAN;
  Samples ratios;
  for (size_t k = 0; k < n; ++k)
    ratios.us.push_back(reference.us[k] / kiln.us[k]);
  return ratios.median();
}

/// Runs `fn`, turning what it throws into a message; rethrows a failure
/// after which the device takes no more work.
template <typename F> std::string guarded(F &&fn) {
  try {
    return fn();
  } catch (const RuntimeFailure &failure) {
    if (failure.fatal())
      throw;
    return failure.what();
  } catch (const std::exception &e) {
    return e.what();
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Counting instructions
//===----------------------------------------------------------------------===//

/// Whether callgrind's object `name` holds shader code: "???" is code
/// outside any mapped file (a Vulkan driver's JIT-compiled shaders), and
/// spirv-cpu's kernels are compiled ahead of time into a library of their
/// own (its runtime's loop over the invocations is not counted).
static bool isShaderCode(const std::string &name) {
  return name == "???" ||
         name.find("/libkiln_bench_spirv_cpu_kernels.") != std::string::npos;
}

/// The instructions of the cost lines (callgrind's format: the line, then
/// Ir) of the objects that hold shader code. kiln-bench runs callgrind with
/// --compress-strings=no, so that every "ob=" line names its object in
/// full. The line after calls= is a call's inclusive cost, counted at its
/// callee already.
static double jitInstructions(std::istream &in) {
  std::string line, object;
  bool inclusive = false;
  double total = 0;
  while (std::getline(in, line)) {
    if (line.rfind("ob=", 0) == 0) {
      object = line.substr(3);
    } else if (line.rfind("calls=", 0) == 0) {
      inclusive = true;
    } else if (!line.empty() &&
               (std::isdigit((unsigned char)line[0]) || line[0] == '+' ||
                line[0] == '-' || line[0] == '*')) {
      if (!inclusive && isShaderCode(object)) {
        size_t space = line.find(' ');
        if (space != std::string::npos)
          total += std::strtod(line.c_str() + space + 1, nullptr);
      }
      inclusive = false;
    }
  }
  return total;
}

double countInstructions(const std::function<void()> &fn,
                         const std::string &name) {
#ifdef KILN_BENCH_HAVE_CALLGRIND
  // Set by kiln-bench when it starts itself under callgrind (Main.cpp):
  // the profile's file, beside which each dump writes "<file>.<number>".
  // The dump is found by its trigger, a name of its own, not by its
  // number: callgrind numbers every dump the process makes.
  static unsigned counted = 0;
  const char *out = std::getenv("KILN_BENCH_CALLGRIND_OUT");
  if (!out || !RUNNING_ON_VALGRIND)
    throw std::runtime_error("not running under kiln-bench's callgrind");
  std::string trigger = "kiln-bench-count-" + std::to_string(++counted);
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
  try {
    fn();
  } catch (...) {
    CALLGRIND_STOP_INSTRUMENTATION;
    throw;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT(trigger.c_str());
  std::filesystem::path file(out);
  std::string prefix = file.filename().string() + ".";
  std::string wanted = "desc: Trigger: Client Request: " + trigger;
  std::error_code ec;
  for (const auto &entry :
       std::filesystem::directory_iterator(file.parent_path(), ec)) {
    if (entry.path().filename().string().rfind(prefix, 0) != 0)
      continue;
    std::ifstream in(entry.path());
    std::string line;
    bool match = false;
    // The description lines come before the first cost line.
    for (int i = 0; i < 32 && std::getline(in, line); ++i)
      if (line == wanted) {
        match = true;
        break;
      }
    if (!match)
      continue;
    double total = jitInstructions(in);
    in.close();
    std::filesystem::remove(entry.path(), ec);
    return total;
  }
  throw std::runtime_error("callgrind wrote no profile for " + name +
                           " beside '" + file.string() + "'");
#else
  (void)fn;
  (void)name;
  throw std::runtime_error("kiln-bench was built without valgrind/callgrind.h");
#endif
}

bool measureGroup(Runtime &rt, const Options &options, Group &group,
                  Reporter &reporter, Progress &progress,
                  std::vector<Result> &results) {
  size_t first = results.size();
  std::vector<Case *> measured;
  std::vector<double> warm;
  for (Case &c : group.cases) {
    Result r;
    r.kernel = c.kernel;
    r.variant = c.variant;
    r.backend = rt.backend;
    r.size = c.size;
    r.unit = c.unit;
    r.work = c.work;
    r.devices = c.devices;
    r.perDevice.resize(std::max(c.devices, 0));
    // Checked before any timing: a wrong result is never a number.
    std::string error = guarded([&] { return c.check(); });
    double last = 0;
    if (error.empty())
      error = guarded([&] {
        for (unsigned i = 0; i < options.warmup; ++i)
          last = c.repeat();
        return std::string();
      });
    // The shader instructions of one more repetition, the pipelines
    // compiled and the caches warm.
    if (error.empty() && options.countInstructions)
      error = guarded([&] {
        r.instructions =
            countInstructions([&] { last = c.repeat(); }, r.name()) /
            std::max(c.launches, 1u);
        return std::string();
      });
    if (!error.empty()) {
      r.failed = true;
      r.error = error;
      // Under mpirun the ranks agreed on the error; rank 0 tells it.
      if (!rt.mpi || rt.mpi->rank() == 0)
        std::fprintf(stderr, "kiln-bench: %s FAILED: %s\n", r.name().c_str(),
                     error.c_str());
    } else {
      measured.push_back(&c);
      warm.push_back(last);
    }
    r.ranks = c.ranks;
    r.busFactor = c.busFactor;
    results.push_back(std::move(r));
  }
  if (measured.empty())
    return true;

  // As many repetitions as --max-seconds allows the slowest case, at least
  // 3 (unless --reps asks for fewer), the same for every case so that each
  // has a partner.
  double slowest = *std::max_element(warm.begin(), warm.end());
  unsigned reps = options.reps;
  if (slowest > 0) {
    double fit = options.maxSeconds / (slowest * 1e-6);
    reps = unsigned(std::min(double(options.reps), std::max(3.0, fit)));
  }
  progress.plan(measured.size(), reps);

  std::map<std::string, const Result *> rows;
  bool fatal = false;
  for (size_t i = 0; i < group.cases.size(); ++i) {
    Result &r = results[first + i];
    if (r.failed)
      continue;
    Case *c = &group.cases[i];
    std::string name = r.name();
    rows[name] = &r;
    benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
        name.c_str(),
        [c, &r, &progress, &fatal, name](benchmark::State &state) {
          for (auto _ : state) {
            if (fatal) {
              state.SkipWithError("the device stopped taking work");
              break;
            }
            double us = 0;
            std::string error;
            try {
              error = guarded([&] {
                us = c->repeat();
                return std::string();
              });
            } catch (const RuntimeFailure &failure) {
              error = failure.what();
              fatal = true;
            }
            if (!error.empty() || fatal) {
              r.failed = true;
              r.error = error;
              state.SkipWithError(r.error.c_str());
              break;
            }
            state.SetIterationTime(us * 1e-6);
            r.samples.us.push_back(us);
            if (c->round) {
              r.alone.us.push_back(c->round->aloneUs);
              for (size_t i = 0; i < r.perDevice.size(); ++i)
                r.perDevice[i].us.push_back(c->round->deviceUs[i]);
            }
            progress.repetition(name);
          }
        });
    b->UseManualTime()
        ->Iterations(1)
        ->Repetitions(int(reps))
        ->Unit(benchmark::kMicrosecond)
        ->ComputeStatistics("fastest", fastest);
  }
  try {
    benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  } catch (...) {
    benchmark::ClearRegisteredBenchmarks();
    throw;
  }
  benchmark::ClearRegisteredBenchmarks();

  // The ratios of Kiln's case to the reference's.
  const char *reference = Result::referenceVariant(rt.backend);
  Result *kiln = nullptr, *ref = nullptr;
  for (size_t i = first; i < results.size(); ++i) {
    if (results[i].failed || results[i].samples.us.empty())
      continue;
    if (results[i].isKiln())
      kiln = &results[i];
    else if (results[i].variant == reference)
      ref = &results[i];
  }
  // Every variant's instructions over the reference's.
  if (ref && ref->instructions > 0)
    for (size_t i = first; i < results.size(); ++i)
      if (&results[i] != ref && results[i].instructions > 0)
        results[i].instructionRatio =
            results[i].instructions / ref->instructions;
  if (kiln && ref) {
    kiln->ratioOf = reference;
    kiln->ratioBest = ref->samples.best() / kiln->samples.best();
    kiln->ratioPaired = pairedRatio(kiln->samples, ref->samples);
  }
  // Other variants of Kiln's kernel (its buffers bound by address) against
  // Kiln's.
  for (size_t i = first; kiln && i < results.size(); ++i) {
    Result &r = results[i];
    if (r.failed || r.samples.us.empty() || r.isKiln() ||
        r.variant == reference)
      continue;
    r.ratioOf = "kiln";
    r.ratioBest = kiln->samples.best() / r.samples.best();
    r.ratioPaired = pairedRatio(r.samples, kiln->samples);
  }
  // Cases measured against another variant's earlier group (the allreduce
  // of device buffers against that of host buffers).
  for (size_t i = first; i < results.size(); ++i) {
    Result &r = results[i];
    const std::string &against = group.cases[i - first].against;
    if (against.empty() || r.failed || r.samples.us.empty())
      continue;
    for (size_t j = 0; j < first; ++j) {
      const Result &o = results[j];
      if (o.failed || o.samples.us.empty() || o.variant != against ||
          o.kernel != r.kernel || o.backend != r.backend || o.size != r.size)
        continue;
      r.ratioOf = against;
      r.ratioBest = o.samples.best() / r.samples.best();
      r.ratioPaired = pairedRatio(r.samples, o.samples);
    }
  }
  reporter.flush(rows);
  for (size_t i = first; i < results.size(); ++i)
    if (results[i].failed) {
      results[i].samples.us.clear();
      results[i].alone.us.clear();
      for (Samples &device : results[i].perDevice)
        device.us.clear();
    }
  return !fatal;
}

} // namespace bench
} // namespace kiln
