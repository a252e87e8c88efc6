"""Keeping games: game files for game masters (and, later, the database and the HTTP API)."""
