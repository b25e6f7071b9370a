//===- Families.cpp - kiln-bench's kernels, references and checks ---------===//
//
// Every family below describes the Kiln kernel (benchmarks/kernels/*.mlir)
// and the hand-written reference of the backend (GLSL on Vulkan, CUDA C++
// and cuBLAS on CUDA; spirv-cpu has none) on the same device buffers as
// cases: a check of the result against a CPU reference, which the runner
// makes before any timing (a wrong result is a failure, never a number),
// and one repetition timed on the GPU (timestamp queries / CUDA events /
// the spirv-cpu workers' time, through the runtime's timing callback).
//
// With several devices in the runtime's list, the stream and SGEMM
// families add Kiln's kernel on all of them at once (kiln_xN): each device
// has its own buffers and a host thread of its own, which made that device
// current (setDefaultDevice) and launches there; the threads start each
// round together, and a round takes as long as its slowest device. Each
// repetition also runs device 0 alone the same way, the baseline of the
// scaling efficiency.
//
// Under mpirun (MPI.h) only the MPI families run: Kiln's f32 stream kernels
// on every rank's device at once (kiln_mpiN: a barrier, every rank
// launches, a barrier; the slowest rank's time, each rank's, and rank 0's
// alone while the others wait), and the f32 sum allreduce of host buffers
// and of device buffers (kiln_mpiN_host, kiln_mpiN_device) over a sweep of
// sizes, timed as the slowest rank's and checked on every rank. Every check
// is agreed among the ranks, so that they all measure the same cases.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "DeviceThreads.h"
#include "MPI.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace kiln {
namespace bench {

/// kiln-bench's variant of Kiln's f32 stream kernels compiled with
/// --buffer-device-address=always (Vulkan).
constexpr const char *kAddressVariant = "kiln_address";

//===----------------------------------------------------------------------===//
// Launches and samples
//===----------------------------------------------------------------------===//

void Launch::pack(ABI abi, const std::vector<Arg> &args) {
  params.clear();
  storage.clear();
  auto push = [&](int64_t value) {
    storage.push_back(value);
    params.push_back(&storage.back());
  };
  for (const Arg &arg : args) {
    if (!arg.buffer) {
      // Scalars by pointer; little-endian, so the low bytes come first.
      push(arg.scalar);
      continue;
    }
    const Buffer &b = *arg.buffer;
    auto pointer = reinterpret_cast<int64_t>(b.device);
    switch (abi) {
    case ABI::Kiln: {
      push(pointer); // allocated
      push(pointer); // aligned
      push(0);       // offset
      for (int64_t d : b.shape)
        push(d);
      int64_t stride = 1;
      std::vector<int64_t> strides(b.shape.size());
      for (size_t i = b.shape.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= b.shape[i];
      }
      for (int64_t s : strides)
        push(s);
      break;
    }
    case ABI::Raw:
      push(pointer);
      push(int64_t(b.bytes));
      break;
    case ABI::CUDA:
      push(pointer);
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// A backend session: modules, buffers, timing
//===----------------------------------------------------------------------===//

namespace {

/// Pseudo-random values in [0, 1) (splitmix64), the same on every run.
template <typename T> std::vector<T> randomArray(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  uint64_t x = seed;
  for (size_t i = 0; i < n; ++i) {
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = T(double(z >> 11) * 0x1.0p-53);
  }
  return v;
}

/// Pseudo-random values shared by a family's cases.
template <typename T>
std::shared_ptr<const std::vector<T>> sharedRandom(size_t n, uint64_t seed) {
  return std::make_shared<const std::vector<T>>(randomArray<T>(n, seed));
}

void need(const kiln::rt::Status &status) {
  if (status)
    throw RuntimeFailure(status);
}

template <typename T> T need(kiln::rt::Expected<T> value) {
  if (!value)
    throw RuntimeFailure(value.error());
  return *value;
}

void collectTime(void *user, const char *, double us) {
  static_cast<std::vector<double> *>(user)->push_back(us);
}

/// The device copy's variant on `backend`: the runtime's deviceCopy.
const char *copyVariant(const std::string &backend) {
  if (backend == "cuda")
    return "cuMemcpyDtoD";
  return backend == "vulkan" ? "vkCmdCopyBuffer" : "memcpy";
}

/// A backend's modules, buffers and stream for the whole run.
class Session {
public:
  Session(Runtime &rt, const Options &options) : rt(rt), options(options) {
    stream = need(rt.api->createStream());
    timing(true);
  }
  ~Session() {
    // After a failure (a lost device, say) these may fail too; the run
    // already reports the first error.
    deviceThreads.reset();
    (void)rt.api->setTimingCallback(nullptr, nullptr);
    for (const std::unique_ptr<Buffer> &b : buffers)
      (void)rt.api->free(b->device);
    for (auto &m : modules)
      if (m.second)
        (void)rt.api->unloadModule(m.second);
    (void)rt.api->destroyStream(stream);
  }

  Runtime &rt;
  const Options &options;
  void *stream = nullptr;
  bool cuda() const { return rt.backend == "cuda"; }
  bool vulkan() const { return rt.backend == "vulkan"; }
  /// The backend's hand-written reference ("": none).
  const char *reference() const { return Result::referenceVariant(rt.backend); }
  /// The devices in the runtime's list.
  int devices() const { return rt.devices; }
  /// Under mpirun: the job's ranks (0 otherwise).
  bool mpi() const { return rt.mpi != nullptr; }
  int ranks() const { return rt.mpi ? rt.mpi->size() : 0; }

  bool wanted(const std::string &kernel, const std::string &variant,
              const std::string &size) const {
    // Under mpirun only the MPI variants run, and without it none of them.
    if (mpi() != (variant.rfind("kiln_mpi", 0) == 0))
      return false;
    return matchesFilter(options.filter, kernel + "/" + variant + "/" +
                                             rt.backend + "/" + size);
  }
  /// Kiln and the backend's hand-written reference, where it has one.
  std::vector<std::string> variants() const {
    if (!*reference())
      return {"kiln"};
    return {"kiln", reference()};
  }
  /// Whether any of those variants of any of `kernels` is wanted.
  bool wantedAny(const std::vector<std::string> &kernels,
                 const std::string &size) const {
    for (const std::string &k : kernels)
      for (const std::string &v : variants())
        if (wanted(k, v, size))
          return true;
    return false;
  }

  /// The function `name` of blob `blob`; null (after noting why in
  /// `why`) when the blob was not built.
  void *function(const std::string &blob, const std::string &name,
                 std::string &why) {
    auto it = modules.find(blob);
    if (it == modules.end()) {
      const Blob *b = findBlob(blob);
      void *module = b ? need(rt.api->loadModule(b->data, b->size)) : nullptr;
      it = modules.emplace(blob, module).first;
    }
    if (!it->second) {
      why = "not built (" + blob + ")";
      return nullptr;
    }
    return need(rt.api->getFunction(it->second, name.c_str()));
  }

  /// The function of `variant`: Kiln's (`kilnFunction` of the module
  /// compiled from benchmarks/kernels), the CUDA C++ reference
  /// (`cudaFunction` of nvcc's cuda/<cudaModule>) or the GLSL one (main of
  /// glsl/<glslModule>); sets `abi`. Null, after a note, when not built.
  void *pick(const std::string &kernel, const std::string &variant,
             const std::string &kilnModule, const std::string &kilnFunction,
             const std::string &cudaModule, const std::string &cudaFunction,
             const std::string &glslModule, ABI &abi) {
    std::string why;
    void *fn;
    if (variant == "kiln") {
      abi = ABI::Kiln;
      fn = function("kiln-" + rt.backend + "/" + kilnModule, kilnFunction,
                    why);
    } else if (variant == kAddressVariant) {
      abi = ABI::Kiln;
      fn = function("kiln-" + rt.backend + "/" + kilnModule + "_address",
                    kilnFunction, why);
    } else if (cuda()) {
      abi = ABI::CUDA;
      fn = function("cuda/" + cudaModule, cudaFunction, why);
    } else {
      abi = ABI::Raw;
      fn = function("glsl/" + glslModule, "main", why);
    }
    if (!fn)
      skip(kernel, variant, why);
    return fn;
  }

  /// A buffer on the calling thread's current device (device 0 but for
  /// the device threads).
  Buffer &buffer(size_t bytes, std::vector<int64_t> shape) {
    auto b = std::make_unique<Buffer>();
    b->bytes = bytes;
    b->shape = std::move(shape);
    b->device = need(rt.api->allocate(bytes, false));
    std::lock_guard<std::mutex> lock(buffersMutex);
    buffers.push_back(std::move(b));
    return *buffers.back();
  }
  /// A buffer allocated by device `device`'s thread.
  Buffer &bufferOn(int device, size_t bytes, std::vector<int64_t> shape) {
    Buffer *made = nullptr;
    threads().on(device, [&](int) { made = &buffer(bytes, shape); });
    return *made;
  }

  /// The threads of the runtime's devices, started on first use.
  DeviceThreads &threads() {
    if (!deviceThreads)
      deviceThreads = std::make_unique<DeviceThreads>(rt, rt.devices);
    return *deviceThreads;
  }
  void upload(Buffer &b, const void *host) {
    need(rt.api->copy(b.device, host, b.bytes, nullptr));
  }
  void download(const Buffer &b, void *host) {
    need(rt.api->copy(host, b.device, b.bytes, nullptr));
  }
  /// A small device buffer holding `values` (scalars for raw SPIR-V).
  Buffer &constants(const std::vector<uint32_t> &values) {
    Buffer &b = buffer(values.size() * 4, {int64_t(values.size())});
    upload(b, values.data());
    return b;
  }

  /// One launch, waited for: the GPU time when the device has
  /// timestamps, else the host's.
  double once(const Launch &l) {
    times.clear();
    auto start = std::chrono::steady_clock::now();
    need(rt.api->launch(l.function, {l.grid[0], l.grid[1], l.grid[2]},
                        {l.block[0], l.block[1], l.block[2]}, 0, stream,
                        const_cast<void **>(l.params.data()), l.params.size()));
    need(rt.api->synchronize(stream));
    double host = std::chrono::duration<double, std::micro>(
                      std::chrono::steady_clock::now() - start)
                      .count();
    return !times.empty() && times.back() > 0 ? times.back() : host;
  }

  /// GPU timing of launches on or off (off: launches do not wait).
  void timing(bool on) {
    need(rt.api->setTimingCallback(on ? collectTime : nullptr,
                                   on ? &times : nullptr));
  }
  /// GPU timing off while it lives: host-timed work, and launches from
  /// several threads, which the one list of times must not see.
  class TimingOff {
  public:
    explicit TimingOff(Session &s) : s(s) { s.timing(false); }
    ~TimingOff() {
      try {
        s.timing(true);
      } catch (const std::exception &) {
        // The next launch reports the runtime's error.
      }
    }

  private:
    Session &s;
  };

  /// Notes a variant that cannot run (`why`).
  void skip(const std::string &kernel, const std::string &variant,
            const std::string &why) {
    std::fprintf(stderr, "kiln-bench: %s/%s/%s skipped: %s\n", kernel.c_str(),
                 variant.c_str(), rt.backend.c_str(), why.c_str());
  }

private:
  std::map<std::string, void *> modules;
  std::mutex buffersMutex;
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<double> times;
  std::unique_ptr<DeviceThreads> deviceThreads;
};

/// Compares `got` to `want` elementwise with a relative tolerance: "" when
/// they agree, else the first mismatch and how many there are.
template <typename T, typename F>
std::string compare(const std::vector<T> &got, F want, double tolerance,
                    const std::vector<size_t> *indices = nullptr) {
  size_t bad = 0, first = 0;
  double firstWant = 0;
  size_t count = indices ? indices->size() : got.size();
  for (size_t k = 0; k < count; ++k) {
    size_t i = indices ? (*indices)[k] : k;
    double w = want(i);
    double g = double(got[i]);
    if (!(std::fabs(g - w) <= tolerance * std::max(std::fabs(w), 1e-30))) {
      if (bad++ == 0) {
        first = i;
        firstWant = w;
      }
    }
  }
  if (!bad)
    return "";
  std::ostringstream os;
  os.precision(9);
  os << "wrong result: element " << first << " is " << double(got[first])
     << ", expected " << firstWant << " (" << bad << " of " << count
     << " checked elements differ)";
  return os.str();
}

std::string checkSum(double got, double want, double tolerance) {
  if (std::fabs(got - want) <= tolerance * std::fabs(want))
    return "";
  std::ostringstream os;
  os.precision(12);
  os << "wrong result: sum is " << got << ", expected " << want;
  return os.str();
}

/// Fills `b` with zeros: a check's fresh output.
std::function<void()> zeroes(Session &s, Buffer &b) {
  return [&s, &b] {
    std::vector<uint8_t> zero(b.bytes, 0);
    s.upload(b, zero.data());
  };
}

/// Compares the floats of `b` at the indices `checked` with `want`
/// (relative 1e-4).
std::function<std::string()>
sampledFloats(Session &s, const Buffer &b,
              std::shared_ptr<const std::vector<size_t>> checked,
              std::shared_ptr<const std::map<size_t, double>> want) {
  return [&s, &b, checked, want] {
    std::vector<float> got(b.bytes / 4);
    s.download(b, got.data());
    return compare(
        got, [&](size_t i) { return want->at(i); }, 1e-4, checked.get());
  };
}

/// A case before its check and repetition are given.
Case row(const std::string &kernel, const std::string &variant,
         const std::string &size, const char *unit, double work) {
  Case c;
  c.kernel = kernel;
  c.variant = variant;
  c.size = size;
  c.unit = unit;
  c.work = work;
  return c;
}

/// A launch's case: `prepare` sets up its inputs, `verify` compares what it
/// left with the CPU's result.
Case launchCase(Session &s, Case c, std::shared_ptr<Launch> l,
                std::function<void()> prepare,
                std::function<std::string()> verify) {
  c.check = [&s, l, prepare, verify] {
    prepare();
    s.once(*l);
    return verify();
  };
  c.repeat = [&s, l] { return s.once(*l); };
  return c;
}

/// Kiln's kernel on every device of the list at once: `launches[i]` runs on
/// device i (its buffers that device's), after `prepare(i)` on device i's
/// thread for the check, which `verify(i)` makes of what it left. `c.work`
/// is one device's work on entry, all devices' on return. The kernel's
/// function is the one loaded on device 0: the runtime's device list loads
/// its module on each other device at the first launch there (the check).
Case multiDeviceCase(Session &s, Case c,
                     std::vector<std::shared_ptr<Launch>> launches,
                     std::function<void(int)> prepare,
                     std::function<std::string(int)> verify) {
  int n = int(launches.size());
  c.devices = n;
  c.work *= n;
  auto round = std::make_shared<DeviceRound>();
  c.round = round;
  auto launchOn = [&s, launches](int i) {
    const Launch &l = *launches[i];
    void *stream = s.threads().stream(i);
    need(s.rt.api->launch(l.function, {l.grid[0], l.grid[1], l.grid[2]},
                          {l.block[0], l.block[1], l.block[2]}, 0, stream,
                          const_cast<void **>(l.params.data()),
                          l.params.size()));
    need(s.rt.api->synchronize(stream));
  };
  c.check = [&s, n, launchOn, prepare, verify] {
    Session::TimingOff off(s);
    s.threads().all(prepare);
    s.threads().all(launchOn);
    std::string errors;
    for (int i = 0; i < n; ++i) {
      std::string error = verify(i);
      if (!error.empty())
        errors += (errors.empty() ? "" : "; ") + std::string("device ") +
                  std::to_string(i) + ": " + error;
    }
    return errors;
  };
  // Host time from the common start: a round of devices that did not run
  // side by side takes as long as their sum.
  c.repeat = [&s, launchOn, round] {
    Session::TimingOff off(s);
    double alone = s.threads().on(0, launchOn);
    std::vector<double> each = s.threads().all(launchOn);
    round->aloneUs = alone;
    round->deviceUs = each;
    return *std::max_element(each.begin(), each.end());
  };
  return c;
}

/// Runs `body` (returning an error or ""), turning what it throws into an
/// error: a rank's part of a step the ranks agree on.
std::string local(const std::function<std::string()> &body) {
  try {
    return body();
  } catch (const std::exception &e) {
    return e.what();
  }
}

/// Host microseconds since `start`.
double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Kiln's kernel on every rank's device at once (kiln_mpiN): `l` over this
/// rank's buffers, after `prepare()` for the check, which `verify()` makes
/// of what it left; the ranks agree on each step. `c.work` is one rank's on
/// entry, all ranks' on return. A repetition is rank 0 alone while the
/// others wait at a barrier, then a barrier, every rank's launch (each timed
/// from its own start to its finish on the host) and a barrier; it returns
/// the slowest rank's time, the same on every rank.
Case mpiCase(Session &s, Case c, std::shared_ptr<Launch> l,
             std::function<void()> prepare,
             std::function<std::string()> verify) {
  MPIJob &mpi = *s.rt.mpi;
  int n = mpi.size();
  c.devices = n;
  c.ranks = n;
  c.work *= n;
  auto round = std::make_shared<DeviceRound>();
  c.round = round;
  auto launch = [&s, l] {
    auto start = std::chrono::steady_clock::now();
    need(s.rt.api->launch(l->function, {l->grid[0], l->grid[1], l->grid[2]},
                          {l->block[0], l->block[1], l->block[2]}, 0, s.stream,
                          const_cast<void **>(l->params.data()),
                          l->params.size()));
    need(s.rt.api->synchronize(s.stream));
    return since(start);
  };
  c.check = [&s, &mpi, launch, prepare, verify] {
    std::string error = mpi.agree(local([&] {
      s.timing(false);
      prepare();
      return std::string();
    }));
    if (!error.empty())
      return error;
    mpi.barrier();
    return mpi.agree(local([&] {
      launch();
      return verify();
    }));
  };
  c.repeat = [&s, &mpi, launch, round, n] {
    // Each rank's time, and rank 0's alone in the last slot; the sum over
    // the ranks gathers them on every rank.
    std::vector<double> us(size_t(n) + 1, 0.0);
    try {
      s.timing(false);
      mpi.barrier();
      if (mpi.rank() == 0)
        us[size_t(n)] = launch();
      mpi.barrier();
      us[size_t(mpi.rank())] = launch();
      mpi.barrier();
    } catch (const std::exception &e) {
      // The other ranks are in a collective call already.
      mpi.endJob(e.what());
    }
    mpi.sum(us);
    round->aloneUs = us[size_t(n)];
    round->deviceUs.assign(us.begin(), us.begin() + n);
    return *std::max_element(us.begin(), us.begin() + n);
  };
  return c;
}

/// Grid for `groups` workgroups numbered y * grid_dim.x + x.
void linearGrid(Launch &l, uint64_t groups) {
  uint64_t x = std::min<uint64_t>(groups, 32768);
  l.grid[0] = intptr_t(x);
  l.grid[1] = intptr_t((groups + x - 1) / x);
}

constexpr unsigned kReduceGroups = 1024;

//===----------------------------------------------------------------------===//
// Device copy: the measured bandwidth peak
//===----------------------------------------------------------------------===//

void deviceCopy(Session &s, uint64_t n, std::vector<Group> &groups) {
  const char *variant = copyVariant(s.rt.backend);
  std::string size = std::to_string(n);
  if (!s.wanted("device_copy", variant, size))
    return;
  auto host = sharedRandom<float>(n, 1);
  Buffer &a = s.buffer(n * 4, {int64_t(n)});
  Buffer &c = s.buffer(n * 4, {int64_t(n)});
  s.upload(a, host->data());
  Case copy = row("device_copy", variant, size, "GB/s", 2.0 * n * 4);
  auto once = [&s, &a, &c, n, variant] {
    double us = need(s.rt.api->deviceCopy(c.device, a.device, n * 4));
    if (us <= 0)
      throw std::runtime_error(std::string(variant) +
                               ": the device has no timestamps");
    return us;
  };
  copy.check = [&s, &c, host, once, n] {
    once();
    std::vector<float> got(n);
    s.download(c, got.data());
    return compare(
        got, [&](size_t i) { return double((*host)[i]); }, 0);
  };
  copy.repeat = once;
  groups.push_back({{copy}});
}

//===----------------------------------------------------------------------===//
// Stream: copy, mul, add, triad, dot
//===----------------------------------------------------------------------===//

/// The arrays of the stream kernels on one device.
struct StreamArrays {
  Buffer *a, *b, *c, *sum;
};

template <typename T>
void stream(Session &s, uint64_t n, const char *type,
            std::vector<Group> &groups) {
  static const char *const kernels[] = {"copy", "mul", "add", "triad", "dot"};
  std::string size = std::to_string(n);
  std::vector<std::string> names;
  for (const char *k : kernels)
    names.push_back(std::string("stream_") + k + "_" + type);
  // On Vulkan the f32 kernels also run with their buffers bound by device
  // address; with several devices, Kiln's kernels also run on all at once.
  std::vector<std::string> variants = s.variants();
  if (s.vulkan() && sizeof(T) == 4)
    variants.push_back(kAddressVariant);
  std::string multi = Result::multiDeviceVariant(s.devices());
  std::string ranks = Result::mpiVariant(s.ranks());
  bool wanted = false, wantedMulti = false, wantedRanks = false;
  for (const std::string &k : names) {
    for (const std::string &v : variants)
      wanted |= s.wanted(k, v, size);
    wantedMulti |= s.devices() > 1 && s.wanted(k, multi, size);
    wantedRanks |= s.mpi() && s.wanted(k, ranks, size);
  }
  if (!wanted && !wantedMulti && !wantedRanks)
    return;
  if (sizeof(T) == 8 && !s.rt.float64) {
    s.skip(std::string("stream_*_") + type, "*",
           "the device has no 64-bit floats");
    return;
  }
  auto ha = sharedRandom<T>(n, 11), hb = sharedRandom<T>(n, 12),
       hc = sharedRandom<T>(n, 13);
  Buffer &a = s.buffer(n * sizeof(T), {int64_t(n)});
  Buffer &b = s.buffer(n * sizeof(T), {int64_t(n)});
  Buffer &c = s.buffer(n * sizeof(T), {int64_t(n)});
  Buffer &sum = s.buffer(kReduceGroups * sizeof(T), {int64_t(kReduceGroups)});
  const T scalar = T(0.4);
  const double tolerance = sizeof(T) == 4 ? 2e-6 : 1e-14;
  auto upload = [&s, ha, hb, hc](const StreamArrays &x) {
    s.upload(*x.a, ha->data());
    s.upload(*x.b, hb->data());
    s.upload(*x.c, hc->data());
  };
  StreamArrays device0{&a, &b, &c, &sum};
  auto prepare = [upload, device0] { upload(device0); };
  // Kernel `name`'s arguments over `x` (without the CUDA element count),
  // the array it writes, and how many arrays it moves.
  auto operands = [](const std::string &name, const StreamArrays &x,
                     std::vector<Arg> &args, double &arrays) -> Buffer * {
    arrays = 2;
    if (name == "copy") {
      args = {Arg::of(*x.a), Arg::of(*x.c)};
      return x.c;
    }
    if (name == "mul") {
      args = {Arg::of(*x.b), Arg::of(*x.c)};
      return x.b;
    }
    if (name == "add" || name == "triad") {
      args = {Arg::of(*x.a), Arg::of(*x.b), Arg::of(*x.c)};
      arrays = 3;
      return name == "add" ? x.c : x.a;
    }
    args = {Arg::of(*x.a), Arg::of(*x.b), Arg::of(*x.sum)};
    return x.sum;
  };
  // The check of what kernel `name` left in `out`.
  auto verifier = [&s, ha, hb, hc, scalar, tolerance,
                   n](const std::string &name, const Buffer *out) {
    return [&s, out, name, ha, hb, hc, scalar, tolerance, n]() -> std::string {
      std::vector<T> got(out->bytes / sizeof(T));
      s.download(*out, got.data());
      const std::vector<T> &A = *ha, &B = *hb, &C = *hc;
      if (name == "copy")
        return compare(
            got, [&](size_t i) { return double(A[i]); }, 0);
      if (name == "mul")
        return compare(
            got, [&](size_t i) { return double(scalar * C[i]); }, tolerance);
      if (name == "add")
        return compare(
            got, [&](size_t i) { return double(A[i] + B[i]); }, tolerance);
      if (name == "triad")
        return compare(
            got, [&](size_t i) { return double(B[i] + scalar * C[i]); },
            tolerance);
      double want = 0, total = 0;
      for (size_t i = 0; i < n; ++i)
        want += double(A[i]) * double(B[i]);
      for (T partial : got)
        total += double(partial);
      return checkSum(total, want, sizeof(T) == 4 ? 1e-4 : 1e-12);
    };
  };
  // Kernel `name`'s launch over `x` with `abi`, and what it moves.
  auto launchOf = [&operands, n](const std::string &name, void *function,
                                 ABI abi, const StreamArrays &x, Buffer *&out,
                                 double &arrays) {
    auto l = std::make_shared<Launch>();
    l->function = function;
    std::vector<Arg> args;
    out = operands(name, x, args, arrays);
    if (abi == ABI::CUDA)
      args.push_back(Arg::u64(n));
    l->pack(abi, args);
    l->block[0] = 256;
    if (name == "dot")
      l->grid[0] = kReduceGroups;
    else
      linearGrid(*l, (n + 255) / 256);
    return l;
  };

  for (const char *k : kernels) {
    std::string kernel = std::string("stream_") + k + "_" + type;
    std::string name = k;
    Group group;
    for (const std::string &variant : variants) {
      if (!s.wanted(kernel, variant, size))
        continue;
      ABI abi;
      void *function = s.pick(kernel, variant, std::string("stream_") + type,
                              name, "stream", name + "_" + type, kernel, abi);
      if (!function)
        continue;
      Buffer *out = nullptr;
      double arrays = 2;
      auto l = launchOf(name, function, abi, device0, out, arrays);
      group.cases.push_back(launchCase(
          s, row(kernel, variant, size, "GB/s", arrays * double(n) * sizeof(T)),
          l, prepare, verifier(name, out)));
    }
    groups.push_back(std::move(group));
  }
  // Kiln's own kernel `name` (the rows of several devices or ranks at
  // once run no reference).
  auto kilnKernel = [&](const std::string &kernel, const std::string &name,
                        ABI &abi) {
    return s.pick(kernel, "kiln", std::string("stream_") + type, name, "stream",
                  name + "_" + type, kernel, abi);
  };
  // Under mpirun, Kiln's kernels on every rank's device at once, each rank
  // on the arrays above, a group each (as every MPI case: the ranks must
  // run the same case at the same time, which interleaving would not).
  for (const char *k : kernels) {
    std::string kernel = std::string("stream_") + k + "_" + type;
    std::string name = k;
    if (!wantedRanks || !s.wanted(kernel, ranks, size))
      continue;
    ABI abi;
    void *function = kilnKernel(kernel, name, abi);
    if (!function)
      continue;
    Buffer *out = nullptr;
    double moved = 2;
    auto l = launchOf(name, function, abi, device0, out, moved);
    groups.push_back({{mpiCase(
        s, row(kernel, ranks, size, "GB/s", moved * double(n) * sizeof(T)), l,
        prepare, verifier(name, out))}});
  }
  if (!wantedMulti)
    return;

  // Kiln's kernels on every device at once, each device with arrays of its
  // own (device 0's are those above), allocated by its thread.
  std::vector<StreamArrays> arrays = {device0};
  for (int i = 1; i < s.devices(); ++i) {
    StreamArrays x;
    x.a = &s.bufferOn(i, n * sizeof(T), {int64_t(n)});
    x.b = &s.bufferOn(i, n * sizeof(T), {int64_t(n)});
    x.c = &s.bufferOn(i, n * sizeof(T), {int64_t(n)});
    x.sum = &s.bufferOn(i, kReduceGroups * sizeof(T), {int64_t(kReduceGroups)});
    arrays.push_back(x);
  }
  for (const char *k : kernels) {
    std::string kernel = std::string("stream_") + k + "_" + type;
    std::string name = k;
    if (!s.wanted(kernel, multi, size))
      continue;
    ABI abi;
    void *function = kilnKernel(kernel, name, abi);
    if (!function)
      continue;
    std::vector<std::shared_ptr<Launch>> launches;
    std::vector<std::function<std::string()>> verifiers;
    double moved = 2;
    for (const StreamArrays &x : arrays) {
      Buffer *out = nullptr;
      launches.push_back(launchOf(name, function, abi, x, out, moved));
      verifiers.push_back(verifier(name, out));
    }
    groups.push_back({{multiDeviceCase(
        s, row(kernel, multi, size, "GB/s", moved * double(n) * sizeof(T)),
        launches, [upload, arrays](int i) { upload(arrays[i]); },
        [verifiers](int i) { return verifiers[i](); })}});
  }
}

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

void reduce(Session &s, uint64_t n, std::vector<Group> &groups) {
  static const char *const kernels[] = {"workgroup", "subgroup"};
  std::string size = std::to_string(n);
  if (!s.wantedAny({"reduce_workgroup", "reduce_subgroup"}, size))
    return;
  std::vector<float> host = randomArray<float>(n, 21);
  double want = 0;
  for (float v : host)
    want += v;
  Buffer &in = s.buffer(n * 4, {int64_t(n)});
  Buffer &sum = s.buffer(kReduceGroups * 4, {int64_t(kReduceGroups)});
  s.upload(in, host.data());
  auto prepare = zeroes(s, sum);
  auto verify = [&s, &sum, want] {
    std::vector<float> got(kReduceGroups);
    s.download(sum, got.data());
    double total = 0;
    for (float v : got)
      total += v;
    return checkSum(total, want, 1e-4);
  };
  for (const char *k : kernels) {
    std::string kernel = std::string("reduce_") + k;
    bool subgroup = std::strcmp(k, "subgroup") == 0;
    Group group;
    for (const std::string &variant : s.variants()) {
      if (!s.wanted(kernel, variant, size))
        continue;
      if (subgroup && !s.rt.subgroupArithmetic) {
        s.skip(kernel, variant,
               "the device has no subgroup arithmetic in compute shaders");
        continue;
      }
      auto l = std::make_shared<Launch>();
      ABI abi;
      std::string function = std::string("sum_") + k;
      l->function = s.pick(kernel, variant, "reduce", function, "reduce",
                           function, kernel, abi);
      if (!l->function)
        continue;
      std::vector<Arg> args = {Arg::of(in), Arg::of(sum)};
      if (abi == ABI::CUDA)
        args.push_back(Arg::u64(n));
      l->pack(abi, args);
      l->block[0] = 256;
      l->grid[0] = kReduceGroups;
      group.cases.push_back(
          launchCase(s, row(kernel, variant, size, "GB/s", double(n) * 4), l,
                     prepare, verify));
    }
    groups.push_back(std::move(group));
  }
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

void transpose(Session &s, uint64_t rows, uint64_t cols,
               std::vector<Group> &groups) {
  std::string size = std::to_string(rows) + "x" + std::to_string(cols);
  if (!s.wantedAny({"transpose"}, size))
    return;
  auto host = sharedRandom<float>(rows * cols, 31);
  Buffer &in = s.buffer(rows * cols * 4, {int64_t(rows), int64_t(cols)});
  Buffer &out = s.buffer(rows * cols * 4, {int64_t(cols), int64_t(rows)});
  Buffer &shape = s.constants({uint32_t(rows), uint32_t(cols)});
  s.upload(in, host->data());
  auto prepare = zeroes(s, out);
  auto verify = [&s, &out, host, rows, cols] {
    std::vector<float> got(rows * cols);
    s.download(out, got.data());
    // out[j][i] = in[i][j]
    return compare(
        got,
        [&](size_t k) {
          size_t j = k / rows, i = k % rows;
          return double((*host)[i * cols + j]);
        },
        0);
  };
  Group group;
  for (const std::string &variant : s.variants()) {
    if (!s.wanted("transpose", variant, size))
      continue;
    auto l = std::make_shared<Launch>();
    ABI abi;
    l->function = s.pick("transpose", variant, "transpose", "transpose",
                         "transpose", "transpose", "transpose", abi);
    if (!l->function)
      continue;
    if (abi == ABI::Kiln)
      l->pack(abi, {Arg::of(in), Arg::of(out)});
    else if (abi == ABI::CUDA)
      l->pack(abi, {Arg::of(in), Arg::of(out), Arg::i32(int32_t(rows)),
                    Arg::i32(int32_t(cols))});
    else
      l->pack(abi, {Arg::of(in), Arg::of(out), Arg::of(shape)});
    l->block[0] = 32;
    l->block[1] = 8;
    l->grid[0] = intptr_t((cols + 31) / 32);
    l->grid[1] = intptr_t((rows + 31) / 32);
    group.cases.push_back(launchCase(
        s, row("transpose", variant, size, "GB/s", 2.0 * rows * cols * 4), l,
        prepare, verify));
  }
  groups.push_back(std::move(group));
}

//===----------------------------------------------------------------------===//
// SGEMM
//===----------------------------------------------------------------------===//

/// cuBLAS, opened at run time from the toolkit.
struct CuBLAS {
  void *handle = nullptr;
  void *blas = nullptr;
  int (*create)(void **) = nullptr;
  int (*destroy)(void *) = nullptr;
  int (*setStream)(void *, void *) = nullptr;
  int (*sgemm)(void *, int, int, int, int, int, const float *, const float *,
               int, const float *, int, const float *, float *, int) = nullptr;
  std::string why;

  bool open() {
    std::vector<std::string> names = {"libcublas.so.13", "libcublas.so.12",
                                      "libcublas.so.11", "libcublas.so"};
    std::vector<std::string> dirs = {""};
    if (const char *p = std::getenv("CUDA_PATH"))
      dirs.push_back(std::string(p) + "/lib64/");
    dirs.push_back("/usr/local/cuda/lib64/");
    for (const std::string &dir : dirs)
      for (const std::string &name : names)
        if (!handle)
          handle = dlopen((dir + name).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      why = "cuBLAS (libcublas.so) not found on the library path, in "
            "$CUDA_PATH/lib64 or /usr/local/cuda/lib64";
      return false;
    }
    create =
        reinterpret_cast<decltype(create)>(dlsym(handle, "cublasCreate_v2"));
    destroy =
        reinterpret_cast<decltype(destroy)>(dlsym(handle, "cublasDestroy_v2"));
    setStream = reinterpret_cast<decltype(setStream)>(
        dlsym(handle, "cublasSetStream_v2"));
    sgemm = reinterpret_cast<decltype(sgemm)>(dlsym(handle, "cublasSgemm_v2"));
    if (!create || !destroy || !setStream || !sgemm) {
      why = "libcublas lacks the cublas*_v2 entry points";
      return false;
    }
    return true;
  }
};

struct GemmCall {
  CuBLAS *cublas;
  const Buffer *A, *B, *C;
  int n;
  int status = 0;
};

void gemmWork(void *user, void *stream) {
  auto *g = static_cast<GemmCall *>(user);
  if (!g->cublas->blas) {
    g->status = g->cublas->create(&g->cublas->blas);
    if (g->status)
      return;
  }
  g->status = g->cublas->setStream(g->cublas->blas, stream);
  if (g->status)
    return;
  // Row-major C = A * B is column-major C^T = B^T * A^T.
  const float alpha = 1, beta = 0;
  g->status = g->cublas->sgemm(g->cublas->blas, 0, 0, g->n, g->n, g->n, &alpha,
                               static_cast<const float *>(g->B->device), g->n,
                               static_cast<const float *>(g->A->device), g->n,
                               &beta, static_cast<float *>(g->C->device), g->n);
}

/// The blocks and grid of SGEMM variant `k` at `n`x`n`.
void gemmGrid(Launch &l, const char *k, unsigned n) {
  l.block[0] = 16;
  l.block[1] = 16;
  unsigned tile = std::strcmp(k, "register") == 0 ? 64 : 16;
  l.grid[0] = n / tile;
  l.grid[1] = n / tile;
}

void sgemm(Session &s, unsigned n, std::vector<Group> &groups) {
  static const char *const kernels[] = {"naive", "tiled", "register"};
  std::string size = std::to_string(n) + "x" + std::to_string(n);
  bool any =
      s.wantedAny({"sgemm_naive", "sgemm_tiled", "sgemm_register"}, size);
  bool blas = s.cuda() && s.wanted("sgemm", "cublas", size);
  std::string multi = Result::multiDeviceVariant(s.devices());
  bool wantedMulti = false;
  for (const char *k : kernels)
    wantedMulti |=
        s.devices() > 1 && s.wanted(std::string("sgemm_") + k, multi, size);
  if (!any && !blas && !wantedMulti)
    return;
  size_t elements = size_t(n) * n;
  auto ha = sharedRandom<float>(elements, 41),
       hb = sharedRandom<float>(elements, 42);
  Buffer &A = s.buffer(elements * 4, {int64_t(n), int64_t(n)});
  Buffer &B = s.buffer(elements * 4, {int64_t(n), int64_t(n)});
  Buffer &C = s.buffer(elements * 4, {int64_t(n), int64_t(n)});
  Buffer &shape = s.constants({n});
  s.upload(A, ha->data());
  s.upload(B, hb->data());

  // The elements checked: all of small matrices, else a sample.
  auto checked = std::make_shared<std::vector<size_t>>();
  if (n <= 256) {
    for (size_t i = 0; i < elements; ++i)
      checked->push_back(i);
  } else {
    std::vector<double> pick = randomArray<double>(1024, 43);
    for (double p : pick)
      checked->push_back(size_t(p * elements));
    checked->push_back(0);
    checked->push_back(elements - 1);
  }
  auto want = std::make_shared<std::map<size_t, double>>();
  for (size_t k : *checked) {
    size_t i = k / n, j = k % n;
    double acc = 0;
    for (size_t q = 0; q < n; ++q)
      acc += double((*ha)[i * n + q]) * double((*hb)[q * n + j]);
    (*want)[k] = acc;
  }
  double flops = 2.0 * n * n * n;
  auto prepare = zeroes(s, C);
  auto verify = sampledFloats(s, C, checked, want);

  for (const char *k : kernels) {
    std::string kernel = std::string("sgemm_") + k;
    Group group;
    for (const std::string &variant : s.variants()) {
      if (!s.wanted(kernel, variant, size))
        continue;
      auto l = std::make_shared<Launch>();
      ABI abi;
      l->function =
          s.pick(kernel, variant, "sgemm", k, "sgemm", kernel, kernel, abi);
      if (!l->function)
        continue;
      if (abi == ABI::Kiln)
        l->pack(abi, {Arg::of(A), Arg::of(B), Arg::of(C)});
      else if (abi == ABI::CUDA)
        l->pack(abi,
                {Arg::of(A), Arg::of(B), Arg::of(C), Arg::i32(int32_t(n))});
      else
        l->pack(abi, {Arg::of(A), Arg::of(B), Arg::of(C), Arg::of(shape)});
      gemmGrid(*l, k, n);
      group.cases.push_back(launchCase(
          s, row(kernel, variant, size, "GFLOP/s", flops), l, prepare, verify));
    }
    groups.push_back(std::move(group));
  }

  if (wantedMulti) {
    // Kiln's kernels on every device at once, each device with matrices of
    // its own (device 0's are those above), allocated and filled by its
    // thread.
    struct Matrices {
      Buffer *A, *B, *C;
    };
    std::vector<Matrices> matrices = {{&A, &B, &C}};
    for (int i = 1; i < s.devices(); ++i) {
      Matrices m;
      m.A = &s.bufferOn(i, elements * 4, {int64_t(n), int64_t(n)});
      m.B = &s.bufferOn(i, elements * 4, {int64_t(n), int64_t(n)});
      m.C = &s.bufferOn(i, elements * 4, {int64_t(n), int64_t(n)});
      matrices.push_back(m);
    }
    s.threads().all([&](int i) {
      if (i == 0)
        return;
      s.upload(*matrices[i].A, ha->data());
      s.upload(*matrices[i].B, hb->data());
    });
    std::vector<std::function<void()>> zero;
    std::vector<std::function<std::string()>> verifiers;
    for (const Matrices &m : matrices) {
      zero.push_back(zeroes(s, *m.C));
      verifiers.push_back(sampledFloats(s, *m.C, checked, want));
    }
    for (const char *k : kernels) {
      std::string kernel = std::string("sgemm_") + k;
      if (!s.wanted(kernel, multi, size))
        continue;
      ABI abi;
      void *function =
          s.pick(kernel, "kiln", "sgemm", k, "sgemm", kernel, kernel, abi);
      if (!function)
        continue;
      std::vector<std::shared_ptr<Launch>> launches;
      for (const Matrices &m : matrices) {
        auto l = std::make_shared<Launch>();
        l->function = function;
        l->pack(abi, {Arg::of(*m.A), Arg::of(*m.B), Arg::of(*m.C)});
        gemmGrid(*l, k, n);
        launches.push_back(l);
      }
      groups.push_back({{multiDeviceCase(
          s, row(kernel, multi, size, "GFLOP/s", flops), launches,
          [zero](int i) { zero[i](); },
          [verifiers](int i) { return verifiers[i](); })}});
    }
  }

  if (!blas)
    return;
  static CuBLAS cublas;
  static bool opened = cublas.open();
  if (!opened) {
    s.skip("sgemm", "cublas", cublas.why);
    return;
  }
  auto call = std::make_shared<GemmCall>(GemmCall{&cublas, &A, &B, &C, int(n)});
  Case c = row("sgemm", "cublas", size, "GFLOP/s", flops);
  auto once = [&s, call] {
    double us = s.rt.timed(gemmWork, call.get());
    if (call->status)
      throw std::runtime_error("cuBLAS failed with status " +
                               std::to_string(call->status));
    return us;
  };
  c.check = [prepare, verify, once] {
    prepare();
    once();
    return verify();
  };
  c.repeat = once;
  groups.push_back({{c}});
}

//===----------------------------------------------------------------------===//
// FMA chain
//===----------------------------------------------------------------------===//

void fmaChain(Session &s, unsigned threads, unsigned iterations,
              std::vector<Group> &groups) {
  std::string size = std::to_string(threads) + "x" + std::to_string(iterations);
  if (!s.wantedAny({"fma_chain"}, size))
    return;
  Buffer &out = s.buffer(size_t(threads) * 4, {int64_t(threads)});
  Buffer &params = s.constants({iterations});
  // The CPU's value of sampled invocations.
  auto checked = std::make_shared<std::vector<size_t>>();
  for (size_t i = 0; i < threads; i += std::max<size_t>(1, threads / 512))
    checked->push_back(i);
  checked->push_back(threads - 1);
  auto want = std::make_shared<std::map<size_t, double>>();
  for (size_t i : *checked) {
    float f = float(uint32_t(i));
    float x[8] = {f, f + 1, f + 2, f + 3, f + 4, f + 5, f + 6, f + 7};
    for (unsigned k = 0; k < iterations; ++k)
      for (int r = 0; r < 8; ++r)
        for (float &v : x)
          v = std::fma(v, 0.999f, 0.001f);
    double total = 0;
    for (float v : x)
      total += v;
    (*want)[i] = total;
  }
  auto prepare = zeroes(s, out);
  auto verify = sampledFloats(s, out, checked, want);
  Group group;
  for (const std::string &variant : s.variants()) {
    if (!s.wanted("fma_chain", variant, size))
      continue;
    auto l = std::make_shared<Launch>();
    ABI abi;
    l->function = s.pick("fma_chain", variant, "fma", "fma_chain", "fma",
                         "fma_chain", "fma", abi);
    if (!l->function)
      continue;
    if (abi == ABI::Kiln)
      l->pack(abi, {Arg::of(out), Arg::i32(int32_t(iterations))});
    else if (abi == ABI::CUDA)
      l->pack(abi,
              {Arg::of(out), Arg::u64(threads), Arg::i32(int32_t(iterations))});
    else
      l->pack(abi, {Arg::of(out), Arg::of(params)});
    l->block[0] = 256;
    l->grid[0] = (threads + 255) / 256;
    group.cases.push_back(launchCase(s,
                                     row("fma_chain", variant, size, "GFLOP/s",
                                         double(threads) * iterations * 128),
                                     l, prepare, verify));
  }
  groups.push_back(std::move(group));
}

//===----------------------------------------------------------------------===//
// Empty kernel: launch round trip and back-to-back launches
//===----------------------------------------------------------------------===//

void emptyKernel(Session &s, unsigned launches, std::vector<Group> &groups) {
  std::string size = std::to_string(launches);
  for (const char *mode : {"roundtrip", "throughput"}) {
    std::string kernel = std::string("empty_") + mode;
    bool roundTrip = std::strcmp(mode, "roundtrip") == 0;
    Group group;
    for (const std::string &variant : s.variants()) {
      if (!s.wanted(kernel, variant, size))
        continue;
      ABI abi;
      void *function = s.pick(kernel, variant, "empty", "empty", "fma", "empty",
                              "empty", abi);
      if (!function)
        continue;
      auto launch = [&s, function] {
        need(s.rt.api->launch(function, {1, 1, 1}, {64, 1, 1}, 0, s.stream,
                              nullptr, 0));
      };
      Case c = row(kernel, variant, size, "klaunch/s", launches);
      c.launches = launches;
      c.check = [&s, launch] {
        launch();
        need(s.rt.api->synchronize(s.stream));
        return std::string();
      };
      // Host time: GPU timestamps would make each launch wait.
      c.repeat = [&s, launch, launches, roundTrip] {
        s.timing(false);
        auto start = std::chrono::steady_clock::now();
        for (unsigned i = 0; i < launches; ++i) {
          launch();
          if (roundTrip)
            need(s.rt.api->synchronize(s.stream));
        }
        need(s.rt.api->synchronize(s.stream));
        double us = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - start)
                        .count();
        s.timing(true);
        return us;
      };
      group.cases.push_back(std::move(c));
    }
    groups.push_back(std::move(group));
  }
}

/// Elements per stream array: at least 4x the last-level cache (2^25,
/// BabelStream's default, at least; 2^26 when the cache is unknown).
uint64_t streamSize(const Runtime &rt, const Options &o) {
  if (o.size)
    return o.size;
  uint64_t llc = rt.lastLevelCacheBytes ? rt.lastLevelCacheBytes : 64u << 20;
  uint64_t n = 1u << 25;
  while (n * 4 < 4 * llc)
    n *= 2;
  return n;
}

/// Elements per stream array of `elementBytes`-byte elements: `n`, but by
/// default no more than one storage-buffer descriptor reaches (the GLSL
/// references bind descriptors; 2^25 f64 are 256 MiB, twice lavapipe's
/// maxStorageBufferRange).
uint64_t streamElements(const Runtime &rt, const Options &o, uint64_t n,
                        uint64_t elementBytes) {
  if (o.size || !rt.maxBufferBytes || n * elementBytes <= rt.maxBufferBytes)
    return n;
  uint64_t fit = 1;
  while (fit * 2 * elementBytes <= rt.maxBufferBytes)
    fit *= 2;
  return fit;
}

/// SGEMM sizes: --gemm-sizes, else 1024, 2048 and 4096 on a GPU and 256 and
/// 512 on a CPU driver (where 4096 takes minutes per repetition).
std::vector<unsigned> gemmSizes(const Runtime &rt, const Options &o) {
  if (!o.gemmSizes.empty())
    return o.gemmSizes;
  if (rt.isCPU)
    return {256, 512};
  return {1024, 2048, 4096};
}

//===----------------------------------------------------------------------===//
// Allreduce under mpirun
//===----------------------------------------------------------------------===//

/// Rank `rank`'s element `i` of the allreduce's input: small integers, so
/// that every sum is exact in f32.
float allreduceValue(uint64_t i, int rank) {
  return float((7 * i + 13 * uint64_t(rank)) % 101);
}

/// Allreduces of one repetition of `bytes`: enough that a repetition of a
/// small message lasts more than a few microseconds.
unsigned allreduceIterations(uint64_t bytes) {
  return unsigned(std::clamp<uint64_t>((4u << 20) / bytes, 1, 100));
}

/// Allreduce message sizes: --allreduce-sizes, else 8 B to 256 MiB in
/// powers of 2, as far as an eighth of the device's memory (the send and
/// receive buffers, and the runtime's pinned copies of both) and an eighth
/// of the host's per rank on this node reach.
std::vector<uint64_t> allreduceSizes(const Runtime &rt, const Options &o) {
  if (!o.allreduceSizes.empty())
    return o.allreduceSizes;
  if (o.smoke)
    return {8, 4 * (4096 + 37)};
  uint64_t largest = 256u << 20;
  if (rt.memoryBytes)
    largest = std::min(largest, rt.memoryBytes / 8);
  long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageBytes > 0) {
    uint64_t ranks = uint64_t(std::max(localRanksFromEnvironment(), 1));
    largest =
        std::min(largest, uint64_t(pages) * uint64_t(pageBytes) / (8 * ranks));
  }
  std::vector<uint64_t> sizes;
  for (uint64_t bytes = 8; bytes <= largest; bytes *= 2)
    sizes.push_back(bytes);
  return sizes;
}

/// The f32 sum allreduce over the ranks at each of `sizes` (bytes): of host
/// buffers (kiln_mpiN_host: MPI's own floor) and of device buffers of the
/// runtime's allocate() (kiln_mpiN_device: what the runtime stages through
/// pinned host memory), with the device's ratios over the host's. The
/// largest message's buffers serve every size. A repetition is a barrier
/// and a few allreduces back to back on every rank; its time is the
/// slowest rank's per allreduce.
void allreduce(Session &s, const std::vector<uint64_t> &sizes,
               std::vector<Group> &groups) {
  MPIJob &mpi = *s.rt.mpi;
  int n = mpi.size();
  const std::string kernel = "allreduce_sum_f32";
  std::string host = Result::mpiVariant(n, "host"),
              device = Result::mpiVariant(n, "device");
  uint64_t largest = 0;
  for (uint64_t bytes : sizes)
    if (s.wanted(kernel, host, std::to_string(bytes)) ||
        s.wanted(kernel, device, std::to_string(bytes)))
      largest = std::max(largest, bytes);
  if (!largest)
    return;
  uint64_t elements = largest / 4;
  auto send = std::make_shared<std::vector<float>>(elements);
  auto recv = std::make_shared<std::vector<float>>(elements);
  for (uint64_t i = 0; i < elements; ++i)
    (*send)[i] = allreduceValue(i, mpi.rank());
  Buffer &deviceSend = s.buffer(largest, {int64_t(elements)});
  Buffer &deviceRecv = s.buffer(largest, {int64_t(elements)});
  s.upload(deviceSend, send->data());

  // Whether the first `count` elements of `got` are every rank's sum.
  auto verify = [n](const std::vector<float> &got, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      double want = 0;
      for (int r = 0; r < n; ++r)
        want += allreduceValue(i, r);
      if (double(got[i]) != want) {
        std::ostringstream os;
        os << "wrong result: element " << i << " of " << count << " is "
           << got[i] << ", expected " << want;
        return os.str();
      }
    }
    return std::string();
  };
  // One repetition: the slowest rank's microseconds per allreduce.
  auto timed = [&mpi, n](const float *in, float *out, uint64_t count,
                         unsigned iterations) {
    std::vector<double> us(size_t(n), 0.0);
    mpi.barrier();
    auto start = std::chrono::steady_clock::now();
    for (unsigned k = 0; k < iterations; ++k)
      mpi.allreduceSum(in, out, int64_t(count));
    us[size_t(mpi.rank())] = since(start) / iterations;
    mpi.sum(us);
    return *std::max_element(us.begin(), us.end());
  };
  double busFactor = 2.0 * (n - 1) / n;

  for (uint64_t bytes : sizes) {
    std::string size = std::to_string(bytes);
    uint64_t count = bytes / 4;
    unsigned iterations = allreduceIterations(bytes);
    if (s.wanted(kernel, host, size)) {
      Case c = row(kernel, host, size, "GB/s", double(bytes));
      c.ranks = n;
      c.busFactor = busFactor;
      c.check = [&mpi, send, recv, count, verify] {
        std::fill(recv->begin(), recv->begin() + int64_t(count), 0.0f);
        mpi.allreduceSum(send->data(), recv->data(), int64_t(count));
        return mpi.agree(verify(*recv, count));
      };
      c.repeat = [send, recv, count, iterations, timed] {
        return timed(send->data(), recv->data(), count, iterations);
      };
      groups.push_back({{c}});
    }
    if (s.wanted(kernel, device, size)) {
      Case c = row(kernel, device, size, "GB/s", double(bytes));
      c.ranks = n;
      c.busFactor = busFactor;
      c.against = host;
      auto in = static_cast<const float *>(deviceSend.device);
      auto out = static_cast<float *>(deviceRecv.device);
      c.check = [&s, &mpi, in, out, recv, count, verify] {
        std::string error = mpi.agree(local([&] {
          need(s.rt.api->fill32(out, 0, count, nullptr));
          return std::string();
        }));
        if (!error.empty())
          return error;
        mpi.allreduceSum(in, out, int64_t(count));
        return mpi.agree(local([&] {
          need(s.rt.api->copy(recv->data(), out, count * 4, nullptr));
          return verify(*recv, count);
        }));
      };
      c.repeat = [in, out, count, iterations, timed] {
        return timed(in, out, count, iterations);
      };
      groups.push_back({{c}});
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// All families
//===----------------------------------------------------------------------===//

void forEachFamily(
    Runtime &rt, const Options &options,
    const std::function<bool(std::vector<Group> &)> &run,
    const std::function<void(const std::string &, const std::string &)> &fail) {
  uint64_t n = streamSize(rt, options);
  uint64_t side = 32;
  while ((side * 2) * (side * 2) <= n)
    side *= 2;
  std::unique_ptr<Session> session;
  bool usable = true;
  // A runtime error fails the family it happened in; the others go on,
  // unless the device is gone. Under mpirun the ranks agree on the setup's
  // errors (the setup itself makes no MPI call), so that all of them
  // measure the family or none.
  auto guard = [&](const std::string &name, auto setup, auto measure) {
    if (!usable)
      return false;
    std::string error;
    bool fatal = false;
    try {
      setup();
    } catch (const RuntimeFailure &failure) {
      error = failure.what();
      fatal = failure.fatal();
    } catch (const std::exception &e) {
      error = e.what();
    }
    if (rt.mpi)
      error = rt.mpi->agree(error);
    if (!error.empty()) {
      fail(name, error);
      // Every rank goes on to the next family, as they agreed.
      usable = rt.mpi || !fatal;
      return false;
    }
    try {
      usable = measure();
    } catch (const RuntimeFailure &failure) {
      fail(name, failure.what());
      usable = !failure.fatal();
    } catch (const std::exception &e) {
      fail(name, e.what());
    }
    return true;
  };
  if (!guard(
          "session", [&] { session = std::make_unique<Session>(rt, options); },
          [] { return true; }))
    return;
  Session &s = *session;
  auto family = [&](const std::string &name, auto build) {
    std::vector<Group> groups;
    guard(
        name,
        [&] {
          build(groups);
          // A group the filter left empty is not measured.
          groups.erase(
              std::remove_if(groups.begin(), groups.end(),
                             [](const Group &g) { return g.cases.empty(); }),
              groups.end());
        },
        [&] { return groups.empty() || run(groups); });
  };
  if (rt.mpi) {
    // Under mpirun: what the ranks do together.
    family("stream_f32", [&](auto &g) {
      stream<float>(s, streamElements(rt, options, n, 4), "f32", g);
    });
    family("allreduce_sum_f32",
           [&](auto &g) { allreduce(s, allreduceSizes(rt, options), g); });
    return;
  }
  // The peaks first: the device copy and the FMA chain.
  family("device_copy", [&](auto &g) { deviceCopy(s, n, g); });
  family("fma_chain", [&](auto &g) {
    fmaChain(s, options.fmaThreads, options.fmaIterations, g);
  });
  family("stream_f32", [&](auto &g) {
    stream<float>(s, streamElements(rt, options, n, 4), "f32", g);
  });
  family("stream_f64", [&](auto &g) {
    stream<double>(s, streamElements(rt, options, n, 8), "f64", g);
  });
  family("reduce", [&](auto &g) { reduce(s, n, g); });
  family("transpose", [&](auto &g) {
    if (options.smoke)
      transpose(s, 96, 160, g); // not square, not a multiple of the tile
    else
      transpose(s, side, side, g);
  });
  for (unsigned size : gemmSizes(rt, options))
    family("sgemm_" + std::to_string(size),
           [&](auto &g) { sgemm(s, size, g); });
  family("empty_kernel", [&](auto &g) { emptyKernel(s, options.launches, g); });
}

size_t plannedCases(const Runtime &rt, const Options &options) {
  size_t count = 0;
  size_t gemms = gemmSizes(rt, options).size();
  size_t allreduces = rt.mpi ? allreduceSizes(rt, options).size() : 0;
  int ranks = rt.mpi ? rt.mpi->size() : 0;
  for (const std::string &name : benchmarkNames(rt.backend, rt.devices, ranks))
    if (matchesFilter(options.filter, name + "/"))
      count += name.rfind("sgemm", 0) == 0       ? gemms
               : name.rfind("allreduce", 0) == 0 ? allreduces
                                                 : 1;
  return count;
}

std::vector<std::string> benchmarkNames(const std::string &backend, int devices,
                                        int ranks) {
  if (ranks > 0) {
    // Under mpirun: the MPI families only.
    std::vector<std::string> names;
    for (const char *k : {"copy", "mul", "add", "triad", "dot"})
      names.push_back(std::string("stream_") + k + "_f32/" +
                      Result::mpiVariant(ranks) + "/" + backend);
    for (const char *buffers : {"host", "device"})
      names.push_back("allreduce_sum_f32/" +
                      Result::mpiVariant(ranks, buffers) + "/" + backend);
    return names;
  }
  bool cuda = backend == "cuda";
  std::string ref = Result::referenceVariant(backend);
  std::vector<std::string> names;
  names.push_back(std::string("device_copy/") + copyVariant(backend) + "/" +
                  backend);
  std::vector<std::string> kernels = {"fma_chain"};
  for (const char *type : {"f32", "f64"})
    for (const char *k : {"copy", "mul", "add", "triad", "dot"})
      kernels.push_back(std::string("stream_") + k + "_" + type);
  for (const char *k :
       {"reduce_workgroup", "reduce_subgroup", "transpose", "sgemm_naive",
        "sgemm_tiled", "sgemm_register", "empty_roundtrip", "empty_throughput"})
    kernels.push_back(k);
  for (const std::string &k : kernels) {
    names.push_back(k + "/kiln/" + backend);
    if (!ref.empty())
      names.push_back(k + "/" + ref + "/" + backend);
    bool streamKernel = k.rfind("stream_", 0) == 0;
    if (backend == "vulkan" && streamKernel && k.find("_f32") != k.npos)
      names.push_back(k + "/" + kAddressVariant + "/" + backend);
    if (devices > 1 && (streamKernel || k.rfind("sgemm_", 0) == 0))
      names.push_back(k + "/" + Result::multiDeviceVariant(devices) + "/" +
                      backend);
  }
  if (cuda)
    names.push_back("sgemm/cublas/cuda");
  return names;
}

} // namespace bench
} // namespace kiln
