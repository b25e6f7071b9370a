//===- Report.cpp - kiln-bench's table, goals, JSON, CSV and plot ---------===//
//
// The table on stdout, the goals of the benchmark checked against this
// run, Google Benchmark's JSON schema (so that its compare.py and other
// tools read the results), CSV, and a grouped bar chart drawn by gnuplot or
// matplotlib.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace kiln {
namespace bench {

namespace {

const Result *find(const std::vector<Result> &results, const std::string &kernel,
                   const std::string &variant, const std::string &backend,
                   const std::string &size) {
  for (const Result &r : results)
    if (!r.failed && r.kernel == kernel && r.variant == variant &&
        r.backend == backend && (size.empty() || r.size == size))
      return &r;
  return nullptr;
}

std::string fixed(double v, int digits) {
  if (std::isnan(v))
    return "";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", digits, v);
  return text;
}

/// Three significant digits at most, for throughput columns.
std::string number(double v) {
  if (std::isnan(v))
    return "";
  return fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2);
}

/// The datasheet figures of devices we know, for context only.
struct Datasheet {
  const char *match;
  double gbPerSecond, fp32GFlops;
  const char *what;
};
const Datasheet kDatasheets[] = {
    {"H200", 4800, 67000, "NVIDIA H200 SXM: 4.8 TB/s HBM3e, 67 TFLOP/s FP32"},
    {"H100 80GB HBM3", 3350, 67000,
     "NVIDIA H100 SXM: 3.35 TB/s HBM3, 67 TFLOP/s FP32"},
    {"H100 PCIe", 2000, 51000, "NVIDIA H100 PCIe: 2 TB/s HBM2e, 51 TFLOP/s FP32"},
    {"A100", 2039, 19500, "NVIDIA A100 80GB SXM: 2.0 TB/s, 19.5 TFLOP/s FP32"},
};

const Datasheet *datasheetFor(const std::string &device) {
  for (const Datasheet &d : kDatasheets)
    if (device.find(d.match) != std::string::npos)
      return &d;
  return nullptr;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof(esc), "\\u%04x", c);
      out += esc;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  if (std::isnan(v) || std::isinf(v))
    return "null";
  char text[64];
  std::snprintf(text, sizeof(text), "%.6g", v);
  return text;
}

} // namespace

