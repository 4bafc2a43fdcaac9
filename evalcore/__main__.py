"""``python -m evalcore`` = the ``evalcore`` command."""

import sys

from evalcore.cli import main

sys.exit(main())
