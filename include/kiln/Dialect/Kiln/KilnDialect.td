//===- KilnDialect.td - Kiln's dialect: the kernel ABI -----*- tablegen -*-===//
//
// The `kiln` dialect holds no operations: it is the home of the attributes
// through which Kiln's passes hand each other facts about kernels, above
// all the kernel ABI (`kiln.abi` on a gpu.func), which
// `--kiln-spirv-kernel-abi` decides, the conversion to SPIR-V follows and
// `--kiln-serialize-spirv` writes into the container (docs/abi.md).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_KILNDIALECT
#define KILN_DIALECT_KILN_KILNDIALECT

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln";
  let summary = "Kiln's attributes: the kernel ABI between its passes";
  let description = [{
    `#kiln.kernel_abi<...>` is the argument table of one kernel: how each
    argument reaches the SPIR-V entry point (a storage buffer at a descriptor
    set and binding, a buffer device address, push-constant fields) and the
    width of index-typed push constants. Its verifier checks every argument
    against the kernel's signature and the push-constant block, so that a
    hand-written or damaged table is an error at the kernel, not a container
    the runtime misreads.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

def Kiln_ArgKind : I32EnumAttr<"KernelArgKind", "how an argument reaches a kernel", [
    I32EnumAttrCase<"memref", 0>,
    I32EnumAttrCase<"scalar", 1>,
    I32EnumAttrCase<"address", 2>,
    I32EnumAttrCase<"strided_address", 3>,
    I32EnumAttrCase<"identity_memref", 4>]> {
  let cppNamespace = "::kiln";
  // The values are the container's (kiln::container::ArgKind).
  let genSpecializedAttr = 0;
}

def Kiln_ArgKindAttr : EnumAttr<Kiln_Dialect, Kiln_ArgKind, "arg_kind">;

class Kiln_Attr<string name, string attrMnemonic>
    : AttrDef<Kiln_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Kiln_KernelArgAttr : Kiln_Attr<"KernelArg", "arg"> {
  let summary = "How one kernel argument reaches the SPIR-V entry point";
  let description = [{
    `kind` is one of `memref` (a storage buffer at `set`, `binding`; with
    `push_constant_offset` when its offset, sizes and strides are pushed),
    `identity_memref` (a dynamic memref of identity layout bound at its first
    element), `address` and `strided_address` (bound by buffer device
    address) and `scalar` (a push-constant field of `type`). `size` is the
    bytes of one element (memrefs) or of the field (scalars); `rank` the
    memref's rank; `base_alignment` the bytes of the vectors the kernel reads
    a buffer as. docs/abi.md has the layout.

    ```mlir
    #kiln.arg<memref, size = 4, rank = 1, binding = 0>
    #kiln.arg<identity_memref, size = 4, rank = 2, binding = 1, push_constant_offset = 0, base_alignment = 16>
    #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 20>
    ```
  }];
  let parameters = (ins
      "KernelArgKind":$kind,
      OptionalParameter<"::mlir::Type">:$type,
      "uint32_t":$size,
      OptionalParameter<"uint32_t">:$rank,
      OptionalParameter<"uint32_t">:$set,
      OptionalParameter<"uint32_t">:$binding,
      OptionalParameter<"std::optional<uint32_t>">:$push_constant_offset,
      OptionalParameter<"uint32_t">:$base_alignment);
  let assemblyFormat = "`<` $kind `,` struct($type, $size, $rank, $set, $binding, $push_constant_offset, $base_alignment) `>`";
}

def Kiln_KernelABIAttr : Kiln_Attr<"KernelABI", "kernel_abi"> {
  let summary = "A kernel's argument table and push-constant block";
  let description = [{
    The arguments in the order of the kernel's (and its launches') operands,
    the bytes of the push-constant block (a multiple of 4) and the width of
    index-typed push-constant fields (32 or 64, which is the width of the
    kernel's SPIR-V index arithmetic).

    ```mlir
    gpu.func @scale(%a: memref<?xf32>, %k: f32) kernel attributes {
        kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 16,
            args = [#kiln.arg<identity_memref, size = 4, rank = 1, binding = 0, push_constant_offset = 0>,
                    #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 12>]>}
    ```
  }];
  let parameters = (ins
      "uint32_t":$index_bits,
      "uint32_t":$push_constant_size,
      ArrayRefParameter<"KernelArgAttr">:$args);
  let assemblyFormat = [{
    `<` `index_bits` `=` $index_bits `,` `push_constant_size` `=`
    $push_constant_size `,` `args` `=` custom<ArgList>($args) `>`
  }];
  let genVerifyDecl = 1;
}

#endif // KILN_DIALECT_KILN_KILNDIALECT
