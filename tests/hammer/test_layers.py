"""Issue 24 item 6, docs/architecture.md "Hammer's layers": no pbem module imports, by any path, one
that imports it back, and Hammer's dependency runs one way: the rules, then what a side is shown,
then the player's tools, then the seam the protocol drives.

Every import counts: at a module's top, inside a function, and ``lazy("pbem...")`` (an import at first
use); only ``if TYPE_CHECKING:`` blocks, which never run, are left out of the circle check (the layer
check reads them too: a rules module does not even name a player's type). The table below says which
layer each module is in, by its own name, so it holds with the modules flat in pbem/hammer/ and once
they stand in the sub-packages named after their layers (pbem/hammer/rules/, show/, play/).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pbem

PBEM = Path(pbem.__file__).parent
LAYER_ORDER = ("rules", "show", "play", "seam")
LAYER_PACKAGES = ("rules", "show", "play")  # the sub-packages of pbem/hammer/; the seam stays at its top

# Each Hammer module by its own name (a package by its name: every module in it shares its layer).
LAYERS: dict[str, str] = {
    # rules: the game as the rulebook has it, and the engine that adjudicates it; imports nothing above.
    **dict.fromkeys((
        "errors", "plaindata", "vocab", "suggest", "board", "blocks", "cards", "state", "battle_state",
        "winter_progress", "stepstate", "log", "draws", "decisions", "sofar", "scenario", "cardphase", "orders",
        "movement", "retreat", "battle", "events", "kings", "winter", "victory", "engine", "plans", "hidden",
        "peer_events", "peer_plans",
    ), "rules"),
    # show: what one side may see and how it is drawn and told (text, map, page, log lines, odds).
    **dict.fromkeys((
        "views", "render", "svg", "mapgeom", "textbox", "htmlpage", "sentences", "battle_log", "odds",
    ), "show"),
    # play: the player's tools: the game as a report shows it, drafts and their check, the order kinds,
    # bots, the demo, the player's side of the seam, the rules workbench (positions, cases, tools).
    **dict.fromkeys((
        "known", "drafts", "order_kinds", "bots", "demo", "player", "cases", "position", "tools", "boardview",
        "peer_bot",
    ), "play"),
    # seam: what the protocol drives, importing whatever it needs (the registry names ruleset.py).
    **dict.fromkeys(("ruleset", "peer", "peer_setup", "peer_winter", "peer_orders", "peer_reveal", "peer_drafts",
                     "peer_own"),
                    "seam"),
}


class Import(NamedTuple):
    source: str  # the importing module, dotted
    target: str  # the imported pbem module (or package), dotted
    line: int
    type_only: bool  # inside ``if TYPE_CHECKING:``


def modules(root: Path = PBEM) -> dict[str, Path]:
    """Every module of the package under ``root`` by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _known(name: str, known: dict[str, Path]) -> str:
    """The longest known module ``name`` starts with ("" when none: not a pbem module)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def imports(name: str, source: str, known: dict[str, Path], is_package: bool = False) -> list[Import]:
    """Every import of a pbem module in ``source``: top-level, in functions, and ``lazy("...")``."""
    found: list[Import] = []

    def add(target: str, node: ast.AST, type_only: bool) -> None:
        target = _known(target, known)
        if target and target != name:
            found.append(Import(name, target, getattr(node, "lineno", 0), type_only))

    def visit(node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = type_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, type_only)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[:len(package) - child.level + 1]
                    base = ".".join(package + ([base] if base else []))
                for alias in child.names:
                    add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base, child, type_only)
            elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "lazy"
                  and child.args and isinstance(child.args[0], ast.Constant) and isinstance(child.args[0].value, str)):
                add(child.args[0].value, child, type_only)
            if isinstance(child, ast.If) and inner and not type_only:
                for stmt in child.body:
                    visit(ast.Module(body=[stmt], type_ignores=[]), True)
                for stmt in child.orelse:
                    visit(ast.Module(body=[stmt], type_ignores=[]), False)
            else:
                visit(child, inner)

    visit(ast.parse(source), False)
    return found


def graph(known: dict[str, Path]) -> list[Import]:
    out: list[Import] = []
    for name, path in known.items():
        out += imports(name, path.read_text(encoding="utf-8"), known, path.name == "__init__.py")
    return out


def circles(edges: list[Import]) -> list[list[str]]:
    """The import circles (strongly connected groups of two or more modules), each sorted; a package's
    own modules importing their package's ``__init__`` do not count (Python imports it first anyway)."""
    succ: dict[str, set[str]] = {}
    for e in edges:
        if not e.type_only and not e.source.startswith(e.target + "."):
            succ.setdefault(e.source, set()).add(e.target)
            succ.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(succ):
        if v not in index:
            connect(v)
    return sorted(found)


