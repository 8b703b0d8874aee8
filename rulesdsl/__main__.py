import sys

from rulesdsl.cli import main

sys.exit(main())
