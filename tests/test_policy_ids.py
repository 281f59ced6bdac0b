"""A kernel policy's id is one number shared by two rooms: ``policies.Policy`` (the typed
side) and ``_kernels/layout.py``'s ``POL_*`` codes (what ``_kernels/policy.choose_card``
dispatches on). docs/development.md, "How to add a policy": the two must agree, and a new
policy must not take ``POL_SCRIPTED`` (the seats a Python-driven player scripts), which a
new member numbered "the next integer" would silently do."""
from __future__ import annotations

from catchten_sim._kernels import layout as L
from catchten_sim.policies import Policy


def test_every_policy_is_its_kernel_code():
    for p in Policy:
        code = getattr(L, f"POL_{p.name}", None)
        assert code is not None, f"Policy.{p.name}: no POL_{p.name} in _kernels/layout.py"
        assert int(p) == code, f"Policy.{p.name} = {int(p)}, POL_{p.name} = {code}"


def test_no_policy_takes_the_scripted_code():
    assert L.POL_SCRIPTED not in {int(p) for p in Policy}
    codes = {name: getattr(L, name) for name in dir(L) if name.startswith("POL_")}
    assert len(set(codes.values())) == len(codes), f"two POL_* codes are equal: {codes}"
