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


def test_readme_chunk_count_of_the_big_run_is_the_plans():
    from catchten_sim.runner import chunk_plan
    from catchten_sim.simulate import CHUNK
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"100,000,000-deal 4-player run .*?\(\d+ s,\s+([\d,]+) chunk files", text,
                     flags=re.S)
    assert said is not None
    assert int(said.group(1).replace(",", "")) == len(chunk_plan(100_000_000, CHUNK)) - 1
