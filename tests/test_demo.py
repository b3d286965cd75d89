"""`make demo`'s picture: cule.demo.write_png writes a PNG that decodes to the pixels given."""
import numpy as np
from PIL import Image

from cule.demo import write_png


def test_the_demo_s_png_holds_the_pixels(tmp_path):
    rgb = np.random.default_rng(0).integers(0, 256, (210, 652, 3), dtype=np.uint8)
    write_png(tmp_path / "screens.png", rgb)
    with Image.open(tmp_path / "screens.png") as image:
        assert image.mode == "RGB" and np.array_equal(np.asarray(image), rgb)
