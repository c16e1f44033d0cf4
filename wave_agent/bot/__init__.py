"""The Telegram surface: aiogram 3 routers (one per feature), middlewares, formatting.

Handlers are thin: they parse, call the same services as the CLI (injected through the
dispatcher's workflow data as one ``BotBackend``), and format the answer.
"""
