//===- DLPack.h - DLPack capsules of device arrays --------------*- C++ -*-===//
//
// kiln.DeviceArray.__dlpack__ hands out a PyCapsule named "dltensor" holding
// a DLManagedTensor (DLPack before 1.0, the layout every consumer accepts),
// whose deleter keeps the device array alive while the tensor lives. The
// structs are written out here after dlpack.h, which Debian does not ship.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PYTHON_DLPACK_H
#define KILN_PYTHON_DLPACK_H

#include <pybind11/pybind11.h>

#include <cstdint>

namespace kiln {
namespace python {
namespace dlpack {

/// dlpack.h's DLDeviceType values Kiln uses.
enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLVulkan = 7,
};

/// dlpack.h's DLDataTypeCode.
enum TypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  /// In elements; null means compact row-major.
  int64_t *strides;
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

/// The capsule's name before a consumer takes the tensor, and after.
inline constexpr const char *kCapsuleName = "dltensor";
inline constexpr const char *kUsedCapsuleName = "used_dltensor";

/// Adds dlpack_capsule, dlpack_info and dlpack_consume to the extension.
void registerFunctions(pybind11::module_ &m);

} // namespace dlpack
} // namespace python
} // namespace kiln

#endif // KILN_PYTHON_DLPACK_H
