//===- Report.cpp - kiln-bench's summary, goals and plot -----------------===//
//
// After Google Benchmark's own reports (Runner.cpp): the summary table on
// stdout with each case's best and median throughput, its share of the
// run's measured peak and Kiln's ratios to the reference, the table of the
// kernels on several devices at once (aggregate, each device, device 0
// alone, scaling efficiency), the goals of the benchmark checked against
// this run, and a chart drawn by gnuplot with one panel per unit, one of
// the ratios against the goal, and for several devices one panel per unit
// and one of the scaling efficiency. Under mpirun the rows of several
// devices are the ranks' (kiln_mpiN), and the allreduce sweep has a table
// (time, algbw and busbw of host and device buffers, and their ratio) and a
// panel of its own.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "MPI.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace kiln {
namespace bench {

namespace {

/// The ratio every Kiln kernel should reach against its reference.
constexpr double kRatioGoal = 0.95;

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
  const char *what;
};
const Datasheet kDatasheets[] = {
    {"H200", "NVIDIA H200 SXM: 4.8 TB/s HBM3e, 67 TFLOP/s FP32"},
    {"H100 80GB HBM3", "NVIDIA H100 SXM: 3.35 TB/s HBM3, 67 TFLOP/s FP32"},
    {"H100 PCIe", "NVIDIA H100 PCIe: 2 TB/s HBM2e, 51 TFLOP/s FP32"},
    {"A100", "NVIDIA A100 80GB SXM: 2.0 TB/s, 19.5 TFLOP/s FP32"},
};

const Datasheet *datasheetFor(const std::string &device) {
  for (const Datasheet &d : kDatasheets)
    if (device.find(d.match) != std::string::npos)
      return &d;
  return nullptr;
}

/// Prints `rows` as columns; the columns from `firstRight` on (but for
/// `unitColumn`) are right-aligned.
void printTable(const std::vector<std::vector<std::string>> &rows,
                size_t firstRight, size_t unitColumn) {
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  for (const auto &row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      bool right = i >= firstRight && i != unitColumn;
      std::string pad(width[i] - row[i].size(), ' ');
      line += right ? pad + row[i] : row[i] + pad;
      if (i + 1 < row.size())
        line += "  ";
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    std::printf("%s\n", line.c_str());
  }
}

} // namespace

