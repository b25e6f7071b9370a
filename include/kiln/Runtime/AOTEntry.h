/*===- AOTEntry.h - Between kiln-compile --emit=exe and its main() -*- C -*-===
 *
 * kiln-compile generates these three functions into an executable's object
 * file (lib/Target/AOT/AOT.cpp); main() in lib/Runtime/AOT/AOTMain.cpp calls
 * them. No LLVM: AOTMain.cpp includes it too.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_AOTENTRY_H
#define KILN_RUNTIME_AOTENTRY_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The program's module constructors (loading its GPU binaries), taken out of
 * llvm.global_ctors so that they run after main() has read its options. */
void __kiln_aot_init(void);
/* Calls the entry point, stores its result (up to 8 bytes) at `result` and
 * returns its KilnAOTResultKind. */
int __kiln_aot_run(void *result);
/* The module destructors. */
void __kiln_aot_fini(void);

#define KILN_AOT_INIT_NAME "__kiln_aot_init"
#define KILN_AOT_RUN_NAME "__kiln_aot_run"
#define KILN_AOT_FINI_NAME "__kiln_aot_fini"

/* What an executable's entry point returns. */
enum KilnAOTResultKind {
  KILN_AOT_RESULT_VOID = 0,
  KILN_AOT_RESULT_I32 = 1,
  KILN_AOT_RESULT_I64 = 2,
  KILN_AOT_RESULT_F32 = 3
};

/* Where __kiln_aot_run stores the entry point's result. */
union KilnAOTResult {
  int32_t i32;
  int64_t i64;
  float f32;
  unsigned char bytes[8];
};

/* Prints the result of an entry point of `kind` on stdout as mlir-runner
 * prints it (nothing for void), then flushes stdout; returns it as an exit
 * status (integers; 0 otherwise). Executables and the runners print
 * alike. */
static inline int kilnAOTPrintResult(int kind,
                                     const union KilnAOTResult *result) {
  int status = 0;
  switch (kind) {
  case KILN_AOT_RESULT_I32:
    printf("%d\n", (int)result->i32);
    status = (int)result->i32;
    break;
  case KILN_AOT_RESULT_I64:
    printf("%lld\n", (long long)result->i64);
    status = (int)result->i64;
    break;
  case KILN_AOT_RESULT_F32:
    printf("%e\n", (double)result->f32);
    break;
  default:
    break;
  }
  fflush(stdout);
  return status;
}

/* The MLIR spelling of a result kind, as --entry-point-result takes it. */
static inline const char *kilnAOTResultKindName(enum KilnAOTResultKind kind) {
  switch (kind) {
  case KILN_AOT_RESULT_I32:
    return "i32";
  case KILN_AOT_RESULT_I64:
    return "i64";
  case KILN_AOT_RESULT_F32:
    return "f32";
  default:
    return "void";
  }
}

#ifdef __cplusplus
}
#endif

#endif /* KILN_RUNTIME_AOTENTRY_H */
