"""Fact-check desk: validation, capture, claim memory, queue, drafts (issue 6)."""
