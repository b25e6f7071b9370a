//===- FakeCUDADriver.cpp - A libcuda.so.1 stand-in for runtime tests -----===//
//
// Implements the driver entry points Kiln's CUDA runtime calls on host
// memory, so that the runtime's bookkeeping and error paths are tested on
// machines without an NVIDIA GPU. Kernels are not run. Behaviour is steered
// by the environment, read at each call:
//   FAKE_CUDA_INIT_RESULT=N   cuInit returns N
//   FAKE_CUDA_DEVICES=N       number of devices (default 2: sm_90, sm_80)
//   FAKE_CUDA_SYNC_MS=N       waits take N ms
//   FAKE_CUDA_BUSY=1          work never completes (queries say not ready)
//   FAKE_CUDA_MAX_REGISTERED=N  cuMemHostRegister fails with
//                             CUDA_ERROR_OUT_OF_MEMORY once N ranges are
//                             registered
// cuMemAlloc fails with CUDA_ERROR_OUT_OF_MEMORY above 1 TiB; launching a
// kernel named launch_fails* fails with CUDA_ERROR_LAUNCH_FAILED;
// cuMemcpyDtoDAsync wants two allocations.
// Tests inspect what happened through the fakeCuda* functions.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {
using CUresult = int;
struct Function {
  std::string name;
  struct Module *module;
};
struct Module {
  std::vector<Function *> functions;
  /// cubin and fatbin images are not parsed: every name is a kernel.
  bool anyName = false;
};

struct State {
  std::map<uintptr_t, size_t> device, managed, registered;
  std::vector<uintptr_t> contextStack;
  int lastLaunchDevice = -1;
  unsigned launches = 0, lastCluster[3] = {0, 0, 0}, lastBlock[3] = {0, 0, 0};
  bool pendingIllegalAddress = false;
  int registerCalls = 0;
  /// Events and streams created and not destroyed.
  int liveEvents = 0, liveStreams = 0;
};
State &state() {
  static State s;
  return s;
}

int envInt(const char *name, int fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

bool inRange(const std::map<uintptr_t, size_t> &ranges, uintptr_t p) {
  auto it = ranges.upper_bound(p);
  return it != ranges.begin() && p < std::prev(it)->first + std::prev(it)->second;
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
int fakeCudaRegisteredRanges() { return (int)state().registered.size(); }
int fakeCudaRegisterCalls() { return state().registerCalls; }
int fakeCudaIsRegistered(void *p) {
  return inRange(state().registered, (uintptr_t)p);
}
int fakeCudaLastLaunchDevice() { return state().lastLaunchDevice; }
unsigned fakeCudaLaunches() { return state().launches; }
unsigned fakeCudaLastClusterX() { return state().lastCluster[0]; }
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
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = (void *)(uintptr_t)(0x1000 + d);
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return 0; }
CUresult cuCtxPushCurrent_v2(void *ctx) {
  state().contextStack.push_back((uintptr_t)ctx);
  return 0;
}
CUresult cuCtxPopCurrent_v2(void **ctx) {
  if (state().contextStack.empty())
    return 201;
  if (ctx)
    *ctx = (void *)state().contextStack.back();
  state().contextStack.pop_back();
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
      module->functions.push_back(
          new Function{ptx.substr(begin, end - begin), module});
    }
  }
  *out = module;
  return 0;
}
CUresult cuModuleUnload(Module *m) { delete m; return 0; }
CUresult cuModuleGetFunction(Function **f, Module *m, const char *name) {
  for (Function *fn : m->functions)
    if (fn->name == name) {
      *f = fn;
      return 0;
    }
  if (m->anyName) {
    m->functions.push_back(new Function{name, m});
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

static CUresult launch(Function *f, const unsigned block[3]) {
  State &s = state();
  if (s.contextStack.empty())
    return 201;
  if (f->name.rfind("launch_fails", 0) == 0)
    return 719;
  s.lastLaunchDevice = (int)(s.contextStack.back() - 0x1000);
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
  if (c->numAttrs == 1 && c->attrs[0].id == 4)
    state().lastCluster[0] = c->attrs[0].dims[0];
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
  if (state().pendingIllegalAddress) {
    state().pendingIllegalAddress = false;
    return 700;
  }
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
  *p = (uintptr_t)std::malloc(n);
  state().device[*p] = n;
  return 0;
}
CUresult cuMemAllocManaged(uintptr_t *p, size_t n, unsigned) {
  *p = (uintptr_t)std::malloc(n);
  state().managed[*p] = n;
  return 0;
}
CUresult cuMemFree_v2(uintptr_t p) {
  State &s = state();
  if (!s.device.erase(p) && !s.managed.erase(p))
    return 1;
  std::free((void *)p);
  return 0;
}
CUresult cuMemcpyAsync(uintptr_t d, uintptr_t s, size_t n, void *) {
  std::memcpy((void *)d, (void *)s, n);
  return 0;
}
CUresult cuMemcpyDtoDAsync_v2(uintptr_t d, uintptr_t s, size_t n, void *) {
  State &st = state();
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
  return state().registered.erase((uintptr_t)p) ? 0 : 713;
}
CUresult cuPointerGetAttribute(void *out, int attribute, uintptr_t p) {
  State &s = state();
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
