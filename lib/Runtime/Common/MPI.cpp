//===- MPI.cpp - The __kiln_mpi_* entry points, once for every runtime ----===//
//
// Every runtime library compiles this file: the entry points of
// kiln/Contract/MPIABI.h over the MPI runtime (MPI.h), which loads the MPI
// library the program was compiled for with dlopen and speaks its ABI
// without its headers. An entry point's error is printed as
// "kiln-mpi: rank R: MESSAGE" and ends the whole job (MPI_Abort).
//
//===----------------------------------------------------------------------===//

// The entry points are the library's interface, as the mgpu* ones are:
// their declarations take default visibility (this include comes first, as
// MPI.h includes the header too).
#pragma GCC visibility push(default)
#include "kiln/Contract/MPIABI.h"
#pragma GCC visibility pop

#include "../Boundary.h"
#include "../DeviceList.h"
#include "../MPI.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <type_traits>

using namespace kiln;
using namespace kiln::rt;
using mpi::ElementKind;
using mpi::Implementation;
using mpi::Reduction;

namespace {

const char *implementationName(Implementation implementation) {
  return implementation == Implementation::OpenMPI ? "Open MPI" : "MPICH";
}

/// An op's name in messages.
std::string opName(const char *op) { return std::string("mpi.") + op; }

/// The element type's name in messages.
const char *kindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::U8:
    return "ui8";
  case ElementKind::U16:
    return "ui16";
  case ElementKind::U32:
    return "ui32";
  case ElementKind::U64:
    return "ui64";
  case ElementKind::Bool:
    return "i1";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::ComplexF32:
    return "complex<f32>";
  case ElementKind::ComplexF64:
    return "complex<f64>";
  }
  return "?";
}

/// The implementation's numbers of MLIR 22's MPI_ErrorClassEnum, in its
/// (alphabetical) order: {Open MPI 4.1, MPICH 4.0}, -1 where the
/// implementation has no such class (from their mpi.h files).
constexpr int32_t kErrorClasses[][2] = {
    {0, 0},           // 0 MPI_SUCCESS
    {20, 20},         // 1 MPI_ERR_ACCESS
    {21, 21},         // 2 MPI_ERR_AMODE
    {13, 12},         // 3 MPI_ERR_ARG
    {22, 53},         // 4 MPI_ERR_ASSERT
    {23, 22},         // 5 MPI_ERR_BAD_FILE
    {24, 46},         // 6 MPI_ERR_BASE
    {1, 1},           // 7 MPI_ERR_BUFFER
    {5, 5},           // 8 MPI_ERR_COMM
    {25, 23},         // 9 MPI_ERR_CONVERSION
    {2, 2},           // 10 MPI_ERR_COUNT
    {12, 11},         // 11 MPI_ERR_DIMS
    {26, 52},         // 12 MPI_ERR_DISP
    {27, 24},         // 13 MPI_ERR_DUP_DATAREP
    {-1, -1},         // 14 MPI_ERR_ERRHANDLER
    {30, 27},         // 15 MPI_ERR_FILE
    {28, 25},         // 16 MPI_ERR_FILE_EXISTS
    {29, 26},         // 17 MPI_ERR_FILE_IN_USE
    {9, 8},           // 18 MPI_ERR_GROUP
    {34, 28},         // 19 MPI_ERR_INFO
    {31, 29},         // 20 MPI_ERR_INFO_KEY
    {32, 31},         // 21 MPI_ERR_INFO_NOKEY
    {33, 30},         // 22 MPI_ERR_INFO_VALUE
    {18, 17},         // 23 MPI_ERR_IN_STATUS
    {17, 16},         // 24 MPI_ERR_INTERN
    {35, 32},         // 25 MPI_ERR_IO
    {36, 48},         // 26 MPI_ERR_KEYVAL
    {37, 47},         // 27 MPI_ERR_LOCKTYPE
    {38, 33},         // 28 MPI_ERR_NAME
    {39, 34},         // 29 MPI_ERR_NO_MEM
    {41, 36},         // 30 MPI_ERR_NO_SPACE
    {42, 37},         // 31 MPI_ERR_NO_SUCH_FILE
    {40, 35},         // 32 MPI_ERR_NOT_SAME
    {10, 9},          // 33 MPI_ERR_OP
    {16, 15},         // 34 MPI_ERR_OTHER
    {19, 18},         // 35 MPI_ERR_PENDING
    {43, 38},         // 36 MPI_ERR_PORT
    {-1, 76},         // 37 MPI_ERR_PROC_ABORTED
    {44, 39},         // 38 MPI_ERR_QUOTA
    {6, 6},           // 39 MPI_ERR_RANK
    {45, 40},         // 40 MPI_ERR_READ_ONLY
    {7, 19},          // 41 MPI_ERR_REQUEST
    {69, 56},         // 42 MPI_ERR_RMA_ATTACH
    {46, 49},         // 43 MPI_ERR_RMA_CONFLICT
    {70, 58},         // 44 MPI_ERR_RMA_FLAVOR
    {68, 55},         // 45 MPI_ERR_RMA_RANGE
    {71, 57},         // 46 MPI_ERR_RMA_SHARED
    {47, 50},         // 47 MPI_ERR_RMA_SYNC
    {8, 7},           // 48 MPI_ERR_ROOT
    {48, 41},         // 49 MPI_ERR_SERVICE
    {-1, 75},         // 50 MPI_ERR_SESSION
    {49, 51},         // 51 MPI_ERR_SIZE
    {50, 42},         // 52 MPI_ERR_SPAWN
    {4, 4},           // 53 MPI_ERR_TAG
    {11, 10},         // 54 MPI_ERR_TOPOLOGY
    {15, 14},         // 55 MPI_ERR_TRUNCATE
    {3, 3},           // 56 MPI_ERR_TYPE
    {14, 13},         // 57 MPI_ERR_UNKNOWN
    {51, 43},         // 58 MPI_ERR_UNSUPPORTED_DATAREP
    {52, 44},         // 59 MPI_ERR_UNSUPPORTED_OPERATION
    {-1, 77},         // 60 MPI_ERR_VALUE_TOO_LARGE
    {53, 45},         // 61 MPI_ERR_WIN
    {92, 1073741823}, // 62 MPI_ERR_LASTCODE
};

} // namespace

std::optional<int32_t> rt::nativeErrorClass(Implementation implementation,
                                            int32_t dialectClass) {
  constexpr int32_t count =
      static_cast<int32_t>(sizeof(kErrorClasses) / sizeof(kErrorClasses[0]));
  if (dialectClass < 0 || dialectClass >= count)
    return std::nullopt;
  int32_t native =
      kErrorClasses[dialectClass]
                   [implementation == Implementation::OpenMPI ? 0 : 1];
  if (native < 0)
    return std::nullopt;
  return native;
}

