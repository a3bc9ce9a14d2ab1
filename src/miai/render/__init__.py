"""Diagrams of positions: text for terminals and logs (SVG comes later)."""

from miai.render.text import diagram, rich_diagram, star_points

__all__ = ["diagram", "rich_diagram", "star_points"]
