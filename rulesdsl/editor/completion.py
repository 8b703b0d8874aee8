"""Shell completion scripts (`rulesdsl completion bash|zsh|fish`), made by shtab from the command line's own
argparse parser: subcommands, options, the choices of an option (--format, --lang, --paper), rulebook files
(`*.rules`, and folders to reach them) where a command takes RULEBOOK or PATH, any file for --out and a
situation, folders for --project.

The command line marks what an argument names by setting the action's `rulesdsl_completes` to one of KINDS
(cli.py's `_completes`, which imports nothing of this module); this module alone imports shtab, and only
`rulesdsl completion` imports this module, so no other command pays for either at start-up.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator

SHELLS = ("bash", "zsh", "fish")
KINDS = ("rulebook", "file", "directory")      # what an argument names, for completion
MARK = "rulesdsl_completes"                     # the attribute of an argparse action that holds its kind


def marked(action: argparse.Action) -> str | None:
    """What the command line marked `action`'s argument as naming (one of KINDS), or None."""
    kind = getattr(action, MARK, None)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"argument {action.dest!r} is marked {kind!r}, not one of {', '.join(KINDS)}")
    return kind if isinstance(kind, str) else None


def actions(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    """Every argument of `parser` and of its subcommands, with the subcommand's name ('' for the top)."""
    pending: list[tuple[str, argparse.ArgumentParser]] = [("", parser)]
    while pending:
        name, current = pending.pop(0)
        for action in current._actions:
            yield name, action
            if isinstance(action, argparse._SubParsersAction):
                pending.extend((f"{name} {sub}".strip(), subparser) for sub, subparser in action.choices.items())


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for `shell` (one of SHELLS) of `parser`, whose arguments the command line has marked."""
    import shtab
    completes = {"rulebook": shtab.glob("*.rules"), "file": shtab.FILE, "directory": shtab.DIRECTORY}
    for _, action in actions(parser):
        kind = marked(action)
        if kind is not None:
            setattr(action, "complete", completes[kind])   # shtab reads an action's `complete`
    text = shtab.complete(parser, shell)
    return text if text.endswith("\n") else text + "\n"
