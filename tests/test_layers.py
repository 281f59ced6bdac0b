"""The package's imports point one way (docs/development.md, "Layers"; ../shared/DESIGN.md §2).

The import graph is read from the source (``ast``), every import statement counted, those
inside functions included: an import deferred into a function is still a dependency. Only
the imports under ``if TYPE_CHECKING:`` are left out (annotations, never run). The package's
``__init__`` (the public facade, which re-exports from every layer) is left out too.

Each module has a layer; a module imports only from its own layer or below, the graph has
no cycle, and a kernel (``_kernels/``) imports only kernels. A module missing from
:data:`LAYERS` fails the test: a new module is placed in a layer when it is written.
"""
from __future__ import annotations

import ast
from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "catchten_sim"

#: module (or subpackage) name -> layer; the table of docs/development.md. Names of the
#: target layout that do not exist yet are listed so that they are placed when they come.
LAYERS: dict[str, int] = {
    # 0: no game knowledge
    "errors": 0, "cards": 0, "checks": 0, "inputs": 0, "paths": 0, "_lazy": 0,
    "compile_notice": 0, "student": 0,
    # 1: the rules and the numba kernels
    "rules": 1, "switches": 1, "_kernels": 1,
    # 2: a position and what is known; statistics
    "state": 2, "deals": 2, "records": 2, "position": 2, "aggregate": 2,
    "determinize": 2, "inference": 2,
    # 3: players, the solver, evaluators, running work
    "policies": 3, "solve": 3, "evaluators": 3, "pimc": 3, "fusion": 3,
    "run": 3, "_dask_worker": 3,
    # 4: what a user asks for
    "simulate": 4, "games": 4, "gamerollouts": 4, "equity": 4, "advise": 4, "explain": 4,
    "odds": 4, "match": 4,
    "play": 4, "endings": 4,
    # 5: showing results
    "plotting": 5, "report": 5, "tables": 5,
    "text": 5, "writers": 5, "serve": 5,
    # 6: the command line
    "cli": 6, "cli_options": 6, "cli_kit": 6, "cli_out": 6, "cli_docs": 6,
}


