//===- FakeCUDADriver.cpp - A libcuda.so.1 stand-in for runtime tests -----===//
//
// Implements the driver entry points Kiln's CUDA runtime calls on host
// memory, so that the runtime's bookkeeping and error paths are tested on
// machines without an NVIDIA GPU. Kernels are not run. Device N is named
// "Fake GPU N", its UUID is fa4ec0da-0000-0000-0000-0000000000NN (hex), and
// its primary context is 0x1000 + N; a thread's current contexts are its
// own, as in the driver. Behaviour is steered by the environment, read at
// each call:
//   FAKE_CUDA_INIT_RESULT=N   cuInit returns N
//   FAKE_CUDA_DEVICES=N       number of devices (default 2: sm_90, sm_80)
//   FAKE_CUDA_NO_PARAM_INFO=1 cuFuncGetParamInfo answers
//                             CUDA_ERROR_NOT_SUPPORTED (a driver before 12.4)
//   FAKE_CUDA_SYNC_MS=N       waits take N ms
//   FAKE_CUDA_BUSY=1          work never completes (queries say not ready)
//   FAKE_CUDA_MAX_REGISTERED=N  cuMemHostRegister fails with
//                             CUDA_ERROR_OUT_OF_MEMORY once N ranges are
//                             registered
// cuMemAlloc fails with CUDA_ERROR_OUT_OF_MEMORY above 1 TiB; launching a
// kernel named launch_fails* fails with CUDA_ERROR_LAUNCH_FAILED;
// cuMemcpyDtoDAsync wants two allocations, cuMemcpyPeerAsync two
// allocations made in the contexts it names. cuFuncGetParamInfo knows the
// parameters of PTX kernels from their .entry declarations.
// Tests inspect what happened through the fakeCuda* functions.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {
using CUresult = int;
struct Function {
  std::string name;
  struct Module *module;
  /// The byte size of each parameter (PTX kernels only).
  std::vector<size_t> params;
  bool paramsKnown = false;
};
struct Module {
  std::vector<Function *> functions;
  /// cubin and fatbin images are not parsed: every name is a kernel.
  bool anyName = false;
};

/// What the driver keeps for the process. The runtime calls it from
/// several threads at once (one per device), so the tables are locked.
struct State {
  std::recursive_mutex mutex;
  std::map<uintptr_t, size_t> device, managed, registered;
  /// The context current when each allocation was made.
  std::map<uintptr_t, uintptr_t> allocationContext;
  std::atomic<int> lastLaunchDevice{-1};
  std::atomic<unsigned> launches{0}, peerCopies{0};
  unsigned lastCluster[3] = {0, 0, 0}, lastBlock[3] = {0, 0, 0};
  std::atomic<bool> pendingIllegalAddress{false};
  std::atomic<int> registerCalls{0};
  /// Events, streams and modules created and not destroyed.
  std::atomic<int> liveEvents{0}, liveStreams{0}, liveModules{0};
};
State &state() {
  static State s;
  return s;
}
using Guard = std::lock_guard<std::recursive_mutex>;
/// Each thread's current contexts, innermost last.
thread_local std::vector<uintptr_t> contextStack;

int envInt(const char *name, int fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

bool inRange(const std::map<uintptr_t, size_t> &ranges, uintptr_t p) {
  auto it = ranges.upper_bound(p);
  return it != ranges.begin() && p < std::prev(it)->first + std::prev(it)->second;
}

/// The context the allocation holding `p` was made in (0: none).
uintptr_t contextOf(uintptr_t p) {
  State &s = state();
  for (const auto *ranges : {&s.device, &s.managed}) {
    auto it = ranges->upper_bound(p);
    if (it != ranges->begin() &&
        p < std::prev(it)->first + std::prev(it)->second)
      return s.allocationContext[std::prev(it)->first];
  }
  return 0;
}

/// The byte sizes of a PTX parameter list "(.param .u64 a, .param .align 8
/// .b8 b[24])".
std::vector<size_t> parseParams(const std::string &list) {
  std::vector<size_t> sizes;
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(',', start);
    std::string param = list.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() : comma + 1;
    if (param.find(".param") == std::string::npos)
      continue;
    size_t size = 0;
    for (size_t at = param.find('.'); at != std::string::npos;
         at = param.find('.', at + 1)) {
      char kind = param[at + 1];
      if ((kind == 'u' || kind == 's' || kind == 'b' || kind == 'f') &&
          std::isdigit((unsigned char)param[at + 2]))
        size = std::strtoul(param.c_str() + at + 2, nullptr, 10) / 8;
    }
    size_t bracket = param.find('[');
    if (bracket != std::string::npos)
      size *= std::strtoul(param.c_str() + bracket + 1, nullptr, 10);
    sizes.push_back(size);
  }
  return sizes;
}

