"""``python -m slipstream.web serve ...``: the server with every limit set (see ``serve.py``)."""

from .serve import main

main()
