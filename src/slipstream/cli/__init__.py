"""The command line: a thin Typer/Rich shell over the library.

Every module in this package that defines ``register(app)`` adds its commands to ``slipstream``.
"""
