"""The result card a shared game's link previews show (``og:image``): a PNG drawn here with
Pillow (link previews take PNG or JPEG, never SVG), kept in the cache per card.

It shows what the page says: the player's display name, the kind of game, the final score, the
accuracy and the card itself, box by box.
"""

from __future__ import annotations

import io
from functools import cache

from django.core.cache import cache as django_cache
from PIL import Image, ImageDraw, ImageFont

from games.review.replays import FORMAT, Replay

WIDTH, HEIGHT = 1200, 630
"""The size every link preview draws without cropping (1.91 : 1)."""

FELT, FELT_DARK, PAPER, INK, GOLD, MUTED = (
    "#1f6f43",
    "#14502f",
    "#fffef9",
    "#1d1f1c",
    "#f2c14e",
    "#5d6b62",
)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans where the system has it (it covers most scripts a display name uses), else
    the font Pillow ships."""
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int, bold: bool) -> Font:
    """The largest font up to ``size`` in which ``text`` fits ``width`` pixels."""
    while size > 14 and draw.textlength(text, font=_font(size, bold=bold)) > width:
        size -= 2
    return _font(size, bold=bold)


def result_card(replay: Replay, *, key: str) -> bytes:
    """The PNG of ``replay``'s result card, drawn once per ``key`` (a card never changes)."""
    cache_key = f"result-card:{FORMAT}:{key}"
    found: bytes | None = django_cache.get(cache_key)
    if found is None:
        found = draw_card(replay)
        django_cache.set(cache_key, found, timeout=7 * 24 * 3600)
    return found


def draw_card(replay: Replay) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, HEIGHT - 16, WIDTH, HEIGHT), fill=FELT_DARK)

    # Left: who, what, the score and the accuracy.
    left, text_width = 60, 560
    draw.text((left, 50), "YAHTZEE", font=_font(30, bold=True), fill=GOLD)
    draw.text(
        (left, 100), replay.name, font=_fit(draw, replay.name, text_width, 56, True), fill="white"
    )
    draw.text((left, 175), replay.kind_name, font=_font(32), fill="white")
    draw.text((left, 225), str(replay.final_score), font=_font(150, bold=True), fill="white")
    draw.text((left, 405), "points", font=_font(30), fill="white")
    if replay.steps:
        accuracy = f"Accuracy {replay.accuracy:.1f}%"
        note = "of best play's expected score kept"
        if not replay.exact:
            note += " (estimate)"
        draw.text((left, 470), accuracy, font=_font(44, bold=True), fill=GOLD)
        draw.text((left, 528), note, font=_fit(draw, note, text_width, 24, False), fill="white")

    # Right: the card, box by box.
    box_left, box_top, box_right = 680, 40, WIDTH - 50
    draw.rounded_rectangle((box_left, box_top, box_right, HEIGHT - 50), radius=18, fill=PAPER)
    rows = replay.final_rows
    line = (HEIGHT - 50 - box_top - 30) / len(rows)
    label_font, number_font = _font(21), _font(21, bold=True)
    number_right = box_right - 24
    column_width = 62
    for i, row in enumerate(rows):
        y = box_top + 15 + i * line
        colour = INK if not row.total else FELT_DARK
        draw.text(
            (box_left + 22, y), row.label, font=label_font, fill=colour if not row.total else MUTED
        )
        for j, cell in enumerate(reversed(row.cells)):
            x = number_right - j * column_width
            draw.text((x, y), cell.text or "–", font=number_font, fill=colour, anchor="ra")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
