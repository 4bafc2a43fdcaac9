"""The command line of a family's settings value: the inverse of the parser the registry generates
(docs/architecture.md, "The registry of metric families"), for the parity tests."""

from __future__ import annotations

from evalcore.declare import accepted


def command_line(settings: object) -> list[str]:
    """The flags that give ``settings`` (a declared settings value) on the command line."""
    argv: list[str] = []
    for d in accepted(type(settings)):
        value = getattr(settings, d.name)
        assert d.option.flag is not None
        if d.kind == "flag":
            argv += [d.option.flag] if value else []
        elif d.kind == "list":
            argv += [f"{d.option.flag}={v}" for v in value]
        elif value is not None and value != d.default:
            argv += [f"{d.option.flag}={value}"]
    return argv
