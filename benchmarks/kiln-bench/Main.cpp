//===- Main.cpp - kiln-bench: GPU throughput of Kiln's kernels ------------===//
//
// kiln-bench [--backend=vulkan|cuda|all] [--device=INDEX|NAME]
//            [--filter=REGEX] [--size=N] [--gemm-sizes=N,N,...]
//            [--reps=N] [--warmup=N] [--max-seconds=S] [--smoke]
//            [--json=FILE] [--csv=FILE] [--plot=FILE.svg|FILE.png] [--list]
//
// Runs the kernels of benchmarks/kernels/ (compiled by Kiln at build time)
// next to hand-written references and the device's own copy on each
// backend, checks every result and reports the best time of each. Exit
// status: 0 when everything that ran was correct, 1 when a result was
// wrong or a backend asked for by name is missing, 2 on a usage error.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>

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
      "usage: kiln-bench [options]\n"
      "  --backend=vulkan|cuda|all  backends to run (default all: those with "
      "a device)\n"
      "  --device=INDEX|NAME        device of each backend (as "
      "KILN_VULKAN_DEVICE /\n"
      "                             KILN_CUDA_DEVICE)\n"
      "  --filter=REGEX             run benchmarks whose "
      "kernel/variant/backend matches\n"
      "  --size=N[K|M|G]            elements per stream array (default: 4x "
      "the last-level\n"
      "                             cache, at least 2^25)\n"
      "  --gemm-sizes=N,N,...       SGEMM sizes, multiples of 64 (default "
      "1024,2048,4096)\n"
      "  --reps=N                   timed repetitions (default 20)\n"
      "  --warmup=N                 untimed repetitions first (default 2)\n"
      "  --max-seconds=S            stop repeating a benchmark after S "
      "seconds (at least 3\n"
      "                             repetitions; default 5)\n"
      "  --smoke                    tiny sizes, one repetition, every kernel "
      "and reference\n"
      "  --json=FILE                results in Google Benchmark's JSON "
      "format\n"
      "  --csv=FILE                 results as CSV\n"
      "  --plot=FILE.svg|FILE.png   bar chart (gnuplot or "
      "python3-matplotlib)\n"
      "  --list                     print the benchmarks' names and exit\n");
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

static bool parseOptions(int argc, char **argv, Options &o) {
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
    const char *arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      if (std::strncmp(arg, name, n) == 0 && arg[n] == '=')
        return arg + n + 1;
      return nullptr;
    };
    uint64_t count = 0;
    if (std::strcmp(arg, "--smoke") == 0)
      continue;
    if (std::strcmp(arg, "--list") == 0) {
      o.list = true;
    } else if (std::strcmp(arg, "--help") == 0 ||
               std::strcmp(arg, "-h") == 0) {
      usage(stdout);
      std::exit(0);
    } else if (const char *v = value("--backend")) {
      std::string b = v;
      if (b == "all")
        o.backends = {"vulkan", "cuda"};
      else if (b == "vulkan" || b == "cuda")
        o.backends = {b};
      else {
        std::fprintf(stderr, "kiln-bench: unknown --backend='%s' (vulkan, "
                             "cuda or all)\n",
                     v);
        return false;
      }
      o.backendExplicit = b != "all";
    } else if (const char *v = value("--device")) {
      o.device = v;
    } else if (const char *v = value("--filter")) {
      o.filter = v;
      try {
        std::regex check(o.filter);
      } catch (const std::regex_error &e) {
        std::fprintf(stderr, "kiln-bench: --filter='%s' is not a regular "
                             "expression: %s\n",
                     v, e.what());
        return false;
      }
    } else if (const char *v = value("--size")) {
      if (!parseCount(v, o.size) || o.size >= (1ull << 31)) {
        std::fprintf(stderr, "kiln-bench: --size='%s' must be a count of "
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
            std::fprintf(stderr, "kiln-bench: SGEMM size '%s' must be a "
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
        std::fprintf(stderr, "kiln-bench: --reps='%s' must be from 1 to "
                             "1000000\n",
                     v);
        return false;
      }
      o.reps = unsigned(count);
    } else if (const char *v = value("--warmup")) {
      char *end = nullptr;
      unsigned long w = std::strtoul(v, &end, 10);
      if (end == v || *end || w > 1000) {
        std::fprintf(stderr, "kiln-bench: --warmup='%s' must be from 0 to "
                             "1000\n",
                     v);
        return false;
      }
      o.warmup = unsigned(w);
    } else if (const char *v = value("--max-seconds")) {
      char *end = nullptr;
      o.maxSeconds = std::strtod(v, &end);
      if (end == v || *end || !(o.maxSeconds > 0)) {
        std::fprintf(stderr, "kiln-bench: --max-seconds='%s' must be a "
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
        std::fprintf(stderr, "kiln-bench: --plot='%s' must name a .svg or "
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
  return true;
}

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options))
    return 2;
  if (options.list) {
    std::regex re(options.filter.empty() ? "." : options.filter);
    for (const std::string &backend : options.backends)
      for (const std::string &name : benchmarkNames(backend))
        if (std::regex_search(name, re))
          std::printf("%s\n", name.c_str());
    return 0;
  }
  if (!options.device.empty()) {
    setenv("KILN_VULKAN_DEVICE", options.device.c_str(), 1);
    setenv("KILN_CUDA_DEVICE", options.device.c_str(), 1);
  }

  std::vector<Runtime> runtimes;
  runtimes.reserve(options.backends.size());
  for (const std::string &backend : options.backends) {
    Runtime rt;
    std::string why;
    if (!openRuntime(backend, rt, why)) {
      if (options.backendExplicit) {
        std::fprintf(stderr, "kiln-bench: cannot run on %s: %s\n",
                     backend.c_str(), why.c_str());
        return 1;
      }
      std::fprintf(stderr, "kiln-bench: %s skipped: %s\n", backend.c_str(),
                   why.c_str());
      continue;
    }
    runtimes.push_back(rt);
  }
  if (runtimes.empty()) {
    std::fprintf(stderr, "kiln-bench: no backend has a device\n");
    return 1;
  }

  std::vector<Result> results;
  for (Runtime &rt : runtimes) {
    std::fprintf(stderr, "kiln-bench: %s on %s\n", rt.backend.c_str(),
                 rt.deviceName.c_str());
    runBenchmarks(rt, options, results);
  }
  if (results.empty()) {
    std::fprintf(stderr, "kiln-bench: no benchmark matches --filter='%s'\n",
                 options.filter.c_str());
    return 1;
  }
  report(results, runtimes, options);

  int status = 0;
  std::string error;
  if (!options.json.empty() &&
      !writeJSON(options.json, results, runtimes, options, error)) {
    std::fprintf(stderr, "kiln-bench: %s\n", error.c_str());
    status = 1;
  }
  if (!options.csv.empty() && !writeCSV(options.csv, results, error)) {
    std::fprintf(stderr, "kiln-bench: %s\n", error.c_str());
    status = 1;
  }
  if (!options.plot.empty() && !writePlot(options.plot, results, error)) {
    std::fprintf(stderr, "kiln-bench: %s\n", error.c_str());
    status = 1;
  }
  for (const Result &r : results)
    if (r.failed)
      status = 1;
  return status;
}
