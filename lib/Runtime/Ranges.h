//===- Ranges.h - Where a byte range lies among allocations -----*- C++ -*-===//
//
// The one reading, for the Vulkan and spirv-cpu runtimes, of where a copy,
// fill or memref argument lies among the runtime's allocations (a map from
// base address to allocation): inside one, past one's end, into one it
// does not start in, around the address space, or in memory the runtime did
// not allocate. Each runtime words its own errors from the answer.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_RANGES_H
#define KILN_RUNTIME_RANGES_H

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

namespace kiln {
namespace rt {

enum class RangeFit {
  Outside, ///< Touches no allocation (host memory).
  Inside,  ///< Lies within `at`.
  Past,    ///< Starts in `at` and runs past its end.
  Into,    ///< Starts outside any allocation and runs into `at`.
  Wraps,   ///< Its end wraps around the address space.
};

template <typename Iterator> struct RangePlace {
  RangeFit fit = RangeFit::Outside;
  Iterator at{}; ///< The allocation for Inside, Past and Into.
};

/// Where `size` bytes at `lo` lie among `allocations`, a map ordered by
/// base address; `baseOf` and `sizeOf` read an entry's base address and
/// byte size (an empty allocation counts as one byte).
template <typename Map, typename BaseOf, typename SizeOf>
RangePlace<typename Map::const_iterator>
placeRange(const Map &allocations, typename Map::key_type key, uintptr_t lo,
           uint64_t size, BaseOf baseOf, SizeOf sizeOf) {
  RangePlace<typename Map::const_iterator> place;
  if (size > UINTPTR_MAX - lo) {
    place.fit = RangeFit::Wraps;
    return place;
  }
  uintptr_t hi = lo + size;
  auto next = allocations.upper_bound(key);
  if (next != allocations.begin()) {
    auto at = std::prev(next);
    uintptr_t end = baseOf(*at) + std::max<uint64_t>(sizeOf(*at), 1);
    if (lo < end) {
      place.fit = hi <= end ? RangeFit::Inside : RangeFit::Past;
      place.at = at;
      return place;
    }
  }
  if (next != allocations.end() && baseOf(*next) < hi) {
    place.fit = RangeFit::Into;
    place.at = next;
  }
  return place;
}

/// What is wrong with `size` bytes at `key` (address `lo`), called `what`
/// ("mgpuMemcpy's source (gpu.memcpy)"), among `allocations`, a map from
/// an allocation's base (an address or a pointer) to its byte size: empty
/// when the range lies inside one allocation or touches none.
template <typename Map>
std::string rangeError(const Map &allocations, typename Map::key_type key,
                       uintptr_t lo, uint64_t size, const char *what) {
  auto baseOf = [](const auto &e) { return uintptr_t(e.first); };
  auto place = placeRange(allocations, key, lo, size, baseOf,
                          [](const auto &e) { return e.second; });
  std::string range =
      std::string(what) + " of " + std::to_string(size) + " bytes";
  switch (place.fit) {
  case RangeFit::Outside:
  case RangeFit::Inside:
    return std::string();
  case RangeFit::Wraps:
    return range + " wraps around the address space";
  case RangeFit::Past:
    return range + " at offset " + std::to_string(lo - baseOf(*place.at)) +
           " of a " + std::to_string(place.at->second) +
           "-byte allocation (gpu.alloc) reaches past its end";
  case RangeFit::Into:
    break;
  }
  return range + " runs into a " + std::to_string(place.at->second) +
         "-byte allocation (gpu.alloc) it does not start in";
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_RANGES_H