//===----------------------------------------------------------------------===//
// The library: one ABI per implementation
//===----------------------------------------------------------------------===//

/// The functions Kiln calls, over 64-bit handles (what the entry points
/// pass): each implementation's class turns them into its own handle type
/// and calls through function pointers of its true prototypes.
class MPIRuntime::Library {
public:
  virtual ~Library() = default;

  Implementation implementation;
  std::string file; ///< What dlopen opened.
  void *handle = nullptr;

  // The functions without handles.
  int (*Init)(int *, char ***) = nullptr;
  int (*Initialized)(int *) = nullptr;
  int (*Finalized)(int *) = nullptr;
  int (*Finalize)() = nullptr;
  int (*Error_class)(int, int *) = nullptr;
  /// Open MPI's MPIX_Query_cuda_support (null where absent).
  int (*QueryCudaSupport)() = nullptr;

  virtual int64_t world() = 0;
  virtual Expected<int64_t> datatype(ElementKind kind) = 0;
  virtual Expected<int64_t> op(Reduction reduction) = 0;
  virtual int abort(int64_t comm, int code) = 0;
  virtual int commRank(int64_t comm, int *rank) = 0;
  virtual int commSize(int64_t comm, int *size) = 0;
  virtual int commSplit(int64_t comm, int color, int key, int64_t *out) = 0;
  virtual int send(const void *data, int count, int64_t type, int dest, int tag,
                   int64_t comm) = 0;
  virtual int recv(void *data, int count, int64_t type, int source, int tag,
                   int64_t comm) = 0;
  virtual int isend(const void *data, int count, int64_t type, int dest,
                    int tag, int64_t comm, int64_t *request) = 0;
  virtual int irecv(void *data, int count, int64_t type, int source, int tag,
                    int64_t comm, int64_t *request) = 0;
  virtual int wait(int64_t *request) = 0;
  virtual int barrier(int64_t comm) = 0;
  /// `send` null: in place.
  virtual int allreduce(const void *send, void *recv, int count, int64_t type,
                        int64_t op, int64_t comm) = 0;

protected:
  explicit Library(Implementation implementation)
      : implementation(implementation) {}

  /// `name`'s address in the library; an error naming both when missing.
  Expected<void *> symbol(const char *name) {
    dlerror();
    void *address = dlsym(handle, name);
    if (!address)
      return KILN_ERROR(
          Driver, std::string(implementationName(implementation)) +
                      "'s library " + file + " has no " + name + "; is it " +
                      implementationName(implementation) + "?");
    return address;
  }
  template <typename F> Status bind(F &function, const char *name) {
    KILN_ASSIGN_OR_RETURN(void *address, symbol(name));
    function = reinterpret_cast<F>(address);
    return Status::success();
  }
  Status bindCommon() {
    KILN_TRY(bind(Init, "MPI_Init"));
    KILN_TRY(bind(Initialized, "MPI_Initialized"));
    KILN_TRY(bind(Finalized, "MPI_Finalized"));
    KILN_TRY(bind(Finalize, "MPI_Finalize"));
    KILN_TRY(bind(Error_class, "MPI_Error_class"));
    QueryCudaSupport =
        reinterpret_cast<int (*)()>(dlsym(handle, "MPIX_Query_cuda_support"));
    return Status::success();
  }
};

namespace {

/// The calls of an ABI whose MPI_Comm, MPI_Datatype, MPI_Op and
/// MPI_Request are all `Handle` (a pointer in Open MPI, an int in MPICH),
/// with MPI_STATUS_IGNORE and MPI_IN_PLACE as given.
template <typename Handle> class LibraryFor : public MPIRuntime::Library {
public:
  static Handle narrow(int64_t value) {
    if constexpr (std::is_pointer_v<Handle>)
      return reinterpret_cast<Handle>(static_cast<intptr_t>(value));
    else
      return static_cast<Handle>(value);
  }
  static int64_t widen(Handle value) {
    if constexpr (std::is_pointer_v<Handle>)
      return static_cast<int64_t>(reinterpret_cast<intptr_t>(value));
    else
      return static_cast<int64_t>(value);
  }

  int abort(int64_t comm, int code) override {
    return Abort(narrow(comm), code);
  }
  int commRank(int64_t comm, int *rank) override {
    return Comm_rank(narrow(comm), rank);
  }
  int commSize(int64_t comm, int *size) override {
    return Comm_size(narrow(comm), size);
  }
  int commSplit(int64_t comm, int color, int key, int64_t *out) override {
    Handle split{};
    int code = Comm_split(narrow(comm), color, key, &split);
    *out = widen(split);
    return code;
  }
  int send(const void *data, int count, int64_t type, int dest, int tag,
           int64_t comm) override {
    return Send(data, count, narrow(type), dest, tag, narrow(comm));
  }
  int recv(void *data, int count, int64_t type, int source, int tag,
           int64_t comm) override {
    return Recv(data, count, narrow(type), source, tag, narrow(comm),
                statusIgnore);
  }
  int isend(const void *data, int count, int64_t type, int dest, int tag,
            int64_t comm, int64_t *request) override {
    Handle native{};
    int code =
        Isend(data, count, narrow(type), dest, tag, narrow(comm), &native);
    *request = widen(native);
    return code;
  }
  int irecv(void *data, int count, int64_t type, int source, int tag,
            int64_t comm, int64_t *request) override {
    Handle native{};
    int code =
        Irecv(data, count, narrow(type), source, tag, narrow(comm), &native);
    *request = widen(native);
    return code;
  }
  int wait(int64_t *request) override {
    Handle native = narrow(*request);
    int code = Wait(&native, statusIgnore);
    *request = widen(native);
    return code;
  }
  int barrier(int64_t comm) override { return Barrier(narrow(comm)); }
  int allreduce(const void *send, void *recv, int count, int64_t type,
                int64_t op, int64_t comm) override {
    return Allreduce(send ? send : inPlace, recv, count, narrow(type),
                     narrow(op), narrow(comm));
  }

protected:
  LibraryFor(Implementation implementation, void *statusIgnore,
             const void *inPlace)
      : Library(implementation), statusIgnore(statusIgnore), inPlace(inPlace) {}

  Status bindAll() {
    KILN_TRY(bindCommon());
    KILN_TRY(bind(Abort, "MPI_Abort"));
    KILN_TRY(bind(Comm_rank, "MPI_Comm_rank"));
    KILN_TRY(bind(Comm_size, "MPI_Comm_size"));
    KILN_TRY(bind(Comm_split, "MPI_Comm_split"));
    KILN_TRY(bind(Send, "MPI_Send"));
    KILN_TRY(bind(Recv, "MPI_Recv"));
    KILN_TRY(bind(Isend, "MPI_Isend"));
    KILN_TRY(bind(Irecv, "MPI_Irecv"));
    KILN_TRY(bind(Wait, "MPI_Wait"));
    KILN_TRY(bind(Barrier, "MPI_Barrier"));
    KILN_TRY(bind(Allreduce, "MPI_Allreduce"));
    return Status::success();
  }

  /// MPI_Status * (ignored) and the MPI_IN_PLACE marker.
  void *statusIgnore;
  const void *inPlace;

  int (*Abort)(Handle, int) = nullptr;
  int (*Comm_rank)(Handle, int *) = nullptr;
  int (*Comm_size)(Handle, int *) = nullptr;
  int (*Comm_split)(Handle, int, int, Handle *) = nullptr;
  int (*Send)(const void *, int, Handle, int, int, Handle) = nullptr;
  int (*Recv)(void *, int, Handle, int, int, Handle, void *) = nullptr;
  int (*Isend)(const void *, int, Handle, int, int, Handle, Handle *) = nullptr;
  int (*Irecv)(void *, int, Handle, int, int, Handle, Handle *) = nullptr;
  int (*Wait)(Handle *, void *) = nullptr;
  int (*Barrier)(Handle) = nullptr;
  int (*Allreduce)(const void *, void *, int, Handle, Handle, Handle) = nullptr;
};

/// Open MPI (4.x, libmpi.so.40): handles are pointers to the library's
/// predefined objects, exported as globals (mpi.h's
/// OMPI_PREDEFINED_GLOBAL); MPI_STATUS_IGNORE is 0, MPI_IN_PLACE is 1.
class OpenMPILibrary final : public LibraryFor<void *> {
public:
  OpenMPILibrary()
      : LibraryFor(Implementation::OpenMPI, /*statusIgnore=*/nullptr,
                   /*inPlace=*/reinterpret_cast<const void *>(1)) {}

