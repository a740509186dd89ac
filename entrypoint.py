"""Container and source-tree entry point: the same program as the ``ragspine-eval`` script."""

import sys

from ragspine_action.cli import main

if __name__ == "__main__":
    sys.exit(main())
