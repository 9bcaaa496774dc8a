"""``python -m site_builder``: the command line (site_builder/cli.py), without the cyclic garbage collector and
without the interpreter's teardown, except for the long-running ``serve``.

A build is a short process that holds the whole site in memory and frees it all at exit: the collector's passes
over its many objects (imports included) and tearing down every module one by one at the end only delay it (a
build's peak memory is the same either way). Everything the commands write is closed by then (each file in its
own ``with``; forked workers waited for or stopped). Standard output and error are flushed first.
"""

import gc
import os
import sys

if sys.argv[1:2] != ["serve"]:
    gc.disable()

from site_builder.cli import main

code = main()
if sys.argv[1:2] == ["serve"]:
    sys.exit(code)
try:
    sys.stdout.flush()
    sys.stderr.flush()
except OSError:  # a closed pipe: nothing more can be said
    code = code or 1
os._exit(code)
