"""The training scripts of examples/ loaded as modules, for the tests of them."""
import importlib.util
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))   # the scripts `import common`, as they do when run from examples/


def load(name: str):
    """examples/<name>.py as a module (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses and inspect look their module up here
    spec.loader.exec_module(module)
    return module
