"""Suite-wide setup: the game-equity disk cache goes to a temporary directory, never the
user's cache (subprocesses inherit the variable); Ctrl-C raises KeyboardInterrupt in every
test and every child, however pytest was started."""
import contextlib
import os
import signal
import threading

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache_dir(tmp_path_factory):
    old = os.environ.get("CATCHTEN_CACHE_DIR")
    os.environ["CATCHTEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("catchten-cache"))
    yield
    if old is None:
        os.environ.pop("CATCHTEN_CACHE_DIR", None)
    else:
        os.environ["CATCHTEN_CACHE_DIR"] = old


@contextlib.contextmanager
def _default_ctrl_c():
    """Python's own SIGINT handler (KeyboardInterrupt) for the block, the old one after.

    A pytest started with SIGINT ignored (a shell's ``cmd &``, a CI runner, an xdist
    worker of such a pytest) would pass SIG_IGN on: a child keeps an ignored signal across
    exec, and Python then installs no KeyboardInterrupt handler, so the Ctrl-C tests would
    wait for a stop that never comes. A handled signal is reset to SIG_DFL by exec, so
    every child started inside the block gets Python's default Ctrl-C again."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if old is not None:             # None: set outside Python, cannot be put back
            signal.signal(signal.SIGINT, old)


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_for_the_session():
    """For module- and session-scoped fixtures' children (e.g. the e2e server)."""
    with _default_ctrl_c():
        yield


@pytest.fixture(autouse=True)
def _ctrl_c_for_each_test():
    """Each test starts with the default handler and no Ctrl-C counted, whatever the one
    before left (a count left at one made the next held Ctrl-C a "second" one: exit 130,
    the whole pytest process gone)."""
    from catchten_sim.run import engine
    engine.INTERRUPTS[0] = 0
    with _default_ctrl_c():
        yield


# ------------------------------------------------------------- the end-to-end tests' server
@pytest.fixture(scope="session")
def e2e_server():
    """One warm ``catchten serve`` for both end-to-end modules (tests/test_e2e_serve.py,
    test_e2e_serve_page.py: one xdist group, so one worker starts it)."""
    from test_e2e_serve import serving
    with serving() as base:
        yield base


# ------------------------------------------------------------- a report without drawing
def _blank_figure(_table, **_style):
    from matplotlib.figure import Figure
    return Figure(figsize=(1, 1))


@pytest.fixture
def blank_figures(monkeypatch):
    """The simulation report's figures as blank one-inch pages, for a test whose subject is
    not the drawing (resume, directories, messages): every file, CSV and ``report.json``
    is written as before, the figures' text is not laid out (about 1 s a figure and
    format). The drawing is checked by tests/test_report.py and test_newcomer.py."""
    from catchten_sim import report
    real = report.write_report_figures

    def blank(out, specs, *args, **kwargs):
        return real(out, [(name, table, _blank_figure, style)
                          for name, table, _draw, style in specs], *args, **kwargs)
    monkeypatch.setattr(report, "write_report_figures", blank)


# ------------------------------------------------------------- xdist groups (loadgroup)
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Keep ``--dist loadgroup`` grouping under pytest >= 9.2 (pytest-xdist issue #1386).

    A worker names each test of an ``xdist_group`` with the group after an ``@``
    (``test_x.py::test_y@report``) and the controller sends each group to one worker. xdist
    3.8 writes that name into ``item._nodeid``, which pytest 9.2 no longer reads (the id is
    ``item._id``), so the groups were spread over both workers and a module's costly
    fixture (the drawn report, the page's server) was made once per worker. This writes
    the same name where pytest reads it; with an older pytest xdist's own name stands."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        named = item.nodeid.rfind("@") > item.nodeid.rfind("]")    # as xdist reads it
        if not names or named:
            continue
        if hasattr(item, "_id"):
            from _pytest.nodeid import NodeId
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


# ------------------------------------------------------------- tests that run alone (xdist)
#: the xdist group of the ``serial`` tests that are in no other group: one worker runs them
#: one after another, holding the exclusive lock from the first to the last (one wait for
#: the other worker's test under way, not one a test)
SERIAL_GROUP = "serial"
_NEXT = pytest.StashKey()
#: the lock files a serial test keeps open and locked for the serial test after it
_HELD: list = []


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "serial: a test that times itself (Ctrl-C acts within a second, a --time "
        "promise): under pytest-xdist no other test runs beside it")


def pytest_itemcollected(item):
    """A ``serial`` test in no group joins :data:`SERIAL_GROUP` (before any renaming)."""
    if getattr(item.config.option, "loadgroup", False) and item.get_closest_marker(
            "serial") and not item.get_closest_marker("xdist_group"):
        item.add_marker(pytest.mark.xdist_group(SERIAL_GROUP))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    item.stash[_NEXT] = nextitem        # the test this worker runs next (xdist knows it)


def _serial(item) -> bool:
    return item is not None and item.get_closest_marker("serial") is not None


@pytest.fixture(autouse=True)
def _alone_if_serial(request, tmp_path_factory):
    """Under pytest-xdist every test holds a shared lock and a ``serial`` test an exclusive
    one, so a test that times itself never shares the cores with another worker's test.
    A turnstile taken first by both kinds lets a waiting serial test in before the next
    shared one (the other worker cannot starve it). A serial test followed on its worker by
    another keeps the exclusive lock for it (the ``serial`` group runs as one block).
    Serial runs (``-n 0``) lock nothing. Module-scoped fixtures are set up before this
    lock is taken."""
    import fcntl
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        yield
        return
    serial = _serial(request.node)
    if _HELD and not serial:                # kept for a serial test that did not run
        _release(*_HELD.pop())
    if _HELD:
        gate, lock = _HELD.pop()
    else:
        # the workers' base temporary directories are siblings in the run's own one
        base = str(tmp_path_factory.getbasetemp().parent / f"catchten-{run}")
        gate, lock = open(base + ".turnstile", "a"), open(base + ".lock", "a")
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if serial else fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
    try:
        yield
    finally:
        if serial and _serial(request.node.stash.get(_NEXT, None)):
            _HELD.append((gate, lock))
        else:
            _release(gate, lock)


def _release(gate, lock) -> None:
    import fcntl
    fcntl.flock(lock, fcntl.LOCK_UN)
    lock.close()
    gate.close()