  Status open() {
    KILN_TRY(bindAll());
    KILN_ASSIGN_OR_RETURN(void *comm, symbol("ompi_mpi_comm_world"));
    commWorld = comm;
    return Status::success();
  }

  int64_t world() override { return widen(commWorld); }

  Expected<int64_t> datatype(ElementKind kind) override {
    static const char *const names[] = {
        "ompi_mpi_float", "ompi_mpi_double", "ompi_mpi_int8_t",
        "ompi_mpi_int16_t", "ompi_mpi_int32_t", "ompi_mpi_int64_t",
        "ompi_mpi_uint8_t", "ompi_mpi_uint16_t", "ompi_mpi_uint32_t",
        "ompi_mpi_uint64_t", "ompi_mpi_c_bool",
        // f16 and bf16 travel as 16-bit words.
        "ompi_mpi_uint16_t", "ompi_mpi_uint16_t", "ompi_mpi_c_float_complex",
        "ompi_mpi_c_double_complex"};
    KILN_ASSIGN_OR_RETURN(void *type,
                          symbol(names[static_cast<int32_t>(kind)]));
    return widen(type);
  }

  Expected<int64_t> op(Reduction reduction) override {
    // Upstream MLIR's lowering names these ompi_mpi_<op>; the library's
    // globals are ompi_mpi_op_<op>.
    static const char *const names[] = {
        "ompi_mpi_op_null",   "ompi_mpi_op_max",    "ompi_mpi_op_min",
        "ompi_mpi_op_sum",    "ompi_mpi_op_prod",   "ompi_mpi_op_land",
        "ompi_mpi_op_band",   "ompi_mpi_op_lor",    "ompi_mpi_op_bor",
        "ompi_mpi_op_lxor",   "ompi_mpi_op_bxor",   "ompi_mpi_op_minloc",
        "ompi_mpi_op_maxloc", "ompi_mpi_op_replace"};
    KILN_ASSIGN_OR_RETURN(void *op,
                          symbol(names[static_cast<int32_t>(reduction)]));
    return widen(op);
  }

private:
  void *commWorld = nullptr;
};

/// MPICH (4.x, libmpich.so.12): handles are ints with the values of its
/// mpi.h; MPI_STATUS_IGNORE is 1, MPI_IN_PLACE is -1.
class MPICHLibrary final : public LibraryFor<int> {
public:
  MPICHLibrary()
      : LibraryFor(Implementation::MPICH,
                   /*statusIgnore=*/reinterpret_cast<void *>(1),
                   /*inPlace=*/reinterpret_cast<const void *>(-1)) {}

  Status open() { return bindAll(); }

  int64_t world() override { return 0x44000000; }

  Expected<int64_t> datatype(ElementKind kind) override {
    static const int32_t types[] = {
        0x4c00040a, // MPI_FLOAT
        0x4c00080b, // MPI_DOUBLE
        0x4c000137, // MPI_INT8_T
        0x4c000238, // MPI_INT16_T
        0x4c000439, // MPI_INT32_T
        0x4c00083a, // MPI_INT64_T
        0x4c00013b, // MPI_UINT8_T
        0x4c00023c, // MPI_UINT16_T
        0x4c00043d, // MPI_UINT32_T
        0x4c00083e, // MPI_UINT64_T
        0x4c00013f, // MPI_C_BOOL
        0x4c00023c, // f16 as MPI_UINT16_T
        0x4c00023c, // bf16 as MPI_UINT16_T
        0x4c000840, // MPI_C_FLOAT_COMPLEX
        0x4c001041, // MPI_C_DOUBLE_COMPLEX
    };
    return static_cast<int64_t>(types[static_cast<int32_t>(kind)]);
  }

