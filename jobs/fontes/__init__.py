"""Source search for fact checks: one interface, an embedded local index and a web search backend."""
