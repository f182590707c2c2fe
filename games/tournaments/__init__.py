"""Tournaments on the same dice: everyone plays their own game, alone, on one set of faces."""
