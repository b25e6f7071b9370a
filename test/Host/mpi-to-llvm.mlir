// RUN: kiln-opt %s --split-input-file --kiln-mpi-to-llvm | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-mpi-to-llvm=implementation=mpich | FileCheck %s --check-prefix=MPICH

// Every mpi op becomes a call of its __kiln_mpi_* entry point
// (include/kiln/Contract/MPIABI.h), whose first argument is the MPI the
// module names: without a #dlti.map entry the pass option's, Open MPI (0)
// by default, MPICH (1) with implementation=mpich. The module's entry is
// removed once the calls name it, so that MLIR's runner, which does not
// register DLTI, reads the lowered module.

// CHECK-NOT: dlti
// CHECK-DAG: llvm.func @__kiln_mpi_init(i32) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_finalize(i32) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_comm_world(i32) -> i64
// CHECK-DAG: llvm.func @__kiln_mpi_comm_rank(i32, i64, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_comm_size(i32, i64, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_comm_split(i32, i64, i32, i32, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_send(i32, i64, !llvm.ptr, i32, i32, i32, i64) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_recv(i32, i64, !llvm.ptr, i32, i32, i32, i64) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_isend(i32, i64, !llvm.ptr, i32, i32, i32, i64, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_irecv(i32, i64, !llvm.ptr, i32, i32, i32, i64, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_wait(i32, i64) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_barrier(i32, i64) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_allreduce(i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, i32, i32, i64) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_error_class(i32, i32) -> i32
// CHECK-DAG: llvm.func @__kiln_mpi_retval_check(i32, i32, i32) -> i32
// MPICH-NOT: dlti

// An op's !mpi.retval is the call's result.
// CHECK-LABEL: func.func @init_finalize() -> (i32, i32)
// CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[INIT:.*]] = llvm.call @__kiln_mpi_init(%[[I0]]) : (i32) -> i32
// CHECK: %[[I1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[FIN:.*]] = llvm.call @__kiln_mpi_finalize(%[[I1]]) : (i32) -> i32
// CHECK-NEXT: return %[[INIT]], %[[FIN]] : i32, i32
// MPICH-LABEL: func.func @init_finalize
// MPICH: %[[I0:.*]] = llvm.mlir.constant(1 : i32) : i32
// MPICH-NEXT: llvm.call @__kiln_mpi_init(%[[I0]])
// MPICH: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
// MPICH-NEXT: llvm.call @__kiln_mpi_finalize(%[[I1]])
func.func @init_finalize() -> (!mpi.retval, !mpi.retval) {
  %0 = mpi.init : !mpi.retval
  %1 = mpi.finalize : !mpi.retval
  return %0, %1 : !mpi.retval, !mpi.retval
}

// Ranks and sizes come back through i32 slots, a new communicator through
// an i64 slot: the whole handle (a pointer in Open MPI; upstream's lowering
// loads 4 of its 8 bytes).
// CHECK-LABEL: func.func @comm
// CHECK-SAME: (%[[COLOR:.*]]: i32)
// CHECK: %[[WORLD:.*]] = llvm.call @__kiln_mpi_comm_world(%{{.*}}) : (i32) -> i64
// CHECK: llvm.call @__kiln_mpi_comm_rank(%{{.*}}, %[[WORLD]], %[[RSLOT:.*]]) : (i32, i64, !llvm.ptr) -> i32
// CHECK-NEXT: %[[RANK:.*]] = llvm.load %[[RSLOT]] : !llvm.ptr -> i32
// CHECK: llvm.call @__kiln_mpi_comm_size(%{{.*}}, %[[WORLD]], %[[SSLOT:.*]]) : (i32, i64, !llvm.ptr) -> i32
// CHECK-NEXT: %[[SIZE:.*]] = llvm.load %[[SSLOT]] : !llvm.ptr -> i32
// CHECK: llvm.call @__kiln_mpi_comm_split(%{{.*}}, %[[WORLD]], %[[COLOR]], %[[RANK]], %[[CSLOT:.*]]) : (i32, i64, i32, i32, !llvm.ptr) -> i32
// CHECK-NEXT: %[[SPLIT:.*]] = llvm.load %[[CSLOT]] : !llvm.ptr -> i64
// CHECK: llvm.call @__kiln_mpi_comm_rank(%{{.*}}, %[[SPLIT]], %{{.*}})
// CHECK: return %[[RANK]], %[[SIZE]]
func.func @comm(%color: i32) -> (i32, i32, i32) {
  %w = mpi.comm_world : !mpi.comm
  %rank = mpi.comm_rank(%w) : i32
  %rc, %size = mpi.comm_size(%w) : !mpi.retval, i32
  %split = mpi.comm_split(%w, %color, %rank) : !mpi.comm
  %rank2 = mpi.comm_rank(%split) : i32
  return %rank, %size, %rank2 : i32, i32, i32
}

