"""Every rating system is one package of one shape (ratings.systems.base), and the registry is
built from those packages: a fifth system is one more package of the same shape."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from federation.models import RatingSystem
from ratings import calendars, systems
from ratings.engines import SYSTEMS as ENGINE_SYSTEMS
from ratings.services.imports import FORMATS as LIST_FORMATS
from ratings.systems.base import (
    MODULES,
    OPTIONAL_MODULES,
    EventTable,
    NativeFormat,
    StartingList,
    System,
)
from ratings.web.whatif import Calculator

SYSTEMS_DIR = Path(systems.__file__).parent


def _packages() -> list[str]:
    return sorted(p.parent.name for p in SYSTEMS_DIR.glob("*/__init__.py"))


def test_the_registry_is_built_from_every_package_and_nothing_else():
    assert sorted(systems.PACKAGES) == _packages()
    for package in systems.PACKAGES:
        member = importlib.import_module(f"ratings.systems.{package}").SYSTEM
        assert isinstance(member, System) and member.code == package
        assert systems.get(package) is member
    assert [s.code for s in systems.ALL] == list(systems.PACKAGES)
    assert sorted(systems.PACKAGES) == sorted(ENGINE_SYSTEMS) == sorted(RatingSystem.values)


@pytest.mark.parametrize("code", sorted(ENGINE_SYSTEMS))
def test_every_package_has_the_same_modules_and_what_they_define(code):
    for name, attribute in MODULES.items():
        assert (SYSTEMS_DIR / code / f"{name}.py").is_file(), f"{code} has no {name}.py"
        module = importlib.import_module(f"ratings.systems.{code}.{name}")
        if attribute is not None:
            assert hasattr(module, attribute), f"ratings.systems.{code}.{name} has no {attribute}"
    system = systems.get(code)
    assert callable(system.runner.build) and callable(system.runner.interpret)
    assert callable(system.engine.run_json)
    assert system.calendar is calendars.calendar_of(code) and system.calendar.system == code
    assert callable(system.module("explain").explain)
    assert isinstance(system.whatif, Calculator) and system.whatif.system == code
    assert isinstance(system.native_export, NativeFormat)
    assert isinstance(system.event_table, EventTable)
    assert system.event_table.template.startswith("ratings/event_tables/")
    assert (SYSTEMS_DIR.parents[1] / "templates" / system.event_table.template).is_file()


@pytest.mark.parametrize("code", sorted(ENGINE_SYSTEMS))
def test_an_optional_module_defines_its_member_or_the_system_answers_none(code):
    for name, attribute in OPTIONAL_MODULES.items():
        if (SYSTEMS_DIR / code / f"{name}.py").is_file():
            module = importlib.import_module(f"ratings.systems.{code}.{name}")
            assert hasattr(module, attribute), f"ratings.systems.{code}.{name} has no {attribute}"
    starting_list = systems.get(code).starting_list
    if (SYSTEMS_DIR / code / "starting_list.py").is_file():
        assert isinstance(starting_list, StartingList)
        assert starting_list.list_format in LIST_FORMATS and callable(starting_list.entry)
    else:
        assert starting_list is None


def test_the_egd_world_list_is_egfs_starting_list():
    assert systems.get("egf").starting_list.list_format == "egd"
    assert [s.code for s in systems.ALL if s.starting_list is not None] == ["egf"]


def test_a_module_a_system_does_not_have_is_refused():
    with pytest.raises(LookupError, match="no module 'views'"):
        systems.get("egf").module("views")
