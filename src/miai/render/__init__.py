"""Diagrams of positions: text for terminals and logs; numbered figures of moves (text and SVG)."""

from miai.render.numbered import AtNote, MoveDiagram, MoveRange, NumberedStone, PassNote, move_diagram
from miai.render.text import diagram, rich_diagram, star_points

__all__ = [
    "AtNote",
    "MoveDiagram",
    "MoveRange",
    "NumberedStone",
    "PassNote",
    "diagram",
    "move_diagram",
    "rich_diagram",
    "star_points",
]