  Expected<int64_t> op(Reduction reduction) override {
    // MPI_OP_NULL, then MPI_MAX (0x58000001) ... MPI_REPLACE (0x5800000d)
    // in the enum's order.
    if (reduction == Reduction::OpNull)
      return static_cast<int64_t>(0x18000000);
    return static_cast<int64_t>(0x58000000 + static_cast<int32_t>(reduction));
  }
};

/// The launcher's rank for this process before MPI runs (0 without one).
int launcherRank() {
  for (const char *name :
       {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"})
    if (const char *value = std::getenv(name); value && *value)
      return std::atoi(value);
  return 0;
}

/// What the runtime hook does after a fatal error of a device runtime.
void abortAfterFatalError() { MPIRuntime::get().abortJob(); }

} // namespace

//===----------------------------------------------------------------------===//
// Memrefs
//===----------------------------------------------------------------------===//

namespace {

/// A memref's elements in memory: where element (0, ..., 0) is, the shape
/// and strides (in elements), and the byte range they span around it.
struct Layout {
  unsigned char *origin = nullptr;
  int64_t elementBytes = 0;
  int64_t count = 0;
  std::vector<int64_t> sizes, strides;
  /// Bytes from `origin` to the lowest byte and past the highest.
  int64_t low = 0, high = 0;
  /// Dense and row-major: MPI can take the memory as it is.
  bool dense = true;
};

Expected<Layout> readLayout(const char *op, const char *which,
                            const MPIMemRef &ref) {
  std::string what = opName(op) + ": " + which;
  int64_t elementBytes = mpi::elementBytes(ref.kind);
  if (elementBytes == 0)
    return KILN_ERROR(InvalidArgument,
                      what + " has element kind " + std::to_string(ref.kind) +
                          ", which is no kiln::mpi::ElementKind");
  if (ref.rank < 0 || ref.rank > 64)
    return KILN_ERROR(InvalidArgument, what + " has rank " +
                                           std::to_string(ref.rank) +
                                           " (0 to 64 expected)");
  if (!ref.descriptor)
    return KILN_ERROR(InvalidArgument, what + " has no descriptor (null)");
  const int64_t *fields = static_cast<const int64_t *>(ref.descriptor);
  Layout layout;
  layout.elementBytes = elementBytes;
  layout.sizes.assign(fields + 3, fields + 3 + ref.rank);
  layout.strides.assign(fields + 3 + ref.rank, fields + 3 + 2 * ref.rank);
  int64_t count = 1;
  for (int64_t size : layout.sizes) {
    if (size < 0)
      return KILN_ERROR(InvalidArgument, what + " has a negative size (" +
                                             std::to_string(size) + ")");
    if (__builtin_mul_overflow(count, size, &count))
      return KILN_ERROR(InvalidArgument,
                        what + " has more elements than 64 bits count");
  }
  layout.count = count;
  auto *aligned =
      reinterpret_cast<unsigned char *>(static_cast<intptr_t>(fields[1]));
  layout.origin = aligned + fields[2] * elementBytes;
  if (count == 0)
    return layout;
  int64_t expected = 1;
  for (int64_t d = ref.rank - 1; d >= 0; --d) {
    int64_t size = layout.sizes[d], stride = layout.strides[d];
    if (size != 1 && stride != expected)
      layout.dense = false;
    expected *= size;
    // The span, in bytes; an overflow means no memory holds it.
    int64_t reach = 0;
    if (__builtin_mul_overflow(stride, size - 1, &reach) ||
        __builtin_mul_overflow(reach, elementBytes, &reach) ||
        __builtin_add_overflow(reach < 0 ? layout.low : layout.high, reach,
                               reach < 0 ? &layout.low : &layout.high))
      return KILN_ERROR(InvalidArgument,
                        what + " spans more bytes than 64 bits count");
  }
  layout.high += elementBytes;
  return layout;
}

/// Calls `f(element, i)` for each element of `layout` at `origin`, with i
/// its row-major number.
template <typename F>
void forEachRow(const Layout &layout, unsigned char *origin, F f) {
  size_t rank = layout.sizes.size();
  if (rank == 0) {
    f(origin, 0, 1, layout.elementBytes);
    return;
  }
  // Rows of the last dimension: one call each, with its element stride.
  int64_t rowLength = layout.sizes[rank - 1];
  int64_t rowStride = layout.strides[rank - 1] * layout.elementBytes;
  std::vector<int64_t> index(rank - 1, 0);
  for (int64_t row = 0; row * rowLength < layout.count; ++row) {
    int64_t offset = 0;
    for (size_t d = 0; d + 1 < rank; ++d)
      offset += index[d] * layout.strides[d];
    f(origin + offset * layout.elementBytes, row * rowLength, rowLength,
      rowStride);
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < layout.sizes[d])
        break;
      index[d] = 0;
    }
  }
}

/// Copies the elements of `layout` at `origin` into `dense`, row-major.
void pack(const Layout &layout, unsigned char *origin, unsigned char *dense) {
  int64_t bytes = layout.elementBytes;
  forEachRow(layout, origin,
             [&](unsigned char *row, int64_t first, int64_t n, int64_t stride) {
               unsigned char *to = dense + first * bytes;
               if (stride == bytes) {
                 std::memcpy(to, row, static_cast<size_t>(n * bytes));
                 return;
               }
               for (int64_t i = 0; i < n; ++i)
                 std::memcpy(to + i * bytes, row + i * stride,
                             static_cast<size_t>(bytes));
             });
}

/// The reverse of pack.
void unpack(const Layout &layout, unsigned char *origin,
            const unsigned char *dense) {
  int64_t bytes = layout.elementBytes;
  forEachRow(layout, origin,
             [&](unsigned char *row, int64_t first, int64_t n, int64_t stride) {
               const unsigned char *from = dense + first * bytes;
               if (stride == bytes) {
                 std::memcpy(row, from, static_cast<size_t>(n * bytes));
                 return;
               }
               for (int64_t i = 0; i < n; ++i)
                 std::memcpy(row + i * stride, from + i * bytes,
                             static_cast<size_t>(bytes));
             });
}

std::string hexAddress(const void *address) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", address);
  return text;
}

} // namespace

/// A pinned host buffer of the staging cache, registered with a device.
struct MPIRuntime::Block {
  unsigned char *data = nullptr;
  size_t bytes = 0;
  int device = -1;
};

/// A memref made ready for MPI: where MPI reads or writes `count` elements,
/// and what holds them until `finish` puts what MPI wrote in place.
class MPIRuntime::Transfer {
public:
  explicit Transfer(MPIRuntime &owner) : owner(owner) {}
  ~Transfer() {
    if (block.data)
      owner.giveBlock(block);
  }

  void *data = nullptr;
  int count = 0;

  /// After MPI wrote `data`: unpacks it and copies it to the device.
  Status finish() {
    if (!writes || layout.count == 0 || direct)
      return Status::success();
    if (!packed.empty()) {
      unpack(layout, hostOrigin, packed.data());
      owner.bump(&MPIStats::unpacked);
    }
    if (device < 0)
      return Status::success();
    KILN_ASSIGN_OR_RETURN(Runtime * runtime, owner.devices().device(device));
    KILN_TRY(runtime->copy(layout.origin + layout.low, block.data,
                           static_cast<size_t>(layout.high - layout.low),
                           nullptr));
    KILN_TRY(runtime->synchronize(nullptr));
    owner.bump(&MPIStats::stagedToDevice);
    return Status::success();
  }

  MPIRuntime &owner;
  Layout layout;
  bool writes = false;
  int device = -1; ///< The memory's device (-1: host memory).
  bool direct = false;
  /// Where the elements are on the host: the memref's own memory, or the
  /// pinned copy of its span.
  unsigned char *hostOrigin = nullptr;
  Block block;
  std::vector<unsigned char> packed;
};

//===----------------------------------------------------------------------===//
// MPIRuntime
//===----------------------------------------------------------------------===//

MPIRuntime::MPIRuntime() = default;
MPIRuntime::~MPIRuntime() = default;

