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



def test_the_serial_tests_in_no_other_group_are_one_group(request):
    """They run one after another on one worker, which keeps the exclusive lock from the
    first to the last (tests/conftest.py): one wait for the other worker, not one a test;
    a serial test of a grouped module stays in its module's group (its shared fixture)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run under pytest-xdist --dist loadgroup (e.g. -n 0)")
    serial = [i for i in request.session.items if i.get_closest_marker("serial")]
    if not serial:
        pytest.skip("no serial test collected")
    for item in serial:
        groups = sorted({str(m.args[0]) for m in item.iter_markers("xdist_group")})
        assert groups, item.nodeid
        assert item.nodeid.endswith("@" + "_".join(groups)), item.nodeid
        assert groups == ["serial"] or "serial" not in groups, item.nodeid
