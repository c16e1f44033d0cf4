"""After the reply: the durable outbox, fact extraction and the fan-out to every layer."""
