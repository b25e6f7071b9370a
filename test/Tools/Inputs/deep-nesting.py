"""Prints a program whose main nests N scf.if regions (argv[1]) and prints 7
from the innermost one."""
import sys

n = int(sys.argv[1])
print("func.func @main() {")
print("  %t = arith.constant true")
print("  %c = arith.constant 7 : i32")
print("scf.if %t {\n" * n, end="")
print("  vector.print %c : i32")
print("}\n" * n, end="")
print("  return")
print("}")
