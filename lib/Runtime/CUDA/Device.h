//===- Device.h - The CUDA driver, the device and its context ---*- C++ -*-===//
//
// The bottom of the CUDA runtime's units: the driver's entry points (opened
// at first use, with the options read then), the device later calls use and
// its primary context, the device's properties, and the errors a failed
// driver call becomes. Memory, Executables and Queue read a Device; nothing
// here calls up.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_DEVICE_H
#define KILN_RUNTIME_CUDA_DEVICE_H

#include "../Boundary.h"
#include "Driver.h"
#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/Status.h"

#include <initializer_list>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace kiln::cudart {

using rt::ErrorKind;
using rt::Expected;
using rt::ScopeExit;
using rt::Status;

/// What kind of error a driver call that returned `result` is.
ErrorKind kindOf(CUresult result);

/// The driver, the device chosen for later calls and its primary context.
/// Every method expects the caller to hold the runtime's lock.
class Device {
public:
  /// Options the program sets before the driver is loaded (load reads
  /// them).
  Status configure(const rt::Options &given);

  /// Opens the driver and initializes it, on the first call that succeeds.
  Status load();
  bool isLoaded() const { return loaded; }

  /// The driver's entry points; only after load() succeeded.
  const Driver &driver() const { return drv; }

  /// KILN_TIMEOUT: the longest wait for the device, in seconds (0: none);
  /// read by load().
  double timeoutSeconds() const { return timeout; }
  /// KILN_CUDA_TIMING: launches are timed and their times printed; read by
  /// load().
  bool envTiming() const { return timingFromEnv; }

  /// Success, or the error for a driver call that returned `result`:
  /// "CALL (WHAT) failed: RESULT (description)", raised where check() was
  /// called.
  Status check(CUresult result, const char *call, const std::string &what = "",
               const char *file = __builtin_FILE(),
               int line = __builtin_LINE()) const {
    if (result == CUDA_SUCCESS)
      return Status::success();
    return failed(result, call, what, nullptr, file, line);
  }

  /// check() for a call that works on `stream`: a lost device also names
  /// the last kernel launched on it, where there is one.
  Status checkOn(CUstream stream, CUresult result, const char *call,
                 const std::string &what = "",
                 const char *file = __builtin_FILE(),
                 int line = __builtin_LINE()) const {
    if (result == CUDA_SUCCESS)
      return Status::success();
    return failed(result, call, what, &stream, file, line);
  }

  Status failed(CUresult result, const char *call, const std::string &what,
                const CUstream *stream, const char *file, int line) const;

  /// An error of `kind` for a failed driver call, with `message`.
  Status callError(ErrorKind kind, CUresult result, const char *call,
                   std::string message, const char *file, int line) const;

  /// Records that kernel `name` was launched on `stream`, for messages.
  void noteLaunch(CUstream stream, const std::string &name) {
    lastKernel[stream] = name;
  }
  /// What runs on `stream`, for messages: its last kernel.
  std::string workOn(CUstream stream) const;

  Expected<int> deviceCount();
  Expected<std::string> deviceName(int index);
  /// "INDEX (NAME)" for messages; what is known when `index` or the name
  /// cannot be had.
  std::string deviceLabel(const Expected<int> &index);
  /// Reads `wanted` attributes of `device`.
  Status attributes(CUdevice device,
                    std::initializer_list<std::pair<int, int *>> wanted);

  /// The device later calls use: mgpuSetDefaultDevice's, else
  /// KILN_CUDA_DEVICE's, else 0.
  Expected<int> currentDevice();
  Status setDevice(int32_t device);
  /// The primary context of the current device, retained on first use.
  Expected<CUcontext> context();

  /// What kilnCudaListDevices prints; `count` is set to the number of
  /// devices.
  Expected<std::string> listDevices(int &count);
  /// "sm_XY" of the current device.
  Expected<std::string> deviceChip();
  Status deviceInfo(KilnCudaDeviceInfo &info);

private:
  /// "1 device", "2 devices".
  static std::string devicesText(int count);

  Driver drv;
  bool loaded = false;
  /// What the program set (rt::Runtime::configure) over the environment.
  rt::Options options;
  bool timingFromEnv = false;
  double timeout = 0;
  /// The last kernel launched on each stream, for messages.
  std::unordered_map<CUstream, std::string> lastKernel;
  int selected = -1;
  std::map<int, CUcontext> contexts;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_DEVICE_H
