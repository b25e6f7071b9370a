//===- Status.h - The errors Kiln's runtimes return -------------*- C++ -*-===//
//
// What a runtime function returns instead of ending the process: Status (an
// error or success, with llvm::Error's convention that a Status converts to
// true when it holds an error) and Expected<T> (a value or an error, true
// when it holds the value, as llvm::Expected). The runtimes link no LLVM, so
// these are standard C++ only.
//
// An error carries what a user reads (the message names the kernel, the size,
// the limit), the driver call that failed with its result's name and raw
// code, and where in the runtime it was raised. Only the mgpu* entry points,
// whose ABI has no error returns, turn an error into a message and an exit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_STATUS_H
#define KILN_RUNTIME_STATUS_H

#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace kiln {
namespace rt {

/// What kind of failure an error is, for callers that recover from some.
enum class ErrorKind {
  /// The caller passed something the runtime refuses (a bad module, a
  /// launch that does not match its kernel, an unknown pointer).
  InvalidArgument,
  /// The device or driver lacks what was asked for.
  Unsupported,
  /// Device or host memory ran out; the runtime stays usable.
  OutOfMemory,
  /// The device was lost; every later call fails with this error.
  DeviceLost,
  /// A wait outlasted KILN_TIMEOUT; the device still runs the work.
  Timeout,
  /// The Khronos validation layer reported messages.
  Validation,
  /// The driver is missing, or a driver call failed otherwise.
  Driver,
};

inline const char *errorKindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::InvalidArgument:
    return "invalid argument";
  case ErrorKind::Unsupported:
    return "unsupported";
  case ErrorKind::OutOfMemory:
    return "out of memory";
  case ErrorKind::DeviceLost:
    return "device lost";
  case ErrorKind::Timeout:
    return "timeout";
  case ErrorKind::Validation:
    return "validation";
  case ErrorKind::Driver:
    return "driver";
  }
  return "unknown";
}

/// One error.
struct ErrorInfo {
  ErrorKind kind = ErrorKind::Driver;
  /// The whole message, as the runtime prints it after "kiln-vulkan: ".
  std::string message;
  /// The Vulkan or CUDA call that failed ("vkAllocateMemory",
  /// "cuLaunchKernel"); empty when the runtime itself refused.
  std::string call;
  /// The call's result by name ("VK_ERROR_OUT_OF_DEVICE_MEMORY") and value.
  std::string result;
  int64_t code = 0;
  /// The runtime source file (base name) and line that raised it.
  const char *file = "";
  int line = 0;
};

/// Success, or an error. As llvm::Error, it converts to true when it holds
/// an error: `if (Status s = f()) return s;`.
class [[nodiscard]] Status {
public:
  Status() = default;
  explicit Status(ErrorInfo info)
      : info_(std::make_unique<ErrorInfo>(std::move(info))) {}
  Status(const Status &other)
      : info_(other.info_ ? std::make_unique<ErrorInfo>(*other.info_)
                          : nullptr) {}
  Status(Status &&) noexcept = default;
  Status &operator=(const Status &other) {
    if (this != &other)
      info_ = other.info_ ? std::make_unique<ErrorInfo>(*other.info_) : nullptr;
    return *this;
  }
  Status &operator=(Status &&) noexcept = default;

  static Status success() { return Status(); }

  /// True when this is an error.
  explicit operator bool() const { return info_ != nullptr; }
  bool ok() const { return info_ == nullptr; }

  /// The error; only when there is one.
  const ErrorInfo &info() const {
    assert(info_ && "no error");
    return *info_;
  }
  ErrorKind kind() const { return info().kind; }
  const std::string &message() const { return info().message; }
  /// "Context.cpp:123".
  std::string where() const {
    return std::string(info().file) + ":" + std::to_string(info().line);
  }

  /// Puts `context` before the message ("kernel 'k': " + message).
  Status &prepend(const std::string &context) {
    if (info_)
      info_->message = context + info_->message;
    return *this;
  }

private:
  std::unique_ptr<ErrorInfo> info_;
};

/// A value, or an error. As llvm::Expected, it converts to true when it
/// holds the value.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  /// `error` must hold an error.
  Expected(Status error) : error_(std::move(error)) {
    assert(error_ && "an Expected made from a Status that is no error");
  }

  explicit operator bool() const { return value_.has_value(); }
  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  /// The error (success when there is a value).
  const Status &error() const { return error_; }
  Status takeError() { return std::move(error_); }

private:
  std::optional<T> value_;
  Status error_;
};

/// The base name of a source path, for ErrorInfo::file.
inline const char *baseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

inline Status makeError(ErrorKind kind, std::string message, const char *file,
                        int line) {
  ErrorInfo info;
  info.kind = kind;
  info.message = std::move(message);
  info.file = baseName(file);
  info.line = line;
  return Status(std::move(info));
}

/// An error that a driver call's result explains.
inline Status makeCallError(ErrorKind kind, std::string message,
                            std::string call, std::string result, int64_t code,
                            const char *file, int line) {
  ErrorInfo info;
  info.kind = kind;
  info.message = std::move(message);
  info.call = std::move(call);
  info.result = std::move(result);
  info.code = code;
  info.file = baseName(file);
  info.line = line;
  return Status(std::move(info));
}

} // namespace rt
} // namespace kiln

/// An error of kind `KIND` (an ErrorKind enumerator) raised here.
#define KILN_ERROR(KIND, MESSAGE)                                              \
  ::kiln::rt::makeError(::kiln::rt::ErrorKind::KIND, (MESSAGE), __FILE__,      \
                        __LINE__)

/// Returns the Status `EXPR` gives when it is an error.
#define KILN_TRY(EXPR)                                                         \
  do {                                                                         \
    if (::kiln::rt::Status kilnTryStatus_ = (EXPR))                            \
      return kilnTryStatus_;                                                   \
  } while (false)

#define KILN_RT_CONCAT_IMPL(A, B) A##B
#define KILN_RT_CONCAT(A, B) KILN_RT_CONCAT_IMPL(A, B)
#define KILN_ASSIGN_OR_RETURN_IMPL(TMP, LHS, EXPR)                             \
  auto TMP = (EXPR);                                                           \
  if (!TMP)                                                                    \
    return TMP.takeError();                                                    \
  LHS = std::move(*TMP)
/// `LHS = *EXPR` when the Expected `EXPR` holds a value; returns its error
/// otherwise. LHS may declare a variable (`KILN_ASSIGN_OR_RETURN(auto x,
/// f())`).
#define KILN_ASSIGN_OR_RETURN(LHS, EXPR)                                       \
  KILN_ASSIGN_OR_RETURN_IMPL(KILN_RT_CONCAT(kilnExpected_, __LINE__), LHS, EXPR)

#endif // KILN_RUNTIME_STATUS_H
