//===- Device.cpp - The CUDA driver, the device and its context -----------===//
//
// Loading the driver (once per process, shared by every device) and reading
// the options, choosing the device of this runtime's entry of the list,
// retaining its primary context, reading the devices' properties for
// listings, and turning a failed driver call into an error that names the
// call, its CUresult and, for a lost device, the last kernel on the stream.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "../DeviceChoice.h"
#include "../EnvFlag.h"
#include "../Format.h"
#include "../Timeout.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <vector>

using namespace kiln;
using namespace kiln::cudart;
using rt::appendf;

ErrorKind kiln::cudart::kindOf(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return ErrorKind::OutOfMemory;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_INVALID_SOURCE:
  case CUDA_ERROR_INVALID_HANDLE:
  case CUDA_ERROR_NOT_FOUND:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    return ErrorKind::InvalidArgument;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_NOT_SUPPORTED:
    return ErrorKind::Unsupported;
  // Sticky errors: the context cannot be used any more.
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_NVLINK_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
    return ErrorKind::DeviceLost;
  default:
    return ErrorKind::Driver;
  }
}

namespace {
/// The driver before it is loaded: no entry points (messages then name
/// results by number).
const Driver &noDriver() {
  static const Driver *none = new Driver();
  return *none;
}
} // namespace

Device::Device(rt::DevicePlace place)
    : drv(&noDriver()), devicePlace(std::move(place)) {}

Device::~Device() {
  if (primary && selected >= 0) {
    CUdevice device;
    if (drv->cuDeviceGet(&device, selected) == CUDA_SUCCESS)
      drv->cuDevicePrimaryCtxRelease(device);
  }
}

Status Device::configure(const rt::Options &given) {
  if (loaded)
    return KILN_ERROR(InvalidArgument,
                      "the CUDA runtime's options are set before it "
                      "starts; the driver is loaded already");
  options.merge(given);
  return Status::success();
}

Status Device::load() {
  if (loaded)
    return Status::success();
  // One driver per process, initialized once, whichever device asks first;
  // an attempt that fails is made again by the next call.
  static std::mutex mutex;
  static const Driver *shared = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!shared) {
      auto fresh = std::make_unique<Driver>();
      std::string error;
      if (!fresh->load(error))
        return KILN_ERROR(Driver, error);
      drv = fresh.get();
      Status init = check(fresh->cuInit(0), "cuInit");
      drv = &noDriver();
      KILN_TRY(init);
      shared = fresh.release();
    }
  }
  drv = shared;
  std::string error;
  double seconds = 0;
  if (!rt::readTimeout(seconds, error,
                       rt::settingText(options.timeout, "KILN_TIMEOUT")))
    return KILN_ERROR(InvalidArgument, error);
  timeout = seconds;
  timingFromEnv = rt::settingFlag(options.timing, "KILN_CUDA_TIMING");
  loaded = true;
  return Status::success();
}

std::string Device::workOn(CUstream stream) const {
  auto it = lastKernel.find(stream);
  return it == lastKernel.end() ? std::string("the work on a stream")
                                : "kernel '" + it->second + "'";
}

Status Device::failed(CUresult result, const char *call,
                      const std::string &what, const CUstream *stream,
                      const char *file, int line) const {
  std::string message = std::string(call) +
                        (what.empty() ? "" : " (" + what + ")") +
                        " failed: " + drv->describe(result);
  ErrorKind kind = kindOf(result);
  if (kind == ErrorKind::DeviceLost && stream) {
    auto last = lastKernel.find(*stream);
    if (last != lastKernel.end())
      message += " after kernel '" + last->second + "'";
  }
  return callError(kind, result, call, std::move(message), file, line);
}

Status Device::callError(ErrorKind kind, CUresult result, const char *call,
                         std::string message, const char *file,
                         int line) const {
  if (result == CUDA_ERROR_ILLEGAL_ADDRESS)
    message += "; a kernel touched memory it may not: an index out of "
               "bounds, or host memory that is not registered with the "
               "driver (Kiln's CUDA pipeline registers host memrefs passed "
               "to launches; other programs need gpu.host_register)";
  return rt::makeCallError(kind, std::move(message), call, drv->name(result),
                           result, file, line);
}

