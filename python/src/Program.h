//===- Program.h - A compiled, JIT-loaded program ---------------*- C++ -*-===//
//
// What kiln.compile() returns, without Python: the program lowered as the
// runners lower it (kiln::driver::lowerProgram's steps, with the target's
// runtime answering "device"), JIT-compiled as they compile it
// (kiln::driver::createJIT), its module constructors run, and the
// signatures of its public host functions and of its kernels as written,
// recorded before lowering. Every public host function gets a
// `_mlir_ciface_` wrapper, called through the ExecutionEngine's packed
// interface.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PYTHON_PROGRAM_H
#define KILN_PYTHON_PROGRAM_H

#include "Runtimes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {
namespace python {

/// A function or kernel argument's or result's type.
struct TypeInfo {
  enum Kind { Scalar, MemRef, Unsupported };
  Kind kind = Unsupported;
  /// The scalar's or element's type as MLIR prints it: f16, bf16, f32, f64,
  /// i1, i8, ..., si8, ui8, ..., index.
  std::string element;
  /// MemRef: the sizes, kDynamic where dynamic.
  std::vector<int64_t> shape;
  /// MemRef: the strides and offset its layout fixes, kDynamic where
  /// dynamic; `strided` false when the layout is not a strided one.
  bool strided = false;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  /// The type as MLIR prints it.
  std::string text;
};

/// Dynamic sizes, strides and offsets in TypeInfo.
constexpr int64_t kDynamic = INT64_MIN;

struct FunctionInfo {
  std::string name;
  std::vector<TypeInfo> arguments;
  std::vector<TypeInfo> results;
};

struct KernelInfo {
  std::string module;
  std::string name;
  std::vector<TypeInfo> arguments;
};

/// kiln.compile()'s arguments.
struct CompileOptions {
  /// MLIR text, or a file's path when `sourceIsFile`.
  std::string source;
  bool sourceIsFile = false;
  /// The buffer name diagnostics show for text.
  std::string name = "<source>";
  /// vulkan, cuda or spirv-cpu.
  std::string target = "vulkan";
  /// --target-env (Vulkan, spirv-cpu) or --chip (CUDA); empty: "device".
  std::string targetEnv;
  unsigned optLevel = 0;
  /// The runtime's device list; empty: as the runtime chooses.
  std::string device;
  /// openmpi or mpich; empty: the module's or the default.
  std::string mpi;
};

/// Why compile() failed.
enum class CompileFailure {
  /// A bad argument (an unknown target, ...): ValueError.
  Argument,
  /// The program does not compile: diagnostics (CompileError).
  Program,
  /// The runtime cannot be opened or configured: RuntimeError.
  Runtime,
};

class Program {
public:
  /// Compiles and loads a program. Null on failure, with `failure`, and
  /// `error` or `diagnostics` set.
  static std::unique_ptr<Program> compile(const CompileOptions &options,
                                          std::vector<std::string> &diagnostics,
                                          std::vector<std::string> &warnings,
                                          CompileFailure &failure,
                                          std::string &error);
  /// Runs the module destructors (unloading the GPU modules).
  ~Program();

  const std::vector<FunctionInfo> &functions() const { return functionInfos; }
  const std::vector<KernelInfo> &kernels() const { return kernelInfos; }
  RuntimeLibrary &runtime() { return *library; }
  const std::string &target() const { return library->target(); }

  /// Calls function `index` through its packed `_mlir_ciface_` wrapper:
  /// `args` as ExecutionEngine::invokePacked takes them. False with `error`
  /// set when the runtime reported a fatal error.
  bool call(size_t index, void **args, std::string &error);

  /// The device binary of GPU module `module` (as the gpu.binary op holds
  /// it), or null.
  const std::string *binary(const std::string &module) const;

  struct Impl;

private:
  Program() = default;
  RuntimeLibrary *library = nullptr;
  std::vector<FunctionInfo> functionInfos;
  std::vector<KernelInfo> kernelInfos;
  std::unique_ptr<Impl> impl;
};

} // namespace python
} // namespace kiln

#endif // KILN_PYTHON_PROGRAM_H