void report(std::vector<Result> &results, const std::vector<Runtime> &runtimes,
            const Options &options) {
  // Peaks measured in this run, per backend.
  std::map<std::string, double> bandwidthPeak, flopPeak;
  for (const Result &r : results) {
    if (r.failed || r.samples.us.empty())
      continue;
    if (r.kernel == "device_copy")
      bandwidthPeak[r.backend] = std::max(bandwidthPeak[r.backend], r.best());
    if (r.kernel == "fma_chain")
      flopPeak[r.backend] = std::max(flopPeak[r.backend], r.best());
  }
  for (Result &r : results) {
    // A peak is one device's: the rows of several devices have none.
    if (r.failed || r.samples.us.empty() || r.multiDevice())
      continue;
    if (r.unit == "GB/s" && bandwidthPeak.count(r.backend))
      r.percentOfPeak = r.best() / bandwidthPeak[r.backend] * 100;
    if (r.unit == "GFLOP/s" && flopPeak.count(r.backend))
      r.percentOfPeak = r.best() / flopPeak[r.backend] * 100;
  }

  std::printf("\n");
  for (const Runtime &rt : runtimes) {
    std::printf("%s: %s (%s; %s)\n", rt.backend.c_str(), rt.deviceName.c_str(),
                rt.deviceDetails.c_str(), rt.deviceDriver.c_str());
    if (const Datasheet *d = datasheetFor(rt.deviceName))
      std::printf("  datasheet, for context only: %s\n", d->what);
    if (rt.mpi)
      std::printf("  %d ranks (%s), each on its own device (this is rank 0's): "
                  "the kiln_mpi%d rows run Kiln's kernel on every rank at "
                  "once, allreduce_sum_f32 the f32 sum of host (_host) and "
                  "device (_device) buffers\n",
                  rt.mpi->size(), implementationName(rt.mpi->implementation()),
                  rt.mpi->size());
    else if (rt.devices > 1)
      std::printf("  %d devices listed%s: the kiln_x%d rows run Kiln's "
                  "kernel on all of them at once\n",
                  rt.devices,
                  options.device.empty()
                      ? ""
                      : (" (--device=" + options.device + ")").c_str(),
                  rt.devices);
  }
  std::printf(
      "up to %u repetitions after %u warm-up%s, Kiln's and the reference's "
      "interleaved in random order; GPU time from timestamp queries (Vulkan) "
      "/ CUDA events / the workers' time (spirv-cpu); launches and several "
      "devices at once: host time\n",
      options.reps, options.warmup, options.warmup == 1 ? "" : "s");
  std::printf("%% peak: of this run's device copy (GB/s) or FMA chain "
              "(GFLOP/s)\n");
  std::printf("kiln/ref: Kiln's throughput over the reference's (above 1: "
              "Kiln is faster); paired: the median over repetition pairs "
              "(Kiln's k-th with the reference's k-th), best: of the best "
              "times; kiln_address (Vulkan): Kiln's kernel with its buffers "
              "bound by device address, over Kiln's\n\n");

  std::vector<std::vector<std::string>> rows = {
      {"kernel", "variant", "backend", "size", "best", "median", "unit",
       "spread", "% peak", "reps", "kiln/ref paired", "kiln/ref best"}};
  for (const Result &r : results) {
    if (r.failed) {
      rows.push_back({r.kernel, r.variant, r.backend, r.size, "FAILED", "", "",
                      "", "", "", "", ""});
      continue;
    }
    std::string of = r.ratioOf.empty() ? "" : " vs " + r.ratioOf;
    rows.push_back(
        {r.kernel, r.variant, r.backend, r.size, number(r.best()),
         number(r.median()), r.unit, fixed(r.samples.spreadPercent(), 1) + "%",
         fixed(r.percentOfPeak, 1), std::to_string(r.samples.us.size()),
         std::isnan(r.ratioPaired) ? "" : fixed(r.ratioPaired, 2) + of,
         std::isnan(r.ratioBest) ? "" : fixed(r.ratioBest, 2)});
  }
  printTable(rows, 4, 6);
  for (const Result &r : results)
    if (r.failed)
      std::printf("FAILED %s: %s\n", r.name().c_str(), r.error.c_str());

  // The kernels on several devices at once.
  int devices = 0;
  for (const Result &r : results)
    if (r.multiDevice() && !r.failed && !r.samples.us.empty())
      devices = std::max(devices, r.devices);
  if (devices > 1 && options.mpi) {
    std::printf(
        "\non every rank at once (median throughput): aggregate = all "
        "ranks' work over the time of the slowest (each timed from the "
        "barrier before its launch to its finish); rank i = its own work "
        "over its own time; alone = rank 0 by itself while the others wait "
        "at a barrier, in each repetition; efficiency = aggregate / (ranks x "
        "alone), paired: the median over the repetitions, best: of the best "
        "times\n\n");
  } else if (devices > 1) {
    std::printf(
        "\non several devices at once (median throughput): aggregate = all "
        "devices' work over the time of the slowest (from their common "
        "start); device i = its own work over its own time; alone = device "
        "0 by itself, measured the same way in each repetition; efficiency = "
        "aggregate / (devices x alone), paired: the median over the "
        "repetitions, best: of the best times\n\n");
  }
  if (devices > 1) {
    std::vector<std::vector<std::string>> table = {
        {"kernel", "backend", "size", options.mpi ? "ranks" : "devices",
         "aggregate"}};
    for (int i = 0; i < devices; ++i)
      table[0].push_back((options.mpi ? "rank " : "device ") +
                         std::to_string(i));
    for (const char *column :
         {"alone", "unit", "efficiency paired", "efficiency best"})
      table[0].push_back(column);
    for (const Result &r : results) {
      if (!r.multiDevice() || r.failed || r.samples.us.empty())
        continue;
      std::vector<std::string> line = {r.kernel, r.backend, r.size,
                                       std::to_string(r.devices),
                                       number(r.median())};
      for (int i = 0; i < devices; ++i)
        line.push_back(
            i < r.devices ? number(r.deviceRate(r.perDevice[i].median())) : "");
      line.push_back(number(r.deviceRate(r.alone.median())));
      line.push_back(r.unit);
      line.push_back(fixed(r.efficiencyPaired(), 2));
      line.push_back(fixed(r.efficiencyBest(), 2));
      table.push_back(std::move(line));
    }
    printTable(table, 3, size_t(4 + devices + 2));
  }

  // The allreduce sweep, as nccl-tests prints it.
  std::vector<std::vector<std::string>> sweep = {
      {"backend", "bytes", "floats", "host us", "host algbw", "host busbw",
       "device us", "device algbw", "device busbw", "device/host paired",
       "device/host best"}};
  for (const Result &r : results) {
    if (r.kernel != "allreduce_sum_f32" || r.ranks == 0 ||
        r.variant.size() < 5 ||
        r.variant.compare(r.variant.size() - 5, 5, "_host") != 0)
      continue;
    std::string deviceVariant = Result::mpiVariant(r.ranks, "device");
    const Result *d = find(results, r.kernel, deviceVariant, r.backend, r.size);
    auto columns = [](const Result *x) -> std::vector<std::string> {
      if (!x || x->failed || x->samples.us.empty())
        return {x && x->failed ? "FAILED" : "", "", ""};
      double algbw = x->median();
      return {fixed(x->samples.median(), 1), fixed(algbw, 3),
              fixed(algbw * x->busFactor, 3)};
    };
    std::vector<std::string> line = {
        r.backend, r.size,
        std::to_string(std::strtoull(r.size.c_str(), nullptr, 10) / 4)};
    for (const Result *x : {&r, d})
      for (const std::string &c : columns(x))
        line.push_back(c);
    line.push_back(d ? fixed(d->ratioPaired, 2) : "");
    line.push_back(d ? fixed(d->ratioBest, 2) : "");
    sweep.push_back(std::move(line));
  }
  // Device rows whose host row was filtered out.
  for (const Result &r : results)
    if (r.kernel == "allreduce_sum_f32" && r.ranks > 0 &&
        r.variant == Result::mpiVariant(r.ranks, "device") &&
        !find(results, r.kernel, Result::mpiVariant(r.ranks, "host"), r.backend,
              r.size)) {
      double algbw = r.median();
      sweep.push_back(
          {r.backend, r.size,
           std::to_string(std::strtoull(r.size.c_str(), nullptr, 10) / 4), "",
           "", "", r.failed ? "FAILED" : fixed(r.samples.median(), 1),
           r.failed ? "" : fixed(algbw, 3),
           r.failed ? "" : fixed(algbw * r.busFactor, 3), "", ""});
    }
  if (sweep.size() > 1) {
    std::printf(
        "\nallreduce_sum_f32 (f32 sum, every rank's message of `bytes`): us = "
        "the slowest rank's time per allreduce, the median over the "
        "repetitions; algbw = bytes / us (GB/s); busbw = algbw x 2(n-1)/n "
        "for n ranks (as nccl-tests); host: host buffers (MPI's own floor), "
        "device: device buffers (staged by Kiln's runtime); device/host: "
        "the device's throughput over the host's\n\n");
    printTable(sweep, 1, size_t(-1));
  }

  // The goals, checked against this run: timings, meaningless under
  // callgrind (--count-instructions).
  if (options.countInstructions)
    return;
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
    if (r.isKiln() && !std::isnan(r.ratioPaired))
      goal(r.kernel + " " + r.size + " kiln/" + r.ratioOf + " on " + r.backend +
               " (paired)",
           r.ratioPaired, kRatioGoal, false);
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
    if (r.isKiln() && r.backend == "vulkan" && !r.failed &&
        r.kernel.rfind("stream_", 0) == 0)
      if (const Result *cuda = find(results, r.kernel, "kiln", "cuda", r.size))
        goal(r.kernel + " kiln vulkan/cuda (best)", r.best() / cuda->best(),
             kRatioGoal, false);
  for (const Result &r : results)
    if (r.isKiln() && !r.failed && r.kernel == "sgemm_register")
      if (const Result *blas = find(results, "sgemm", "cublas", r.backend, r.size))
        goal("sgemm_register " + r.size + " kiln/cublas (best)",
             r.best() / blas->best(), 0.7, false);
  if (!goals.empty()) {
    std::printf("\ngoals:\n");
    for (const std::string &g : goals)
      std::printf("  %s\n", g.c_str());
  }
}

