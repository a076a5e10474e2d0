"""The site's modules import each other without a cycle, function-level imports included (they
hid services <-> tasks, tournaments.models -> services -> models, selectors <->
acceptability_report). The layers themselves are import-linter's contract in pyproject.toml."""

from __future__ import annotations

import grimp

PACKAGES = ("ratings", "tournaments", "federation")


def import_cycles(graph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return groups


def test_the_site_has_no_import_cycle():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    graph = grimp.ImportGraph()
    for module in ("a", "a.services", "a.tasks", "a.models"):
        graph.add_module(module)
    graph.add_import(importer="a.services", imported="a.tasks")  # inside a function
    graph.add_import(importer="a.tasks", imported="a.services")
    graph.add_import(importer="a.tasks", imported="a.models")
    assert import_cycles(graph) == [["a.services", "a.tasks"]]
