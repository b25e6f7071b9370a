//===- DLPack.cpp - DLPack capsules of device arrays ----------------------===//
//
// The capsule protocol (DLPack's python_spec): the producer returns a
// PyCapsule named "dltensor" whose pointer is a DLManagedTensor. A consumer
// that takes the tensor renames the capsule "used_dltensor" and calls the
// tensor's deleter once it is done with the memory, from any thread, with or
// without the GIL. A capsule nobody took still owns its tensor: its
// destructor calls the deleter, and only then (a renamed capsule's
// destructor does nothing, so the deleter runs exactly once either way).
//
//===----------------------------------------------------------------------===//

#include "DLPack.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;
using namespace kiln::python::dlpack;

namespace {
/// What a tensor's manager_ctx points at: the tensor's shape and strides and
/// a strong reference to the object owning the memory (the DeviceArray).
struct Export {
  DLManagedTensor managed{};
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  PyObject *owner = nullptr;
};

/// The tensor's deleter: releases the owner under the GIL (the consumer may
/// call it from a thread without it) and frees the tensor.
void deleteExport(DLManagedTensor *managed) {
  auto *exported = static_cast<Export *>(managed->manager_ctx);
  // After the interpreter is gone the owner's reference no longer matters;
  // taking the GIL then would not return.
  if (Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    Py_XDECREF(exported->owner);
    PyGILState_Release(state);
  }
  delete exported;
}

/// The capsule's destructor: a tensor no consumer took is deleted here.
void destroyCapsule(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, kCapsuleName))
    return;
  // The owner's release may run Python code, which must not see (or clear)
  // an exception being raised while the capsule dies.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, kCapsuleName));
  if (managed && managed->deleter)
    managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}

/// The tensor of a capsule nobody took yet; a clear error otherwise.
DLManagedTensor *tensorOf(const py::object &capsule, const char *function) {
  if (!PyCapsule_CheckExact(capsule.ptr()))
    throw py::type_error(
        std::string(function) + "() takes a DLPack capsule, not " +
        std::string(py::str(capsule.get_type().attr("__name__"))));
  if (PyCapsule_IsValid(capsule.ptr(), kUsedCapsuleName))
    throw py::value_error(std::string(function) +
                          "(): the DLPack capsule was already consumed");
  if (!PyCapsule_IsValid(capsule.ptr(), kCapsuleName))
    throw py::value_error(std::string(function) +
                          "(): the capsule is not a DLPack tensor (its name is "
                          "not \"dltensor\")");
  return static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), kCapsuleName));
}

py::object capsuleOf(py::object owner, uintptr_t data,
                     const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &strides, int code, int bits,
                     int32_t deviceType, int32_t deviceId) {
  if (shape.size() != strides.size())
    throw py::value_error("dlpack_capsule(): " + std::to_string(shape.size()) +
                          " sizes but " + std::to_string(strides.size()) +
                          " strides");
  if (code < 0 || code > 255 || bits <= 0 || bits > 255)
    throw py::value_error("dlpack_capsule(): no DLPack data type has code " +
                          std::to_string(code) + " and " +
                          std::to_string(bits) + " bits");
  auto *exported = new Export;
  exported->shape = shape;
  exported->strides = strides;
  DLTensor &tensor = exported->managed.dl_tensor;
  tensor.data = reinterpret_cast<void *>(data);
  tensor.device = {deviceType, deviceId};
  tensor.ndim = static_cast<int32_t>(shape.size());
  tensor.dtype = {static_cast<uint8_t>(code), static_cast<uint8_t>(bits), 1};
  // A rank-0 tensor has no sizes; its pointers may be anything but must not
  // be read, and empty vectors give null.
  tensor.shape = exported->shape.data();
  tensor.strides = exported->strides.data();
  tensor.byte_offset = 0;
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = deleteExport;
  exported->owner = owner.release().ptr();

  PyObject *capsule =
      PyCapsule_New(&exported->managed, kCapsuleName, destroyCapsule);
  if (!capsule) {
    deleteExport(&exported->managed);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(capsule);
}

py::dict infoOf(const py::object &capsule) {
  const DLTensor &tensor = tensorOf(capsule, "dlpack_info")->dl_tensor;
  py::dict info;
  info["device"] =
      py::make_tuple(tensor.device.device_type, tensor.device.device_id);
  info["data"] = reinterpret_cast<uintptr_t>(tensor.data);
  info["byte_offset"] = tensor.byte_offset;
  info["dtype"] =
      py::make_tuple(tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes);
  py::list shape;
  for (int32_t i = 0; i < tensor.ndim; ++i)
    shape.append(tensor.shape[i]);
  info["shape"] = py::tuple(shape);
  if (tensor.strides) {
    py::list strides;
    for (int32_t i = 0; i < tensor.ndim; ++i)
      strides.append(tensor.strides[i]);
    info["strides"] = py::tuple(strides);
  } else {
    info["strides"] = py::none();
  }
  return info;
}

void consume(const py::object &capsule) {
  DLManagedTensor *managed = tensorOf(capsule, "dlpack_consume");
  if (PyCapsule_SetName(capsule.ptr(), kUsedCapsuleName))
    throw py::error_already_set();
  if (managed->deleter)
    managed->deleter(managed);
}
} // namespace

void kiln::python::dlpack::registerFunctions(py::module_ &m) {
  m.def("dlpack_capsule", &capsuleOf, py::arg("owner"), py::arg("data"),
        py::arg("shape"), py::arg("strides"), py::arg("code"), py::arg("bits"),
        py::arg("device_type"), py::arg("device_id"),
        "A DLPack capsule (\"dltensor\") of the memory at `data` (strides in "
        "elements), which keeps `owner` alive until the tensor is deleted.");
  m.def("dlpack_info", &infoOf, py::arg("capsule"),
        "What a DLPack capsule nobody consumed yet describes: a dict of "
        "device, data, byte_offset, dtype (code, bits, lanes), shape and "
        "strides (None when compact).");
  m.def("dlpack_consume", &consume, py::arg("capsule"),
        "Does what a DLPack consumer does: takes the capsule's tensor "
        "(renaming the capsule \"used_dltensor\") and deletes it.");
}