MPIRuntime &MPIRuntime::get() {
  // Never destroyed: the exit handler and late errors use it.
  static MPIRuntime *runtime = new MPIRuntime();
  return *runtime;
}

DeviceList &MPIRuntime::devices() {
  // Every runtime library's boundary runtime is its device list.
  return static_cast<DeviceList &>(boundaryRuntime());
}

void MPIRuntime::bump(uint64_t MPIStats::*counter) {
  std::lock_guard<std::mutex> lock(mutex);
  ++(counters.*counter);
}

MPIStats MPIRuntime::stats() {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

size_t MPIRuntime::cachedStagingBuffers() {
  std::lock_guard<std::mutex> lock(mutex);
  return freeBlocks.size();
}

Expected<MPIRuntime::Library *> MPIRuntime::library(int32_t impl) {
  if (impl != static_cast<int32_t>(Implementation::OpenMPI) &&
      impl != static_cast<int32_t>(Implementation::MPICH))
    return KILN_ERROR(InvalidArgument,
                      "MPI implementation code " + std::to_string(impl) +
                          " is neither Open MPI (0) nor MPICH (1)");
  auto implementation = static_cast<Implementation>(impl);
  std::lock_guard<std::mutex> lock(mutex);
  if (chosen && *chosen != implementation)
    return KILN_ERROR(InvalidArgument,
                      std::string("an op compiled for ") +
                          implementationName(implementation) +
                          " but this process uses " +
                          implementationName(*chosen) +
                          " (its first MPI op was compiled for it); compile "
                          "every module of the program for one MPI");
  chosen = implementation;
  if (lib)
    return lib.get();
  // A program run by the other implementation's launcher would run as
  // singletons of its own, each rank 0 of 1: refuse that up front.
  bool openMPILauncher = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr;
  bool hydraLauncher = !openMPILauncher &&
                       std::getenv("MPI_LOCALRANKID") != nullptr &&
                       std::getenv("PMI_RANK") != nullptr;
  if (implementation == Implementation::MPICH && openMPILauncher)
    return KILN_ERROR(InvalidArgument,
                      "the program was compiled for MPICH but Open MPI's "
                      "mpirun started it (OMPI_COMM_WORLD_SIZE is set); run "
                      "it with MPICH's mpiexec (mpirun.mpich) or compile it "
                      "for Open MPI");
  if (implementation == Implementation::OpenMPI && hydraLauncher)
    return KILN_ERROR(InvalidArgument,
                      "the program was compiled for Open MPI but MPICH's "
                      "mpiexec started it (MPI_LOCALRANKID is set); run it "
                      "with Open MPI's mpirun or compile it for MPICH");
  const char *override = std::getenv("KILN_MPI_LIBRARY");
  bool openMPI = implementation == Implementation::OpenMPI;
  std::string file = override && *override ? override
                     : openMPI             ? "libmpi.so.40"
                                           : "libmpich.so.12";
  // Global: Open MPI's components, which it opens itself, link against
  // the library's symbols.
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    return KILN_ERROR(
        Driver,
        "cannot load " + std::string(implementationName(implementation)) +
            "'s library " + file + " (" + (why ? why : "dlopen failed") +
            "); the program was compiled for " +
            implementationName(implementation) + ": install it (on Debian: " +
            (openMPI ? "openmpi-bin libopenmpi-dev" : "mpich") +
            ") or name the library with KILN_MPI_LIBRARY");
  }
  std::unique_ptr<Library> opened;
  Status status;
  if (openMPI) {
    auto library = std::make_unique<OpenMPILibrary>();
    library->file = file;
    library->handle = handle;
    status = library->open();
    opened = std::move(library);
  } else {
    auto library = std::make_unique<MPICHLibrary>();
    library->file = file;
    library->handle = handle;
    status = library->open();
    opened = std::move(library);
  }
  if (status) {
    // The library stays loaded: MPI libraries do not expect dlclose.
    return status;
  }
  lib = std::move(opened);
  return lib.get();
}

Expected<int32_t> MPIRuntime::initialize(Library &l, const char *op) {
  // One thread initializes; the others find MPI running.
  std::lock_guard<std::mutex> once(initializing);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (finalized)
      return KILN_ERROR(InvalidArgument,
                        opName(op) + " after mpi.finalize: MPI is finalized");
    if (initialized)
      return 0;
  }
  int flag = 0;
  l.Initialized(&flag);
  int code = 0;
  if (!flag) {
    int done = 0;
    l.Finalized(&done);
    if (done)
      return KILN_ERROR(InvalidArgument,
                        opName(op) + " after MPI was finalized");
    code = l.Init(nullptr, nullptr);
    if (code != 0) {
      if (std::strcmp(op, "init") == 0)
        return code;
      return KILN_ERROR(Driver, "MPI_Init failed (code " +
                                    std::to_string(code) + ") at " +
                                    opName(op));
    }
  }
  bool registerHandler = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    initialized = true;
    ownInit = !flag;
    registerHandler = ownInit && !exitHandler;
    exitHandler = exitHandler || registerHandler;
  }
  if (registerHandler)
    std::atexit(finalizeAtExit);
  started(l);
  return code;
}

void MPIRuntime::started(Library &l) {
  int rank = -1;
  if (l.commRank(l.world(), &rank) != 0)
    rank = -1;
  // Only CUDA device memory can go to a CUDA-aware MPI as it is.
  bool aware = l.QueryCudaSupport && l.QueryCudaSupport() == 1 &&
               std::strcmp(devices().backend(), "cuda") == 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    worldRank = rank;
    cudaAware = aware;
  }
  fatalErrorHook.store(abortAfterFatalError);
}

Expected<MPIRuntime::Library *> MPIRuntime::running(int32_t impl,
                                                    const char *op) {
  KILN_ASSIGN_OR_RETURN(Library * l, library(impl));
  KILN_ASSIGN_OR_RETURN(int32_t code, initialize(*l, op));
  (void)code;
  return l;
}

void MPIRuntime::finalizeAtExit() {
  MPIRuntime &self = get();
  Library *l = nullptr;
  {
    std::lock_guard<std::mutex> lock(self.mutex);
    if (!self.initialized || self.finalized || !self.ownInit || self.aborting ||
        !self.lib)
      return;
    self.finalized = true;
    l = self.lib.get();
  }
  fatalErrorHook.store(nullptr);
  // The device runtimes may be gone already (a device made after MPI was
  // initialized registered its teardown later): the staging buffers are
  // left to the end of the process, and MPI (which Kiln never hands device
  // memory to finalize) is all that is finalized.
  l->Finalize();
}

Expected<int32_t> MPIRuntime::init(int32_t impl) {
  KILN_ASSIGN_OR_RETURN(Library * l, library(impl));
  return initialize(*l, "init");
}

