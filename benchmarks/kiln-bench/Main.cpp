//===- Main.cpp - kiln-bench: GPU throughput of Kiln's kernels ------------===//
//
// kiln-bench [--backend=vulkan|cuda|spirv-cpu|all] [--device=A,B,...]
//            [--filter=REGEX] [--size=N] [--gemm-sizes=N,N,...]
//            [--reps=N] [--warmup=N] [--max-seconds=S] [--smoke]
//            [--json=FILE] [--csv=FILE] [--plot=FILE.svg|FILE.png] [--list]
//            [--mpi[=openmpi|mpich]] [--allreduce-sizes=N,N,...]
//            [--count-instructions] [--benchmark_...]
//
// Runs the kernels of benchmarks/kernels/ (compiled by Kiln at build time)
// next to hand-written references and the device's own copy on each
// backend, on Google Benchmark (Runner.cpp), checks every result and
// reports each case's throughput and Kiln's ratios to the references; with
// several devices listed, the stream and SGEMM kernels also run on all of
// them at once, with their aggregate throughput, each device's and the
// scaling efficiency. Under mpirun (MPI.h) each rank runs on its own
// device, and kiln-bench measures what the ranks do together: the stream
// kernels on every rank at once and the allreduce of host and device
// buffers; rank 0 reports. With --count-instructions it runs itself under
// callgrind and reports the instructions each case's shader code executes
// per launch on a CPU driver (Runner.cpp: countInstructions). Exit status: 0
// when everything that ran was correct, 1 when a result was wrong or a backend
// asked for by name is missing, 2 on a usage error.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "MPI.h"
#include "Runner.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

using namespace kiln::bench;

#include "Blobs.inc"

const Blob *kiln::bench::findBlob(const std::string &name) {
  for (const Blob &b : kBlobs)
    if (name == b.name)
      return &b;
  return nullptr;
}

static void usage(FILE *to) {
  std::fprintf(
      to,
      "usage: kiln-bench [options] [--benchmark_...]\n"
      "  --backend=vulkan|cuda|spirv-cpu|all\n"
      "                             backends to run (default all: Vulkan and "
      "CUDA where\n"
      "                             they have a device; spirv-cpu, the host "
      "CPU, when named)\n"
      "  --device=A,B,...           each backend's devices (as "
      "KILN_VULKAN_DEVICE /\n"
      "                             KILN_CUDA_DEVICE / "
      "KILN_SPIRV_CPU_DEVICE): an index,\n"
      "                             name or UUID each; with several, the "
      "stream and SGEMM\n"
      "                             kernels also run on all at once "
      "(kiln_xN)\n"
      "  --filter=REGEX             run the benchmarks whose "
      "kernel/variant/backend/size\n"
      "                             matches (a leading '-' excludes; as "
      "--benchmark_filter)\n"
      "  --size=N[K|M|G]            elements per stream array (default: 4x "
      "the last-level\n"
      "                             cache, at least 2^25)\n"
      "  --gemm-sizes=N,N,...       SGEMM sizes, multiples of 64 (default "
      "1024,2048,4096;\n"
      "                             256,512 on a CPU driver)\n"
      "  --reps=N                   timed repetitions (default 20; as "
      "--benchmark_repetitions)\n"
      "  --warmup=N                 untimed repetitions first (default 2)\n"
      "  --max-seconds=S            fewer repetitions where N would take "
      "longer than S\n"
      "                             seconds per case (at least 3; default "
      "5)\n"
      "  --smoke                    tiny sizes, one repetition, every kernel "
      "and reference\n"
      "  --json=FILE                Google Benchmark's JSON report (as "
      "--benchmark_out=FILE)\n"
      "  --csv=FILE                 Google Benchmark's CSV report\n"
      "  --plot=FILE.svg|FILE.png   chart of throughput and ratios "
      "(gnuplot)\n"
      "  --list                     print the benchmarks' names and exit\n"
      "  --count-instructions       count each case's shader instructions in "
      "one repetition\n"
      "                             under valgrind's callgrind (lavapipe or "
      "spirv-cpu)\n"
      "  --mpi[=openmpi|mpich]      run as a rank of an MPI job (default when "
      "mpirun's\n"
      "                             environment is there; Open MPI unless "
      "only MPICH's\n"
      "                             is): stream kernels on every rank at once "
      "(kiln_mpiN)\n"
      "                             and the f32 sum allreduce of host and "
      "device buffers\n"
      "  --allreduce-sizes=N,N,...  allreduce sizes in bytes, multiples of 4 "
      "(default 8 to\n"
      "                             256M in powers of 2, as the memory "
      "allows)\n"
      "  --benchmark_...            Google Benchmark's options, such as "
      "--benchmark_color=false;\n"
      "                             --benchmark_enable_random_interleaving "
      "is on unless set\n");
}

