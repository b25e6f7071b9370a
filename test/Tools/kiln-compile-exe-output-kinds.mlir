// kiln-compile --emit=exe writes its output as a user expects of any tool:
// a regular file is replaced as a whole (nothing partial when linking
// fails); a symbolic link is followed, so the file it names gets the
// executable and the link stays; a character device such as /dev/null is
// written into, never replaced (linking to a temporary and renaming it over
// the path replaced /dev/null with an executable when run as root).
// REQUIRES: vulkan-runner
// RUN: rm -rf %t && mkdir -p %t
// RUN: ln -s target.exe %t/link.exe
// RUN: kiln-compile %s --emit=exe -o %t/link.exe
// RUN: test -L %t/link.exe && test -f %t/target.exe && test -x %t/target.exe
// RUN: %t/link.exe | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o /dev/null
// RUN: test -c /dev/null
// RUN: not kiln-compile %s --emit=exe -o %t 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: ls %t | FileCheck %s --check-prefix=LEFT
// CHECK: 42
// DIR: error: cannot write '{{.*}}': it is a directory
// LEFT-NOT: .link-
// LEFT-NOT: kiln-link

func.func @main() {
  %c = arith.constant 42 : i32
  vector.print %c : i32
  return
}
