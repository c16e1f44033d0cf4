"""Wave: the agent; routes memory between layers (import name wave_agent: the stdlib owns `wave`)."""
