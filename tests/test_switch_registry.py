"""The switch registry (rules.REGISTRY) is the one source of the switch list: the
README's list, `catchten rules --switches`, the defaults and the typed attributes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from catchten_sim._kernels import layout

from catchten_sim.rules import (DEFAULTS, PRESETS, REGISTRY, SWITCH_OF, Revoke, Rules,
                                SWITCHES, Tie, switch_summary, switch_table, sweep_values)

ROOT = Path(__file__).resolve().parents[1]


def test_readme_switch_list_is_the_registry() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert switch_summary() in text


def test_defaults_and_switches_come_from_the_registry() -> None:
    for preset in PRESETS:
        assert set(DEFAULTS[preset]) == {sw.name for sw in REGISTRY if preset in sw.defaults}
    assert list(SWITCHES) == [sw.name for sw in REGISTRY]
    for row in switch_table("foster"):
        assert row["section"].startswith("§")


@pytest.mark.parametrize("preset", PRESETS)
def test_typed_attributes_match_the_words(preset) -> None:
    r = Rules(preset, 4)
    assert r.revoke == Revoke[r.variants["revoke"].upper()]
    assert r.tie_rule == Tie[r.variants["tie"].upper()]
    t = r.tables()
    assert int(t.params[layout.P_TIE]) == int(r.tie_rule)
    for sw in REGISTRY:
        if preset in sw.defaults:
            for value in sweep_values(sw.name, preset):
                assert value != sw.defaults[preset]


def test_every_kernel_field_of_the_registry_exists_and_is_read():
    """A switch's ``kernel`` names a field of the tables bundle or a ``P_*`` parameter that
    a kernel reads (no parameter is only written: issue 8 "delete unused params")."""
    from catchten_sim.rules import DealRules, PlayRules, Tables
    kernels = "".join(f.read_text() for f in
                      (Path(__file__).parent.parent / "catchten_sim" / "_kernels").glob("*.py"))
    for sw in REGISTRY:
        if sw.kernel is None:
            continue
        if sw.kernel.startswith("P_"):
            assert hasattr(layout, sw.kernel), sw.name
            assert re.search(rf"\[\s*{sw.kernel}\s*\]", kernels), sw.name
        else:                           # a field, or a field of a sub-bundle
            head, _, sub = sw.kernel.partition(".")
            assert head in Tables._fields, sw.name
            if sub:
                assert sub == sw.name, sw.name      # named after the switch
                assert sub in {"play_rules": PlayRules,
                               "deal_rules": DealRules}[head]._fields, sw.name
    names = [n for n in dir(layout) if n.startswith("P_") and n != "P_NPARAMS"]
    assert sorted(getattr(layout, n) for n in names) == list(range(layout.P_NPARAMS))
    for n in names:                     # every parameter is read by some kernel
        assert re.search(rf"\[\s*{n}\s*\]", kernels), n


def test_rules_switches_command_lists_every_switch() -> None:
    from click.testing import CliRunner

    from catchten_sim.cli import cli
    out = CliRunner().invoke(cli, ["rules", "--switches", "--rules", "jaques"]).output
    names = re.findall(r"^(\w+)\s", out, flags=re.M)
    assert names == [sw.name for sw in REGISTRY]


#: cited sections that speak of a switch without its name (docs/rules.md's own words)
_SAID_AS = {"everyone_alone": "alone", "exposed_trump": "exposed", "small_deal": "sets",
            "set_scoring": "per-set", "card_points": "card points",
            "tie": ("Counting out", "higher total"), "six_players": "6 players",
            "six_as_three_pairs": "6 players"}


def _rules_md_sections() -> dict[str, str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    secs = {m.group(1): m.group(0)
            for m in re.finditer(r"^## (\d+)\. .*?(?=^## |\Z)", text, flags=re.M | re.S)}
    for m in re.finditer(r"^(\d+)\. (.*?)(?=^\d+\. |^\S|\Z)", secs["7"], flags=re.M | re.S):
        secs[f"7.{m.group(1)}"] = m.group(2)
    return secs


@pytest.mark.parametrize("sw", REGISTRY, ids=lambda sw: sw.name)
def test_every_section_a_switch_cites_speaks_of_it(sw) -> None:
    # review Low 2: must_trump cited §4 (the jaques preset), which never mentions it
    secs = _rules_md_sections()
    cited = re.findall(r"§([\d.]+)", sw.section)
    assert cited, sw.section
    words = _SAID_AS.get(sw.name, ())
    words = (sw.name, *((words,) if isinstance(words, str) else words))
    for sec in cited:
        assert sec in secs, (sw.name, sec)
        assert any(w in secs[sec] for w in words), (sw.name, f"§{sec}", words)


def test_rules_switches_spells_words_as_the_registry() -> None:
    # review Low 3: removed_six was shown as s|c, default s; the registry, README and
    # `catchten rules` say S|C, S
    from click.testing import CliRunner

    from catchten_sim.cli import cli
    out = CliRunner().invoke(cli, ["rules", "--switches"]).output
    # a switch's line: "NAME  VALUES  (default VALUE; §N)"
    lines = {line.split()[0]: line.replace("(", " ").replace(";", " ").split()
             for line in out.splitlines() if line.strip()}
    assert lines["removed_six"][1:4] == ["S|C", "default", "S"]
    assert lines["must_trump"][1:4] == ["false|true", "default", "false"]
    assert lines["revoke"][1:4] == ["game|hand|forfeit", "default", "game"]


def _sim(rules, policy: str) -> dict:
    from catchten_sim import simulate
    d = simulate(rules, policy, n_deals=2000, seed=3, threads=1).to_dict()
    return {"positions": d["positions"], "ten": d["ten"]}


#: a switch not offered because the preset offers the same change under its own name
SAME_AS = {("jaques", "six_players", "pairs"): ("six_as_three_pairs", True)}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_switch_acts_at_a_player_count_exactly_where_it_changes_a_deal(preset) -> None:
    """What the page offers (``Switch.acts_at``: the preset and the player count): at
    every player count the preset allows, a switch of a single deal that is offered
    changes some result of 2,000 deals (heuristic or random play) when turned from its
    default, and one not offered changes nothing (or cannot be set there, or is offered
    under the preset's own name: jaques' ``six_as_three_pairs``); a switch of the game
    only is offered at every count, documented as applying to all."""
    from catchten_sim.errors import CatchTenError
    policies = ("heuristic", "random")
    for players in range(2, 9):
        try:
            base = {p: _sim(Rules(preset, players), p) for p in policies}
        except CatchTenError:
            continue                      # not a player count of the preset
        for sw in REGISTRY:
            if preset not in sw.defaults:
                assert not sw.acts_at(preset, players), sw.name
                continue
            if sw.deal is None:           # the game's switches
                assert sw.acts_at(preset, players) and sw.applies == "all", sw.name
                continue
            other = sw.flipped(sw.defaults[preset])
            assert other is not None, sw.name     # every deal switch has two values
            where = (sw.name, players)
            try:
                turned = Rules(preset, players, {sw.name: other})
            except CatchTenError:
                assert not sw.acts_at(preset, players), where
                continue
            changed = any(_sim(turned, p) != base[p] for p in policies)
            if changed and (preset, sw.name, other) in SAME_AS:
                name, value = SAME_AS[preset, sw.name, other]
                assert SWITCH_OF[name].acts_at(preset, players), where
                assert _sim(turned, "random") == _sim(Rules(preset, players, {name: value}),
                                                      "random"), where
                assert not sw.acts_at(preset, players), where
                continue
            assert changed == sw.acts_at(preset, players), where