void report(std::vector<Result> &results, const std::vector<Runtime> &runtimes,
            const Options &options) {
  // Peaks measured in this run, per backend.
  std::map<std::string, double> bandwidthPeak, flopPeak;
  for (const Result &r : results) {
    if (r.failed)
      continue;
    if (r.kernel == "device_copy")
      bandwidthPeak[r.backend] = std::max(bandwidthPeak[r.backend], r.best());
    if (r.kernel == "fma_chain")
      flopPeak[r.backend] = std::max(flopPeak[r.backend], r.best());
  }
  for (Result &r : results) {
    if (r.failed)
      continue;
    if (r.unit == "GB/s" && bandwidthPeak.count(r.backend))
      r.percentOfPeak = r.best() / bandwidthPeak[r.backend] * 100;
    if (r.unit == "GFLOP/s" && flopPeak.count(r.backend))
      r.percentOfPeak = r.best() / flopPeak[r.backend] * 100;
    if (r.isKiln()) {
      std::string ref = r.backend == "cuda" ? "cuda" : "glsl";
      if (const Result *other = find(results, r.kernel, ref, r.backend, r.size)) {
        r.ratio = r.best() / other->best();
        r.ratioOf = ref;
      }
    }
  }

  for (const Runtime &rt : runtimes) {
    std::printf("%s: %s (%s; %s)\n", rt.backend.c_str(), rt.deviceName.c_str(),
                rt.deviceDetails.c_str(), rt.deviceDriver.c_str());
    if (const Datasheet *d = datasheetFor(rt.deviceName))
      std::printf("  datasheet, for context only: %s\n", d->what);
  }
  std::printf("best of %u repetitions after %u warm-up%s; GPU time from %s\n",
              options.reps, options.warmup, options.warmup == 1 ? "" : "s",
              "timestamp queries (Vulkan) / CUDA events; launches: host time");
  std::printf("%% peak: of this run's device copy (GB/s) or FMA chain "
              "(GFLOP/s); ratio: Kiln's best over the reference's\n\n");

  const char *header[] = {"kernel", "variant", "backend", "size",  "best",
                          "median", "unit",    "spread",  "% peak", "ratio"};
  std::vector<std::vector<std::string>> rows;
  rows.push_back(std::vector<std::string>(std::begin(header), std::end(header)));
  for (const Result &r : results) {
    if (r.failed) {
      rows.push_back({r.kernel, r.variant, r.backend, r.size, "FAILED", "",
                      "", "", "", ""});
      continue;
    }
    rows.push_back({r.kernel, r.variant, r.backend, r.size, number(r.best()),
                    number(r.median()), r.unit,
                    fixed(r.samples.spreadPercent(), 1) + "%",
                    fixed(r.percentOfPeak, 1),
                    std::isnan(r.ratio) ? ""
                                        : fixed(r.ratio, 2) + " vs " + r.ratioOf});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  for (const auto &row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      bool right = i >= 4 && i != 6;
      std::string cell = row[i];
      std::string pad(width[i] - cell.size(), ' ');
      line += right ? pad + cell : cell + pad;
      if (i + 1 < row.size())
        line += "  ";
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    std::printf("%s\n", line.c_str());
  }
  for (const Result &r : results)
    if (r.failed)
      std::printf("FAILED %s %s: %s\n", r.name().c_str(), r.size.c_str(),
                  r.error.c_str());

  // The goals, checked against this run.
  std::vector<std::string> goals;
  auto goal = [&](const std::string &what, double value, double target,
                  bool percent) {
    std::string shown = percent ? fixed(value * 100, 1) + "%" : fixed(value, 2);
    std::string wanted =
        percent ? fixed(target * 100, 0) + "%" : fixed(target, 2);
    goals.push_back(what + ": " + shown + " (goal >= " + wanted + ") " +
                    (value >= target ? "met" : "MISSED"));
  };
  for (const Result &r : results)
    if (r.isKiln() && !std::isnan(r.ratio) && r.kernel.rfind("stream_", 0) == 0)
      goal(r.kernel + " kiln/" + r.ratioOf + " on " + r.backend, r.ratio, 0.95,
           false);
  for (const std::string &backend : {std::string("vulkan"), std::string("cuda")}) {
    if (!bandwidthPeak.count(backend))
      continue;
    for (const char *type : {"f32", "f64"})
      if (const Result *triad = find(results, std::string("stream_triad_") + type,
                                     "kiln", backend, ""))
        goal(std::string("stream_triad_") + type + " kiln on " + backend +
                 " / device copy",
             triad->best() / bandwidthPeak[backend], 0.9, true);
  }
  for (const Result &r : results)
    if (r.isKiln() && r.backend == "vulkan" && r.kernel.rfind("stream_", 0) == 0)
      if (const Result *cuda = find(results, r.kernel, "kiln", "cuda", r.size))
        goal(r.kernel + " kiln vulkan/cuda", r.best() / cuda->best(), 0.95,
             false);
  for (const Result &r : results)
    if (r.isKiln() && r.kernel == "sgemm_register")
      if (const Result *blas = find(results, "sgemm", "cublas", r.backend, r.size))
        goal("sgemm_register " + r.size + " kiln/cublas", r.best() / blas->best(),
             0.7, false);
  if (!goals.empty()) {
    std::printf("\ngoals (best times):\n");
    for (const std::string &g : goals)
      std::printf("  %s\n", g.c_str());
  }
}

bool writeJSON(const std::string &path, const std::vector<Result> &results,
               const std::vector<Runtime> &runtimes, const Options &options,
               std::string &error) {
  std::ofstream out(path);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  out << "{\n  \"context\": {\n"
      << "    \"date\": " << jsonString(date) << ",\n"
      << "    \"host_name\": " << jsonString(host) << ",\n"
      << "    \"executable\": \"kiln-bench\",\n"
      << "    \"num_cpus\": " << std::thread::hardware_concurrency() << ",\n"
      << "    \"mhz_per_cpu\": 0,\n"
      << "    \"cpu_scaling_enabled\": false,\n"
      << "    \"caches\": [],\n"
      << "    \"library_build_type\": \"release\",\n"
      << "    \"kiln_repetitions\": " << options.reps << ",\n"
      << "    \"kiln_warmup\": " << options.warmup << ",\n"
      << "    \"kiln_devices\": [";
  for (size_t i = 0; i < runtimes.size(); ++i) {
    const Runtime &rt = runtimes[i];
    out << (i ? "," : "") << "\n      {\"backend\": " << jsonString(rt.backend)
        << ", \"device\": " << jsonString(rt.deviceName)
        << ", \"driver\": " << jsonString(rt.deviceDriver)
        << ", \"details\": " << jsonString(rt.deviceDetails) << "}";
  }
  out << "\n    ]\n  },\n  \"benchmarks\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::string name = r.name() + "/" + r.size;
    out << (i ? "," : "") << "\n    {\n"
        << "      \"name\": " << jsonString(name) << ",\n"
        << "      \"family_index\": " << i << ",\n"
        << "      \"per_family_instance_index\": 0,\n"
        << "      \"run_name\": " << jsonString(name) << ",\n"
        << "      \"run_type\": \"iteration\",\n"
        << "      \"repetitions\": 1,\n"
        << "      \"repetition_index\": 0,\n"
        << "      \"threads\": 1,\n";
    if (r.failed) {
      out << "      \"error_occurred\": true,\n"
          << "      \"error_message\": " << jsonString(r.error) << ",\n"
          << "      \"iterations\": 0,\n"
          << "      \"real_time\": 0,\n      \"cpu_time\": 0,\n"
          << "      \"time_unit\": \"us\"\n    }";
      continue;
    }
    double best = r.samples.best();
    double perSecond = r.work / (best * 1e-6);
    out << "      \"iterations\": " << r.samples.us.size() << ",\n"
        << "      \"real_time\": " << jsonNumber(best) << ",\n"
        << "      \"cpu_time\": " << jsonNumber(best) << ",\n"
        << "      \"time_unit\": \"us\",\n";
    if (r.unit == "GB/s")
      out << "      \"bytes_per_second\": " << jsonNumber(perSecond) << ",\n";
    else
      out << "      \"items_per_second\": " << jsonNumber(perSecond) << ",\n";
    out << "      \"median_time_us\": " << jsonNumber(r.samples.median())
        << ",\n"
        << "      \"spread_percent\": "
        << jsonNumber(r.samples.spreadPercent()) << ",\n"
        << "      \"throughput\": " << jsonNumber(r.best()) << ",\n"
        << "      \"throughput_unit\": " << jsonString(r.unit) << ",\n"
        << "      \"percent_of_peak\": " << jsonNumber(r.percentOfPeak)
        << ",\n"
        << "      \"ratio\": " << jsonNumber(r.ratio) << ",\n"
        << "      \"label\": "
        << jsonString(r.ratioOf.empty() ? "" : "ratio vs " + r.ratioOf)
        << "\n    }";
  }
  out << "\n  ]\n}\n";
  out.close();
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

bool writeCSV(const std::string &path, const std::vector<Result> &results,
              std::string &error) {
  std::ofstream out(path);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out << "kernel,variant,backend,size,unit,best,median,best_us,median_us,"
         "spread_percent,percent_of_peak,ratio,ratio_of,repetitions,error\n";
  for (const Result &r : results) {
    out << r.kernel << "," << r.variant << "," << r.backend << "," << r.size
        << "," << r.unit << ",";
    if (r.failed) {
      std::string e = r.error;
      std::replace(e.begin(), e.end(), '"', '\'');
      out << ",,,,,,,,0,\"" << e << "\"\n";
      continue;
    }
    out << jsonNumber(r.best()) << "," << jsonNumber(r.median()) << ","
        << jsonNumber(r.samples.best()) << "," << jsonNumber(r.samples.median())
        << "," << jsonNumber(r.samples.spreadPercent()) << ","
        << (std::isnan(r.percentOfPeak) ? "" : jsonNumber(r.percentOfPeak))
        << "," << (std::isnan(r.ratio) ? "" : jsonNumber(r.ratio)) << ","
        << r.ratioOf << "," << r.samples.us.size() << ",\n";
  }
  out.close();
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

static bool haveProgram(const std::string &command) {
  return std::system((command + " >/dev/null 2>&1").c_str()) == 0;
}

bool writePlot(const std::string &path, const std::vector<Result> &results,
               std::string &error) {
  std::string extension = path.substr(path.find_last_of('.') + 1);
  if (path.find('.') == std::string::npos ||
      (extension != "svg" && extension != "png")) {
    error = "--plot wants a FILE.svg or FILE.png, not '" + path + "'";
    return false;
  }
  // One group per kernel and size, one bar per variant and backend.
  std::vector<std::string> groups, series;
  std::map<std::pair<std::string, std::string>, double> value;
  for (const Result &r : results) {
    if (r.failed)
      continue;
    std::string group = r.kernel + " " + r.size + " (" + r.unit + ")";
    std::string bar = r.variant + " " + r.backend;
    if (std::find(groups.begin(), groups.end(), group) == groups.end())
      groups.push_back(group);
    if (std::find(series.begin(), series.end(), bar) == series.end())
      series.push_back(bar);
    value[{group, bar}] = r.best();
  }
  if (groups.empty()) {
    error = "no results to plot";
    return false;
  }
  std::string data = path + ".dat";
  {
    std::ofstream out(data);
    out << "group";
    for (const std::string &s : series)
      out << "\t\"" << s << "\"";
    out << "\n";
    for (const std::string &g : groups) {
      out << "\"" << g << "\"";
      for (const std::string &s : series) {
        auto it = value.find({g, s});
        out << "\t" << (it == value.end() ? "-" : jsonNumber(it->second));
      }
      out << "\n";
    }
  }
  double width = std::max(800.0, 60.0 * groups.size() * (series.size() + 1) / 2);
  std::string script = path + ".script";
  std::string command;
  if (haveProgram("gnuplot --version")) {
    std::ofstream out(script);
    out << "set terminal " << (extension == "svg" ? "svg" : "pngcairo")
        << " size " << int(width) << ",600 noenhanced\n"
        << "set output '" << path << "'\n"
        << "set title 'kiln-bench: best throughput per kernel (log scale)'\n"
        << "set style data histogram\nset style histogram clustered gap 1\n"
        << "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
        << "set datafile missing '-'\nset logscale y\nset grid ytics\n"
        << "set xtics rotate by -35 scale 0\nset key inside top left vertical opaque\n"
        << "set bmargin 12\n"
        << "plot for [i=2:" << series.size() + 1 << "] '" << data
        << "' using i:xtic(1) title columnheader(i)\n";
    command = "gnuplot '" + script + "'";
  } else if (haveProgram("python3 -c 'import matplotlib'")) {
    std::ofstream out(script);
    out << "import csv, matplotlib\nmatplotlib.use('Agg')\n"
        << "import matplotlib.pyplot as plt\n"
        << "rows = [r for r in csv.reader(open('" << data
        << "'), delimiter='\\t')]\n"
        << "series = [s.strip('\"') for s in rows[0][1:]]\n"
        << "groups = [r[0].strip('\"') for r in rows[1:]]\n"
        << "fig, ax = plt.subplots(figsize=(" << width / 100 << ", 6))\n"
        << "w = 0.8 / len(series)\n"
        << "for k, s in enumerate(series):\n"
        << "    xs = [i + k * w for i, r in enumerate(rows[1:]) if r[k + 1] != '-']\n"
        << "    ys = [float(r[k + 1]) for r in rows[1:] if r[k + 1] != '-']\n"
        << "    ax.bar(xs, ys, w, label=s)\n"
        << "ax.set_yscale('log')\nax.set_xticks([i + 0.4 - w / 2 for i in "
           "range(len(groups))])\n"
        << "ax.set_xticklabels(groups, rotation=35, ha='right')\n"
        << "ax.set_title('kiln-bench: best throughput per kernel (log scale)')\n"
        << "ax.legend()\nfig.tight_layout()\nfig.savefig('" << path << "')\n";
    command = "python3 '" + script + "'";
  } else {
    error = "--plot needs gnuplot or python3-matplotlib (apt-get install "
            "gnuplot-nox)";
    return false;
  }
  int status = std::system(command.c_str());
  std::remove(script.c_str());
  std::remove(data.c_str());
  if (status != 0) {
    error = "plotting failed: '" + command + "' exited with status " +
            std::to_string(status);
    return false;
  }
  return true;
}

} // namespace bench
} // namespace kiln