const char *errorName(CUresult r) {
  switch (r) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 218: return "CUDA_ERROR_INVALID_PTX";
  case 500: return "CUDA_ERROR_NOT_FOUND";
  case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 719:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case 712: return "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED";
  case 713: return "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return nullptr;
  }
}
} // namespace

extern "C" {

// Inspection.
int fakeCudaRegisteredRanges() {
  Guard g(state().mutex);
  return (int)state().registered.size();
}
int fakeCudaRegisterCalls() { return state().registerCalls; }
int fakeCudaIsRegistered(void *p) {
  Guard g(state().mutex);
  return inRange(state().registered, (uintptr_t)p);
}
unsigned fakeCudaPeerCopies() { return state().peerCopies; }
int fakeCudaLiveModules() { return state().liveModules; }
int fakeCudaLiveAllocations() {
  Guard g(state().mutex);
  return (int)(state().device.size() + state().managed.size());
}
int fakeCudaLastLaunchDevice() { return state().lastLaunchDevice; }
unsigned fakeCudaLaunches() { return state().launches; }
unsigned fakeCudaLastClusterX() {
  Guard g(state().mutex);
  return state().lastCluster[0];
}
int fakeCudaLiveEvents() { return state().liveEvents; }
int fakeCudaLiveStreams() { return state().liveStreams; }

CUresult cuInit(unsigned) { return envInt("FAKE_CUDA_INIT_RESULT", 0); }
CUresult cuDriverGetVersion(int *v) { *v = 12080; return 0; }
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = errorName(r);
  return *name ? 0 : 1;
}
CUresult cuGetErrorString(CUresult r, const char **text) {
  *text = errorName(r) ? "fake driver error" : nullptr;
  return *text ? 0 : 1;
}
CUresult cuDeviceGetCount(int *n) { *n = envInt("FAKE_CUDA_DEVICES", 2); return 0; }
CUresult cuDeviceGet(int *d, int i) {
  if (i < 0 || i >= envInt("FAKE_CUDA_DEVICES", 2))
    return 101;
  *d = i;
  return 0;
}
CUresult cuDeviceGetName(char *name, int len, int d) {
  std::string n = "Fake GPU " + std::to_string(d);
  std::strncpy(name, n.c_str(), len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, int d) {
  switch (attribute) {
  case 1: *v = 1024; break;
  case 75: *v = d == 0 ? 9 : 8; break;
  case 76: *v = 0; break;
  default: *v = 1;
  }
  return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int) { *bytes = 80ull << 30; return 0; }
CUresult cuDeviceGetUuid_v2(unsigned char *uuid, int d) {
  if (d < 0 || d >= envInt("FAKE_CUDA_DEVICES", 2))
    return 101;
  const unsigned char bytes[16] = {
      0xfa, 0x4e, 0xc0, 0xda, 0, 0, 0, 0,
      0,    0,    0,    0,    0, 0, 0, (unsigned char)d};
  std::memcpy(uuid, bytes, 16);
  return 0;
}
CUresult cuDeviceGetUuid(unsigned char *uuid, int d) {
  return cuDeviceGetUuid_v2(uuid, d);
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = (void *)(uintptr_t)(0x1000 + d);
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return 0; }
CUresult cuCtxPushCurrent_v2(void *ctx) {
  contextStack.push_back((uintptr_t)ctx);
  return 0;
}
CUresult cuCtxPopCurrent_v2(void **ctx) {
  if (contextStack.empty())
    return 201;
  if (ctx)
    *ctx = (void *)contextStack.back();
  contextStack.pop_back();
  return 0;
}

CUresult cuModuleLoadDataEx(Module **out, const void *image, unsigned n,
                            int *options, void **values) {
  const char *text = (const char *)image;
  auto *module = new Module();
  module->anyName = std::memcmp(text, "\x7f" "ELF", 4) == 0 ||
                    *(const uint32_t *)image == 0xBA55ED50u;
  if (!module->anyName) {
    std::string ptx(text);
    if (ptx.find("fake_syntax_error") != std::string::npos) {
      for (unsigned i = 0; i < n; ++i)
        if (options[i] == 5)
          std::strcpy((char *)values[i],
                      "ptxas application ptx input, line 3; error   : "
                      "Unknown symbol 'fake_syntax_error'");
      delete module;
      return 218;
    }
    for (size_t at = ptx.find(".entry "); at != std::string::npos;
         at = ptx.find(".entry ", at + 1)) {
      size_t begin = at + 7, end = ptx.find_first_of("( \n", begin);
      auto *function =
          new Function{ptx.substr(begin, end - begin), module, {}, false};
      size_t open = ptx.find('(', end), body = ptx.find('{', end);
      if (open != std::string::npos && open < body) {
        size_t close = ptx.find(')', open);
        function->params = parseParams(ptx.substr(open + 1, close - open - 1));
      }
      function->paramsKnown = true;
      module->functions.push_back(function);
    }
  }
  *out = module;
  ++state().liveModules;
  return 0;
}
CUresult cuModuleUnload(Module *m) {
  delete m;
  --state().liveModules;
  return 0;
}
CUresult cuModuleGetFunction(Function **f, Module *m, const char *name) {
  for (Function *fn : m->functions)
    if (fn->name == name) {
      *f = fn;
      return 0;
    }
  if (m->anyName) {
    m->functions.push_back(new Function{name, m, {}, false});
    *f = m->functions.back();
    return 0;
  }
  return 500;
}
CUresult cuModuleGetFunctionCount(unsigned *n, Module *m) {
  *n = (unsigned)m->functions.size();
  return 0;
}
CUresult cuModuleEnumerateFunctions(Function **fs, unsigned n, Module *m) {
  for (unsigned i = 0; i < n && i < m->functions.size(); ++i)
    fs[i] = m->functions[i];
  return 0;
}
CUresult cuFuncGetName(const char **name, Function *f) {
  *name = f->name.c_str();
  return 0;
}
CUresult cuFuncGetAttribute(int *v, int, Function *) { *v = 1024; return 0; }
CUresult cuFuncGetParamInfo(Function *f, size_t index, size_t *offset,
                            size_t *size) {
  if (envInt("FAKE_CUDA_NO_PARAM_INFO", 0))
    return 801;
  if (!f->paramsKnown)
    return 801;
  if (index >= f->params.size())
    return 1;
  size_t at = 0;
  for (size_t i = 0; i < index; ++i)
    at += f->params[i];
  *offset = at;
  *size = f->params[index];
  return 0;
}

static CUresult launch(Function *f, const unsigned block[3]) {
  State &s = state();
  if (contextStack.empty())
    return 201;
  if (f->name.rfind("launch_fails", 0) == 0)
    return 719;
  Guard g(s.mutex);
  s.lastLaunchDevice = (int)(contextStack.back() - 0x1000);
  ++s.launches;
  std::memcpy(s.lastBlock, block, sizeof(s.lastBlock));
  if (f->name.find("illegal") != std::string::npos)
    s.pendingIllegalAddress = true;
  return 0;
}
CUresult cuLaunchKernel(Function *f, unsigned, unsigned, unsigned, unsigned bx,
                        unsigned by, unsigned bz, unsigned, void *, void **,
                        void **) {
  unsigned block[3] = {bx, by, bz};
  return launch(f, block);
}
struct LaunchConfig {
  unsigned grid[3], block[3], smem;
  void *stream;
  struct {
    int id;
    char pad[4];
    unsigned dims[16];
  } *attrs;
  unsigned numAttrs;
};
CUresult cuLaunchKernelEx(const LaunchConfig *c, Function *f, void **, void **) {
  if (c->numAttrs == 1 && c->attrs[0].id == 4) {
    Guard g(state().mutex);
    state().lastCluster[0] = c->attrs[0].dims[0];
  }
  return launch(f, c->block);
}

CUresult cuStreamCreate(void **s, unsigned) {
  *s = new int(0);
  ++state().liveStreams;
  return 0;
}
CUresult cuStreamDestroy_v2(void *s) {
  delete (int *)s;
  --state().liveStreams;
  return 0;
}
CUresult cuStreamSynchronize(void *) {
  // FAKE_CUDA_SYNC_MS=N: the work takes N ms to complete.
  if (const char *ms = std::getenv("FAKE_CUDA_SYNC_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
  if (state().pendingIllegalAddress.exchange(false))
    return 700;
  return 0;
}
// FAKE_CUDA_BUSY=1: work never completes (a kernel that runs forever).
static bool busy() {
  const char *v = std::getenv("FAKE_CUDA_BUSY");
  return v && *v == '1';
}
CUresult cuStreamQuery(void *s) {
  return busy() ? 600 : cuStreamSynchronize(s);
}
CUresult cuEventQuery(void *e) { return busy() ? 600 : cuStreamSynchronize(e); }
CUresult cuStreamWaitEvent(void *, void *, unsigned) { return 0; }
CUresult cuEventCreate(void **e, unsigned) {
  *e = new int(0);
  ++state().liveEvents;
  return 0;
}
CUresult cuEventDestroy_v2(void *e) {
  delete (int *)e;
  --state().liveEvents;
  return 0;
}
CUresult cuEventRecord(void *, void *) { return 0; }
CUresult cuEventSynchronize(void *) { return cuStreamSynchronize(nullptr); }
CUresult cuEventElapsedTime(float *ms, void *, void *) { *ms = 0.5f; return 0; }

CUresult cuMemAlloc_v2(uintptr_t *p, size_t n) {
  if (n > (1ull << 40))
    return 2;
  if (contextStack.empty())
    return 201;
  *p = (uintptr_t)std::malloc(n);
  Guard g(state().mutex);
  state().device[*p] = n;
  state().allocationContext[*p] = contextStack.back();
  return 0;
}
CUresult cuMemAllocManaged(uintptr_t *p, size_t n, unsigned) {
  if (contextStack.empty())
    return 201;
  *p = (uintptr_t)std::malloc(n);
  Guard g(state().mutex);
  state().managed[*p] = n;
  state().allocationContext[*p] = contextStack.back();
  return 0;
}
CUresult cuMemFree_v2(uintptr_t p) {
  State &s = state();
  Guard g(s.mutex);
  if (!s.device.erase(p) && !s.managed.erase(p))
    return 1;
  s.allocationContext.erase(p);
  std::free((void *)p);
  return 0;
}
CUresult cuMemcpyAsync(uintptr_t d, uintptr_t s, size_t n, void *) {
  std::memcpy((void *)d, (void *)s, n);
  return 0;
}
CUresult cuMemcpyPeerAsync(uintptr_t d, void *dstContext, uintptr_t s,
                           void *srcContext, size_t n, void *) {
  Guard g(state().mutex);
  if (contextOf(d) != (uintptr_t)dstContext ||
      contextOf(s) != (uintptr_t)srcContext || !dstContext || !srcContext)
    return 1;
  std::memcpy((void *)d, (void *)s, n);
  ++state().peerCopies;
  return 0;
}
CUresult cuMemcpyDtoDAsync_v2(uintptr_t d, uintptr_t s, size_t n, void *) {
  State &st = state();
  Guard g(st.mutex);
  auto allocated = [&](uintptr_t p) {
    return inRange(st.device, p) || inRange(st.managed, p);
  };
  if (!allocated(d) || !allocated(s))
    return 1;
  std::memcpy((void *)d, (void *)s, n);
  return 0;
}
CUresult cuMemsetD32Async(uintptr_t d, unsigned v, size_t n, void *) {
  for (size_t i = 0; i < n; ++i)
    ((uint32_t *)d)[i] = v;
  return 0;
}
CUresult cuMemsetD16Async(uintptr_t d, unsigned short v, size_t n, void *) {
  for (size_t i = 0; i < n; ++i)
    ((uint16_t *)d)[i] = v;
  return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned) {
  State &s = state();
  Guard g(s.mutex);
  uintptr_t b = (uintptr_t)p;
  for (auto &[start, size] : s.registered)
    if (b < start + size && start < b + n)
      return 712;
  if ((int)s.registered.size() >= envInt("FAKE_CUDA_MAX_REGISTERED", 1 << 30))
    return 2;
  s.registered[b] = n;
  ++s.registerCalls;
  return 0;
}
CUresult cuMemHostUnregister(void *p) {
  Guard g(state().mutex);
  return state().registered.erase((uintptr_t)p) ? 0 : 713;
}
CUresult cuPointerGetAttribute(void *out, int attribute, uintptr_t p) {
  State &s = state();
  Guard g(s.mutex);
  if (attribute != 2)
    return 1;
  unsigned type = inRange(s.device, p)       ? 2
                  : inRange(s.managed, p)    ? 4
                  : inRange(s.registered, p) ? 1
                                             : 0;
  if (!type)
    return 1;
  *(unsigned *)out = type;
  return 0;
}

} // extern "C"
