//===- AsyncRuntime.cpp - The async dialect's runtime, without LLVM -------===//
//
// The mlirAsyncRuntime* entry points that convert-async-to-llvm calls, for
// executables that must run without LLVM (upstream's libmlir_async_runtime
// links libLLVM). Same ABI and semantics, one difference of policy: a
// coroutine that mlirAsyncRuntimeExecute is given runs at once on the
// calling thread instead of on a worker pool. That is a valid schedule: an
// async.execute region only depends on tokens and values created before it,
// so by the time it runs they are available or are completed by what runs
// before it returns; awaiting continuations are resumed by the thread that
// completes what they wait for. Kernels still run concurrently with the
// host through the GPU runtime's streams.
//
// Objects are reference counted as upstream's are: created with one
// reference, AddRef / DropRef adjust it, and the last drop frees.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define KILN_ASYNC_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using CoroHandle = void *;
using CoroResume = void (*)(void *);

/// The state every async object shares: a reference count, whether it is
/// available (or in error), and the continuations waiting for it.
struct Object {
  explicit Object(int64_t refs = 1) : refs(refs) {}
  virtual ~Object() = default;

  void addRef(int64_t n) { refs.fetch_add(n); }
  void dropRef(int64_t n) {
    if (refs.fetch_sub(n) == n)
      delete this;
  }

  /// Marks the object available and runs its waiters (outside the lock).
  void complete(bool isError) {
    std::vector<std::function<void()>> run;
    {
      std::lock_guard<std::mutex> lock(mutex);
      ready = true;
      error = error || isError;
      run.swap(waiters);
    }
    cv.notify_all();
    for (auto &f : run)
      f();
  }

  /// Runs `f` once the object is available: now, or when it completes.
  void then(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!ready) {
        waiters.push_back(std::move(f));
        return;
      }
    }
    f();
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return ready; });
  }

  bool isError() {
    std::lock_guard<std::mutex> lock(mutex);
    return error;
  }

  std::atomic<int64_t> refs;
  std::mutex mutex;
  std::condition_variable cv;
  bool ready = false;
  bool error = false;
  std::vector<std::function<void()>> waiters;
};

struct Token : Object {};

struct Value : Object {
  explicit Value(int64_t size) : storage(size > 0 ? size : 0) {}
  std::vector<std::byte> storage;
};

/// Available once as many tokens as it was created for have completed (and
/// at once when created for none).
struct Group : Object {
  explicit Group(int64_t size) : pending(size) {
    if (size == 0)
      ready = true;
  }
  std::atomic<int64_t> pending;
  std::atomic<int64_t> added{0};
  std::atomic<bool> anyError{false};
};

} // namespace

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAddRef(void *object, int64_t count) {
  static_cast<Object *>(object)->addRef(count);
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeDropRef(void *object, int64_t count) {
  static_cast<Object *>(object)->dropRef(count);
}

KILN_ASYNC_EXPORT Token *mlirAsyncRuntimeCreateToken() { return new Token(); }

KILN_ASYNC_EXPORT Value *mlirAsyncRuntimeCreateValue(int64_t size) {
  return new Value(size);
}

KILN_ASYNC_EXPORT Group *mlirAsyncRuntimeCreateGroup(int64_t size) {
  return new Group(size);
}

KILN_ASYNC_EXPORT int64_t mlirAsyncRuntimeAddTokenToGroup(Token *token,
                                                          Group *group) {
  int64_t rank = group->added.fetch_add(1);
  // The group stays alive until the token has been counted.
  group->addRef(1);
  token->then([token, group] {
    if (token->isError())
      group->anyError = true;
    if (group->pending.fetch_sub(1) == 1)
      group->complete(group->anyError);
    group->dropRef(1);
  });
  return rank;
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeEmplaceToken(Token *token) {
  token->complete(false);
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeEmplaceValue(Value *value) {
  value->complete(false);
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeSetTokenError(Token *token) {
  token->complete(true);
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeSetValueError(Value *value) {
  value->complete(true);
}

KILN_ASYNC_EXPORT bool mlirAsyncRuntimeIsTokenError(Token *token) {
  return token->isError();
}

KILN_ASYNC_EXPORT bool mlirAsyncRuntimeIsValueError(Value *value) {
  return value->isError();
}

KILN_ASYNC_EXPORT bool mlirAsyncRuntimeIsGroupError(Group *group) {
  return group->isError();
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAwaitToken(Token *token) {
  token->wait();
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAwaitValue(Value *value) {
  value->wait();
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAwaitAllInGroup(Group *group) {
  group->wait();
}

KILN_ASYNC_EXPORT std::byte *mlirAsyncRuntimeGetValueStorage(Value *value) {
  return value->storage.data();
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeExecute(CoroHandle handle,
                                               CoroResume resume) {
  resume(handle);
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAwaitTokenAndExecute(Token *token,
                                                            CoroHandle handle,
                                                            CoroResume resume) {
  token->then([handle, resume] { resume(handle); });
}

KILN_ASYNC_EXPORT void mlirAsyncRuntimeAwaitValueAndExecute(Value *value,
                                                            CoroHandle handle,
                                                            CoroResume resume) {
  value->then([handle, resume] { resume(handle); });
}

KILN_ASYNC_EXPORT void
mlirAsyncRuntimeAwaitAllInGroupAndExecute(Group *group, CoroHandle handle,
                                          CoroResume resume) {
  group->then([handle, resume] { resume(handle); });
}

// (Upstream's spelling.)
KILN_ASYNC_EXPORT int64_t mlirAsyncRuntimGetNumWorkerThreads() { return 1; }

KILN_ASYNC_EXPORT void mlirAsyncRuntimePrintCurrentThreadId() {
  std::printf("Current thread id: %llu\n",
              static_cast<unsigned long long>(
                  std::hash<std::thread::id>{}(std::this_thread::get_id())));
  std::fflush(stdout);
}
