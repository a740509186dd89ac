"""What the command-line process sets before any pydantic model is built (imported first).

pydantic looks for plugins when it builds its first model by reading every installed
distribution's entry points (``importlib.metadata``): ~17 ms of a ~450 ms bundled run,
for plugins the CLI never uses. ``PYDANTIC_DISABLE_PLUGINS`` is pydantic's own switch;
a value the user has set (even an empty one, which keeps plugins on) wins.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