// A memref is its rank, a pointer to a copy of its descriptor in a slot of
// the function's entry block, and its element kind (F32 = 0, I64 = 5).
// CHECK-LABEL: func.func @send_recv
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[N:.*]]: memref<16xi64>, %[[TAG:.*]]: i32, %[[PEER:.*]]: i32)
// CHECK-DAG: %[[NSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-DAG: %[[MSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-DAG: %[[MDESC:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<4x8xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-DAG: %[[NDESC:.*]] = builtin.unrealized_conversion_cast %[[N]] : memref<16xi64> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[WORLD:.*]] = llvm.call @__kiln_mpi_comm_world
// CHECK: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.store %[[MDESC]], %[[MSLOT]]
// CHECK-NEXT: %[[RANK2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[IMPL:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_mpi_send(%[[IMPL]], %[[RANK2]], %[[MSLOT]], %[[F32]], %[[TAG]], %[[PEER]], %[[WORLD]])
// CHECK: %[[I64:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: llvm.store %[[NDESC]], %[[NSLOT]]
// CHECK-NEXT: %[[RANK1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @__kiln_mpi_recv(%{{.*}}, %[[RANK1]], %[[NSLOT]], %[[I64]], %[[TAG]], %[[PEER]], %[[WORLD]])
func.func @send_recv(%m: memref<4x8xf32>, %n: memref<16xi64>, %tag: i32, %peer: i32) {
  %w = mpi.comm_world : !mpi.comm
  mpi.send(%m, %tag, %peer, %w) : memref<4x8xf32>, i32, i32
  %rc = mpi.recv(%n, %tag, %peer, %w) : memref<16xi64>, i32, i32 -> !mpi.retval
  return
}

// Requests come back through i64 slots and go to wait.
// CHECK-LABEL: func.func @nonblocking
// CHECK: llvm.call @__kiln_mpi_isend(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SSLOT:.*]]) : (i32, i64, !llvm.ptr, i32, i32, i32, i64, !llvm.ptr) -> i32
// CHECK-NEXT: %[[SREQ:.*]] = llvm.load %[[SSLOT]] : !llvm.ptr -> i64
// CHECK: llvm.call @__kiln_mpi_irecv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RSLOT:.*]]) : (i32, i64, !llvm.ptr, i32, i32, i32, i64, !llvm.ptr) -> i32
// CHECK-NEXT: %[[RREQ:.*]] = llvm.load %[[RSLOT]] : !llvm.ptr -> i64
// CHECK: llvm.call @__kiln_mpi_wait(%{{.*}}, %[[SREQ]]) : (i32, i64) -> i32
// CHECK: llvm.call @__kiln_mpi_wait(%{{.*}}, %[[RREQ]]) : (i32, i64) -> i32
func.func @nonblocking(%m: memref<8xf64>, %tag: i32, %peer: i32) {
  %w = mpi.comm_world : !mpi.comm
  %rc, %send = mpi.isend(%m, %tag, %peer, %w) : memref<8xf64>, i32, i32 -> !mpi.retval, !mpi.request
  %recv = mpi.irecv(%m, %tag, %peer, %w) : memref<8xf64>, i32, i32 -> !mpi.request
  mpi.wait(%send) : !mpi.request
  %rw = mpi.wait(%recv) : !mpi.request -> !mpi.retval
  return
}

