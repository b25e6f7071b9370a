//===- Module.cpp - kiln._kiln, the Python package's extension ------------===//
//
// The low-level interface the package's Python files build kiln's API on
// (python/kiln/): compiling (Program.h), calling a host function with
// arguments the Python side has laid out as the packed interface takes them,
// the runtime's memory, modules and launches (Runtimes.h), and DLPack
// capsules (DLPack.h). Every call that compiles or waits for a device
// releases the GIL. Runtime failures raise kiln._kiln.RuntimeError, a
// RuntimeError.
//
//===----------------------------------------------------------------------===//

#include "DLPack.h"
#include "Program.h"
#include "Runtimes.h"

#include "kiln/Config.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>

namespace py = pybind11;
using namespace kiln;
using namespace kiln::python;

namespace {
/// Becomes kiln._kiln.RuntimeError.
struct KilnRuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

RuntimeLibrary &runtimeOf(const std::string &target) {
  std::string error;
  RuntimeLibrary *library = openRuntime(target, error);
  if (!library)
    throw KilnRuntimeError(error);
  return *library;
}

void check(const rt::Status &status, const std::string &runtime) {
  if (status)
    throw KilnRuntimeError("kiln-" + runtime + ": " + status.message());
}

template <typename T>
T check(rt::Expected<T> value, const std::string &runtime) {
  if (!value)
    throw KilnRuntimeError("kiln-" + runtime + ": " + value.error().message());
  return std::move(*value);
}

py::object optionalInt(int64_t value) {
  if (value == kDynamic)
    return py::none();
  return py::int_(value);
}

py::dict typeDict(const TypeInfo &type) {
  py::dict d;
  static const char *const kinds[] = {"scalar", "memref", "unsupported"};
  d["kind"] = kinds[type.kind];
  d["element"] = type.element;
  d["text"] = type.text;
  py::list shape, strides;
  for (int64_t size : type.shape)
    shape.append(optionalInt(size));
  for (int64_t stride : type.strides)
    strides.append(optionalInt(stride));
  d["shape"] = py::tuple(shape);
  d["strided"] = type.strided;
  d["strides"] = py::tuple(strides);
  d["offset"] = optionalInt(type.offset);
  return d;
}

py::list typeList(const std::vector<TypeInfo> &types) {
  py::list list;
  for (const TypeInfo &type : types)
    list.append(typeDict(type));
  return list;
}

rt::Dim3 dim3(const std::vector<int64_t> &dims) {
  rt::Dim3 d;
  if (dims.size() > 0)
    d.x = dims[0];
  if (dims.size() > 1)
    d.y = dims[1];
  if (dims.size() > 2)
    d.z = dims[2];
  return d;
}

/// Makes `device` the calling thread's current device of `runtime`.
void useDevice(RuntimeLibrary &library, int32_t device) {
  check(library.runtime().setDefaultDevice(device), library.target());
}
} // namespace

