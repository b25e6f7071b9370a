# -*- Python -*-
# Kiln's lit configuration.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "unittests", "Inputs"]

llvm_config.use_default_substitutions()
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))
config.substitutions.append(("%mlir_opt", config.mlir_opt))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.kiln_tools_dir, append_path=True)

tools = [
    "kiln-opt",
    "kiln-translate",
    "kiln-compile",
    ToolSubst("spirv-val", config.spirv_val),
    ToolSubst("spirv-dis", config.spirv_dis),
]
llvm_config.add_tool_substitutions(tools,
                                   [config.kiln_tools_dir, config.llvm_tools_dir])
