"""Game packages, one per game, with the same file names in each.

Each subpackage registers itself on import (``cosmodeck.api`` imports them all).
"""
