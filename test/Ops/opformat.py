"""The lit format of test/Ops: one test per row of the op table, each
checking the row on every target, plus the docs/ops.md check and a run of the
random tester. A module of its own so that lit can hand it to its workers."""

import os
import shutil
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
if here not in sys.path:
    sys.path.insert(0, here)

import lit.formats
import lit.Test

import opcheck


def test_name(row):
    """A row's name as a lit test name: no spaces, commas or parentheses."""
    name = row.name.replace(" (", "-").replace(")", "")
    return name.replace(", ", "+").replace(" ", "-")


class OpsFormat(lit.formats.TestFormat):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        for row in opcheck.load_table():
            yield lit.Test.Test(testSuite, path_in_suite + (test_name(row),),
                                localConfig)
        for extra in ("docs-ops.md", "random-ops"):
            yield lit.Test.Test(testSuite, path_in_suite + (extra,),
                                localConfig)

    def execute(self, test, litConfig):
        config = test.config
        name = test.path_in_suite[-1]
        tools = opcheck.Tools(config.kiln_tools_dir)
        env = opcheck.Env(tools)
        # What lit found about the devices (lit.cfg.py): a target without
        # one is compiled only.
        env._runnable["vulkan"] = "vulkan-runner" in config.available_features
        env._runnable["cuda"] = "cuda-device" in config.available_features
        env._runnable["spirv-cpu"] = True
        if name == "docs-ops.md":
            import opdocs
            path = os.path.join(config.kiln_src_root, "docs", "ops.md")
            text = opdocs.render(opcheck.load_table())
            with open(path) as f:
                if f.read() != text:
                    return lit.Test.FAIL, (
                        "docs/ops.md is not what test/Ops/optable.py says; "
                        "write it again with: python3 test/Ops/opcheck.py "
                        "--write-docs docs/ops.md")
            return lit.Test.PASS, ""
        if name == "random-ops":
            import oprandom
            seed = int(litConfig.params.get("ops-random-seed", "1"))
            budget = float(litConfig.params.get("ops-random-seconds", "40"))
            ok, report = oprandom.run(env, seed, budget,
                                      [t for t in opcheck.TARGETS
                                       if env.runnable(t)])
            return (lit.Test.PASS if ok else lit.Test.FAIL), report
        row = None
        for r in opcheck.load_table():
            if test_name(r) == name:
                row = r
        if row is None:
            return lit.Test.UNRESOLVED, "no row " + name
        work = tempfile.mkdtemp(prefix="opcheck.")
        report, ok = [], True
        try:
            for target in opcheck.TARGETS:
                passed, lines = opcheck.check_row(row, target, env, work)
                ok &= passed
                report += lines
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return (lit.Test.PASS if ok else lit.Test.FAIL), "\n".join(report)
