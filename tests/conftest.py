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
