"""docs/rule_index.md's table "Where each switch is read" agrees with the code.

A read of a switch is found by parsing every module of the package (comments, docstrings
and messages do not count): the switch's value taken from a ``Rules`` (``rules.NAME``,
``r.NAME``, ``self.rules.NAME``, inside ``rules.py`` also ``self.NAME``; ``rules.v("NAME")``;
``….variants["NAME"]`` / ``.variants.get("NAME")``), the kernel flag named after the
switch taken from the tables bundle (``tab.NAME``), the switch's ``P_*`` parameter
(registry ``kernel``), or its index in the kernels' shape tuple (``S_*``) or the solver's
parameters (``K_*``), read in any module. The index must list exactly the files that
read each switch, so that a new reader cannot be added without the index saying so.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from catchten_sim.rules import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "catchten_sim"
INDEX = ROOT / "docs" / "rule_index.md"
RULES_OBJECTS = {"rules", "r", "rl", "probe"}
TABLE_OBJECTS = {"tab", "t", "tables"}
#: the typed attribute of a word switch when it is not the switch's name
TYPED = {"tie": {"tie", "tie_rule"}, "revoke": {"revoke", "revoke_penalty"}}
#: kernel-side copies of a switch: its index in the shape tuple (``_kernels/spec.py``,
#: ``S_*``) and in the solver's parameters (``_kernels/solve.py``, ``K_*``)
INDICES = {"no_trump_first_lead": {"S_NTFL", "K_NTFL"},
           "exposed_trump": {"S_EXPOSED", "K_EXPOSED"},
           "must_trump": {"S_MUSTTRUMP", "K_MUSTTRUMP"},
           "set_scoring": {"S_PERSET"}, "small_deal": {"S_NSETS", "K_NSETS"},
           "keep_six_of_spades": {"S_DEAD"}}


def _owner(node: ast.Attribute) -> str | None:
    """The name an attribute is read from (``rules`` in ``self.rules.x``); a name ending in
    ``rules`` (``deal_rules``) counts as ``rules``."""
    v = node.value
    name = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else None
    return "rules" if name is not None and name.endswith("rules") else name


@functools.cache
def _modules(package: Path) -> tuple[tuple[str, tuple[ast.AST, ...]], ...]:
    """Every module of ``package``: its path relative to it and all its syntax nodes."""
    return tuple((path.relative_to(package).as_posix(),
                  tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
                 for path in sorted(package.rglob("*.py")))


def readers(sw) -> set[str]:
    """Files of the package (relative to ``catchten_sim/``) that read switch ``sw``."""
    attrs = TYPED.get(sw.name, {sw.name})
    names = INDICES.get(sw.name, set()) | (
        {sw.kernel} if sw.kernel and sw.kernel.startswith("P_") else set())
    field = sw.kernel if sw.kernel == sw.name else None
    found = set()
    for rel, nodes in _modules(PACKAGE):
        for node in nodes:
            hit = False
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                o = _owner(node)
                hit = ((node.attr in attrs and (o in RULES_OBJECTS or
                                                (o == "self" and rel == "rules.py")))
                       or (field is not None and node.attr == field and o in TABLE_OBJECTS))
            elif isinstance(node, ast.Call) and node.args \
                    and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value == sw.name and isinstance(node.func, ast.Attribute):
                f = node.func
                hit = f.attr == "v" or (f.attr == "get" and isinstance(f.value, ast.Attribute)
                                        and f.value.attr == "variants")
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and node.slice.value == sw.name and isinstance(node.value, ast.Attribute) \
                    and node.value.attr == "variants":
                hit = True
            elif isinstance(node, ast.Name) and node.id in names \
                    and isinstance(node.ctx, ast.Load):
                hit = True
            if hit:
                found.add(rel)
                break
    return found


def index_rows() -> dict[str, set[str]]:
    """Switch -> the files its row of the index's "Where each switch is read" table names."""
    text = INDEX.read_text(encoding="utf-8")
    part = text.split("## Where each switch is read", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in part.splitlines():
        m = re.match(r"\|\s*`([a-z0-9_]+)`\s*\|(.*)\|\s*$", line)
        if m:
            rows[m.group(1)] = set(re.findall(r"`([A-Za-z0-9_/]+\.py)`", m.group(2)))
    return rows


def test_the_index_has_a_row_for_every_switch():
    assert set(index_rows()) == {sw.name for sw in REGISTRY}


@pytest.mark.parametrize("sw", REGISTRY, ids=lambda sw: sw.name)
def test_the_index_names_exactly_the_files_that_read_the_switch(sw):
    listed = index_rows()[sw.name]
    found = readers(sw)
    assert found == listed, (f"{sw.name}: read in {sorted(found)}, the index lists "
                             f"{sorted(listed)}")
    assert "rules.py" in found          # the registry and the Rules attribute


def test_a_new_reader_would_be_found(tmp_path, monkeypatch):
    """The scan is not blind: a module reading a switch in each of the ways is found."""
    pkg = tmp_path / "catchten_sim"
    pkg.mkdir()
    (pkg / "a.py").write_text("def f(rules):\n    return rules.must_trump\n")
    (pkg / "b.py").write_text("def f(tab):\n    return tab.must_trump\n")
    (pkg / "c.py").write_text("def f(r):\n    return r.variants['must_trump']\n")
    (pkg / "d.py").write_text("def f(r):\n    return r.v('must_trump')\n")
    (pkg / "e.py").write_text("x = 1\n# rules.must_trump in a comment\n"
                              "def f():\n    '''tab.must_trump'''\n    return 'must_trump'\n")
    (pkg / "g.py").write_text("def f(p):\n    return p[P_TIE]\n")
    (pkg / "h.py").write_text("def f(sp):\n    return sp[S_MUSTTRUMP]\n")
    (pkg / "i.py").write_text("def f(deal_rules):\n    return deal_rules.must_trump\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", pkg)
    by_name = {sw.name: sw for sw in REGISTRY}
    assert readers(by_name["must_trump"]) == {"a.py", "b.py", "c.py", "d.py", "h.py", "i.py"}
    assert readers(by_name["tie"]) == {"g.py"}
