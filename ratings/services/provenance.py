"""What a run stores so that anyone can replay it: canonical bytes, digests, compression, and
the plain-words difference between a stored engine input and the one the database gives now.

Pure: stdlib only (no Django), so the commands, the services and the explain page share it.

* The engine INPUT is stored as canonical JSON (sorted keys, no spaces, ASCII): its SHA-256 is
  the run's ``input_digest`` (the same digest runs have always stored).
* The engine OUTPUT is stored as the exact text ``python -m ratings.engines SYSTEM INPUT`` prints
  (without the final newline), so an exported output can be compared byte for byte with what
  anyone's copy of the engine prints.
* Labels name the database rows behind the input's list items (``{"games": ["event E, game 12",
  ...]}``, one label per item of the JSON list at that path), so a changed input can be told in
  words: which event or result was added, removed or changed since the run.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from ratings.engines.core import jsonio

COMPRESSION_LEVEL = 6  # zlib's default: 9 saves ~2 % more for twice the time on ICCF periods


def canonical_bytes(data: Any) -> bytes:
    """The canonical JSON of an engine input (its digest is the run's ``input_digest``)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def engine_output_bytes(output: Any) -> bytes:
    """The engine's output exactly as its command line prints it (less the final newline); an
    output held as columns (an engine's RatedColumns) writes that text itself."""
    if isinstance(output, dict | list):
        return jsonio.dumps(output).encode()
    return output.text().encode()


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def compress(raw: bytes) -> bytes:
    return zlib.compress(raw, COMPRESSION_LEVEL)


def decompress(stored: bytes | memoryview) -> bytes:
    return zlib.decompress(bytes(stored))


# --- what changed between the stored input and today's ---------------------------------------


@dataclass(frozen=True)
class InputChange:
    """One difference between the run's input and the input the database gives now."""

    kind: str  # "added", "removed", "changed", "other"
    label: str  # the database row in words (an event, a game), or the JSON path of "other"
    detail: str = ""  # the first differing field inside it: "result: 1 -> 0.5"

    def __str__(self) -> str:
        words = {
            "added": "added since the run",
            "removed": "removed since the run",
            "changed": "changed since the run",
            "other": "differs from the run's input",
        }[self.kind]
        return f"{self.label}: {words}" + (f" ({self.detail})" if self.detail else "")


_LABELLED = object()  # stands in for a labelled item inside its parent when parents are compared


def _items(data: Any, labels: dict[str, list[str]]) -> tuple[dict[str, Any], Any]:
    """(label -> item with its labelled children blanked, the input with all labelled items
    blanked). ``labels`` maps a path like ``games`` or ``tournaments[2].games`` to the labels of
    that list's items, in order."""
    found: dict[str, Any] = {}

    def walk(node: Any, path: str) -> Any:
        if isinstance(node, dict):
            return {k: walk(v, f"{path}.{k}" if path else k) for k, v in node.items()}
        if isinstance(node, list):
            names = labels.get(path)
            out = []
            for index, item in enumerate(node):
                stripped = walk(item, f"{path}[{index}]")
                if names is not None and index < len(names):
                    found[names[index]] = stripped
                    stripped = _LABELLED
                out.append(stripped)
            return out
        return node

    rest = walk(data, "")
    return found, rest


def _first_difference(old: Any, new: Any, path: str = "") -> str | None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in old:
                return f"{where}: new"
            if key not in new:
                return f"{where}: gone"
            found = _first_difference(old[key], new[key], where)
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        if all(item is _LABELLED for item in [*old, *new]):
            return None  # labelled items are compared by their labels, not their positions
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            found = _first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(old) != len(new):
            return f"{path}: {len(old)} items then, {len(new)} now"
        return None
    if old is _LABELLED or new is _LABELLED:
        return None if old is new else f"{path}: differs"
    if type(old) is not type(new) or old != new:
        return f"{path}: {_short(old)} then, {_short(new)} now"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str) if value is not _LABELLED else "…"
    return text if len(text) <= 60 else text[:57] + "..."


def input_changes(
    stored: Any,
    stored_labels: dict[str, list[str]],
    current: Any,
    current_labels: dict[str, list[str]],
    *,
    limit: int = 20,
) -> list[InputChange]:
    """What differs between the run's input and today's, named by the labelled rows (events,
    games) first; an unlabelled difference (a starting rating, a parameter) by its JSON path."""
    old_items, old_rest = _items(stored, stored_labels)
    new_items, new_rest = _items(current, current_labels)
    changes: list[InputChange] = []
    for label in old_items:
        if label not in new_items:
            changes.append(InputChange("removed", label))
        else:
            detail = _first_difference(old_items[label], new_items[label])
            if detail:
                changes.append(InputChange("changed", label, detail))
    changes.extend(InputChange("added", label) for label in new_items if label not in old_items)
    if not changes:  # only unlabelled parts can differ; a shifted list position is no change
        detail = _first_difference(old_rest, new_rest)
        if detail:
            path, _, what = detail.partition(": ")
            changes.append(InputChange("other", path, what))
    return changes[:limit]


# --- replaying: the first player whose output differs --------------------------------------


@dataclass(frozen=True)
class OutputDifference:
    player: str | None  # the engine id of the player (or solver) whose row differs first
    path: str  # where in the output, e.g. players[12].rating
    detail: str  # "1903.568 stored, 1903.6 now"


def _differences(old: Any, new: Any, path: str, owner: str | None):
    """(owner id, path, detail) of every leaf that differs, in document order."""
    if isinstance(old, dict) and isinstance(new, dict):
        if _PERSON_ROW.search(path) and old.get("id") is not None:
            owner = str(old["id"])
        for key in sorted(set(old) | set(new), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in old or key not in new:
                yield owner, where, "stored only" if key in old else "new"
            else:
                yield from _differences(old[key], new[key], where, owner)
    elif isinstance(old, list) and isinstance(new, list):
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            yield from _differences(a, b, f"{path}[{index}]", owner)
        if len(old) != len(new):
            yield owner, path, f"{len(old)} items stored, {len(new)} now"
    elif type(old) is not type(new) or old != new:
        yield owner, path, f"{_short(old)} stored, {_short(new)} now"


_PERSON_ROW = re.compile(r"(players|solvers)\[\d+\]$")  # a row of a player (or solver)


def output_difference(stored: Any, now: Any) -> OutputDifference | None:
    """The first difference that belongs to a player's row (else the first difference at all)."""
    first = None
    for owner, path, detail in _differences(stored, now, "", None):
        if owner is not None:
            return OutputDifference(owner, path, detail)
        first = first or OutputDifference(None, path, detail)
    return first