Expected<int32_t> MPIRuntime::finalize(int32_t impl) {
  KILN_ASSIGN_OR_RETURN(Library * l, library(impl));
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (finalized)
      return KILN_ERROR(InvalidArgument,
                        "mpi.finalize: MPI was finalized already (a second "
                        "mpi.finalize)");
  }
  // Finalizing what was never initialized: initialize first, as any op.
  KILN_ASSIGN_OR_RETURN(int32_t started, initialize(*l, "finalize"));
  (void)started;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!requests.empty())
      return KILN_ERROR(InvalidArgument,
                        "mpi.finalize with " + std::to_string(requests.size()) +
                            " request(s) of mpi.isend/mpi.irecv not waited "
                            "for (mpi.wait)");
  }
  releaseBlocks();
  fatalErrorHook.store(nullptr);
  {
    std::lock_guard<std::mutex> lock(mutex);
    finalized = true;
  }
  return l->Finalize();
}

Expected<int64_t> MPIRuntime::commWorld(int32_t impl) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "comm_world"));
  return l->world();
}

Expected<int32_t> MPIRuntime::commRank(int32_t impl, int64_t comm,
                                       int32_t *rank) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "comm_rank"));
  int value = -1;
  int code = l->commRank(comm, &value);
  if (rank)
    *rank = value;
  return code;
}

Expected<int32_t> MPIRuntime::commSize(int32_t impl, int64_t comm,
                                       int32_t *size) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "comm_size"));
  int value = 0;
  int code = l->commSize(comm, &value);
  if (size)
    *size = value;
  return code;
}

Expected<int32_t> MPIRuntime::commSplit(int32_t impl, int64_t comm,
                                        int32_t color, int32_t key,
                                        int64_t *newComm) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "comm_split"));
  int64_t split = 0;
  int code = l->commSplit(comm, color, key, &split);
  if (newComm)
    *newComm = split;
  return code;
}

Expected<int32_t> MPIRuntime::barrier(int32_t impl, int64_t comm) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "barrier"));
  return l->barrier(comm);
}

//===----------------------------------------------------------------------===//
// Staging
//===----------------------------------------------------------------------===//

namespace {
/// The smallest staging buffer, and how many of one size are kept.
constexpr size_t kMinBlockBytes = 64 * 1024;
constexpr size_t kBlocksKept = 4;
} // namespace

Expected<MPIRuntime::Block> MPIRuntime::takeBlock(int device, size_t bytes) {
  size_t size = kMinBlockBytes;
  while (size < bytes)
    size *= 2;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.find({device, size});
    if (it != freeBlocks.end()) {
      Block block{static_cast<unsigned char *>(it->second), size, device};
      freeBlocks.erase(it);
      return block;
    }
  }
  void *data = std::aligned_alloc(4096, size);
  if (!data)
    return KILN_ERROR(OutOfMemory, "no host memory for a " +
                                       std::to_string(size) +
                                       "-byte staging buffer");
  // Pinned where the backend pins host memory (CUDA), so that the copies
  // run at full speed; the other backends accept and do nothing.
  Expected<Runtime *> runtime = devices().device(device);
  if (!runtime) {
    std::free(data);
    return runtime.takeError();
  }
  if (Status status = (*runtime)->hostRegister(data, size)) {
    std::free(data);
    return status;
  }
  return Block{static_cast<unsigned char *>(data), size, device};
}

void MPIRuntime::giveBlock(Block block) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!finalized &&
        freeBlocks.count({block.device, block.bytes}) < kBlocksKept) {
      freeBlocks.emplace(std::make_pair(block.device, block.bytes), block.data);
      return;
    }
  }
  if (Expected<Runtime *> runtime = devices().device(block.device))
    (void)(*runtime)->hostUnregister(block.data);
  std::free(block.data);
}

void MPIRuntime::releaseBlocks() {
  std::multimap<std::pair<int, size_t>, void *> blocks;
  {
    std::lock_guard<std::mutex> lock(mutex);
    blocks.swap(freeBlocks);
  }
  for (auto &[key, data] : blocks) {
    if (Expected<Runtime *> runtime = devices().device(key.first))
      (void)(*runtime)->hostUnregister(data);
    std::free(data);
  }
}

Expected<std::unique_ptr<MPIRuntime::Transfer>>
MPIRuntime::prepare(const char *op, const char *which, const MPIMemRef &ref,
                    bool reads, bool writes) {
  auto transfer = std::make_unique<Transfer>(*this);
  KILN_ASSIGN_OR_RETURN(transfer->layout, readLayout(op, which, ref));
  Layout &layout = transfer->layout;
  transfer->writes = writes;
  if (layout.count > INT32_MAX)
    return KILN_ERROR(InvalidArgument,
                      opName(op) + ": " + which + " has " +
                          std::to_string(layout.count) +
                          " elements, more than MPI's int count allows (" +
                          std::to_string(INT32_MAX) + ")");
  transfer->count = static_cast<int>(layout.count);
  if (layout.count == 0) {
    // MPI reads and writes nothing; any address will do.
    transfer->data = layout.origin;
    return transfer;
  }
  unsigned char *low = layout.origin + layout.low;
  unsigned char *last = layout.origin + layout.high - 1;
  DeviceList &list = devices();
  int first = list.ownerOf(reinterpret_cast<uintptr_t>(low));
  int end = list.ownerOf(reinterpret_cast<uintptr_t>(last));
  if (first != end)
    return KILN_ERROR(InvalidArgument,
                      opName(op) + ": " + which + " spans " +
                          std::to_string(layout.high - layout.low) +
                          " bytes at " + hexAddress(low) +
                          ", which are not all one allocation (" +
                          (first < 0 ? std::string("host memory")
                                     : "device " + std::to_string(first)) +
                          " at the first byte, " +
                          (end < 0 ? std::string("host memory")
                                   : "device " + std::to_string(end)) +
                          " at the last)");
  transfer->device = first;
  size_t span = static_cast<size_t>(layout.high - layout.low);
  bool aware;
  {
    std::lock_guard<std::mutex> lock(mutex);
    aware = cudaAware;
  }
  if (first < 0) {
    transfer->hostOrigin = layout.origin;
  } else if (aware && layout.dense) {
    transfer->direct = true;
    transfer->data = layout.origin;
    std::lock_guard<std::mutex> lock(mutex);
    ++counters.direct;
    return transfer;
  } else {
    KILN_ASSIGN_OR_RETURN(transfer->block, takeBlock(first, span));
    transfer->hostOrigin = transfer->block.data - layout.low;
    // A dense memref MPI only writes needs nothing from the device; any
    // other keeps the bytes between its elements.
    if (reads || !layout.dense) {
      KILN_ASSIGN_OR_RETURN(Runtime * runtime, list.device(first));
      KILN_TRY(runtime->copy(transfer->block.data, low, span, nullptr));
      KILN_TRY(runtime->synchronize(nullptr));
      std::lock_guard<std::mutex> lock(mutex);
      ++counters.stagedToHost;
    }
  }
  if (layout.dense) {
    transfer->data = transfer->hostOrigin;
    return transfer;
  }
  size_t bytes = static_cast<size_t>(layout.count * layout.elementBytes);
  try {
    transfer->packed.resize(bytes);
  } catch (const std::bad_alloc &) {
    return KILN_ERROR(OutOfMemory, opName(op) + ": no host memory to pack " +
                                       which + " (" + std::to_string(bytes) +
                                       " bytes)");
  }
  if (reads) {
    pack(layout, transfer->hostOrigin, transfer->packed.data());
    std::lock_guard<std::mutex> lock(mutex);
    ++counters.packed;
  }
  transfer->data = transfer->packed.data();
  return transfer;
}

