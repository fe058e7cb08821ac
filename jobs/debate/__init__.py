"""Debate scoreboard: segments, transcript, turns, evaluations, checks, scoreboard (issues 7, 8)."""
