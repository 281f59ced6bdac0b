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
