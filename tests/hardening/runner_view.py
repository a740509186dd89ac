"""How the GitHub runner reads a step's log: which lines it executes as workflow commands.

The runner reads output line by line the way .NET's ``ReadLine`` does (``\\n``, ``\\r`` and
``\\r\\n`` all end a line), trims each line, and runs it as a command when it starts with
``::``. ``::stop-commands::TOKEN`` suspends that until a ``::TOKEN::`` line. The log viewer
separately renders ``##[`` directives. Tests replay our output through this model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Command", "executed_commands", "log_directives"]

_COMMAND = re.compile(r"::([A-Za-z0-9_-]+)(?: ([^:]*))?::(.*)\Z", re.DOTALL)


@dataclass(frozen=True)
class Command:
    name: str
    properties: str
    message: str


def _runner_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def executed_commands(text: str) -> list[Command]:
    """The commands the runner would act on, in order (stop-commands honoured)."""
    executed: list[Command] = []
    stop_token: str | None = None
    for raw in _runner_lines(text):
        line = raw.strip()
        if not line.startswith("::"):
            continue
        match = _COMMAND.match(line)
        if match is None:
            continue
        name, props, message = match.group(1), match.group(2) or "", match.group(3)
        if stop_token is not None:
            if name == stop_token:
                stop_token = None
            continue
        if name == "stop-commands":
            stop_token = message
            continue
        executed.append(Command(name, props, message))
    return executed


def log_directives(text: str) -> list[str]:
    """Every ``##[`` directive the log viewer would render."""
    return [line for line in _runner_lines(text) if "##[" in line]
