"""Screenshots as pixels: PNG files decoded with Pillow (Debian: python3-pil; pip: Pillow)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Tuple


def _pillow() -> Any:
    try:
        from PIL import Image as PILImage
    except ImportError as error:
        raise ImportError("reading screenshots needs Pillow: `pip install Pillow`, or Debian's python3-pil") from error
    return PILImage


@dataclass(frozen=True)
class Image:
    """Decoded pixels, row-major, 4 bytes (R, G, B, A) per pixel."""

    width: int
    height: int
    rgba: bytes

    def pixel(self, x: int, y: int) -> Tuple[int, int, int, int]:
        """(R, G, B, A) at (x, y); IndexError outside the image."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is outside the {self.width}x{self.height} image")
        offset = (y * self.width + x) * 4
        r, g, b, a = self.rgba[offset:offset + 4]
        return (r, g, b, a)

    def rgb(self, x: int, y: int) -> int:
        """The pixel as 0xRRGGBB."""
        r, g, b, _ = self.pixel(x, y)
        return (r << 16) | (g << 8) | b

    def to_pil(self) -> Any:
        """The pixels as a Pillow image (mode RGBA), to crop, compare or save."""
        return _pillow().frombytes("RGBA", (self.width, self.height), self.rgba)


def read_png(path: str) -> Image:
    """Decodes a PNG file (any that Pillow reads) to RGBA pixels. ValueError when it is not one."""
    pil = _pillow()
    with open(path, "rb") as file:  # a missing or unreadable file raises as it is
        try:
            with pil.open(file, formats=["PNG"]) as image:
                if image.mode != "RGBA":
                    image = image.convert("RGBA")
                return Image(image.width, image.height, image.tobytes())
        except (pil.UnidentifiedImageError, SyntaxError, OSError, ValueError) as error:
            raise ValueError(f"{path}: not a PNG file that can be read ({error})") from error
