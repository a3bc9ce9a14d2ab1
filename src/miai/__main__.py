import sys

from miai.cli.main import main

sys.exit(main())
