"""``python -m cosmodeck`` runs the ``cosmodeck`` command."""

import sys

from cosmodeck.cli.main import main

sys.exit(main())
