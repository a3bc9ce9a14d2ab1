"""The words of ``miai diagram``'s text figure, translated: the legend that says whose move each
number is and the notes under the board (``12 at 7``, ``17: pass``), said from the figure's
values as :meth:`miai.render.numbered.MoveDiagram.text` says them in English."""

from __future__ import annotations

from miai.cli.texts import color_name
from miai.i18n import gettext as _
from miai.i18n import pgettext
from miai.render.numbered import AtNote, MoveDiagram, Note

__all__ = ["legend", "note", "figure_text"]


def legend(figure: MoveDiagram) -> str:
    """``Black: odd numbers, White: even.`` when the colours alternate, else every number of
    each colour (``Black: 1, 2, 4. White: 3.``)."""
    odd = figure.odd_color()
    if odd is not None:
        return _("{odd}: odd numbers, {even}: even.").format(odd=color_name(odd), even=color_name(odd.opponent))
    parts = []
    for color, numbers in figure.colors().items():
        if numbers:
            parts.append(_("{color}: {numbers}.").format(color=color_name(color), numbers=", ".join(map(str, numbers))))
    return " ".join(parts)


def note(item: Note) -> str:
    """A move the board cannot show: ``12 at 7`` (played where a number stands), ``17: pass``."""
    if isinstance(item, AtNote):
        return _("{number} at {at}").format(number=item.number, at=item.at)
    return _("{number}: {pass_}").format(number=item.number, pass_=pgettext("move", "pass"))


def figure_text(figure: MoveDiagram) -> str:
    """The whole text figure: the board, then the legend and the notes in the language."""
    return "\n".join([figure.board_text(), legend(figure), *(note(n) for n in figure.notes)])

