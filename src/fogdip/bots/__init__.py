"""Bots: players that choose orders from what their power may know."""
