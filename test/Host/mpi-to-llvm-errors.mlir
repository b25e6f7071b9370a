// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-mpi-to-llvm

// What MPI cannot do is an error at the op, before anything is lowered.

func.func @f16_sum(%m: memref<8xf16>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI has no datatype to reduce 'f16' (it travels as 16-bit words, which send and recv take but no reduction can)}}
  mpi.allreduce(%m, %m, MPI_SUM, %w) : memref<8xf16>, memref<8xf16>
  return
}

// -----

func.func @bf16_max(%m: memref<8xbf16>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI has no datatype to reduce 'bf16'}}
  mpi.allreduce(%m, %m, MPI_MAX, %w) : memref<8xbf16>, memref<8xbf16>
  return
}

// -----

func.func @band_f32(%a: memref<8xf32>, %b: memref<8xf32>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI defines MPI_BAND on integers, not on 'f32'}}
  mpi.allreduce(%a, %b, MPI_BAND, %w) : memref<8xf32>, memref<8xf32>
  return
}

// -----

func.func @lor_f64(%a: memref<8xf64>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI defines MPI_LOR on integers and booleans, not on 'f64'}}
  mpi.allreduce(%a, %a, MPI_LOR, %w) : memref<8xf64>, memref<8xf64>
  return
}

// -----

func.func @minloc(%a: memref<8xi32>, %b: memref<8xi32>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI_MINLOC reduces value-index pairs (MPI_FLOAT_INT, ...), which a memref of 'i32' is not}}
  mpi.allreduce(%a, %b, MPI_MINLOC, %w) : memref<8xi32>, memref<8xi32>
  return
}

// -----

func.func @replace(%a: memref<8xi32>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI_REPLACE is for one-sided accumulation, not MPI_Allreduce}}
  mpi.allreduce(%a, %a, MPI_REPLACE, %w) : memref<8xi32>, memref<8xi32>
  return
}

// -----

func.func @op_null(%a: memref<8xi32>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI_OP_NULL is no reduction}}
  mpi.allreduce(%a, %a, MPI_OP_NULL, %w) : memref<8xi32>, memref<8xi32>
  return
}

// -----

func.func @complex_max(%a: memref<8xcomplex<f32>>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI defines only MPI_SUM and MPI_PROD on complex numbers, not MPI_MAX on 'complex<f32>'}}
  mpi.allreduce(%a, %a, MPI_MAX, %w) : memref<8xcomplex<f32>>, memref<8xcomplex<f32>>
  return
}

// -----

func.func @bool_sum(%a: memref<8xi1>, %w: !mpi.comm) {
  // expected-error @+1 {{MPI defines only MPI_LAND, MPI_LOR and MPI_LXOR on booleans (i1, MPI_C_BOOL), not MPI_SUM}}
  mpi.allreduce(%a, %a, MPI_SUM, %w) : memref<8xi1>, memref<8xi1>
  return
}

// -----

func.func @mismatch(%a: memref<8xf32>, %b: memref<8xf64>, %w: !mpi.comm) {
  // expected-error @+1 {{send buffer elements 'f32' differ from receive buffer elements 'f64'; MPI reduces one datatype}}
  mpi.allreduce(%a, %b, MPI_SUM, %w) : memref<8xf32>, memref<8xf64>
  return
}

// -----

func.func @unsupported(%a: memref<8xi4>, %w: !mpi.comm, %t: i32) {
  // expected-error @+1 {{MPI has no datatype for element type 'i4' of 'memref<8xi4>'; supported: f32, f64, f16, bf16, i1, i8, i16, i32, i64 (signless, signed or unsigned), index, complex<f32>, complex<f64>}}
  mpi.send(%a, %t, %t, %w) : memref<8xi4>, i32, i32
  return
}

// -----

func.func @vector(%a: memref<8xvector<4xf32>>, %w: !mpi.comm, %t: i32) {
  // expected-error @+1 {{MPI has no datatype for element type 'vector<4xf32>'}}
  mpi.recv(%a, %t, %t, %w) : memref<8xvector<4xf32>>, i32, i32
  return
}

// -----

// expected-error @+1 {{unknown MPI implementation "IntelMPI" in the module's #dlti.map<"MPI:Implementation">; supported: "OpenMPI", "MPICH"}}
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "IntelMPI">} {
  func.func @bad_attribute() {
    %0 = mpi.init : !mpi.retval
    return
  }
}
