import sys

from tournaments.formats.egf.cli import main

sys.exit(main())
