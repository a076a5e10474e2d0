"""Bytes to text for a results table: whatever encoding OpenGotha or an editor saved it in."""

from __future__ import annotations

_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 saved without a byte-order mark (some Windows editors): ASCII text then has a NUL
    in every other byte; which half tells the byte order."""
    sample = data[:4096]
    if len(sample) < 4 or len(data) % 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.9 * half and even == 0:
        return "utf-16-le"
    if even > 0.9 * half and odd == 0:
        return "utf-16-be"
    return None


def decode(data: str | bytes) -> str:
    """[P] By byte-order mark (UTF-8, UTF-16, UTF-32), UTF-16 without one, UTF-8, else
    ISO-8859-15 (what OpenGotha writes). Undecodable UTF-16/32 bytes become U+FFFD."""
    if isinstance(data, str):
        return data
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            return data[len(mark) :].decode(encoding, "replace")
    encoding = _utf16_without_bom(data)
    if encoding:
        return data.decode(encoding, "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso8859_15")
