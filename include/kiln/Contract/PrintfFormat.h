//===- PrintfFormat.h - Formats Vulkan's debug printf can print -*- C++ -*-===//
//
// The one reading of a debug printf format, shared by the compiler (which
// lowers gpu.printf and refuses what the layer cannot print) and the Vulkan
// runtime (which refuses a module whose formats it did not check, since the
// Khronos validation layer hands them to the C library's snprintf with
// 32-bit values: `%s`, `%n`, `%p`, `*` widths or 64-bit length modifiers
// would read or write memory that is not there). C++ standard library only.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTRACT_PRINTFFORMAT_H
#define KILN_CONTRACT_PRINTFFORMAT_H

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {
namespace printf_format {

/// One conversion of a format string: what kind of value it prints and how
/// many components (0 for a scalar, 2-4 for debug printf's `%v<N>`).
struct Conversion {
  char letter;
  bool isFloat;
  unsigned components;
};

/// Parses `format` as debug printf reads it: printf conversions of numbers,
/// and its vector ones (`%v4f`). Returns "" with `conversions` filled, or
/// what it cannot print (a sentence to follow "'gpu.printf' op ").
inline std::string parse(std::string_view format,
                         std::vector<Conversion> &conversions) {
  auto in = [](char c, const char *set) {
    return c != '\0' && std::strchr(set, c) != nullptr;
  };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto quoted = [&](size_t from, size_t to) {
    return "'" + std::string(format.substr(from, to - from)) + "'";
  };
  if (format.find('\0') != std::string_view::npos)
    return "format string holds a NUL character, which ends the string debug "
           "printf sees";
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    size_t start = i++;
    if (i < format.size() && format[i] == '%')
      continue;
    while (i < format.size() && in(format[i], "-+ #0"))
      ++i;
    // Width and precision: at most three digits each (the layer formats
    // into memory of that size), one '.', no '*'.
    size_t fieldStart = i;
    while (i < format.size() &&
           (digit(format[i]) || format[i] == '.' || format[i] == '*'))
      ++i;
    std::string_view field = format.substr(fieldStart, i - fieldStart);
    size_t end = std::min(i + 1, format.size());
    if (field.find('*') != std::string_view::npos)
      return "conversion " + quoted(start, end) +
             " takes its width or precision from an argument ('*'), which "
             "Vulkan's debug printf does not support";
    size_t dot = field.find('.');
    std::string_view width = field.substr(0, dot);
    std::string_view precision = dot == std::string_view::npos
                                     ? std::string_view()
                                     : field.substr(dot + 1);
    if (precision.find('.') != std::string_view::npos || width.size() > 3 ||
        precision.size() > 3)
      return "conversion " + quoted(start, end) +
             " has a malformed or too wide field: a width and a precision of "
             "at most three digits each";
    unsigned components = 0;
    if (i < format.size() && format[i] == 'v') {
      if (i + 1 >= format.size() || format[i + 1] < '2' || format[i + 1] > '4')
        return "vector conversion " +
               quoted(start, std::min(i + 2, format.size())) +
               " needs a width of 2, 3 or 4 after 'v'";
      components = format[i + 1] - '0';
      i += 2;
    }
    size_t lengthStart = i;
    while (i < format.size() && in(format[i], "hlLjztq"))
      ++i;
    std::string_view length = format.substr(lengthStart, i - lengthStart);
    end = std::min(i + 1, format.size());
    if (!length.empty() && length != "h" && length != "hh")
      return "conversion " + quoted(start, end) + " has the length modifier '" +
             std::string(length) +
             "': Vulkan's debug printf prints 32-bit values only (the "
             "arguments are promoted to 32 bits); drop the modifier";
    if (i >= format.size())
      return "format string ends inside the conversion '" +
             std::string(format.substr(start)) + "'";
    char letter = format[i];
    bool isInt = in(letter, "diouxX");
    bool isFloat = in(letter, "aAeEfFgG");
    if (!isInt && !isFloat)
      return "conversion " + quoted(start, end) +
             " is not supported by Vulkan's debug printf, which prints "
             "numbers only (d i o u x X a A e E f F g G, with %v2..%v4 for "
             "vectors)";
    if (isFloat && !length.empty())
      return "conversion " + quoted(start, end) +
             " puts an integer length modifier on a float";
    // The layer reads an 'l' right after the letter ("%ul") as a 64-bit
    // value.
    if (i + 1 < format.size() && format[i + 1] == 'l')
      return "conversion " + quoted(start, i + 2) +
             ": Vulkan's debug printf reads an 'l' right after the conversion "
             "as a 64-bit value; separate it (e.g. '%d l')";
    conversions.push_back({letter, isFloat, components});
  }
  return "";
}

} // namespace printf_format
} // namespace kiln

#endif // KILN_CONTRACT_PRINTFFORMAT_H
