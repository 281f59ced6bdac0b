"""The suite's own set-up: tests of one ``xdist_group`` run on one worker (so a module's
costly fixture is made once), whatever pytest's version (tests/conftest.py)."""
import pytest

pytestmark = pytest.mark.xdist_group("xdist_groups")


def test_a_grouped_test_is_named_by_its_group_under_loadgroup(request):
    """xdist sends tests to workers by this name: without the group after the ``@`` the
    controller spreads the group's tests over the workers (pytest 9.2 with xdist 3.8)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run under pytest-xdist --dist loadgroup (e.g. -n 0)")
    assert request.node.nodeid.endswith("@xdist_groups")
