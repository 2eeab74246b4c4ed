"""Kept-alive HTTP connections to the API's one host, reused from call to call."""

from __future__ import annotations

import http.client
import threading
import urllib.parse
from typing import Callable, Dict, List, Optional, Tuple

# Failures of a kept-alive connection that the server closed while it sat
# idle: nothing of the request reached the server, so it may be sent again
# at once on a new connection.
_STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class ConnectionPool:
    """Idle connections to one http(s) origin, at most ``size`` of them kept.

    ``request`` takes an idle connection (or opens one), sends, reads the whole
    answer, and puts the connection back unless the server said it closes. It
    is safe to use from several threads: each call has a connection of its own.
    No redirect is followed (http.client follows none).
    """

    def __init__(self, base_url: str, timeout: float, size: int = 10) -> None:
        parts = urllib.parse.urlsplit(base_url)
        self.scheme = parts.scheme
        self.host = parts.hostname or ""
        self.port = parts.port
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self.size = size
        self.opened = 0  # connections opened so far: what reuse saves
        self._idle: List[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def _new(self) -> http.client.HTTPConnection:
        cls = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        with self._lock:
            self.opened += 1
        return cls(self.host, self.port, timeout=self.timeout)

    def _take(self) -> Tuple[http.client.HTTPConnection, bool]:
        with self._lock:
            if self._idle:
                return self._idle.pop(), True
        return self._new(), False

    def _give_back(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < self.size:
                self._idle.append(conn)
                return
        conn.close()

    def request(
        self,
        method: str,
        path: str,
        body: Optional[bytes],
        headers: Dict[str, str],
        read: Callable[[http.client.HTTPResponse], bytes],
    ) -> Tuple[int, http.client.HTTPMessage, bytes]:
        """Sends one request and answers its status, headers and body (read by ``read``).

        Raises OSError or http.client.HTTPException when no whole answer came.
        A kept-alive connection that turns out closed before it was answered is
        replaced by a new one once, at once.
        """
        conn, reused = self._take()
        while True:
            try:
                conn.request(method, self.prefix + path, body=body, headers=headers)
                answer = conn.getresponse()
            except _STALE:
                conn.close()
                if not reused:
                    raise
                conn, reused = self._new(), False
                continue
            except BaseException:
                conn.close()
                raise
            break
        try:
            data = read(answer)
        except BaseException:
            conn.close()
            raise
        answer.close()  # read to its end: this frees the connection for the next request
        if answer.will_close:
            conn.close()
        else:
            self._give_back(conn)
        return answer.status, answer.headers, data

    def close(self) -> None:
        """Closes the idle connections."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