//===----------------------------------------------------------------------===//
// Point to point and collectives
//===----------------------------------------------------------------------===//

namespace {
Status checkKind(const char *op, int32_t kind) {
  if (mpi::elementBytes(kind) == 0)
    return KILN_ERROR(InvalidArgument, opName(op) + ": element kind " +
                                           std::to_string(kind) +
                                           " is no kiln::mpi::ElementKind");
  return Status::success();
}
} // namespace

Expected<int32_t> MPIRuntime::send(int32_t impl, const MPIMemRef &ref,
                                   int32_t tag, int32_t dest, int64_t comm) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "send"));
  KILN_TRY(checkKind("send", ref.kind));
  KILN_ASSIGN_OR_RETURN(auto transfer,
                        prepare("send", "the memref", ref, true, false));
  KILN_ASSIGN_OR_RETURN(int64_t type,
                        l->datatype(static_cast<ElementKind>(ref.kind)));
  return l->send(transfer->data, transfer->count, type, dest, tag, comm);
}

Expected<int32_t> MPIRuntime::recv(int32_t impl, const MPIMemRef &ref,
                                   int32_t tag, int32_t source, int64_t comm) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "recv"));
  KILN_TRY(checkKind("recv", ref.kind));
  KILN_ASSIGN_OR_RETURN(auto transfer,
                        prepare("recv", "the memref", ref, false, true));
  KILN_ASSIGN_OR_RETURN(int64_t type,
                        l->datatype(static_cast<ElementKind>(ref.kind)));
  int code = l->recv(transfer->data, transfer->count, type, source, tag, comm);
  KILN_TRY(transfer->finish());
  return code;
}

Expected<int64_t> MPIRuntime::newRequest(int64_t native,
                                         std::unique_ptr<Transfer> transfer) {
  std::lock_guard<std::mutex> lock(mutex);
  int64_t id = nextRequest++;
  Pending &pending = requests[id];
  pending.native = native;
  pending.transfer = std::move(transfer);
  return id;
}

Expected<int32_t> MPIRuntime::isend(int32_t impl, const MPIMemRef &ref,
                                    int32_t tag, int32_t dest, int64_t comm,
                                    int64_t *request) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "isend"));
  KILN_TRY(checkKind("isend", ref.kind));
  KILN_ASSIGN_OR_RETURN(auto transfer,
                        prepare("isend", "the memref", ref, true, false));
  KILN_ASSIGN_OR_RETURN(int64_t type,
                        l->datatype(static_cast<ElementKind>(ref.kind)));
  int64_t native = 0;
  int code =
      l->isend(transfer->data, transfer->count, type, dest, tag, comm, &native);
  if (code != 0)
    return code;
  KILN_ASSIGN_OR_RETURN(int64_t id, newRequest(native, std::move(transfer)));
  if (request)
    *request = id;
  return code;
}

Expected<int32_t> MPIRuntime::irecv(int32_t impl, const MPIMemRef &ref,
                                    int32_t tag, int32_t source, int64_t comm,
                                    int64_t *request) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "irecv"));
  KILN_TRY(checkKind("irecv", ref.kind));
  KILN_ASSIGN_OR_RETURN(auto transfer,
                        prepare("irecv", "the memref", ref, false, true));
  KILN_ASSIGN_OR_RETURN(int64_t type,
                        l->datatype(static_cast<ElementKind>(ref.kind)));
  int64_t native = 0;
  int code = l->irecv(transfer->data, transfer->count, type, source, tag, comm,
                      &native);
  if (code != 0)
    return code;
  KILN_ASSIGN_OR_RETURN(int64_t id, newRequest(native, std::move(transfer)));
  if (request)
    *request = id;
  return code;
}

Expected<int32_t> MPIRuntime::wait(int32_t impl, int64_t request) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "wait"));
  Pending pending;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = requests.find(request);
    if (it == requests.end())
      return KILN_ERROR(InvalidArgument,
                        "mpi.wait: request " + std::to_string(request) +
                            (request > 0 && request < nextRequest
                                 ? " was waited for already"
                                 : " is no request of mpi.isend or "
                                   "mpi.irecv"));
    pending = std::move(it->second);
    requests.erase(it);
  }
  int code = l->wait(&pending.native);
  KILN_TRY(pending.transfer->finish());
  return code;
}

Expected<int32_t> MPIRuntime::allreduce(int32_t impl, const MPIMemRef &send,
                                        const MPIMemRef &recv,
                                        int32_t reduction, bool inPlace,
                                        int64_t comm) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "allreduce"));
  KILN_TRY(checkKind("allreduce", recv.kind));
  auto kind = static_cast<ElementKind>(recv.kind);
  if (reduction < 0 || reduction > static_cast<int32_t>(Reduction::Replace))
    return KILN_ERROR(InvalidArgument, "mpi.allreduce: reduction " +
                                           std::to_string(reduction) +
                                           " is no MPI_ReductionOpEnum value");
  auto op = static_cast<Reduction>(reduction);
  if (op == Reduction::OpNull || op == Reduction::MinLoc ||
      op == Reduction::MaxLoc || op == Reduction::Replace)
    return KILN_ERROR(InvalidArgument,
                      "mpi.allreduce: reduction " + std::to_string(reduction) +
                          " (MPI_OP_NULL, MPI_MINLOC, MPI_MAXLOC or "
                          "MPI_REPLACE) has no meaning on a memref");
  if (kind == ElementKind::F16 || kind == ElementKind::BF16)
    return KILN_ERROR(InvalidArgument,
                      std::string("mpi.allreduce: MPI has no datatype to "
                                  "reduce ") +
                          kindName(kind));
  std::unique_ptr<Transfer> in;
  if (!inPlace) {
    KILN_TRY(checkKind("allreduce", send.kind));
    if (send.kind != recv.kind)
      return KILN_ERROR(
          InvalidArgument,
          std::string("mpi.allreduce: the send buffer's elements are ") +
              kindName(static_cast<ElementKind>(send.kind)) +
              " and the receive buffer's " + kindName(kind));
    KILN_ASSIGN_OR_RETURN(
        in, prepare("allreduce", "the send buffer", send, true, false));
  }
  KILN_ASSIGN_OR_RETURN(auto out, prepare("allreduce", "the receive buffer",
                                          recv, inPlace, true));
  if (in && in->count != out->count)
    return KILN_ERROR(InvalidArgument, "mpi.allreduce: the send buffer has " +
                                           std::to_string(in->count) +
                                           " elements and the receive buffer " +
                                           std::to_string(out->count));
  KILN_ASSIGN_OR_RETURN(int64_t type, l->datatype(kind));
  KILN_ASSIGN_OR_RETURN(int64_t mpiOp, l->op(op));
  int code = l->allreduce(in ? in->data : nullptr, out->data, out->count, type,
                          mpiOp, comm);
  KILN_TRY(out->finish());
  return code;
}

