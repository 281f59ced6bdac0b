"""The README's two opening commands and CI agree (CI must run exactly the README's tests)."""
from pathlib import Path
import re

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)][:2]


def test_readme_opens_with_install_and_main_job_then_tests():
    main_job, tests = readme_commands()
    assert main_job.startswith("python3 -m pip install -e .") and "catchten simulate" in main_job
    assert "pytest" in tests and '".[test]"' in tests


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].strip() == readme_commands()[1]


def test_readme_is_read_in_five_minutes_and_its_links_resolve():
    """At most 300 lines (method, findings, timings and development notes live in docs/),
    and every relative link of the README and of docs/ points at a file of the repository."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    assert "docs/development.md" in _local_links(text) and "docs/cli.md" in _local_links(text)
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = [f"{p.name}: {x}" for p in pages
               for x in _local_links(p.read_text(encoding="utf-8")) if not (p.parent / x).exists()]
    assert not missing, missing


def _local_links(text: str) -> list[str]:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    return [x for x in links if not x.startswith(("http://", "https://"))]


def test_speed_page_chunk_count_of_the_big_run_is_the_plans():
    """The big run's chunk count in docs/speed.md (moved from the README) is the plan's."""
    from catchten_sim.run import chunk_plan
    from catchten_sim.simulate import CHUNK
    text = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    said = re.search(r"100,000,000-deal 4-player run .*?\(\d+ s,\s+([\d,]+) chunk files", text,
                     flags=re.S)
    assert said is not None
    assert int(said.group(1).replace(",", "")) == len(chunk_plan(100_000_000, CHUNK)) - 1


def _readme_outside_blocks() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.sub(r"```.*?```", "", text, flags=re.S)


def test_readme_python_blocks_run():
    """Every ```python block of the README runs as written, from the repository's root."""
    import os
    import subprocess
    import sys
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2                      # the solver's and the Python API's
    code = "\n".join(blocks)
    assert "from catchten_sim import solve" in code
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]


def test_readme_inline_python_names_resolve():
    """Inline Python in the README works as a reader would type it: ``from``/``import``
    statements run, and each dotted name ``catchten_sim.a.b`` resolves after ``import
    catchten_sim.a`` (a public function shadows its module: ``catchten_sim.solve.solve``
    must not be written)."""
    spans = re.findall(r"`([^`]+)`", _readme_outside_blocks())
    spans = [" ".join(s.split()) for s in spans]
    statements = [s for s in spans if s.startswith(("from catchten_sim", "import catchten_sim"))
                  and not s.endswith(("...", "…"))]
    assert "from catchten_sim import Rules, deal" in statements
    for s in statements:
        exec(s, {})
    dotted = sorted({m for s in spans if "/" not in s
                     for m in re.findall(r"\bcatchten_sim(?:\.\w+)+", s)
                     if not s.startswith(("from ", "import ", "importlib."))})
    assert dotted
    for name in dotted:
        parts = name.split(".")
        ns: dict = {}
        exec(f"import {'.'.join(parts[:2])}", ns)
        obj = ns["catchten_sim"]
        for attr in parts[1:]:
            assert hasattr(obj, attr), f"README names {name}, which does not resolve at {attr!r}"
            obj = getattr(obj, attr)
    # the spellings the review found broken stay out
    assert "catchten_sim.solve.solve" not in dotted and "catchten_sim.play.deal" not in dotted


def test_readme_errors_block_is_what_the_cli_prints(tmp_path, monkeypatch):
    """The README's "Errors" examples are the CLI's output, character for character
    (review Low 5: the detail had changed from '10X' to \\"10X\\")."""
    import json
    import shlex
    from click.testing import CliRunner

    from catchten_sim.cli import cli
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Errors\n.*?```\n(.*?)```", text, flags=re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    pairs = [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
    assert len(pairs) == 2 and all(cmd.startswith("$ catchten ") for cmd, _ in pairs)
    record = json.loads((ROOT / "examples" / "hand.json").read_text(encoding="utf-8"))
    record["hands"][1][4] = "10X"
    (tmp_path / "bad.json").write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for cmd, want in pairs:
        try:
            runner = CliRunner(mix_stderr=False)
        except TypeError:
            runner = CliRunner()
        res = runner.invoke(cli, shlex.split(cmd)[2:])
        assert res.exit_code == 2, (cmd, res.output)
        got = (res.stdout + res.stderr).strip()
        assert got == want, (cmd, got)
