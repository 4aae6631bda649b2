"""``python -m tilelay`` runs the command line."""

import sys

from tilelay.cli import main

sys.exit(main())
