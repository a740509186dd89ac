"""Container and source-tree entry point.

In a GitHub Actions step with no arguments it runs the action (inputs from ``INPUT_*``);
otherwise it is the ``ragspine-eval`` CLI with the same flags.
"""

import os
import sys

if __name__ == "__main__":
    if len(sys.argv) == 1 and os.environ.get("GITHUB_ACTIONS") == "true":
        from ragspine_action.action import main as action_main

        sys.exit(action_main())
    from ragspine_action.cli import main

    sys.exit(main())
