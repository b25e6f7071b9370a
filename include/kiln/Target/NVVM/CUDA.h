//===- CUDA.h - NVIDIA chips, PTX versions and the CUDA toolkit -*- C++ -*-===//
//
// What the CUDA pipeline needs to know about its target before LLVM's NVPTX
// back end sees it: which chips exist, the oldest PTX ISA each one needs, and
// where the CUDA toolkit's ptxas, fatbinary and libdevice are.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_NVVM_CUDA_H
#define KILN_TARGET_NVVM_CUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {
namespace cuda {

/// Checks every #nvvm.target of every GPU module in `module` (chip and PTX
/// version, checkTarget); errors at the GPU modules.
mlir::LogicalResult checkNVVMTargets(mlir::ModuleOp module);

/// The chip the CUDA pipeline compiles for when none is given (H100/H200).
constexpr llvm::StringLiteral kDefaultChip = "sm_90";

/// The format of kernels inside host programs when none is given: a fatbin
/// (SASS for the chip and its PTX), PTX where the toolkit is missing.
constexpr llvm::StringLiteral kDefaultFormat = "fatbin";

/// The oldest PTX ISA version that can target `chip`, as major * 10 + minor
/// (sm_90 -> 78), or nullopt when LLVM's NVPTX back end does not know it.
std::optional<unsigned> minPTXVersion(llvm::StringRef chip);

/// The newest PTX ISA version LLVM's NVPTX back end writes.
unsigned maxPTXVersion();

/// Every chip name minPTXVersion knows, oldest first.
std::vector<llvm::StringRef> knownChips();

/// The PTX version a feature string asks for ("+ptx78" -> 78), nullopt when
/// it names none. Sets `error` when it names more than one or an unknown one.
std::optional<unsigned> ptxVersionOf(llvm::StringRef features,
                                     std::string &error);

/// "+ptxNN" for a version number.
std::string ptxFeature(unsigned version);

/// "7.8" for 78.
std::string ptxVersionString(unsigned version);

/// `features`, or when empty the oldest PTX version `chip` accepts
/// ("+ptx78" for sm_90): what the pipelines put into an #nvvm.target.
std::string targetFeatures(llvm::StringRef chip, llvm::StringRef features);

/// Checks that `chip` and `features` can be compiled together; on failure
/// returns a message naming both.
std::optional<std::string> checkTarget(llvm::StringRef chip,
                                       llvm::StringRef features);

/// A CUDA toolkit found on this machine.
struct Toolkit {
  /// Root of the toolkit (holds bin/ and nvvm/).
  std::string root;
  std::string ptxas;
  /// Empty when the toolkit has no fatbinary.
  std::string fatbinary;
  /// Empty when the toolkit has no nvvm/libdevice/libdevice.10.bc.
  std::string libdevice;
  /// Where it was found: "--cuda-path", "CUDA_PATH", "PATH" or the prefix.
  std::string foundBy;
};

/// Looks for a toolkit with a runnable bin/ptxas, in the order CMake's
/// FindCUDAToolkit uses: `explicitPath` (--cuda-path), $CUDA_PATH, the
/// directory above a ptxas on $PATH, /usr/local/cuda, then the newest
/// /usr/local/cuda-X.Y ($KILN_CUDA_PREFIXES, colon-separated, replaces
/// these last two). A toolkit found through $PATH without libdevice (a
/// directory of wrapper scripts) yields to a complete one at a
/// conventional prefix. `searched` receives each place looked at, for
/// messages.
std::optional<Toolkit> findToolkit(llvm::StringRef explicitPath,
                                   std::vector<std::string> *searched = nullptr);

} // namespace cuda
} // namespace kiln

#endif // KILN_TARGET_NVVM_CUDA_H