def _modules() -> dict[str, Path]:
    """Dotted name (without ``catchten_sim.``) -> file, ``__init__`` of subpackages named
    by the subpackage."""
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        parts = list(p.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:                                  # the package's own __init__: the facade
            out[".".join(parts)] = p
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skip.update(id(n) for n in ast.walk(stmt))
    return skip


def _imports(name: str, source: str, is_pkg: bool, modules: dict[str, Path]) -> set[str]:
    """The package modules that module ``name`` (its ``source``; ``is_pkg``: an
    ``__init__.py``) imports."""
    tree = ast.parse(source, name)
    skip = _type_checking_nodes(tree)
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    found: set[str] = set()

    def add(dotted: str) -> None:
        # the longest prefix that is a module (``a.b.c`` where ``c`` is a name in ``a.b``)
        parts = dotted.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts:
            found.add(".".join(parts))

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("catchten_sim."):
                    add(a.name[len("catchten_sim."):])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level > 1 else list(here)
                mod = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("catchten_sim"):
                mod = node.module[len("catchten_sim"):].lstrip(".")
            else:
                continue
            for a in node.names:
                add(f"{mod}.{a.name}" if mod else a.name)
    found.discard(name)
    return found


def _layer(name: str) -> int | None:
    return LAYERS.get(name.split(".")[0])


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path.read_text(), path.name == "__init__.py", modules)
            for name, path in modules.items()}


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every fault of the graph, one line each: modules with no layer, upward imports, cycles."""
    out = [f"{m}: not in the layers table (tests/test_layers.py, docs/development.md)"
           for m in sorted(graph) if _layer(m) is None]
    for m in sorted(graph):
        lm = _layer(m)
        for dep in sorted(graph[m]):
            ld = _layer(dep)
            if lm is not None and ld is not None and ld > lm:
                out.append(f"{m} (layer {lm}) imports {dep} (layer {ld})")
    for m in sorted(graph):                 # the kernels are numba only: no typed side
        if m.split(".")[0] == "_kernels":
            out += [f"{m} (a kernel) imports {dep}: kernels import only kernels"
                    for dep in sorted(graph[m]) if dep.split(".")[0] != "_kernels"]
    out += ["import cycle: " + " ".join(c) for c in _cycles(graph)]
    return out


def test_the_graph_reader_sees_imports_inside_functions():
    """The reader itself (a check that cannot fail is no check): relative, absolute, inside a
    function, ``from . import module``, and TYPE_CHECKING left out."""
    modules = {"a": Path("a.py"), "b": Path("b.py"), "c": Path("c.py"), "d": Path("d.py"),
               "_kernels": Path("_kernels/__init__.py"), "_kernels.x": Path("_kernels/x.py")}
    src = ("from typing import TYPE_CHECKING\nfrom .b import f\nimport catchten_sim.c\n"
           "if TYPE_CHECKING:\n    from .d import T\n"
           "def g():\n    from ._kernels import x\n    return x\n")
    assert _imports("a", src, False, modules) == {"b", "c", "_kernels.x"}
    # ``y`` is a name of the subpackage's __init__: a dependency on the subpackage
    assert _imports("_kernels.x", "from .. import a\nfrom . import y\n", False,
                    modules) == {"a", "_kernels"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert violations({"cli": {"errors"}, "errors": {"cli"}}) == [
        "errors (layer 0) imports cli (layer 6)", "import cycle: cli errors"]
    assert violations({"_kernels.trick": {"rules"}, "rules": set()}) == [
        "_kernels.trick (a kernel) imports rules: kernels import only kernels"]


def test_imports_point_down_the_layers_and_have_no_cycle():
    bad = violations(import_graph())
    for line in bad:
        print(line)
    assert not bad, f"{len(bad)} layering faults:\n" + "\n".join(bad)


# ------------------------------------------------------------------ size targets
# issue 27's targets for the house: no module over 900 lines, no function over 150 lines
# (200 inside ``_kernels/``: a numba loop is not split without cost), every numba kernel
# (a function decorated with ``njit`` in ``_kernels/``) under 10 arguments (bundles are
# named tuples, as ``_kernels/layout.py`` does).
MAX_MODULE_LINES = 900
MAX_FUNCTION_LINES = 150
MAX_KERNEL_FUNCTION_LINES = 200
MAX_KERNEL_ARGS = 9

#: what is over a target today, by name, each with the issue that removes it. A name here
#: that is no longer over its target fails too (the exemption is then removed).
SIZE_EXEMPT: dict[str, str] = {
    # issue 26 (the solver's work) splits the solver kernel by concern
    "module _kernels/solve.py": "issue 26",
}


def _n_args(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    a = fn.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None)
            + (a.kwarg is not None))


def size_faults(sources: dict[str, str]) -> dict[str, str]:
    """``sources``: a path relative to the package (``rules.py``, ``_kernels/solve.py``)
    -> its text. Returns every fault of the size targets, its name (``module PATH``,
    ``function PATH:QUALNAME``, ``kernel PATH:NAME``) -> what is over."""
    out: dict[str, str] = {}
    for rel, text in sorted(sources.items()):
        kernel_room = rel.startswith("_kernels/")
        n_lines = len(text.splitlines())
        if n_lines > MAX_MODULE_LINES:
            out[f"module {rel}"] = f"{n_lines} lines (at most {MAX_MODULE_LINES})"
        limit = MAX_KERNEL_FUNCTION_LINES if kernel_room else MAX_FUNCTION_LINES

        def visit(node: ast.AST, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{prefix}{child.name}"
                    length = child.end_lineno - child.lineno + 1
                    if length > limit:
                        out[f"function {rel}:{name}"] = f"{length} lines (at most {limit})"
                    jitted = any("njit" in ast.unparse(d) for d in child.decorator_list)
                    if kernel_room and jitted and _n_args(child) > MAX_KERNEL_ARGS:
                        out[f"kernel {rel}:{name}"] = (f"{_n_args(child)} arguments (at most "
                                                       f"{MAX_KERNEL_ARGS})")
                    visit(child, f"{name}.")
                else:
                    visit(child, prefix)

        visit(ast.parse(text, rel), "")
    return out


def test_the_size_reader_sees_each_kind_of_fault():
    """The reader itself, on made-up sources: a long module, a long method, the kernel
    room's larger allowance, a kernel with 10 arguments (and one with 9, and a plain
    function with 12, which are not faults)."""
    body, method_body = "    x = 1\n", "        x = 1\n"
    src = {
        "big.py": "x = 1\n" * 901,
        "small.py": ("class A:\n    def long(self):\n" + method_body * 150 + "\n"
                     "def fine(a, b, c, d, e, f, g, h, i, j, k, l):\n" + body * 148),
        "_kernels/k.py": ("@njit(**JIT)\ndef wide(a, b, c, d, e, f, g, h, i, j):\n    pass\n"
                          "@njit(inline='always', **JIT)\ndef ok(a, b, c, d, e, f, g, h, i):\n"
                          + body * 198 + "\n@njit(**KERNEL_JIT)\ndef loop(*a):\n" + body * 200),
    }
    assert size_faults(src) == {
        "module big.py": "901 lines (at most 900)",
        "function small.py:A.long": "151 lines (at most 150)",
        "kernel _kernels/k.py:wide": "10 arguments (at most 9)",
        "function _kernels/k.py:loop": "201 lines (at most 200)",
    }


def test_modules_functions_and_kernels_keep_to_their_sizes():
    sources = {str(p.relative_to(PACKAGE)): p.read_text() for p in sorted(PACKAGE.rglob("*.py"))}
    faults = size_faults(sources)
    new = [f"{name}: {what}" for name, what in sorted(faults.items()) if name not in SIZE_EXEMPT]
    mended = [f"{name}: no longer over its target; remove its exemption ({issue})"
              for name, issue in sorted(SIZE_EXEMPT.items()) if name not in faults]
    assert not new and not mended, "\n".join(new + mended)
