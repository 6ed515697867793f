"""``python -m toprace_pi``: the same as the ``toprace-pi`` command."""

import sys

from toprace_pi.cli import main

sys.exit(main())