//===-- The device --------------------------------------------------------===//

Expected<int> Device::deviceCount() {
  KILN_TRY(load());
  int count = 0;
  KILN_TRY(check(drv->cuDeviceGetCount(&count), "cuDeviceGetCount"));
  return count;
}

Expected<std::string> Device::deviceName(int index) {
  KILN_TRY(load());
  CUdevice device;
  KILN_TRY(check(drv->cuDeviceGet(&device, index), "cuDeviceGet"));
  char name[256] = {};
  KILN_TRY(check(drv->cuDeviceGetName(name, sizeof(name), device),
                 "cuDeviceGetName"));
  return std::string(name);
}

Expected<std::string> Device::deviceUUID(int index) {
  KILN_TRY(load());
  CUdevice device;
  KILN_TRY(check(drv->cuDeviceGet(&device, index), "cuDeviceGet"));
  CUuuid uuid = {};
  KILN_TRY(check(drv->cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid"));
  return "GPU-" + rt::formatUUID(uuid.bytes);
}

std::string Device::deviceLabel(const Expected<int> &index) {
  if (!index)
    return "?";
  Expected<std::string> name = deviceName(*index);
  return std::to_string(*index) + (name ? " (" + *name + ")" : "");
}

Status Device::attributes(CUdevice device,
                          std::initializer_list<std::pair<int, int *>> wanted) {
  for (const auto &[attribute, value] : wanted)
    KILN_TRY(check(drv->cuDeviceGetAttribute(value, attribute, device),
                   "cuDeviceGetAttribute"));
  return Status::success();
}

std::string Device::devicesText(int count) {
  return std::to_string(count) + " device" + (count == 1 ? "" : "s");
}

Expected<int> Device::ordinal() {
  if (selected >= 0)
    return selected;
  KILN_ASSIGN_OR_RETURN(int count, deviceCount());
  if (count == 0)
    return KILN_ERROR(Driver,
                      "no CUDA device (the driver loaded, but reports none)");
  // The list's entry for this device; a runtime made without one (outside
  // a list) runs on the default device.
  KILN_ASSIGN_OR_RETURN(selected,
                        chooseDevice(options.device.value_or(""), count));
  return selected;
}

Expected<int> Device::chooseDevice(const std::string &entry, int count) {
  // The default device is the first, or under an MPI launcher the local
  // rank's among all devices, round-robin (DeviceChoice.h), so that the
  // ranks of a node spread over its GPUs.
  if (entry.empty())
    return static_cast<int>(
        rt::defaultDeviceForLocalRank(static_cast<size_t>(count)));
  // The UUIDs are asked for only when the entry spells one.
  bool byUUID = !rt::uuidDigits(entry).empty();
  std::vector<std::string> names, uuids;
  for (int i = 0; i < count; ++i) {
    KILN_ASSIGN_OR_RETURN(std::string name, deviceName(i));
    names.push_back(std::move(name));
    if (byUUID) {
      KILN_ASSIGN_OR_RETURN(std::string uuid, deviceUUID(i));
      uuids.push_back(std::move(uuid));
    }
  }
  size_t index = 0;
  switch (rt::matchDevice(entry, names, index, uuids)) {
  case rt::DeviceMatch::Found:
    return static_cast<int>(index);
  case rt::DeviceMatch::IndexOutOfRange:
    return KILN_ERROR(InvalidArgument, "no CUDA device has index " + entry +
                                           " (" + devicesText(count) + ": 0.." +
                                           std::to_string(count - 1) + ")");
  case rt::DeviceMatch::NoSuchUUID: {
    std::vector<std::string> labelled;
    for (int i = 0; i < count; ++i)
      labelled.push_back(names[i] + " (" + uuids[i] + ")");
    return KILN_ERROR(InvalidArgument,
                      "no CUDA device has UUID '" + entry +
                          "'; devices:" + rt::listDevices(labelled));
  }
  case rt::DeviceMatch::NoSuchName:
    break;
  }
  return KILN_ERROR(InvalidArgument,
                    "no CUDA device matches '" + entry +
                        "'; devices:" + rt::listDevices(names));
}

Expected<CUcontext> Device::context() {
  if (primary)
    return primary;
  KILN_ASSIGN_OR_RETURN(int index, ordinal());
  CUdevice device;
  KILN_TRY(check(drv->cuDeviceGet(&device, index), "cuDeviceGet"));
  CUcontext ctx = nullptr;
  KILN_TRY(check(drv->cuDevicePrimaryCtxRetain(&ctx, device),
                 "cuDevicePrimaryCtxRetain"));
  primary = ctx;
  return ctx;
}

//===-- Properties --------------------------------------------------------===//

Expected<std::string> Device::listDevices(int &count) {
  KILN_TRY(load());
  int version = 0;
  KILN_TRY(check(drv->cuDriverGetVersion(&version), "cuDriverGetVersion"));
  KILN_ASSIGN_OR_RETURN(count, deviceCount());
  std::string text;
  appendf(text, "CUDA driver %d.%d, %d device%s\n", version / 1000,
          (version % 1000) / 10, count, count == 1 ? "" : "s");
  for (int i = 0; i < count; ++i) {
    CUdevice device;
    KILN_TRY(check(drv->cuDeviceGet(&device, i), "cuDeviceGet"));
    size_t memory = 0;
    KILN_TRY(check(drv->cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"));
    KILN_ASSIGN_OR_RETURN(std::string name, deviceName(i));
    int major = 0, minor = 0, multiprocessors = 0, clock = 0, busWidth = 0,
        memoryClock = 0, l2 = 0, maxThreads = 0, maxBlockX = 0, maxGridX = 0,
        sharedMemory = 0;
    KILN_TRY(attributes(
        device,
        {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
         {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
         {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &multiprocessors},
         {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &clock},
         {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &busWidth},
         {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &memoryClock},
         {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &l2},
         {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &maxThreads},
         {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &maxBlockX},
         {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &maxGridX},
         {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &sharedMemory}}));
    KILN_ASSIGN_OR_RETURN(std::string uuid, deviceUUID(i));
    appendf(text, "%d: %s\n", i, name.c_str());
    appendf(text, "   chip sm_%d%d, %zu MiB, %d multiprocessors, %d MHz\n",
            major, minor, memory >> 20, multiprocessors, clock / 1000);
    appendf(text, "   memory %d-bit at %d MHz, L2 %d KiB\n", busWidth,
            memoryClock / 1000, l2 >> 10);
    appendf(text,
            "   max threads per block %d, max block x %d, max grid x %d, "
            "shared memory per block %d bytes\n",
            maxThreads, maxBlockX, maxGridX, sharedMemory);
    appendf(text, "   uuid: %s\n", uuid.c_str());
  }
  return text;
}

Expected<std::string> Device::deviceChip() {
  KILN_ASSIGN_OR_RETURN(int index, ordinal());
  CUdevice device;
  KILN_TRY(check(drv->cuDeviceGet(&device, index), "cuDeviceGet"));
  int major = 0, minor = 0;
  KILN_TRY(attributes(
      device, {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
               {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor}}));
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

Status Device::deviceInfo(KilnCudaDeviceInfo &info) {
  info = KilnCudaDeviceInfo{};
  KILN_ASSIGN_OR_RETURN(info.ordinal, ordinal());
  CUdevice device;
  KILN_TRY(check(drv->cuDeviceGet(&device, info.ordinal), "cuDeviceGet"));
  KILN_ASSIGN_OR_RETURN(std::string name, deviceName(info.ordinal));
  std::snprintf(info.name, sizeof(info.name), "%s", name.c_str());
  KILN_TRY(attributes(
      device,
      {{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.major},
       {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.minor},
       {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessors},
       {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &info.clockKHz},
       {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &info.memoryClockKHz},
       {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &info.memoryBusWidth},
       {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2Bytes}}));
  size_t memory = 0;
  KILN_TRY(check(drv->cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"));
  info.totalBytes = memory;
  KILN_TRY(check(drv->cuDriverGetVersion(&info.driverVersion),
                 "cuDriverGetVersion"));
  return Status::success();
}
