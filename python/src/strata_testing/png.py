"""A small PNG reader (8-bit RGB/RGBA, not interlaced: what Strata's screenshots are), so tests
can check pixels without third-party packages."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Tuple

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


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


def read_png(path: str) -> Image:
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(_SIGNATURE):
        raise ValueError(f"{path}: not a PNG file")
    position = len(_SIGNATURE)
    width = height = 0
    channels = 0
    compressed = bytearray()
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace != 0:
                raise ValueError(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are read "
                                 f"(depth {depth}, colour type {colour}, interlace {interlace})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
    if channels == 0:
        raise ValueError(f"{path}: no IHDR chunk")
    raw = zlib.decompress(bytes(compressed))
    stride = width * channels
    if len(raw) < height * (stride + 1):
        raise ValueError(f"{path}: truncated image data")
    rows = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        row = bytearray(raw[start + 1:start + 1 + stride])
        _unfilter(kind, row, previous, channels)
        rows.append(row)
        previous = row
    if channels == 4:
        return Image(width, height, b"".join(bytes(row) for row in rows))
    rgba = bytearray(width * height * 4)
    for y, row in enumerate(rows):
        for x in range(width):
            offset = (y * width + x) * 4
            rgba[offset:offset + 3] = row[x * 3:x * 3 + 3]
            rgba[offset + 3] = 255
    return Image(width, height, bytes(rgba))


def _unfilter(kind: int, row: bytearray, previous: bytearray, bpp: int) -> None:
    if kind == 0:
        return
    if kind == 1:
        for i in range(bpp, len(row)):
            row[i] = (row[i] + row[i - bpp]) & 0xFF
    elif kind == 2:
        for i in range(len(row)):
            row[i] = (row[i] + previous[i]) & 0xFF
    elif kind == 3:
        for i in range(len(row)):
            left = row[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[i] = (row[i] + predictor) & 0xFF
    else:
        raise ValueError(f"unknown PNG filter type {kind}")
