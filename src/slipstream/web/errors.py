"""The error a client caused (or may retry), as every route answers it: an HTTP status, a stable code
(``protocol.ERROR_CODES``) and a reason in words."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error a client caused (or may retry): an HTTP status, a stable code and a reason."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}

