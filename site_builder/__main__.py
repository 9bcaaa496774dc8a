"""``python -m site_builder``: the command line (site_builder/cli.py), then an exit without the interpreter's
teardown.

Everything the commands write is closed by then (each file in its own ``with``; forked workers waited for or
stopped), so tearing down every module and freeing each object one by one (about 30 ms after a build, which holds
the whole site in memory) only delays the exit. Standard output and error are flushed first.
"""

import os
import sys

from site_builder.cli import main

code = main()
try:
    sys.stdout.flush()
    sys.stderr.flush()
except OSError:  # a closed pipe: nothing more can be said
    code = code or 1
os._exit(code)