def own_name(module: str) -> str:
    """A Hammer module's name in the table: without pbem.hammer., its layer's sub-package, or its own."""
    parts = module.split(".")[2:]
    if parts and parts[0] in LAYER_PACKAGES:
        parts = parts[1:]
    return parts[0] if parts else ""


def hammer_layer(module: str) -> str:
    return LAYERS[own_name(module)]


def test_issue_24_6_no_import_circle_among_pbem_modules() -> None:
    found = circles(graph(modules()))
    assert found == [], "import circles (each module imports, by some path, one that imports it back):\n" + \
        "\n".join(" <-> ".join(c) for c in found)


def test_issue_24_6_every_hammer_module_has_a_layer() -> None:
    names = {own_name(m) for m in modules() if m.startswith("pbem.hammer.")} - {""}  # "": a layer package
    assert "engine" in names and "ruleset" in names
    unknown = sorted(names - set(LAYERS))
    assert unknown == [], f"add these modules to LAYERS in {Path(__file__).name}: {', '.join(unknown)}"
    assert sorted(set(LAYERS) - names) == [], "LAYERS names modules that no longer exist"


def test_issue_24_6_hammer_imports_run_one_way() -> None:
    """rules < show < play < seam: a module imports its own layer or the ones below, never above."""
    known = modules()
    wrong = []
    for e in graph(known):
        if not (e.source.startswith("pbem.hammer.") and e.target.startswith("pbem.hammer.")):
            continue
        if own_name(e.target) in LAYER_PACKAGES and e.target.count(".") == 2:
            continue  # the sub-package's own __init__
        src, dst = hammer_layer(e.source), hammer_layer(e.target)
        if LAYER_ORDER.index(dst) > LAYER_ORDER.index(src):
            wrong.append(f"{e.source}:{e.line} ({src}) imports {e.target} ({dst})")
    assert wrong == []


def test_issue_24_6_a_module_in_a_layer_package_is_of_that_layer() -> None:
    """Once the modules stand in pbem/hammer/rules/, show/ and play/, each is where the table puts it."""
    misplaced = [m for m in modules() if m.startswith("pbem.hammer.") and len(m.split(".")) > 3
                 and m.split(".")[2] in LAYER_PACKAGES and hammer_layer(m) != m.split(".")[2]]
    assert misplaced == []


def test_issue_24_6_hammer_imports_in_functions_are_only_for_start_up() -> None:
    """An import of a pbem module inside a function of pbem/hammer exists only to keep a verb quick
    (docs/architecture.md "Start-up"), and says so in a comment on its line; never to dodge a circle."""
    known = modules()
    silent = []
    for name, path in known.items():
        if not name.startswith("pbem.hammer"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and node.col_offset > 0:
                        mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                        if (mod or "").startswith("pbem") and "start-up" not in lines[node.lineno - 1]:
                            silent.append(f"{name}:{node.lineno}")
    assert silent == []


def test_issue_24_6_the_circle_check_sees_imports_inside_functions_and_lazy_ones() -> None:
    known = {"pbem.a": Path("a.py"), "pbem.b": Path("b.py"), "pbem.c": Path("c.py")}
    a = imports("pbem.a", "from pbem import b\n", known)
    b = imports("pbem.b", "def f() -> None:\n    from pbem.c import x\n", known)
    c = imports("pbem.c", 'x = lazy("pbem.a")\n', known)
    assert circles(a + b + c) == [["pbem.a", "pbem.b", "pbem.c"]]
    typed = imports("pbem.c", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pbem import a\n", known)
    assert [e.type_only for e in typed] == [True] and circles(a + b + typed) == []


def test_issue_24_6_the_layer_table_reads_flat_and_moved_names_alike() -> None:
    flat = "pbem.hammer" + "."  # so that the move's rewrite of module names leaves these flat names flat
    assert hammer_layer(flat + "engine") == hammer_layer(flat + "rules.engine") == "rules"
    assert hammer_layer(flat + "order_kinds.check") == hammer_layer(flat + "play.order_kinds.card") == "play"
    assert hammer_layer(flat + "show.svg") == "show" and hammer_layer(flat + "ruleset") == "seam"