static bool parseCount(const char *text, uint64_t &value) {
  char *end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text)
    return false;
  if (*end == 'K' || *end == 'k')
    v <<= 10, ++end;
  else if (*end == 'M' || *end == 'm')
    v <<= 20, ++end;
  else if (*end == 'G' || *end == 'g')
    v <<= 30, ++end;
  if (*end || v == 0)
    return false;
  value = v;
  return true;
}

/// Parses kiln-bench's own options; Google Benchmark's (--benchmark_*) are
/// left in `rest` for it, but for those kiln-bench takes over: the output
/// file, its format, the filter, the repetitions and the list.
static bool parseOptions(int argc, char **argv, Options &o,
                         std::vector<char *> &rest) {
  rest.push_back(argv[0]);
  std::string outFormat = "json", outFile;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--smoke") == 0) {
      o.smoke = true;
      o.size = 4096 + 37; // not a multiple of the workgroup size
      o.gemmSizes = {64, 128};
      o.reps = 1;
      o.warmup = 1;
      o.fmaThreads = 4096;
      o.fmaIterations = 8;
      o.launches = 10;
    }
  o.backends = {"vulkan", "cuda"};
  for (int i = 1; i < argc; ++i) {
    // Google Benchmark's names for kiln-bench's own options.
    std::string text = argv[i];
    for (auto [alias, own] :
         {std::pair("--benchmark_filter=", "--filter="),
          std::pair("--benchmark_repetitions=", "--reps="),
          std::pair("--benchmark_list_tests=true", "--list"),
          std::pair("--benchmark_list_tests", "--list")})
      if (text.rfind(alias, 0) == 0)
        text = own + text.substr(std::strlen(alias));
    const char *arg = text.c_str();
    auto value = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      if (std::strncmp(arg, name, n) == 0 && arg[n] == '=')
        return arg + n + 1;
      return nullptr;
    };
    uint64_t count = 0;
    if (std::strcmp(arg, "--smoke") == 0)
      continue;
    if (const char *v = value("--benchmark_out")) {
      outFile = v;
    } else if (const char *v = value("--benchmark_out_format")) {
      outFormat = v;
      if (outFormat != "json" && outFormat != "csv") {
        std::fprintf(stderr,
                     "kiln-bench: --benchmark_out_format='%s' must "
                     "be json or csv\n",
                     v);
        return false;
      }
    } else if (std::strncmp(arg, "--benchmark_", 12) == 0) {
      rest.push_back(argv[i]);
    } else if (std::strcmp(arg, "--list") == 0) {
      o.list = true;
    } else if (std::strcmp(arg, "--count-instructions") == 0) {
      o.countInstructions = true;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      usage(stdout);
      std::exit(0);
    } else if (const char *v = value("--backend")) {
      std::string b = v;
      if (b == "all")
        o.backends = {"vulkan", "cuda"};
      else if (b == "vulkan" || b == "cuda" || b == "spirv-cpu")
        o.backends = {b};
      else {
        std::fprintf(stderr,
                     "kiln-bench: unknown --backend='%s' (vulkan, "
                     "cuda, spirv-cpu or all)\n",
                     v);
        return false;
      }
      o.backendExplicit = b != "all";
    } else if (const char *v = value("--device")) {
      o.device = v;
    } else if (std::strcmp(arg, "--mpi") == 0) {
      o.mpiOption = "auto";
    } else if (const char *v = value("--mpi")) {
      o.mpiOption = v;
      if (o.mpiOption != "openmpi" && o.mpiOption != "mpich") {
        std::fprintf(stderr,
                     "kiln-bench: --mpi='%s' must be openmpi or mpich\n", v);
        return false;
      }
    } else if (const char *v = value("--allreduce-sizes")) {
      o.allreduceSizes.clear();
      std::string list = v;
      size_t start = 0;
      while (start <= list.size()) {
        size_t comma = list.find(',', start);
        std::string item = list.substr(start, comma - start);
        // A message of at most 2^31-1 elements: MPI's int count.
        if (!parseCount(item.c_str(), count) || count % 4 ||
            count / 4 >= (1ull << 31)) {
          std::fprintf(stderr,
                       "kiln-bench: allreduce size '%s' must be a number of "
                       "bytes, a multiple of 4 below 8G (suffixes K, M, G)\n",
                       item.c_str());
          return false;
        }
        o.allreduceSizes.push_back(count);
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (const char *v = value("--filter")) {
      o.filter = v;
      try {
        matchesFilter(o.filter, "");
      } catch (const std::regex_error &e) {
        std::fprintf(stderr,
                     "kiln-bench: --filter='%s' is not a regular "
                     "expression: %s\n",
                     v, e.what());
        return false;
      }
    } else if (const char *v = value("--size")) {
      if (!parseCount(v, o.size) || o.size >= (1ull << 31)) {
        std::fprintf(stderr,
                     "kiln-bench: --size='%s' must be a count of "
                     "elements from 1 to 2^31-1 (suffixes K, M, G)\n",
                     v);
        return false;
      }
    } else if (const char *v = value("--gemm-sizes")) {
      o.gemmSizes.clear();
      std::string list = v;
      size_t start = 0;
      while (start <= list.size()) {
        size_t comma = list.find(',', start);
        std::string item = list.substr(start, comma - start);
        if (!item.empty()) {
          if (!parseCount(item.c_str(), count) || count % 64 || count > 32768) {
            std::fprintf(stderr,
                         "kiln-bench: SGEMM size '%s' must be a "
                         "multiple of 64 up to 32768\n",
                         item.c_str());
            return false;
          }
          o.gemmSizes.push_back(unsigned(count));
        }
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (const char *v = value("--reps")) {
      if (!parseCount(v, count) || count > 1000000) {
        std::fprintf(stderr,
                     "kiln-bench: --reps='%s' must be from 1 to "
                     "1000000\n",
                     v);
        return false;
      }
      o.reps = unsigned(count);
    } else if (const char *v = value("--warmup")) {
      char *end = nullptr;
      unsigned long w = std::strtoul(v, &end, 10);
      if (end == v || *end || w > 1000) {
        std::fprintf(stderr,
                     "kiln-bench: --warmup='%s' must be from 0 to "
                     "1000\n",
                     v);
        return false;
      }
      // At least one: its time sizes the repetitions (measureGroup).
      o.warmup = std::max(1u, unsigned(w));
    } else if (const char *v = value("--max-seconds")) {
      char *end = nullptr;
      o.maxSeconds = std::strtod(v, &end);
      if (end == v || *end || !(o.maxSeconds > 0)) {
        std::fprintf(stderr,
                     "kiln-bench: --max-seconds='%s' must be a "
                     "positive number\n",
                     v);
        return false;
      }
    } else if (const char *v = value("--json")) {
      o.json = v;
    } else if (const char *v = value("--csv")) {
      o.csv = v;
    } else if (const char *v = value("--plot")) {
      o.plot = v;
      std::string p = v;
      size_t dot = p.find_last_of('.');
      std::string ext = dot == std::string::npos ? "" : p.substr(dot + 1);
      if (ext != "svg" && ext != "png") {
        std::fprintf(stderr,
                     "kiln-bench: --plot='%s' must name a .svg or "
                     ".png file\n",
                     v);
        return false;
      }
    } else {
      std::fprintf(stderr, "kiln-bench: unknown option '%s'\n", arg);
      usage(stderr);
      return false;
    }
  }
  if (!outFile.empty())
    (outFormat == "csv" ? o.csv : o.json) = outFile;
  if (o.countInstructions) {
    // Counted on CPU drivers only: CUDA's kernels run on the GPU, where
    // callgrind sees nothing.
    if (o.backendExplicit && o.backends[0] == "cuda") {
      std::fprintf(stderr, "kiln-bench: --count-instructions counts the "
                           "instructions of a CPU driver's shader code; use "
                           "--backend=vulkan (on a CPU driver such as "
                           "lavapipe) or --backend=spirv-cpu\n");
      return false;
    }
    if (!o.backendExplicit)
      o.backends = {"vulkan"};
    if (o.device.find(',') != std::string::npos) {
      std::fprintf(stderr, "kiln-bench: --count-instructions counts one "
                           "device's launches; name one --device\n");
      return false;
    }
    // One repetition is counted after the warm-up; timing under callgrind
    // means nothing, so one timed repetition is enough.
    o.reps = 1;
    o.warmup = 1;
  }
  std::string why;
  if (!detectMPI(o.mpiOption, o.mpiImplementation, o.mpi, why)) {
    std::fprintf(stderr, "kiln-bench: %s\n", why.c_str());
    return false;
  }
  if (o.countInstructions && o.mpi) {
    std::fprintf(stderr, "kiln-bench: --count-instructions runs one process "
                         "under valgrind, not the ranks of an MPI job\n");
    return false;
  }
  return true;
}

/// --count-instructions outside valgrind: runs this same command under
/// callgrind, its instrumentation off until each counted repetition
/// (countInstructions in Runner.cpp), with the profiles in a temporary
/// directory removed at the end, and returns its exit status. Lavapipe
/// runs its shaders on the submitting thread (LP_NUM_THREADS=0) and
/// spirv-cpu on one thread, so that no thread waits by spinning in counted
/// code.
static int runUnderCallgrind(int argc, char **argv) {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/kiln-bench-callgrind-XXXXXX";
  std::vector<char> dirName(pattern.begin(), pattern.end());
  dirName.push_back('\0');
  if (!mkdtemp(dirName.data())) {
    std::fprintf(stderr, "kiln-bench: cannot make a directory '%s': %s\n",
                 pattern.c_str(), std::strerror(errno));
    return 1;
  }
  std::string dir = dirName.data();
  std::string out = dir + "/callgrind.out";
  std::string outOption = "--callgrind-out-file=" + out;
  // Names in full in every dump: compressed, a name is written once per
  // process, in the first dump that meets it, and later dumps name the
  // object by number only.
  std::vector<std::string> args = {"valgrind",
                                   "-q",
                                   "--tool=callgrind",
                                   "--instr-atstart=no",
                                   "--compress-strings=no",
                                   outOption};
  for (int i = 0; i < argc; ++i)
    args.push_back(argv[i]);
  std::vector<char *> argvOut;
  for (std::string &a : args)
    argvOut.push_back(a.data());
  argvOut.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "kiln-bench: cannot fork: %s\n", std::strerror(errno));
    return 1;
  }
  if (pid == 0) {
    setenv("KILN_BENCH_CALLGRIND_OUT", out.c_str(), 1);
    setenv("LP_NUM_THREADS", "0", 1);
    setenv("KILN_CPU_THREADS", "1", 1);
    execvp("valgrind", argvOut.data());
    std::fprintf(stderr,
                 "kiln-bench: --count-instructions runs kiln-bench under "
                 "valgrind, which could not be started: %s (install "
                 "valgrind)\n",
                 std::strerror(errno));
    _exit(2);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  std::fprintf(stderr, "kiln-bench: valgrind ended by signal %d\n",
               WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return 1;
}

/// --count-instructions: each variant's shader instructions per launch,
/// and each over its reference's ("ref" on the reference's own row).
static void reportInstructions(const std::vector<Result> &results) {
  std::printf("\nShader instructions per launch (callgrind, the driver's "
              "shader code only):\n%-22s %-14s %-10s %-12s %14s %8s\n",
              "kernel", "variant", "backend", "size", "instructions", "ratio");
  for (const Result &r : results) {
    if (std::isnan(r.instructions))
      continue;
    char ratio[16] = "";
    if (!std::isnan(r.instructionRatio))
      std::snprintf(ratio, sizeof ratio, "%.3f", r.instructionRatio);
    else if (r.variant == Result::referenceVariant(r.backend))
      std::snprintf(ratio, sizeof ratio, "ref");
    std::printf("%-22s %-14s %-10s %-12s %14.0f %8s\n", r.kernel.c_str(),
                r.variant.c_str(), r.backend.c_str(), r.size.c_str(),
                r.instructions, ratio);
  }
}

int main(int argc, char **argv) {
  Options options;
  std::vector<char *> rest;
  if (!parseOptions(argc, argv, options, rest))
    return 2;
  if (options.countInstructions && !options.list && !RUNNING_ON_VALGRIND)
    return runUnderCallgrind(argc, argv);
  if (options.list) {
    // The devices the list names, without opening them; under mpirun the
    // ranks the launcher started, listed once.
    int devices =
        1 + int(std::count(options.device.begin(), options.device.end(), ','));
    int ranks = options.mpi ? std::max(ranksFromEnvironment(), 1) : 0;
    if (rankFromEnvironment() > 0)
      return 0;
    for (const std::string &backend : options.backends)
      for (const std::string &name : benchmarkNames(backend, devices, ranks))
        if (matchesFilter(options.filter, name + "/"))
          std::printf("%s\n", name.c_str());
    return 0;
  }
  // Repetitions of Kiln's kernel and of its reference interleave in random
  // order, unless asked otherwise.
  bool interleaving = false;
  for (char *arg : rest)
    interleaving |=
        std::strncmp(arg, "--benchmark_enable_random_interleaving", 38) == 0;
  std::string interleave = "--benchmark_enable_random_interleaving=true";
  if (!interleaving)
    rest.push_back(interleave.data());
  int restCount = int(rest.size());
  rest.push_back(nullptr);
  benchmark::Initialize(&restCount, rest.data());
  if (benchmark::ReportUnrecognizedArguments(restCount, rest.data()))
    return 2;
  std::vector<Runtime> runtimes;
  runtimes.reserve(options.backends.size());
  for (const std::string &backend : options.backends) {
    Runtime rt;
    std::string why;
    if (!openRuntime(backend, options.device, rt, why)) {
      if (options.backendExplicit) {
        std::fprintf(stderr, "kiln-bench: cannot run on %s: %s\n",
                     backend.c_str(), why.c_str());
        return 1;
      }
      std::fprintf(stderr, "kiln-bench: %s skipped: %s\n", backend.c_str(),
                   why.c_str());
      continue;
    }
    if (options.countInstructions && rt.backend == "vulkan" && !rt.isCPU) {
      std::fprintf(stderr,
                   "kiln-bench: --count-instructions counts the instructions "
                   "of a CPU driver's shader code, and %s is a GPU; choose a "
                   "CPU driver (such as lavapipe) with --device, or "
                   "--backend=spirv-cpu\n",
                   rt.deviceName.c_str());
      return 1;
    }
    runtimes.push_back(rt);
  }
  if (runtimes.empty()) {
    std::fprintf(stderr, "kiln-bench: no backend has a device\n");
    return 1;
  }

  // Under mpirun, MPI through each runtime's own entry points (a device
  // buffer is staged by the runtime it belongs to); rank 0 reports.
  int ranks = 0, rank = 0;
  if (options.mpi) {
    for (Runtime &rt : runtimes) {
      std::string why;
      rt.mpi = MPIJob::open(rt.handle, options.mpiImplementation, why);
      if (!rt.mpi) {
        std::fprintf(stderr, "kiln-bench: cannot run under MPI on %s: %s\n",
                     rt.backend.c_str(), why.c_str());
        return 1;
      }
    }
    ranks = runtimes[0].mpi->size();
    rank = runtimes[0].mpi->rank();
  }
  bool quiet = rank != 0;

  int devices = 1;
  for (const Runtime &rt : runtimes)
    devices = std::max(devices, rt.devices);
  // Each rank is a device of the kiln_mpiN rows.
  devices = std::max(devices, ranks);
  Reporter reporter(options, devices, ranks, quiet);
  if (!reporter.error.empty()) {
    std::fprintf(stderr, "kiln-bench: %s\n", reporter.error.c_str());
    return 1;
  }
  size_t cases = 0;
  for (const Runtime &rt : runtimes) {
    std::string key = "kiln_" + rt.backend;
    std::replace(key.begin(), key.end(), '-', '_');
    benchmark::AddCustomContext(key + "_device", rt.deviceName + " (" +
                                                     rt.deviceDetails + "; " +
                                                     rt.deviceDriver + ")");
    if (rt.devices > 1)
      benchmark::AddCustomContext(
          key + "_devices",
          std::to_string(rt.devices) +
              (options.device.empty() ? ""
                                      : " (--device=" + options.device + ")"));
    cases += plannedCases(rt, options);
  }
  if (ranks > 0)
    benchmark::AddCustomContext(
        "kiln_mpi",
        std::to_string(ranks) + " ranks, " +
            implementationName(options.mpiImplementation) +
            ", each on its own device (the context's device is rank 0's)");
  Progress progress(cases, options.reps, quiet);
  std::vector<Result> results;
  for (Runtime &rt : runtimes) {
    if (quiet) {
      // Rank 0 tells.
    } else if (rt.devices > 1) {
      std::fprintf(stderr, "kiln-bench: %s on %s (device 0 of %d)\n",
                   rt.backend.c_str(), rt.deviceName.c_str(), rt.devices);
    } else if (ranks > 0) {
      std::fprintf(stderr, "kiln-bench: %s on %s (rank 0 of %d)\n",
                   rt.backend.c_str(), rt.deviceName.c_str(), ranks);
    } else {
      std::fprintf(stderr, "kiln-bench: %s on %s\n", rt.backend.c_str(),
                   rt.deviceName.c_str());
    }
    forEachFamily(
        rt, options,
        [&](std::vector<Group> &groups) {
          for (Group &group : groups)
            if (!measureGroup(rt, options, group, reporter, progress, results))
              return false;
          return true;
        },
        [&](const std::string &family, const std::string &error) {
          if (!quiet)
            std::fprintf(stderr, "kiln-bench: %s on %s failed: %s\n",
                         family.c_str(), rt.backend.c_str(), error.c_str());
          Result r;
          r.kernel = family;
          r.variant = "setup";
          r.backend = rt.backend;
          r.size = "-";
          r.failed = true;
          r.error = error;
          results.push_back(std::move(r));
        });
  }
  int status = 0;
  std::string error;
  if (!reporter.finish(error)) {
    std::fprintf(stderr, "kiln-bench: %s\n", error.c_str());
    status = 1;
  }
  if (results.empty()) {
    if (!quiet)
      std::fprintf(stderr, "kiln-bench: no benchmark matches --filter='%s'\n",
                   options.filter.c_str());
    return 1;
  }
  if (!quiet) {
    report(results, runtimes, options);
    if (options.countInstructions)
      reportInstructions(results);
    if (!options.plot.empty() && !writePlot(options.plot, results, error)) {
      std::fprintf(stderr, "kiln-bench: %s\n", error.c_str());
      status = 1;
    }
  }
  if (ranks > 0)
    runtimes[0].mpi->finish();
  for (const Result &r : results)
    if (r.failed)
      status = 1;
  return status;
}
