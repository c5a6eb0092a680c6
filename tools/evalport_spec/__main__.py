"""``python -m evalport_spec``."""

import sys

from .cli import main

sys.exit(main())
