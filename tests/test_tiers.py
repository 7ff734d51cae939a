"""The slow tier's lists (tests/conftest.py) name modules and tests that
exist: a renamed test must not slip into the fast tier unnoticed."""
import re
from pathlib import Path

from conftest import SLOW_MODULES, SLOW_TESTS

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_module_and_test_exists():
    for module in SLOW_MODULES:
        assert (ROOT / module).is_file(), module
    for test in SLOW_TESTS:
        module, name = test.split("::")
        source = (ROOT / module).read_text()
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), test
