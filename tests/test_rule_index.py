"""docs/rule_index.md's table "Where each switch is read" agrees with the code.

A read of a switch is found by parsing every module of the package (comments, docstrings
and messages do not count): the switch's value taken from a ``Rules`` (``rules.NAME``,
``r.NAME``, ``self.rules.NAME``, inside ``rules.py`` also ``self.NAME``; ``rules.v("NAME")``;
``….variants["NAME"]`` / ``.variants.get("NAME")``), the kernel flag named after the
switch taken from the tables bundle (``tab.NAME``), the switch's ``P_*`` parameter
(registry ``kernel``), or an index that would carry it through the kernels' int tuples
(``S_*``, ``K_*``: :data:`INDICES`), read in any module.

The switches of play and of dealing are fields of ``Tables.play_rules`` /
``Tables.deal_rules`` (registry ``kernel`` ``play_rules.NAME``): a field of theirs read
through *any* name counts (``play_rules.NAME``, ``pr.NAME``, ``x.y.NAME``,
``getattr(x, "NAME")``), and so does a read of the whole bundle that names no field
(unpacking, indexing or iterating over an expression named ``…play_rules`` /
``…deal_rules``), or the solver's packed parameter ``K_RULES`` read other than by the
play core's decoder (``trick.play_rules_of(p[K_RULES])``): each of these reads every
switch of the bundle. Passing the bundle along (``f(tab.play_rules)``) is not a read.

Not counted: ``P_NSETS`` (``small_deal``'s parameter), the number of six-card sets of a
deal: a shape computed in ``rules.py`` from the switch, like ``Rules.n_sets``, which no
module counts as a read either.

The index must list exactly the files that read each switch, so that a new reader cannot
be added without the index saying so.
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
#: indices that would carry a switch through the kernels' int tuples: the shape tuple
#: (``_kernels/spec.py``, ``S_*``), the solver's parameters (``_kernels/solve.py``,
#: ``K_*``), the rule parameters (``P_*``). None exists today (the switches travel as
#: ``Tables.play_rules`` / ``deal_rules``; the scoring units as ``S_NUNITS``, the count
#: :func:`catchten_sim._kernels.scoring.n_units` computes); a module bringing one back
#: reads the switch.
INDICES = {"no_trump_first_lead": {"S_NTFL", "K_NTFL"},
           "exposed_trump": {"S_EXPOSED", "K_EXPOSED"},
           "must_trump": {"S_MUSTTRUMP", "K_MUSTTRUMP"},
           "set_scoring": {"S_PERSET", "K_PERSET"},
           "keep_six_of_spades": {"S_DEAD", "P_DEAD"}}
#: parameters that are a deal's shape, not a read of their switch (module docstring)
DERIVED = {"P_NSETS"}
#: the solver's parameter holding a bundle packed, and the one decoder that may read it
PACKED = {"K_RULES": "play_rules"}
DECODER = "play_rules_of"
#: builtins that read every item of what they are given
ITERATORS = {"enumerate", "iter", "list", "tuple", "zip", "sum", "any", "all", "map"}


def _owner(node: ast.Attribute) -> str | None:
    """The name an attribute is read from (``rules`` in ``self.rules.x``); a name ending in
    ``rules`` (``deal_rules``) counts as ``rules``."""
    v = node.value
    name = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else None
    return "rules" if name is not None and name.endswith("rules") else name


def _bundle(node: ast.AST) -> str | None:
    """``play_rules`` / ``deal_rules`` when ``node`` is an expression naming that bundle
    (``tab.play_rules``, ``play_rules``, ``deal_rules``), else None."""
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else None
    for b in ("play_rules", "deal_rules"):
        if name is not None and name.endswith(b):
            return b
    return None


Nodes = tuple[tuple[ast.AST, "ast.AST | None"], ...]


@functools.cache
def _modules(package: Path) -> tuple[tuple[str, Nodes], ...]:
    """Every module of ``package``: its path relative to it and all its syntax nodes, each
    with its parent node."""
    out = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parent[child] = node
        out.append((path.relative_to(package).as_posix(),
                    tuple((node, parent.get(node)) for node in ast.walk(tree))))
    return tuple(out)


def _whole_bundle_read(node: ast.AST, up: ast.AST | None) -> str | None:
    """The bundle whose every field ``node`` (child of ``up``) reads without naming one:
    the bundle unpacked, indexed or iterated over, or the solver's packed ``K_RULES`` read
    other than by the decoder."""
    b = _bundle(node)
    if b is not None and isinstance(getattr(node, "ctx", None), ast.Load):
        if (isinstance(up, ast.Subscript) and up.value is node) \
                or (isinstance(up, (ast.For, ast.comprehension)) and up.iter is node) \
                or isinstance(up, ast.Starred) \
                or (isinstance(up, ast.Assign) and up.value is node
                    and any(isinstance(t, (ast.Tuple, ast.List)) for t in up.targets)) \
                or (isinstance(up, ast.Call) and node in up.args
                    and isinstance(up.func, ast.Name) and up.func.id in ITERATORS):
            return b
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
            and isinstance(node.slice, ast.Name) and node.slice.id in PACKED:
        f = up.func if isinstance(up, ast.Call) else None
        decoded = (isinstance(f, ast.Name) and f.id == DECODER) or \
            (isinstance(f, ast.Attribute) and f.attr == DECODER)
        if not decoded:
            return PACKED[node.slice.id]
    return None


def readers(sw) -> set[str]:
    """Files of the package (relative to ``catchten_sim/``) that read switch ``sw``."""
    attrs = TYPED.get(sw.name, {sw.name})
    names = (INDICES.get(sw.name, set()) | (
        {sw.kernel} if sw.kernel and sw.kernel.startswith("P_") else set())) - DERIVED
    field = sw.kernel if sw.kernel == sw.name else None
    head, _, sub = (sw.kernel or "").partition(".")
    any_owner = sub == sw.name          # a field of Tables.play_rules / deal_rules
    found = set()
    for rel, nodes in _modules(PACKAGE):
        for node, up in nodes:
            hit = False
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                o = _owner(node)
                hit = ((node.attr in attrs and (any_owner or o in RULES_OBJECTS or
                                                (o == "self" and rel == "rules.py")))
                       or (field is not None and node.attr == field and o in TABLE_OBJECTS))
            elif isinstance(node, ast.Call) and node.args \
                    and isinstance(node.args[-1], ast.Constant) \
                    and node.args[-1].value == sw.name:
                f = node.func
                hit = (isinstance(f, ast.Attribute) and len(node.args) == 1
                       and (f.attr == "v" or (f.attr == "get"
                                              and isinstance(f.value, ast.Attribute)
                                              and f.value.attr == "variants"))) \
                    or (any_owner and isinstance(f, ast.Name) and f.id == "getattr")
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and node.slice.value == sw.name and isinstance(node.value, ast.Attribute) \
                    and node.value.attr == "variants":
                hit = True
            elif isinstance(node, ast.Name) and node.id in names \
                    and isinstance(node.ctx, ast.Load):
                hit = True
            if not hit and any_owner:
                hit = _whole_bundle_read(node, up) == head
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


#: issue 8: a switch is read in at most three files (the registry, its kernel rule function,
#: ``PlayState`` or the Python implementation), except these, read in more files for the
#: reasons the index's paragraph "More than three places" gives: the game switches' room
#: is two files since issue 27 split the equity table (``equity.py``) out of ``games.py``
MORE_READERS = {"game_at_once": 4, "dealer_declares": 4, "target": 5, "tie": 5}


@pytest.mark.parametrize("sw", REGISTRY, ids=lambda sw: sw.name)
def test_a_switch_is_read_in_at_most_three_files(sw):
    found = readers(sw)
    limit = MORE_READERS.get(sw.name, 3)
    assert len(found) <= limit, (f"{sw.name} is read in {len(found)} files "
                                 f"({', '.join(sorted(found))}); at most {limit}")


def test_every_switch_read_in_more_than_three_files_is_explained():
    text = INDEX.read_text(encoding="utf-8")
    para = text.split("More than three places", 1)[1].split("\n\n", 1)[0]
    for name, limit in MORE_READERS.items():
        assert f"`{name}`" in para, name
        assert len(readers(next(sw for sw in REGISTRY if sw.name == name))) == limit, (
            f"{name} is read in fewer files now: lower its MORE_READERS limit")


def test_a_new_reader_would_be_found(tmp_path, monkeypatch):
    """The scan is not blind: a module reading a switch in each of the ways is found; one
    that passes the bundle along, or names the switch in a comment, is not."""
    pkg = tmp_path / "catchten_sim"
    pkg.mkdir()
    reads = {
        "a.py": "def f(rules):\n    return rules.must_trump\n",
        "b.py": "def f(tab):\n    return tab.must_trump\n",
        "c.py": "def f(r):\n    return r.variants['must_trump']\n",
        "d.py": "def f(r):\n    return r.v('must_trump')\n",
        "h.py": "def f(sp):\n    return sp[S_MUSTTRUMP]\n",
        "i.py": "def f(deal_rules):\n    return deal_rules.must_trump\n",
        # a field of the play-rules bundle, through any name
        "j.py": "def f(tab):\n    return tab.play_rules.must_trump\n",
        "k.py": "def f(pr):\n    return pr.must_trump\n",
        "l.py": "def f(x):\n    return getattr(x, 'must_trump')\n",
        # the whole bundle read without naming a field
        "m.py": "def f(tab):\n    a, b, c = tab.play_rules\n    return c\n",
        "n.py": "def f(tab):\n    return tab.play_rules[2]\n",
        "o.py": "def f(play_rules):\n    return [x for x in play_rules]\n",
        "p.py": "def f(p):\n    return p[K_RULES] & 4\n",
        "q.py": "def f(play_rules):\n    return tuple(play_rules)\n",
    }
    quiet = {
        "e.py": "x = 1\n# rules.must_trump in a comment\n"
                "def f():\n    '''tab.must_trump'''\n    return 'must_trump'\n",
        # the bundle passed along, the solver's parameter decoded by the play core or set
        "r.py": "def f(tab, h):\n    return legal_cards(tab.play_rules, h)\n",
        "s.py": "def f(p):\n    return play_rules_of(p[K_RULES])\n",
        "u.py": "def f(p, pr):\n    p[K_RULES] = play_rules_code(pr)\n",
        # the number of sets is a shape
        "v.py": "def f(p):\n    return p[P_NSETS]\n",
    }
    others = {
        "g.py": "def f(p):\n    return p[P_TIE]\n",
        "w.py": "def f(tab):\n    return tab.deal_rules.dealer_declares\n",
        "x.py": "def f(p):\n    return p[P_PERSET]\n",
        "y.py": "def f(tab):\n    return tab.deal_rules[0]\n",
    }
    for name, text in {**reads, **quiet, **others}.items():
        (pkg / name).write_text(text)
    monkeypatch.setattr(__import__(__name__), "PACKAGE", pkg)
    by_name = {sw.name: sw for sw in REGISTRY}
    assert readers(by_name["must_trump"]) == set(reads)
    whole = {"m.py", "n.py", "o.py", "p.py", "q.py"}
    assert readers(by_name["exposed_trump"]) == whole
    assert readers(by_name["tie"]) == {"g.py"}
    assert readers(by_name["dealer_declares"]) == {"w.py", "y.py"}
    assert readers(by_name["keep_six_of_spades"]) == {"y.py"}
    assert readers(by_name["set_scoring"]) == {"x.py"}
    assert readers(by_name["small_deal"]) == set()