PYBIND11_MODULE(_kiln, m) {
  m.doc() = "Kiln's compiler and runtimes (the kiln package's extension)";
  m.attr("__version__") = KILN_VERSION;
  py::register_exception<KilnRuntimeError>(m, "RuntimeError",
                                           PyExc_RuntimeError);
  dlpack::registerFunctions(m);

  py::class_<Program>(m, "Program")
      .def_property_readonly("target", &Program::target)
      .def_property_readonly("functions",
                             [](const Program &p) {
                               py::list list;
                               for (const FunctionInfo &f : p.functions()) {
                                 py::dict d;
                                 d["name"] = f.name;
                                 d["arguments"] = typeList(f.arguments);
                                 d["results"] = typeList(f.results);
                                 list.append(d);
                               }
                               return list;
                             })
      .def_property_readonly("kernels",
                             [](const Program &p) {
                               py::list list;
                               for (const KernelInfo &k : p.kernels()) {
                                 py::dict d;
                                 d["module"] = k.module;
                                 d["name"] = k.name;
                                 d["arguments"] = typeList(k.arguments);
                                 list.append(d);
                               }
                               return list;
                             })
      .def(
          "call",
          [](Program &p, size_t index, uintptr_t args) {
            if (index >= p.functions().size())
              throw py::index_error("no function " + std::to_string(index));
            std::string error;
            bool ok;
            {
              py::gil_scoped_release release;
              ok = p.call(index, reinterpret_cast<void **>(args), error);
            }
            if (!ok)
              throw KilnRuntimeError(error);
          },
          py::arg("index"), py::arg("args"),
          "Calls function `index` with the packed arguments at address "
          "`args`.")
      .def(
          "binary",
          [](const Program &p, const std::string &module) -> py::object {
            const std::string *blob = p.binary(module);
            if (!blob)
              return py::none();
            return py::bytes(*blob);
          },
          py::arg("module"));

  m.def(
      "compile",
      [](const std::string &source, bool isFile, const std::string &name,
         const std::string &target, const std::string &targetEnv,
         unsigned optLevel, const std::string &device, const std::string &mpi) {
        CompileOptions options;
        options.source = source;
        options.sourceIsFile = isFile;
        options.name = name;
        options.target = target;
        options.targetEnv = targetEnv;
        options.optLevel = optLevel;
        options.device = device;
        options.mpi = mpi;
        std::vector<std::string> diagnostics, warnings;
        CompileFailure failure = CompileFailure::Program;
        std::string error;
        std::unique_ptr<Program> program;
        {
          py::gil_scoped_release release;
          program =
              Program::compile(options, diagnostics, warnings, failure, error);
        }
        static const char *const kinds[] = {"argument", "program", "runtime"};
        py::object result =
            program ? py::cast(std::move(program)) : py::object(py::none());
        return py::make_tuple(result,
                              program ? "" : kinds[static_cast<int>(failure)],
                              error, diagnostics, warnings);
      },
      py::arg("source"), py::arg("is_file"), py::arg("name"), py::arg("target"),
      py::arg("target_env"), py::arg("opt_level"), py::arg("device"),
      py::arg("mpi"),
      "Compiles a program: (program or None, failure kind, error, "
      "diagnostics, warnings).");

  m.def("library_dir", &libraryDir, "The folder of Kiln's libraries.");

  m.def(
      "configure_device",
      [](const std::string &target, const std::string &device) {
        std::string error;
        if (!runtimeOf(target).configureDevice(device, error))
          throw KilnRuntimeError(error);
      },
      py::arg("target"), py::arg("device"));

  m.def(
      "describe_devices",
      [](const std::string &target) {
        RuntimeLibrary &library = runtimeOf(target);
        rt::Expected<std::string> text = [&] {
          py::gil_scoped_release release;
          return library.runtime().describeDevices();
        }();
        return check(std::move(text), target);
      },
      py::arg("target"));

  m.def(
      "device_count",
      [](const std::string &target) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        check(library.runtime().initialize(), target);
        return library.runtime().deviceCount();
      },
      py::arg("target"));

  m.def(
      "allocate",
      [](const std::string &target, int32_t device, uint64_t bytes) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        useDevice(library, device);
        void *pointer = check(library.runtime().allocate(bytes, false), target);
        return reinterpret_cast<uintptr_t>(pointer);
      },
      py::arg("target"), py::arg("device"), py::arg("bytes"));

  m.def(
      "free",
      [](const std::string &target, int32_t device, uintptr_t pointer) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        useDevice(library, device);
        check(library.runtime().free(reinterpret_cast<void *>(pointer)),
              target);
      },
      py::arg("target"), py::arg("device"), py::arg("pointer"));

  m.def(
      "copy",
      [](const std::string &target, int32_t device, uintptr_t dst,
         uintptr_t src, size_t bytes) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        useDevice(library, device);
        check(library.runtime().copy(reinterpret_cast<void *>(dst),
                                     reinterpret_cast<const void *>(src), bytes,
                                     nullptr),
              target);
        check(library.runtime().synchronize(nullptr), target);
      },
      py::arg("target"), py::arg("device"), py::arg("dst"), py::arg("src"),
      py::arg("bytes"),
      "Copies between host memory and device memory, either way, and waits.");

  m.def(
      "memory",
      [](uintptr_t address, size_t bytes, bool writable) {
        return py::memoryview::from_memory(reinterpret_cast<void *>(address),
                                           static_cast<ssize_t>(bytes),
                                           !writable);
      },
      py::arg("address"), py::arg("bytes"), py::arg("writable") = false,
      "A view of host memory at `address`.");

  m.def(
      "load_module",
      [](const std::string &target, int32_t device, py::bytes blob) {
        RuntimeLibrary &library = runtimeOf(target);
        std::string data = blob;
        py::gil_scoped_release release;
        useDevice(library, device);
        void *module = check(
            library.runtime().loadModule(data.data(), data.size()), target);
        return reinterpret_cast<uintptr_t>(module);
      },
      py::arg("target"), py::arg("device"), py::arg("blob"));

  m.def(
      "unload_module",
      [](const std::string &target, int32_t device, uintptr_t module) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        useDevice(library, device);
        check(library.runtime().unloadModule(reinterpret_cast<void *>(module)),
              target);
      },
      py::arg("target"), py::arg("device"), py::arg("module"));

  m.def(
      "get_function",
      [](const std::string &target, uintptr_t module, const std::string &name) {
        RuntimeLibrary &library = runtimeOf(target);
        void *function =
            check(library.runtime().getFunction(
                      reinterpret_cast<void *>(module), name.c_str()),
                  target);
        return reinterpret_cast<uintptr_t>(function);
      },
      py::arg("target"), py::arg("module"), py::arg("name"));

  m.def(
      "launch",
      [](const std::string &target, int32_t device, uintptr_t function,
         std::vector<int64_t> grid, std::vector<int64_t> block,
         int32_t sharedMemoryBytes, uintptr_t params, size_t count) {
        RuntimeLibrary &library = runtimeOf(target);
        py::gil_scoped_release release;
        useDevice(library, device);
        rt::Runtime &runtime = library.runtime();
        check(runtime.launch(reinterpret_cast<void *>(function), dim3(grid),
                             dim3(block), sharedMemoryBytes, nullptr,
                             reinterpret_cast<void **>(params), count),
              target);
        check(runtime.synchronize(nullptr), target);
      },
      py::arg("target"), py::arg("device"), py::arg("function"),
      py::arg("grid"), py::arg("block"), py::arg("shared_memory_bytes"),
      py::arg("params"), py::arg("count"),
      "Launches a kernel on the default stream and waits for it.");

  m.def(
      "timing_start",
      [](const std::string &target) {
        std::string error;
        long from = runtimeOf(target).startTiming(error);
        if (from < 0)
          throw KilnRuntimeError(error);
        return from;
      },
      py::arg("target"));

  m.def(
      "timing_stop",
      [](const std::string &target, long from) {
        py::list list;
        for (const LaunchTime &launch : runtimeOf(target).stopTiming(from))
          list.append(py::make_tuple(launch.kernel, launch.device,
                                     launch.gpuMicroseconds));
        return list;
      },
      py::arg("target"), py::arg("start"));
}
