"""The game server and the browser UI: ``slipstream serve`` (see docs/web.md).

Importing this package is cheap; ``slipstream.web.app.create_app`` builds the FastAPI app.
"""
