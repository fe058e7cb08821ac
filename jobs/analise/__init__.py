"""Analysis backends behind one interface: rule-based Portuguese default and OpenAI-compatible."""