// allreduce: the reduction (MPI_MAX = 1, MPI_SUM = 3) and whether it is in
// place (the same value as both buffers; one descriptor serves both).
// CHECK-LABEL: func.func @collectives
// CHECK: %[[WORLD:.*]] = llvm.call @__kiln_mpi_comm_world
// CHECK: llvm.call @__kiln_mpi_barrier(%{{.*}}, %[[WORLD]]) : (i32, i64) -> i32
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[NOTINPLACE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[IMPL:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_mpi_allreduce(%[[IMPL]], %{{.*}}, %[[SEND:.*]], %{{.*}}, %[[RECV:.*]], %{{.*}}, %[[MAX]], %[[NOTINPLACE]], %[[WORLD]])
// CHECK: %[[SUM:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[INPLACE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[IMPL2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_mpi_allreduce(%[[IMPL2]], %[[R:.*]], %[[BUF:.*]], %[[R]], %[[BUF]], %{{.*}}, %[[SUM]], %[[INPLACE]], %[[WORLD]])
func.func @collectives(%a: memref<8xf32>, %b: memref<8xf32>) {
  %w = mpi.comm_world : !mpi.comm
  mpi.barrier(%w)
  mpi.allreduce(%a, %b, MPI_MAX, %w) : memref<8xf32>, memref<8xf32>
  %rc = mpi.allreduce(%a, %a, MPI_SUM, %w) : memref<8xf32>, memref<8xf32> -> !mpi.retval
  return
}

// retval_check passes the class as MPI_ErrorClassEnum numbers it
// (MPI_ERR_COMM = 8); a nonzero answer is true. An !mpi.retval argument is
// an i32.
// CHECK-LABEL: func.func @errors
// CHECK-SAME: (%[[RC:.*]]: i32) -> i1
// CHECK: %[[CLASS:.*]] = llvm.call @__kiln_mpi_error_class(%{{.*}}, %[[RC]]) : (i32, i32) -> i32
// CHECK: %[[COMM:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[IS:.*]] = llvm.call @__kiln_mpi_retval_check(%{{.*}}, %[[CLASS]], %[[COMM]]) : (i32, i32, i32) -> i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[B:.*]] = llvm.icmp "ne" %[[IS]], %[[ZERO]] : i32
// CHECK: return %[[B]] : i1
func.func @errors(%rc: !mpi.retval) -> i1 {
  %class = mpi.error_class %rc : !mpi.retval
  %is = mpi.retval_check %class = <MPI_ERR_COMM> : i1
  return %is : i1
}

// Slots are in the function's entry block, not in the loop (an scf.for is
// an allocation scope of its own). A communicator crossing a call is an i64.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%{{.*}}: memref<8xi32>, %{{.*}}: index, %[[W:.*]]: i64)
// CHECK: llvm.alloca
// CHECK: llvm.alloca
// CHECK: scf.for
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @__kiln_mpi_comm_rank(%{{.*}}, %[[W]],
// CHECK: llvm.call @__kiln_mpi_send
// CHECK: }
// CHECK-LABEL: func.func @caller
// CHECK: %[[WORLD:.*]] = llvm.call @__kiln_mpi_comm_world
// CHECK: call @loop(%{{.*}}, %{{.*}}, %[[WORLD]]) : (memref<8xi32>, index, i64) -> ()
func.func @loop(%m: memref<8xi32>, %n: index, %w: !mpi.comm) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = mpi.comm_rank(%w) : i32
    mpi.send(%m, %r, %r, %w) : memref<8xi32>, i32, i32
  }
  return
}
func.func @caller(%m: memref<8xi32>, %n: index) {
  %w = mpi.comm_world : !mpi.comm
  call @loop(%m, %n, %w) : (memref<8xi32>, index, !mpi.comm) -> ()
  return
}

// -----

// Every element type MPI has a datatype for, with its kind: f32 0, f64 1,
// i8 2, i16 3, i32 4, i64 5, ui8 6, ui16 7, ui32 8, ui64 9, i1 10, f16 11,
// bf16 12, complex<f32> 13, complex<f64> 14; index is i64 and si8 is i8.
// CHECK-LABEL: func.func @kinds
// CHECK-COUNT-2: llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.mlir.constant(5 : i32) : i32
// CHECK: llvm.mlir.constant(6 : i32) : i32
// CHECK: llvm.mlir.constant(7 : i32) : i32
// CHECK: llvm.mlir.constant(8 : i32) : i32
// CHECK: llvm.mlir.constant(9 : i32) : i32
// CHECK: llvm.mlir.constant(10 : i32) : i32
// CHECK: llvm.mlir.constant(11 : i32) : i32
// CHECK: llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.mlir.constant(13 : i32) : i32
// CHECK: llvm.mlir.constant(14 : i32) : i32
// CHECK: llvm.mlir.constant(5 : i32) : i32
// CHECK: llvm.mlir.constant(2 : i32) : i32
func.func @kinds(%w: !mpi.comm, %t: i32,
                 %f32: memref<2xf32>, %f64: memref<2xf64>, %i8: memref<2xi8>,
                 %i16: memref<2xi16>, %i32: memref<2xi32>, %i64: memref<2xi64>,
                 %u8: memref<2xui8>, %u16: memref<2xui16>, %u32: memref<2xui32>,
                 %u64: memref<2xui64>, %i1: memref<2xi1>, %f16: memref<2xf16>,
                 %bf16: memref<2xbf16>, %c32: memref<2xcomplex<f32>>,
                 %c64: memref<2xcomplex<f64>>, %idx: memref<2xindex>,
                 %s8: memref<2xsi8>) {
  mpi.send(%f32, %t, %t, %w) : memref<2xf32>, i32, i32
  mpi.send(%f64, %t, %t, %w) : memref<2xf64>, i32, i32
  mpi.send(%i8, %t, %t, %w) : memref<2xi8>, i32, i32
  mpi.send(%i16, %t, %t, %w) : memref<2xi16>, i32, i32
  mpi.send(%i32, %t, %t, %w) : memref<2xi32>, i32, i32
  mpi.send(%i64, %t, %t, %w) : memref<2xi64>, i32, i32
  mpi.send(%u8, %t, %t, %w) : memref<2xui8>, i32, i32
  mpi.send(%u16, %t, %t, %w) : memref<2xui16>, i32, i32
  mpi.send(%u32, %t, %t, %w) : memref<2xui32>, i32, i32
  mpi.send(%u64, %t, %t, %w) : memref<2xui64>, i32, i32
  mpi.send(%i1, %t, %t, %w) : memref<2xi1>, i32, i32
  mpi.send(%f16, %t, %t, %w) : memref<2xf16>, i32, i32
  mpi.send(%bf16, %t, %t, %w) : memref<2xbf16>, i32, i32
  mpi.send(%c32, %t, %t, %w) : memref<2xcomplex<f32>>, i32, i32
  mpi.send(%c64, %t, %t, %w) : memref<2xcomplex<f64>>, i32, i32
  mpi.send(%idx, %t, %t, %w) : memref<2xindex>, i32, i32
  mpi.send(%s8, %t, %t, %w) : memref<2xsi8>, i32, i32
  return
}

// -----

// A module without mpi ops is left as it is: no implementation recorded.
// CHECK-LABEL: module {
// CHECK-NOT: dlti
// CHECK: func.func @no_mpi
// MPICH-LABEL: module {
// MPICH-NOT: dlti
func.func @no_mpi() {
  return
}
