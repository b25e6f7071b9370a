#!/usr/bin/env python3
"""embed-text.py IN OUT: writes IN as a C++ raw string literal to OUT."""
import sys

text = open(sys.argv[1]).read()
with open(sys.argv[2], "w") as out:
    out.write('R"kilnptx(' + text + ')kilnptx"\n')