//===----------------------------------------------------------------------===//
// The plot
//===----------------------------------------------------------------------===//

namespace {

/// One panel: bars per group (kernel and size) and series.
struct Panel {
  std::string title, ylabel;
  std::vector<std::string> groups, series;
  std::map<std::pair<std::string, std::string>, double> value;
  bool ratios = false;
  /// The scaling efficiency: a line at 1 (every device as fast as alone).
  bool efficiency = false;

  void add(const std::string &group, const std::string &bar, double v) {
    if (std::find(groups.begin(), groups.end(), group) == groups.end())
      groups.push_back(group);
    if (std::find(series.begin(), series.end(), bar) == series.end())
      series.push_back(bar);
    value[{group, bar}] = v;
  }
};

/// The same colour for a variant (or, in the ratio panel, a backend) in
/// every panel; the CUDA backend's bars are hatched.
std::string seriesStyle(const std::string &series) {
  // The panels of several devices: the aggregate, each device, device 0
  // alone.
  static const char *const deviceColours[] = {"#7570b3", "#d95f02", "#e7298a",
                                              "#66a61e", "#e6ab02"};
  if (series.rfind("device ", 0) == 0) {
    unsigned index = unsigned(std::atoi(series.c_str() + 7));
    return std::string("lc rgb '") + deviceColours[index % 5] + "'";
  }
  static const std::pair<const char *, const char *> colours[] = {
      {"host buffers ", "#666666"},
      {"gpu.alloc buffers ", "#1b9e77"},
      {"aggregate ", "#1b9e77"},
      {"alone ", "#666666"},
      {"kiln ", "#1b9e77"},
      {"glsl ", "#7570b3"},
      {"cuda cuda", "#d95f02"},
      {"cublas ", "#e7298a"},
      {"vkCmdCopyBuffer ", "#666666"},
      {"cuMemcpyDtoD ", "#666666"},
      {"vulkan vs ", "#1b9e77"},
      {"cuda vs ", "#d95f02"}};
  std::string colour = "#a6761d";
  for (auto [prefix, value] : colours)
    if (series.rfind(prefix, 0) == 0) {
      colour = value;
      break;
    }
  bool cuda = series.size() >= 5 && series.compare(series.size() - 5, 5,
                                                   " cuda") == 0;
  return std::string("lc rgb '") + colour + "'" +
         (cuda ? " fs pattern 4 border" : "");
}

std::string plotNumber(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.6g", v);
  return text;
}

} // namespace

