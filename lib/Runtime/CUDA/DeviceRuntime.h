//===- DeviceRuntime.h - The CUDA runtime of one device ---------*- C++ -*-===//
//
// The CUDA runtime of one entry of the program's device list: its own units
// (Device, Memory, Executables, Queue, Launcher) and lock, over the driver
// the process shares. The process's runtime (kilnCudaRuntime(), what the
// mgpu* entry points call) is an rt::DeviceList of these; tests make lists
// of their own with makeDeviceRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_DEVICERUNTIME_H
#define KILN_RUNTIME_CUDA_DEVICERUNTIME_H

#include "../DeviceList.h"
#include "kiln/Runtime/Runtime.h"

#include <memory>

namespace kiln::cudart {

/// The single-device CUDA runtime for `place` (an rt::DeviceList::Factory);
/// configure() names its device (Options::device: one entry of the list;
/// empty or unset: device 0). Its setDefaultDevice takes 0 only: the list
/// switches between devices.
std::unique_ptr<rt::Runtime> makeDeviceRuntime(rt::DevicePlace place);

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_DEVICERUNTIME_H
