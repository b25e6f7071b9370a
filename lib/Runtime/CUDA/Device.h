//===- Device.h - The CUDA driver, the device and its context ---*- C++ -*-===//
//
// The bottom of the CUDA runtime's units: the driver's entry points (opened
// once per process, at the first use of any device, and shared by all), the
// one device this runtime runs on (its entry of the program's device list,
// read when the device is first used) and its primary context, the
// devices' properties, and the errors a failed driver call becomes. Memory,
// Executables and Queue read a Device; nothing here calls up.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_DEVICE_H
#define KILN_RUNTIME_CUDA_DEVICE_H

#include "../Boundary.h"
#include "../DeviceList.h"
#include "Driver.h"
#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/Status.h"

#include <initializer_list>
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

/// The driver, the device of one entry of the program's device list and its
/// primary context. Every method expects the caller to hold the runtime's
/// lock. Two Devices may run on the same physical device (a list "0,0"):
/// they share its primary context, and nothing else.
class Device {
public:
  explicit Device(rt::DevicePlace place);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// Options the program sets before the device is first used (load reads
  /// them); Options::device is this device's entry of the list.
  Status configure(const rt::Options &given);

  /// Opens the process's driver (once per process, on the first call that
  /// succeeds) and reads the options, on the first call that succeeds.
  Status load();
  bool isLoaded() const { return loaded; }

  /// The driver's entry points; only after load() succeeded.
  const Driver &driver() const { return *drv; }

  /// Where this device sits in the program's device list.
  const rt::DevicePlace &place() const { return devicePlace; }

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
  /// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", the UUID of device `index`
  /// as nvidia-smi prints it.
  Expected<std::string> deviceUUID(int index);
  /// "INDEX (NAME)" for messages; what is known when `index` or the name
  /// cannot be had.
  std::string deviceLabel(const Expected<int> &index);
  /// Reads `wanted` attributes of `device`.
  Status attributes(CUdevice device,
                    std::initializer_list<std::pair<int, int *>> wanted);

  /// The driver's ordinal of the device this runtime runs on: its entry of
  /// the list (an index, a name substring or a UUID), chosen on first use;
  /// an empty entry is device 0.
  Expected<int> ordinal();
  /// The primary context of the device, retained on first use and released
  /// with the Device.
  Expected<CUcontext> context();
  /// True once context() retained the primary context.
  bool hasContext() const { return primary != nullptr; }

  /// What kilnCudaListDevices prints; `count` is set to the number of
  /// devices.
  Expected<std::string> listDevices(int &count);
  /// "sm_XY" of the device.
  Expected<std::string> deviceChip();
  Status deviceInfo(KilnCudaDeviceInfo &info);

private:
  /// "1 device", "2 devices".
  static std::string devicesText(int count);
  /// The device whose entry is `entry`; an error naming the entry and the
  /// devices when none matches.
  Expected<int> chooseDevice(const std::string &entry, int count);

  /// The process's driver once load() succeeded; before, one with no entry
  /// points, so that messages can still be made.
  const Driver *drv;
  const rt::DevicePlace devicePlace;
  bool loaded = false;
  /// What the program set (rt::Runtime::configure) over the environment.
  rt::Options options;
  bool timingFromEnv = false;
  double timeout = 0;
  /// The last kernel launched on each stream, for messages.
  std::unordered_map<CUstream, std::string> lastKernel;
  int selected = -1;
  /// The primary context of `selected`, once retained.
  CUcontext primary = nullptr;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_DEVICE_H
