"""A room's outgoing frames to one socket (``room.Client``): sent in order by the client's writer task,
never waited for by the room; a client that does not read is dropped (1013) once ``SEND_QUEUE`` frames
wait; a shutdown drops what waits except its last (error) frame, which goes just before the close."""

from __future__ import annotations

import asyncio

from cosmodeck.server.room import SEND_QUEUE, Client


class Socket:
    def __init__(self, blocked: bool = False) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        self.gate = asyncio.Event()
        if not blocked:
            self.gate.set()

    async def send(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed = code


def test_frames_go_out_in_order_and_the_close_comes_last() -> None:
    async def main() -> None:
        sock = Socket()
        c = Client(0, sock.send, sock.close, 1.0)
        for i in range(5):
            c.send(f"f{i}")
        await asyncio.sleep(0.01)
        assert sock.sent == ["f0", "f1", "f2", "f3", "f4"] and sock.closed is None
        c.send("f5")  # the writer was waiting on an empty queue: woken
        await asyncio.sleep(0.01)
        assert sock.sent[-1] == "f5"
        c.shutdown(1000)
        c.send("after")  # nothing is sent after a shutdown
        await asyncio.wait_for(c.task, 1)
        assert sock.sent == ["f0", "f1", "f2", "f3", "f4", "f5"] and sock.closed == 1000

    asyncio.run(main())


def test_a_client_that_does_not_read_is_dropped_and_gets_only_the_last_frame() -> None:
    async def main() -> None:
        sock = Socket(blocked=True)
        c = Client(None, sock.send, sock.close, 1.0)
        c.send("first")
        await asyncio.sleep(0.01)  # the writer is stuck sending "first"
        for i in range(SEND_QUEUE):
            c.send(f"f{i}")
        assert not c.closed and len(c.queue) == SEND_QUEUE
        c.send("one too many")
        assert c.closed and list(c.queue) == [None]  # what waited is dropped
        sock.gate.set()
        await asyncio.wait_for(c.task, 1)
        assert sock.sent == ["first"] and sock.closed == 1013

        sock2 = Socket(blocked=True)
        c2 = Client(1, sock2.send, sock2.close, 1.0)
        c2.send("a")
        await asyncio.sleep(0.01)  # the writer is stuck sending "a"
        c2.send("b")
        c2.shutdown(1012, '{"type":"error"}')
        sock2.gate.set()
        await asyncio.wait_for(c2.task, 1)
        assert sock2.sent == ["a", '{"type":"error"}'] and sock2.closed == 1012

    asyncio.run(main())
