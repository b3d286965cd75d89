"""Every code block of README.md runs as written (on the CPU here), or says why not: ```python
blocks run in this process, ```sh blocks in bash from the repository's root with this Python's
`python` first on the PATH, and a block that cannot run here (hours of training, `make test`
itself, installs) has `<!-- not run: <why> -->` on the line before it."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# (the comment before the fence, the language, the code)
BLOCKS = re.findall(r"(?:<!-- (not run: [^>]*?) -->\n)?^```(\w*)\n(.*?)^```", README.read_text(), flags=re.S | re.M)
LANGUAGES = ("python", "sh")


def blocks(language, run=True):
    return [code for why, lang, code in BLOCKS if lang == language and (not why) == run]


def test_every_block_runs_or_says_why_not():
    assert len(BLOCKS) >= 7
    for why, language, code in BLOCKS:
        assert language in LANGUAGES, f"a block of language {language!r} (the test runs {LANGUAGES}):\n{code}"
        assert not why or len(why) > len("not run: ") + 20, f"say why a block is not run:\n{code}"
    assert len(blocks("python")) >= 3 and len(blocks("sh")) >= 2
    assert blocks("python", run=False) == [], "every Python block runs"


def test_make_demo_is_the_demo_that_runs():
    """The first block is not run (make test is this suite); make demo's recipe is an install and
    `python -m cule.demo`, which a block that runs runs."""
    why, _, code = BLOCKS[0]
    assert why and [line.split("#")[0].strip() for line in code.splitlines()] == ["make demo", "make test"]
    recipe = re.search(r"^demo: install\n\t(.*)$", (ROOT / "Makefile").read_text(), flags=re.M)
    assert recipe and recipe[1] == "$(PYTHON) -m cule.demo"
    assert "python -m cule.demo\n" in blocks("sh")


@pytest.mark.parametrize("block", blocks("python"), ids=[f"python{i + 1}" for i in range(len(blocks("python")))])
def test_python_block_runs(block):
    exec(compile(block, str(README), "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("block", blocks("sh"), ids=[f"sh{i + 1}" for i in range(len(blocks("sh")))])
def test_shell_block_runs(block):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, f"{block}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    assert run.stdout.strip(), f"{block} printed nothing"


def test_the_memory_per_env_is_the_states_size():
    from cule import CuleEnv
    env = CuleEnv("pong", 1, device="cpu")
    env.reset(seed=0)
    size = f"{env.get_states().shape[1]:,} bytes"   # 67,800 for a game of 210 rows
    assert size in CuleEnv.__doc__ and f"An env's state is {size}" in " ".join(README.read_text().split())