Expected<int32_t> MPIRuntime::errorClass(int32_t impl, int32_t code) {
  KILN_ASSIGN_OR_RETURN(Library * l, running(impl, "error_class"));
  int errorClass = 0;
  int status = l->Error_class(code, &errorClass);
  if (status != 0)
    return KILN_ERROR(InvalidArgument, "mpi.error_class: MPI_Error_class(" +
                                           std::to_string(code) +
                                           ") failed with code " +
                                           std::to_string(status) +
                                           "; is it an MPI return code?");
  return errorClass;
}

Expected<int32_t> MPIRuntime::retvalCheck(int32_t impl, int32_t code,
                                          int32_t errorClass) {
  // A comparison with the implementation's number of the class: no MPI
  // call, but the implementation must be the process's.
  KILN_ASSIGN_OR_RETURN(Library * l, library(impl));
  if (errorClass < 0 || errorClass > 62)
    return KILN_ERROR(InvalidArgument,
                      "mpi.retval_check: error class " +
                          std::to_string(errorClass) +
                          " is no MPI_ErrorClassEnum value (0 to 62)");
  std::optional<int32_t> native =
      nativeErrorClass(l->implementation, errorClass);
  return native && *native == code ? 1 : 0;
}

int MPIRuntime::rankForMessages() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (worldRank >= 0)
      return worldRank;
  }
  return launcherRank();
}

bool MPIRuntime::running() {
  std::lock_guard<std::mutex> lock(mutex);
  return initialized && !finalized && lib;
}

void MPIRuntime::abortJob() {
  Library *l = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (initialized && !finalized && lib) {
      aborting = true;
      l = lib.get();
    }
  }
  if (l) {
    l->abort(l->world(), 1);
    // MPI_Abort does not return; if it did, end at once, without the exit
    // handlers (MPI_Finalize would wait for the other ranks).
    std::_Exit(1);
  }
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

namespace {
/// Prints `error` with the rank and ends the job.
[[noreturn]] void fail(const Status &error) {
  MPIRuntime &runtime = MPIRuntime::get();
  std::fflush(stdout);
  std::fprintf(stderr, "kiln-mpi: rank %d: %s\n", runtime.rankForMessages(),
               error.message().c_str());
  std::fflush(stderr);
  runtime.abortJob();
}

template <typename T> T orAbort(Expected<T> value) {
  if (!value)
    fail(value.error());
  return *value;
}

MPIRuntime &mpiRuntime() { return MPIRuntime::get(); }
} // namespace

extern "C" {

int32_t __kiln_mpi_init(int32_t impl) {
  return orAbort(mpiRuntime().init(impl));
}

int32_t __kiln_mpi_finalize(int32_t impl) {
  return orAbort(mpiRuntime().finalize(impl));
}

int64_t __kiln_mpi_comm_world(int32_t impl) {
  return orAbort(mpiRuntime().commWorld(impl));
}

int32_t __kiln_mpi_comm_rank(int32_t impl, int64_t comm, int32_t *rank) {
  return orAbort(mpiRuntime().commRank(impl, comm, rank));
}

int32_t __kiln_mpi_comm_size(int32_t impl, int64_t comm, int32_t *size) {
  return orAbort(mpiRuntime().commSize(impl, comm, size));
}

int32_t __kiln_mpi_comm_split(int32_t impl, int64_t comm, int32_t color,
                              int32_t key, int64_t *newComm) {
  return orAbort(mpiRuntime().commSplit(impl, comm, color, key, newComm));
}

int32_t __kiln_mpi_send(int32_t impl, int64_t rank, void *descriptor,
                        int32_t kind, int32_t tag, int32_t dest, int64_t comm) {
  return orAbort(
      mpiRuntime().send(impl, {rank, descriptor, kind}, tag, dest, comm));
}

int32_t __kiln_mpi_recv(int32_t impl, int64_t rank, void *descriptor,
                        int32_t kind, int32_t tag, int32_t source,
                        int64_t comm) {
  return orAbort(
      mpiRuntime().recv(impl, {rank, descriptor, kind}, tag, source, comm));
}

int32_t __kiln_mpi_isend(int32_t impl, int64_t rank, void *descriptor,
                         int32_t kind, int32_t tag, int32_t dest, int64_t comm,
                         int64_t *request) {
  return orAbort(mpiRuntime().isend(impl, {rank, descriptor, kind}, tag, dest,
                                    comm, request));
}

int32_t __kiln_mpi_irecv(int32_t impl, int64_t rank, void *descriptor,
                         int32_t kind, int32_t tag, int32_t source,
                         int64_t comm, int64_t *request) {
  return orAbort(mpiRuntime().irecv(impl, {rank, descriptor, kind}, tag, source,
                                    comm, request));
}

int32_t __kiln_mpi_wait(int32_t impl, int64_t request) {
  return orAbort(mpiRuntime().wait(impl, request));
}

int32_t __kiln_mpi_barrier(int32_t impl, int64_t comm) {
  return orAbort(mpiRuntime().barrier(impl, comm));
}

int32_t __kiln_mpi_allreduce(int32_t impl, int64_t sendRank, void *sendDesc,
                             int64_t recvRank, void *recvDesc, int32_t kind,
                             int32_t reduction, int32_t inPlace, int64_t comm) {
  return orAbort(mpiRuntime().allreduce(impl, {sendRank, sendDesc, kind},
                                        {recvRank, recvDesc, kind}, reduction,
                                        inPlace != 0, comm));
}

int32_t __kiln_mpi_error_class(int32_t impl, int32_t code) {
  return orAbort(mpiRuntime().errorClass(impl, code));
}

int32_t __kiln_mpi_retval_check(int32_t impl, int32_t code,
                                int32_t errorClass) {
  return orAbort(mpiRuntime().retvalCheck(impl, code, errorClass));
}

} // extern "C"
