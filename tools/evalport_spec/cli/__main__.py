"""``python -m evalport_spec.cli``."""

import sys

from . import main

sys.exit(main())
