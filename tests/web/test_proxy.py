"""Several processes behind one address (issue 14, Load; docs/web.md): nginx with the example
configuration in ``docs/examples/nginx-two-processes.conf``, as it is (only its ports changed), in front
of two server processes on one database. A real match is created, joined, started and played to the
end over WebSockets through the proxy, and both processes then tell the same match and record. Skipped
where nginx is not installed (``apt-get install nginx-light``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from slipstream.engine.record import replay
from slipstream.web.protocol import sent_view
from tests.web.conftest import ROOMY
from tests.web.server import ROOT, Server, free_port, ws_open, ws_recv

CONF = ROOT / "docs" / "examples" / "nginx-two-processes.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Server, list[Server]]]:
    """(the proxy's address as a ``Server`` to talk to, the two server processes behind it)."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    db = str(tmp_path / "shared.sqlite3")
    env = {**ROOMY, "SLIPSTREAM_PEER_POLL": "0.2"}
    backends: list[Server] = []
    proc: subprocess.Popen[bytes] | None = None
    try:
        for name in ("a", "b"):
            backends.append(
                Server(db, tmp_path / f"{name}.log", env=env, args=("--forwarded-allow-ips", "127.0.0.1")).start()
            )
        front = Server(db, tmp_path / "front.log")
        front.port = free_port()
        text = CONF.read_text()
        for old, new in (
            ("127.0.0.1:8001", f"127.0.0.1:{backends[0].port}"),
            ("127.0.0.1:8002", f"127.0.0.1:{backends[1].port}"),
            ("127.0.0.1:8000", f"127.0.0.1:{front.port}"),
        ):
            assert old in text, f"the example no longer names {old}"
            text = text.replace(old, new)
        conf = tmp_path / "nginx.conf"
        conf.write_text(text)
        settings = f"daemon off; pid {tmp_path}/nginx.pid; error_log {tmp_path}/nginx-error.log;"
        proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(conf), "-g", settings])
        for _ in range(400):
            try:
                if httpx.get(f"{front.url}/api/health", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise RuntimeError((tmp_path / "nginx-error.log").read_text()) from None
                time.sleep(0.05)
        else:
            raise RuntimeError("nginx did not answer")
        yield front, backends
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        for srv in backends:
            srv.stop()


def test_a_real_match_through_the_proxy(proxied: tuple[Server, list[Server]]) -> None:
    front, backends = proxied
    api = front.client()
    mid, _host, tokens = api.new_match(game="scrap-racer", players=2, humans=2)
    latest: dict[int, dict[str, Any]] = {}
    with ws_open(front, mid, tokens[0]) as ws0, ws_open(front, mid, tokens[1]) as ws1:
        sockets = (ws0, ws1)
        for seat, ws in enumerate(sockets):
            while latest.get(seat, {}).get("type") != "state":
                latest[seat] = ws_recv(ws)
        acted = {0: -1, 1: -1}
        for _ in range(20_000):
            if all(latest[s]["result"] is not None for s in (0, 1)):
                break
            for seat, ws in enumerate(sockets):
                st = latest[seat]
                if st["result"] is None and st["legal"] and st["ply"] != acted[seat]:
                    acted[seat] = st["ply"]
                    act = {"type": "act", "action": st["legal"][0], "ply": st["ply"], "id": f"p{st['ply']}"}
                    ws.send(json.dumps(act))
                try:
                    msg = ws_recv(ws, timeout=0.05)
                except TimeoutError:
                    continue
                if msg["type"] == "state":
                    latest[seat] = msg
                assert msg["type"] != "error" or msg["code"] in ("stale", "not_your_turn"), msg
    assert latest[0]["result"] is not None, "the race did not end"
    direct = [b.client() for b in backends]
    finals = [c.wait(mid, None, lambda s: s["result"] is not None, timeout=10) for c in direct]
    assert finals[0]["ply"] == finals[1]["ply"] == latest[0]["ply"] == latest[1]["ply"]
    assert finals[0]["view"] == finals[1]["view"] == api.state(mid)["view"]
    record = api.ok("GET", f"/api/matches/{mid}/record")
    for client in direct:
        assert client.ok("GET", f"/api/matches/{mid}/record") == record, "one match, the same record in both"
    assert sent_view(replay(record).view(None)) == finals[0]["view"]
