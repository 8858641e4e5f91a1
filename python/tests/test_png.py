"""Screenshots decoded with Pillow: the pixel API the tests use, and errors in words."""

import pytest
from PIL import Image as PILImage

from strata_testing import read_png


def test_an_rgb_png_reads_as_opaque_rgba_pixels(tmp_path):
    path = tmp_path / "rgb.png"
    picture = PILImage.new("RGB", (3, 2), (0x10, 0x20, 0x30))
    picture.putpixel((2, 1), (0xFF, 0x80, 0x00))
    picture.save(path)
    image = read_png(str(path))
    assert (image.width, image.height) == (3, 2)
    assert image.pixel(0, 0) == (0x10, 0x20, 0x30, 0xFF)
    assert image.rgb(2, 1) == 0xFF8000
    assert len(image.rgba) == 3 * 2 * 4
    with pytest.raises(IndexError, match=r"pixel \(3, 0\) is outside the 3x2 image"):
        image.pixel(3, 0)
    assert image.to_pil().getpixel((2, 1)) == (0xFF, 0x80, 0x00, 0xFF)


def test_a_file_that_is_not_a_png_is_a_value_error_that_names_it(tmp_path):
    path = tmp_path / "not.png"
    path.write_bytes(b"GIF89a, or anything else")
    with pytest.raises(ValueError, match=r"not\.png: not a PNG file that can be read"):
        read_png(str(path))
    truncated = tmp_path / "truncated.png"
    PILImage.new("RGBA", (64, 64), (1, 2, 3, 4)).save(tmp_path / "whole.png")
    truncated.write_bytes((tmp_path / "whole.png").read_bytes()[:60])
    with pytest.raises(ValueError, match="truncated.png"):
        read_png(str(truncated))
    with pytest.raises(FileNotFoundError):
        read_png(str(tmp_path / "missing.png"))


def test_a_screenshot_decodes_to_the_screens_pixels(strata, color_client):
    strata.exec([color_client, "--app-id", "example.pixels", "--color", "204060", "--size", "100x80", "--seconds", "60"])
    strata.wait_for_window("example.pixels")
    strata.move("example.pixels", 1, 10, 20)
    image = strata.screenshot()
    assert (image.width, image.height) == (1280, 720)
    assert image.rgb(10, 20) == image.rgb(109, 99) == 0x204060
    assert image.pixel(50, 50)[3] == 0xFF
    assert image.to_pil().size == (1280, 720)
