"""docs/tensors.md's Python examples run as shown: every ```python block, in
order, in one namespace (as a reader pastes them one after the other).  The
training examples (a policy trained against `random` by REINFORCE, then by
sb3-contrib's MaskablePPO, each asserting that it beats its untrained self)
make this slow: about 14 s of one core."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_python_blocks_of_tensors_md_run(monkeypatch):
    pytest.importorskip("pettingzoo")
    monkeypatch.chdir(ROOT)                     # the examples name files from the project's root
    text = (ROOT / "docs" / "tensors.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 5
    namespace = {}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"docs/tensors.md python block {number}", "exec"), namespace)


def test_the_environment_examples_import_what_they_use():
    """The PettingZoo and Gymnasium examples run on their own, pasted alone:
    a block using numpy imports it."""
    text = (ROOT / "docs" / "tensors.md").read_text()
    blocks = [block for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
              if "claimsolve.env import" in block]
    assert len(blocks) >= 3
    for block in blocks:
        for name, module in (("numpy.", "numpy"), ("np.", "numpy as np")):
            if re.search(rf"(?<![\w.]){re.escape(name)}", block):
                assert re.search(rf"^import {module}$", block, re.M), block.splitlines()[:3]
