"""One registry of rating systems (ratings/systems/__init__.py): nothing else keys a dict or a comparison
on a system's name. The scan below reads every module and template of the site, so the next
``if system == "egf"`` fails here instead of growing a second home for per-system behaviour."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from federation.models import RatingSystem
from ratings import calendars, systems
from ratings.engines import SYSTEMS as ENGINE_SYSTEMS

ROOT = Path(__file__).resolve().parents[3]
NAMES = frozenset(RatingSystem.values)
ENUM_MEMBERS = frozenset(RatingSystem.names)  # RatingSystem.EGF is the same name by another path

# Where a system's name may key behaviour, and why.
ALLOWED = {
    "ratings/engines": "the pure engines: the command line's own list of systems",
    "ratings/systems/__init__.py": "the registry itself: the names of the systems' packages",
    "federation/demo": "demo data: federation codes that happen to be the systems' names",
}
SCANNED = ("ratings", "tournaments", "federation")


def _allowed(relative: str) -> bool:
    return any(relative == key or relative.startswith(key + "/") for key in ALLOWED)


def _is_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and node.value in NAMES:
        return True
    # RatingSystem.EGF (and .value): the database's enum member for the name
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    return (
        isinstance(node, ast.Attribute)
        and node.attr in ENUM_MEMBERS
        and isinstance(node.value, ast.Name)
        and node.value.id == "RatingSystem"
    )


def _names_in(node: ast.AST) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(element) for element in node.elts)
    return _is_name(node)


def keyed_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for every system name used as a dict key or value, a subscript, a .get() key,
    a comparison operand, a match-case pattern, a ``system=`` argument (a query's filter) or in a
    list of names bound to a variable (a membership table)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            found += [(k.lineno, "dict key") for k in node.keys if k is not None and _is_name(k)]
            found += [(v.lineno, "dict value") for v in node.values if _is_name(v)]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            # SYSTEMS = ("egf",): a list of names that a membership test elsewhere keys on
            # (all names: the enum's own ICCF = "iccf", _("label") is the database's choice)
            value = node.value
            listed = isinstance(value, ast.Tuple | ast.List | ast.Set) and value.elts
            if listed and all(_is_name(element) for element in value.elts):
                found.append((node.lineno, "list of names"))
        elif isinstance(node, ast.keyword) and node.arg == "system" and _is_name(node.value):
            found.append((node.value.lineno, "system= argument"))
        elif isinstance(node, ast.Compare):
            if any(_names_in(operand) for operand in [node.left, *node.comparators]):
                found.append((node.lineno, "comparison"))
        elif isinstance(node, ast.Subscript) and _is_name(node.slice):
            found.append((node.lineno, "subscript"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and node.args
            and _is_name(node.args[0])
        ):
            found.append((node.lineno, f".{node.func.attr}() key"))
        elif isinstance(node, ast.MatchValue) and _is_name(node.value):
            found.append((node.lineno, "case pattern"))
    return found


TEMPLATE_USE = re.compile(r"""(==|!=|\bin)\s*["'](""" + "|".join(sorted(NAMES)) + """)["']""")


def test_no_module_outside_the_registry_keys_behaviour_on_a_system_name():
    offenders = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or _allowed(relative):
                continue
            offenders += [
                f"{relative}:{line}: {what}" for line, what in keyed_uses(path.read_text())
            ]
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if TEMPLATE_USE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: template comparison")
    assert not offenders, "ask ratings/systems/__init__.py instead:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "source, expected",
    [
        ('if system == "egf": pass', [(1, "comparison")]),
        ('x = "iccf" != fed.system', [(1, "comparison")]),
        ('ok = system in ("egf", "wfcc")', [(1, "comparison")]),
        ('table = {"playchess": 1}', [(1, "dict key")]),
        ('f = CALCULATORS["wfcc"]', [(1, "subscript")]),
        ('f = CALCULATORS.get("wfcc")', [(1, ".get() key")]),
        ("if fed.system == RatingSystem.EGF: pass", [(1, "comparison")]),
        ("ok = {RatingSystem.ICCF.value: 1}", [(1, "dict key")]),
        ('match system:\n    case "egf":\n        pass', [(2, "case pattern")]),
        ('IMPORTER_SYSTEM = {"h9": "egf"}', [(1, "dict value")]),
        ('SYSTEMS = ("iccf", "playchess")', [(1, "list of names")]),
        ("qs = Federation.objects.filter(system=RatingSystem.EGF)", [(1, "system= argument")]),
        # Naming a system is not keying behaviour on it:
        ('System(code="egf")', []),
        ('ICCF = "iccf", _("ICCF correspondence chess")', []),
        ('print("egf")', []),
        ('if code == "egf-2026": pass', []),
    ],
)
def test_the_scan_finds_what_it_should_and_nothing_else(source, expected):
    assert keyed_uses(source) == expected


def test_the_template_scan_finds_comparisons():
    assert TEMPLATE_USE.search('{% if system == "iccf" %}')
    assert TEMPLATE_USE.search("{% if federation.system != 'egf' %}")
    assert not TEMPLATE_USE.search("{% if system.shows_rd %}")


def test_every_allowed_place_exists():
    for relative in ALLOWED:
        assert (ROOT / relative).exists(), relative


def test_the_registry_names_the_same_systems_as_the_engines_calendars_and_database():
    codes = [s.code for s in systems.ALL]
    assert sorted(codes) == sorted(ENGINE_SYSTEMS) == sorted(RatingSystem.values)
    for system in systems.ALL:
        assert systems.get(system.code) is system
        assert system.calendar.system == system.whatif.system == system.code
        assert calendars.calendar_of(system.code) is system.calendar
        assert callable(system.engine.run_json)
        assert callable(system.runner.build) and callable(system.runner.interpret)
    with pytest.raises(systems.UnknownSystem, match="unknown rating system 'chess960'"):
        systems.get("chess960")
