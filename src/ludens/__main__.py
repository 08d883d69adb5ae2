"""``python -m ludens``: the command line."""

import sys

from ludens.cli import main

sys.exit(main())