bool writePlot(const std::string &path, const std::vector<Result> &results,
               std::string &error) {
  size_t dot = path.find_last_of('.');
  std::string extension = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (extension != "svg" && extension != "png") {
    error = "--plot wants a FILE.svg or FILE.png, not '" + path + "'";
    return false;
  }
  // A panel per unit, in the order the units first appear, then the ratios.
  std::vector<Panel> panels;
  Panel ratios;
  ratios.title = "Kiln / reference throughput (median of paired "
                 "repetitions; above 1: Kiln is faster)";
  ratios.ylabel = "kiln / reference";
  ratios.ratios = true;
  // The kernels on several devices at once: a panel per unit (the
  // aggregate, each device and device 0 alone, at the medians) and one of
  // the scaling efficiency.
  std::vector<Panel> multiPanels;
  Panel efficiency;
  efficiency.title = "scaling efficiency: aggregate / (devices x device 0 "
                     "alone), median";
  efficiency.ylabel = "efficiency";
  efficiency.efficiency = true;
  for (const Result &r : results) {
    if (r.failed || r.samples.us.empty() || !r.multiDevice())
      continue;
    auto panel =
        std::find_if(multiPanels.begin(), multiPanels.end(),
                     [&](const Panel &p) { return p.ylabel == r.unit; });
    if (panel == multiPanels.end()) {
      multiPanels.push_back(Panel());
      panel = multiPanels.end() - 1;
      panel->ylabel = r.unit;
      panel->title = "on several devices at once, median throughput (" +
                     r.unit + "); alone: device 0 by itself";
    }
    std::string group =
        r.kernel + " " + r.size + " x" + std::to_string(r.devices);
    panel->add(group, "aggregate " + r.backend, r.median());
    for (int i = 0; i < r.devices; ++i)
      panel->add(group, "device " + std::to_string(i) + " " + r.backend,
                 r.deviceRate(r.perDevice[i].median()));
    panel->add(group, "alone " + r.backend, r.deviceRate(r.alone.median()));
    efficiency.add(group, r.backend, r.efficiencyPaired());
  }
  // The allreduce sweep under mpirun: the bus bandwidth of host and device
  // buffers at each size.
  Panel allreduce;
  allreduce.title = "allreduce_sum_f32: busbw = bytes / time x 2(n-1)/n, "
                    "median (GB/s)";
  allreduce.ylabel = "GB/s";
  for (const Result &r : results) {
    if (r.failed || r.samples.us.empty() || r.multiDevice())
      continue;
    if (r.ranks > 0 && r.kernel == "allreduce_sum_f32") {
      std::string buffers = r.variant.substr(r.variant.rfind('_') + 1);
      allreduce.add(r.size + " B",
                    (buffers == "host" ? "host" : "gpu.alloc") +
                        std::string(" buffers ") + r.backend,
                    r.median() * r.busFactor);
      continue;
    }
    auto panel =
        std::find_if(panels.begin(), panels.end(),
                     [&](const Panel &p) { return p.ylabel == r.unit; });
    if (panel == panels.end()) {
      panels.push_back(Panel());
      panel = panels.end() - 1;
      panel->ylabel = r.unit;
      panel->title = "best throughput (" + r.unit + ")";
    }
    std::string group = r.kernel + " " + r.size;
    panel->add(group, r.variant + " " + r.backend, r.best());
    if (!std::isnan(r.ratioPaired))
      ratios.add(group, r.backend + " vs " + r.ratioOf, r.ratioPaired);
  }
  if (!ratios.groups.empty())
    panels.push_back(ratios);
  panels.insert(panels.end(), multiPanels.begin(), multiPanels.end());
  if (!efficiency.groups.empty())
    panels.push_back(efficiency);
  if (!allreduce.groups.empty())
    panels.push_back(allreduce);
  if (panels.empty()) {
    error = "no results to plot";
    return false;
  }
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) {
    error = "--plot needs gnuplot (apt-get install gnuplot-nox)";
    return false;
  }

  std::string data = path + ".dat", script = path + ".gp";
  size_t widest = 0;
  {
    std::ofstream out(data);
    for (const Panel &p : panels) {
      out << "group";
      for (const std::string &s : p.series)
        out << "\t\"" << s << "\"";
      out << "\n";
      for (const std::string &g : p.groups) {
        out << "\"" << g << "\"";
        for (const std::string &s : p.series) {
          auto it = p.value.find({g, s});
          out << "\t" << (it == p.value.end() ? "-" : plotNumber(it->second));
        }
        out << "\n";
      }
      out << "\n\n";
      widest = std::max(widest, p.groups.size() * (p.series.size() + 1));
    }
  }
  int width = int(std::max<size_t>(900, 28 * widest + 200));
  int height = int(380 * panels.size());
  {
    std::ofstream out(script);
    out << "set terminal " << (extension == "svg" ? "svg" : "pngcairo")
        << " size " << width << "," << height << " noenhanced\n"
        << "set output '" << path << "'\n"
        << "set datafile missing '-'\n"
        << "set style data histogram\nset style histogram clustered gap 1\n"
        << "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
        << "set grid ytics\nset key outside right top vertical\n"
        << "set xtics rotate by 30 right scale 0\n"
        << "set lmargin 12\nset rmargin 28\nset bmargin 7\n"
        << "set multiplot layout " << panels.size() << ",1 title "
        << "'kiln-bench'\n";
    for (size_t i = 0; i < panels.size(); ++i) {
      const Panel &p = panels[i];
      out << "set title '" << p.title << "'\n"
          << "set ylabel '" << p.ylabel << "'\n"
          << "set yrange [0:*]\n"
          << "plot ";
      for (size_t c = 0; c < p.series.size(); ++c)
        out << (c ? ", " : "") << "'" << data << "' index " << i
            << " using " << c + 2 << (c ? "" : ":xtic(1)")
            << " title columnheader(" << c + 2 << ") "
            << seriesStyle(p.series[c]);
      if (p.ratios)
        out << ", " << kRatioGoal
            << " with lines lw 2 dt 2 lc rgb 'red' title 'goal " << kRatioGoal
            << "', 1 with lines lc rgb 'gray' notitle";
      if (p.efficiency)
        out << ", 1 with lines lw 2 dt 2 lc rgb 'gray' title 'every device "
               "as fast as alone'";
      out << "\n";
    }
    out << "unset multiplot\n";
  }
  std::string command = "gnuplot '" + script + "'";
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
