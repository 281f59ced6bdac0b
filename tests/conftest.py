"""Suite-wide setup: the game-equity disk cache goes to a temporary directory, never the
user's cache (subprocesses inherit the variable)."""
import os

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
