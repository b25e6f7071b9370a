//===- AsyncRuntimeTest.cpp - Kiln's async runtime for executables --------===//
//
// The mlirAsyncRuntime* entry points executables call for async.execute host
// code: tokens, values, groups, errors and the continuations that
// convert-async-to-llvm's coroutines register.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

extern "C" {
void *mlirAsyncRuntimeCreateToken();
void *mlirAsyncRuntimeCreateValue(int64_t);
void *mlirAsyncRuntimeCreateGroup(int64_t);
int64_t mlirAsyncRuntimeAddTokenToGroup(void *, void *);
void mlirAsyncRuntimeEmplaceToken(void *);
void mlirAsyncRuntimeEmplaceValue(void *);
void mlirAsyncRuntimeSetTokenError(void *);
void mlirAsyncRuntimeSetValueError(void *);
bool mlirAsyncRuntimeIsTokenError(void *);
bool mlirAsyncRuntimeIsValueError(void *);
bool mlirAsyncRuntimeIsGroupError(void *);
void mlirAsyncRuntimeAwaitToken(void *);
void mlirAsyncRuntimeAwaitValue(void *);
void mlirAsyncRuntimeAwaitAllInGroup(void *);
std::byte *mlirAsyncRuntimeGetValueStorage(void *);
void mlirAsyncRuntimeExecute(void *, void (*)(void *));
void mlirAsyncRuntimeAwaitTokenAndExecute(void *, void *, void (*)(void *));
void mlirAsyncRuntimeAwaitValueAndExecute(void *, void *, void (*)(void *));
void mlirAsyncRuntimeAwaitAllInGroupAndExecute(void *, void *,
                                               void (*)(void *));
void mlirAsyncRuntimeAddRef(void *, int64_t);
void mlirAsyncRuntimeDropRef(void *, int64_t);
int64_t mlirAsyncRuntimGetNumWorkerThreads();
}

namespace {

void bump(void *counter) { ++*static_cast<int *>(counter); }

TEST(AsyncRuntime, ExecuteRunsTheCoroutine) {
  int runs = 0;
  mlirAsyncRuntimeExecute(&runs, bump);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(mlirAsyncRuntimGetNumWorkerThreads(), 1);
}

TEST(AsyncRuntime, ContinuationWaitsForTheToken) {
  void *token = mlirAsyncRuntimeCreateToken();
  int runs = 0;
  mlirAsyncRuntimeAwaitTokenAndExecute(token, &runs, bump);
  EXPECT_EQ(runs, 0);
  mlirAsyncRuntimeEmplaceToken(token);
  EXPECT_EQ(runs, 1);
  // Once available, a continuation runs at once.
  mlirAsyncRuntimeAwaitTokenAndExecute(token, &runs, bump);
  EXPECT_EQ(runs, 2);
  EXPECT_FALSE(mlirAsyncRuntimeIsTokenError(token));
  mlirAsyncRuntimeAwaitToken(token);
  mlirAsyncRuntimeDropRef(token, 1);
}

TEST(AsyncRuntime, ValueStorageAndErrors) {
  void *value = mlirAsyncRuntimeCreateValue(sizeof(double));
  double pi = 3.25;
  std::memcpy(mlirAsyncRuntimeGetValueStorage(value), &pi, sizeof(pi));
  int runs = 0;
  mlirAsyncRuntimeAwaitValueAndExecute(value, &runs, bump);
  mlirAsyncRuntimeEmplaceValue(value);
  mlirAsyncRuntimeAwaitValue(value);
  EXPECT_EQ(runs, 1);
  double back;
  std::memcpy(&back, mlirAsyncRuntimeGetValueStorage(value), sizeof(back));
  EXPECT_EQ(back, 3.25);
  EXPECT_FALSE(mlirAsyncRuntimeIsValueError(value));
  mlirAsyncRuntimeDropRef(value, 1);

  void *failed = mlirAsyncRuntimeCreateValue(4);
  mlirAsyncRuntimeSetValueError(failed);
  EXPECT_TRUE(mlirAsyncRuntimeIsValueError(failed));
  mlirAsyncRuntimeDropRef(failed, 1);
}

TEST(AsyncRuntime, GroupCompletesWithItsLastTokenAndCarriesErrors) {
  void *group = mlirAsyncRuntimeCreateGroup(3);
  std::vector<void *> tokens;
  for (int i = 0; i < 3; ++i) {
    tokens.push_back(mlirAsyncRuntimeCreateToken());
    EXPECT_EQ(mlirAsyncRuntimeAddTokenToGroup(tokens.back(), group), i);
  }
  int runs = 0;
  mlirAsyncRuntimeAwaitAllInGroupAndExecute(group, &runs, bump);
  mlirAsyncRuntimeEmplaceToken(tokens[0]);
  mlirAsyncRuntimeSetTokenError(tokens[2]);
  EXPECT_EQ(runs, 0);
  mlirAsyncRuntimeEmplaceToken(tokens[1]);
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(mlirAsyncRuntimeIsGroupError(group));
  mlirAsyncRuntimeAwaitAllInGroup(group);
  for (void *t : tokens)
    mlirAsyncRuntimeDropRef(t, 1);
  mlirAsyncRuntimeDropRef(group, 1);

  // A group created for no token is available at once.
  void *empty = mlirAsyncRuntimeCreateGroup(0);
  mlirAsyncRuntimeAwaitAllInGroup(empty);
  EXPECT_FALSE(mlirAsyncRuntimeIsGroupError(empty));
  mlirAsyncRuntimeDropRef(empty, 1);
}

TEST(AsyncRuntime, BlockingAwaitSeesAnotherThreadsCompletion) {
  void *token = mlirAsyncRuntimeCreateToken();
  mlirAsyncRuntimeAddRef(token, 1);
  std::thread other([token] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    mlirAsyncRuntimeEmplaceToken(token);
    mlirAsyncRuntimeDropRef(token, 1);
  });
  mlirAsyncRuntimeAwaitToken(token);
  EXPECT_FALSE(mlirAsyncRuntimeIsTokenError(token));
  other.join();
  mlirAsyncRuntimeDropRef(token, 1);
}

} // namespace
