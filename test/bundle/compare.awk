# Compares a test's output with its expected output, token by token:
#   integers         exactly ("-0" equals "0");
#   other numbers    within KILN_BUNDLE_RTOL (relative, default 1e-3) or
#                    KILN_BUNDLE_ATOL (absolute, default 5e-4), enough for the
#                    precision Vulkan allows sin, cos, exp and friends;
#   nan, -nan        the same (the sign of a NaN is the hardware's choice);
#   0x... addresses  not at all (memref base pointers);
#   anything else    as text.
# Tokens are separated by spaces and by [ ] ( ) , =. Prints the first
# difference and exits 1.
#
#   awk -f compare.awk EXPECTED ACTUAL

function isint(s) { return s ~ /^[-+]?[0-9]+$/ }
function isnum(s) {
  return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/
}
function abs(x) { return x < 0 ? -x : x }
function norm(s) {
  if (s ~ /^[-+]?nan$/) return "nan"
  if (isint(s)) { sub(/^[+]/, "", s); if (s ~ /^-0+$/) s = "0" }
  return s
}
function differ(what) {
  printf "line %d: %s\n", eline[k], what
  failed = 1
  exit 1
}

BEGIN {
  rtol = ENVIRON["KILN_BUNDLE_RTOL"] != "" ? ENVIRON["KILN_BUNDLE_RTOL"] + 0 : 1e-3
  atol = ENVIRON["KILN_BUNDLE_ATOL"] != "" ? ENVIRON["KILN_BUNDLE_ATOL"] + 0 : 5e-4
}
{
  line = $0
  gsub(/[][(),=]/, " & ", line)
  n = split(line, t, " ")
  for (i = 1; i <= n; i++) {
    if (FILENAME == ARGV[1]) { e[++ne] = t[i]; eline[ne] = FNR }
    else { a[++na] = t[i]; aline[na] = FNR }
  }
}
END {
  if (failed) exit 1
  for (k = 1; k <= ne && k <= na; k++) {
    x = norm(e[k]); y = norm(a[k])
    if (x ~ /^0x[0-9a-fA-F]+$/ && y ~ /^0x[0-9a-fA-F]+$/) continue
    if (isint(x) && isint(y)) {
      if (x != y) differ("expected " x ", got " y)
    } else if (isnum(x) && isnum(y)) {
      d = abs(x - y); m = abs(x) > abs(y) ? abs(x) : abs(y)
      if (d > atol && d > rtol * m) differ("expected " x ", got " y " (beyond the tolerance)")
    } else if (x != y) {
      differ("expected '" x "', got '" y "'")
    }
  }
  if (ne != na) {
    k = ne < na ? ne : na
    if (k == 0) k = 1
    differ("expected " ne " tokens, got " (na + 0))
  }
}
