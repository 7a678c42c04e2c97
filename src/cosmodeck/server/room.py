"""One room: a game, its seats and clients, driven by one actor task.

Everything that changes a room goes through its inbox and is handled in order by the actor:
client messages, joins and leaves, and scheduler ticks (deadlines, bot moves, seat takeovers).
An accepted step (an action, an ``advance`` or the start) is all-or-nothing: it is applied to a
copy of the state, stored, and only then made current and broadcast. If storing fails, the room
stays at its stored version, the client whose step it was gets ``storage_unavailable``, and the
scheduler retries due deadlines and bot moves later with a back-off (``durable.Backoff``).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from cosmodeck.bots.base import Bot, LazyView
from cosmodeck.bots.ismcts import ISMCTSBot
from cosmodeck.bots.registry import make_bot
from cosmodeck.engine.errors import CosmodeckError, IllegalActionError
from cosmodeck.engine.events import Event
from cosmodeck.engine.game import Game
from cosmodeck.engine.rng import Rng, derive_seed
from cosmodeck.engine.state import State
from cosmodeck.server.botlimits import CpuBudget
from cosmodeck.server.botplay import CallPlanner
from cosmodeck.server.config import ServerConfig
from cosmodeck.server.durable import Backoff, room_moved, storage_unavailable
from cosmodeck.server.idle import Book, Replaced, timed_seats
from cosmodeck.server.protocol import (
    ActMsg,
    BackMsg,
    ChatMsg,
    ClientMsg,
    EmoteMsg,
    KickMsg,
    PingMsg,
    ProtocolError,
    RematchMsg,
    SignalMsg,
    StartMsg,
    VoteMsg,
)
from cosmodeck.server.scheduler import Scheduler
from cosmodeck.server.talk import TokenBucket, check_talk
from cosmodeck.server.wire import dumps
from cosmodeck.storage.errors import RoomLost, StorageUnavailable
from cosmodeck.storage.repository import Step

log = logging.getLogger("cosmodeck.server")

Writer = Callable[..., Awaitable[None]]
Rematcher = Callable[["Room"], Awaitable[tuple[str, dict[str, str]]]]  # -> (new room id, seat -> token)
_CONNECTIONS = itertools.count()
CLOSE_FULL = 1013  # the room has as many spectators as it accepts: try again later
CLOSE_REPLACED = 4409  # the seat's newer connection took this one's place: the client does not reconnect
SEND_QUEUE = 256  # messages waiting for a slow client before it is dropped


class Client:
    """One WebSocket connection: a seat (``None`` = spectator) and an outgoing queue.

    The room never waits for a client: frames go to the queue and a writer task sends them. (A deque
    and one future the writer waits on when it is empty: an ``asyncio.Queue`` costs several times more
    per frame, and a room sends a few frames per client per step.)
    """

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 close: Callable[[int], Awaitable[None]], message_rate: float) -> None:
        self.seat = seat
        self._send = send
        self._close = close
        self.queue: deque[str | None] = deque()  # None: close the socket
        self._wake: asyncio.Future[None] | None = None  # the writer waits on it while the queue is empty
        self.inbound = TokenBucket(message_rate)  # every message this connection sends (checked as it is read)
        self.order = next(_CONNECTIONS)  # which of a seat's connections is the oldest
        self.closed = False
        self._close_code = 1000
        self.task = asyncio.get_running_loop().create_task(self._writer())

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self.queue) >= SEND_QUEUE:
            log.warning("dropping a client that does not read (seat %s)", self.seat)
            self.shutdown(1013)
            return
        self._put(text)

    def _put(self, item: str | None) -> None:
        self.queue.append(item)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def shutdown(self, code: int = 1000, last: str | None = None) -> None:
        """Close: frames still queued are dropped, except ``last`` (an error frame), sent just before the close."""
        if self.closed:
            return
        self.closed = True
        self._close_code = code
        self.queue.clear()
        if last is not None:
            self.queue.append(last)
        self._put(None)

    async def _writer(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                while not self.queue:
                    self._wake = loop.create_future()
                    await self._wake
                self._wake = None
                text = self.queue.popleft()
                if text is None:
                    await self._close(self._close_code)
                    return
                await self._send(text)
        except Exception:  # the socket went away; the room hears of it through the receive loop
            self.closed = True


@dataclass
class Seat:
    token: str | None  # a human seat's invite token, as its SHA-256 hex digest (never the token)
    bot_spec: str | None  # a bot seat's bot
    clients: int = 0
    joined: bool = False  # has connected at least once
    gone_since: float | None = None  # wall time the last connection left (or the game started without them)
    takeover: Bot | None = None  # a bot playing while the human is gone


@dataclass
class _Join:
    client: Client
    done: asyncio.Future[None]


@dataclass
class _Leave:
    client: Client


@dataclass
class _Inbound:
    client: Client
    msg: ClientMsg


@dataclass
class _Tick:
    pass


@dataclass
class _Stop:
    pass


_Item = _Join | _Leave | _Inbound | _Tick | _Stop


class Room:
    def __init__(self, room_id: str, game: Game[Any], state: State, seats: dict[int, Seat], status: str,
                 origin: float | None, version: int, config: ServerConfig, write: Writer,
                 on_idle: Callable[[Room], None] | None = None, created: float | None = None,
                 on_lost: Callable[[Room], None] | None = None, book: Book | None = None,
                 rematcher: Rematcher | None = None) -> None:
        self.id = room_id
        self.game = game
        self.state = state
        self.seats = seats
        self.status = status
        self.origin = origin
        self.version = version
        self.config = config
        self.created = created if created is not None else time.time()
        self._write = write
        self._on_idle = on_idle
        self._on_lost = on_lost
        self.backoff = Backoff()  # failed writes: when the scheduler may try again
        self.lost = False  # storage said this copy is out of date: the actor has stopped
        self.clients: set[Client] = set()
        self.inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self.bots: dict[int, Bot] = {s: make_bot(game.id, seat.bot_spec, game) for s, seat in seats.items()
                                     if seat.bot_spec is not None}
        self.bot_rng = Rng(derive_seed(state.seed, 0xB07, version))
        self.plans: dict[int, float] = {}  # seat -> wall time of its bot's next move
        self.calls = CallPlanner(self.bot_rng, config.bot_speed)  # bots react to each new call afresh
        self.chat: deque[str] = deque(maxlen=config.chat_history)
        self.scheduler = Scheduler(self._post_tick)
        self._last_events: list[Event] = []
        # (version, events) of recent steps: a client that (re)joins gets its log back
        self.history: deque[tuple[int, list[Event]]] = deque(maxlen=config.event_history)
        self.task: asyncio.Task[None] | None = None
        self.idle_since: float | None = time.time()  # no client yet (a finished room loaded on demand unloads)
        self.public: dict[str, Any] = {}  # options (documents by hash), card data, fixed seed: told to everyone
        self.cpu = CpuBudget(config.bot_cpu_burst_s, config.bot_cpu_rate)  # search bots' thinking time
        # idle seats (server.idle): the host, seats a bot plays while their person is idle, votes
        self.book = book if book is not None else Book(host=min((i for i, st in seats.items()
                                                                  if st.token is not None), default=None))
        self._rematcher = rematcher
        # the bot for idle seats: the configured one, or the takeover bot in a game it cannot play
        self.idle_spec = config.idle_bot
        try:
            make_bot(game.id, config.idle_bot, game)
        except ValueError:
            self.idle_spec = config.takeover_bot
        self.turn_since: dict[int, float] = {}  # seat -> wall time its turn-based step began (its turn timer)
        # per seat, over all its connections: moves and talk (a second socket does not buy a second allowance)
        self.act_rate: dict[int, TokenBucket] = {}
        self.talk_rate: dict[int, TokenBucket] = {}
        for i in self.book.replaced:
            if i in seats and seats[i].token is not None and status == "playing":
                seats[i].takeover = self._idle_bot()

    # ==== lifecycle ===================================================================
    def start_actor(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"room-{self.id}")
        if self.status == "playing":
            now = time.time()
            for seat in self.seats.values():
                if seat.token is not None:
                    seat.gone_since = now  # after a restart nobody is connected yet: grace from now
            assert self.origin is not None
            for i in timed_seats(self.state):  # turn timers run on from the last stored step
                self.turn_since[i] = self.origin + self.state.now
        self._reschedule()  # a room with no human seat starts at once, through the actor (it is stored)

    async def stop(self) -> None:
        self.scheduler.cancel()
        if self.task is not None and not self.task.done():
            self.inbox.put_nowait(_Stop())
            try:
                await asyncio.wait_for(self.task, 5.0)
            except (TimeoutError, asyncio.CancelledError):
                self.task.cancel()
        for c in list(self.clients):
            c.shutdown(1001)

    def _post_tick(self) -> None:
        self.inbox.put_nowait(_Tick())

    async def _run(self) -> None:
        while True:
            item = await self.inbox.get()
            if isinstance(item, _Stop):
                return
            try:
                await self._handle(item)
            except RoomLost as e:
                self._lose(e)
                for waiting in [item, *_drain(self.inbox)]:
                    if isinstance(waiting, _Join):
                        waiting.client.shutdown(1012, dumps(room_moved().to_json()))
                        if not waiting.done.done():
                            waiting.done.set_result(None)
                return
            except Exception:
                log.exception("room %s: error while handling %s", self.id, type(item).__name__)
                if isinstance(item, _Join) and not item.done.done():
                    item.done.set_result(None)
            self._reschedule()

    async def _handle(self, item: _Item) -> None:
        if isinstance(item, _Tick):
            await self._on_tick()
        elif isinstance(item, _Inbound):
            if item.client in self.clients:
                try:
                    await self._on_message(item.client, item.msg)
                except ProtocolError as e:
                    item.client.send(dumps(e.to_json()))
                except StorageUnavailable:
                    item.client.send(dumps(storage_unavailable().to_json()))
        elif isinstance(item, _Join):
            await self._on_join(item.client)
            item.done.set_result(None)
        elif isinstance(item, _Leave):
            self._on_leave(item.client)

    # ==== public entry points (called from connection handlers) =======================
    async def join(self, client: Client) -> None:
        if self.lost:
            client.shutdown(1012, dumps(room_moved().to_json()))
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Join(client, done))
        await done

    def leave(self, client: Client) -> None:
        self.inbox.put_nowait(_Leave(client))

    def deliver(self, client: Client, msg: ClientMsg) -> None:
        self.inbox.put_nowait(_Inbound(client, msg))

    # ==== time =========================================================================
    def game_time(self, wall: float | None = None) -> float:
        """Game time now: seconds since the stored wall-clock origin (never before the state's time)."""
        if self.origin is None:
            return self.state.now
        wall = time.time() if wall is None else wall
        return max(self.state.now, wall - self.origin)

    def _wall_of(self, game_t: float) -> float:
        assert self.origin is not None
        return self.origin + game_t

    # ==== the actor's handlers =========================================================
    async def _on_join(self, client: Client) -> None:
        if not self._make_room_for(client):
            return
        self.clients.add(client)
        self.idle_since = None
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.clients += 1
            seat.joined = True
            seat.gone_since = None
            if seat.takeover is not None and client.seat not in self.book.replaced:
                seat.takeover = None  # an idle seat's bot plays on until its person acts or says "back"
                self.plans.pop(client.seat, None)
        started = failed = False
        if self._start_due():
            try:
                await self._begin()
                started = True
            except StorageUnavailable:
                failed = True
        client.send(dumps(self._hello(client.seat)))
        for line in self.chat:
            client.send(line)
        self._send_history(client)
        if started:
            self._announce_start()  # sends presence and views to everyone, this client included
            return
        self._broadcast_presence()
        client.send(dumps(self.view_message(client.seat)))
        if failed:
            client.send(dumps(storage_unavailable().to_json()))

    def _make_room_for(self, client: Client) -> bool:
        """Keep the room's connections bounded: a seat's newest connection closes its oldest one beyond
        ``seat_connections`` (a player who comes back is never locked out by stale sockets); a spectator
        beyond ``spectators`` is refused. False when ``client`` was refused (and closed)."""
        mine = sorted((c for c in self.clients if c.seat == client.seat), key=lambda c: c.order)
        if client.seat is None:
            if len(mine) >= self.config.spectators:
                client.shutdown(CLOSE_FULL, dumps(ProtocolError(
                    "room_full", f"this room already has {self.config.spectators} spectators").to_json()))
                return False
            return True
        for old in mine[:max(0, len(mine) - self.config.seat_connections + 1)]:
            self._on_leave(old, ProtocolError("replaced", "this seat was opened in another window"))
        return True

    def _on_leave(self, client: Client, why: ProtocolError | None = None) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        if why is None:
            client.shutdown()
        else:
            client.shutdown(CLOSE_REPLACED, dumps(why.to_json()))
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.clients -= 1
            if seat.clients == 0 and self.status != "over":
                seat.gone_since = time.time()
        self._broadcast_presence()
        if not self.clients:
            self.idle_since = time.time()
            if self.status == "over" and self._on_idle is not None:
                self._reschedule()

    async def _on_message(self, client: Client, msg: ClientMsg) -> None:
        if isinstance(msg, PingMsg):
            client.send('{"type":"pong"}')
            return
        if client.seat is None:
            raise ProtocolError("spectator", "spectators may watch but not act or talk")
        if isinstance(msg, ActMsg):
            await self._on_act(client.seat, msg)
        elif isinstance(msg, StartMsg):
            self._host_only(client.seat, "start the game")
            if self.status != "waiting":
                raise ProtocolError("already_started", "the game has already started")
            await self._begin()
            self._announce_start()
        elif isinstance(msg, ChatMsg | SignalMsg | EmoteMsg):
            self._on_talk(client, client.seat, msg)
        elif isinstance(msg, BackMsg):
            await self._on_back(client.seat)
        elif isinstance(msg, VoteMsg):
            await self._on_vote(client.seat, msg.seat)
        elif isinstance(msg, KickMsg):
            self._host_only(client.seat, "hand a seat to a bot")
            self._check_target(client.seat, msg.seat, "kick")
            await self._replace(msg.seat, "kick")
        elif isinstance(msg, RematchMsg):
            await self._on_rematch(client.seat)

    async def _on_act(self, seat: int, msg: ActMsg) -> None:
        if not _bucket(self.act_rate, seat, self.config.act_rate).take(time.monotonic()):
            raise ProtocolError("rate_limited", "too many moves: slow down")
        if self.status == "waiting":
            raise ProtocolError("not_started", "the game has not started yet")
        if self.status == "over":
            raise ProtocolError("game_over", "the game is over")
        if msg.version != self.version:
            raise ProtocolError("stale_version", f"your view is version {msg.version}, the game is at {self.version}",
                                {"action": msg.action, "version": msg.version})
        try:
            action = self.game.parse_action(msg.action)
        except CosmodeckError as e:
            raise ProtocolError(e.code, e.message) from None
        t = self.game_time()
        if await self._advance_due(t):
            raise ProtocolError("stale_version", "time ran out before your action arrived; look again",
                                {"action": msg.action, "version": msg.version})
        # the person acts: their seat is theirs again and votes against it lapse (stored with the step)
        book, returned = None, None
        if seat in self.book.replaced or self.book.votes.get(seat):
            book = self.book.copy()
            book.votes.pop(seat, None)
            returned = book.replaced.pop(seat, None)
        await self._apply(seat, action, t, book)
        if returned is not None:
            self._returned(seat, returned)
        elif book is not None:
            self._broadcast_presence()  # the votes against this seat lapsed

    async def _apply(self, seat: int, action: Any, t: float, book: Book | None = None) -> None:
        """Apply a parsed action for ``seat`` at game time ``t`` (no deadline is due by then)."""
        if not self.state.is_legal(seat, action):
            try:
                self.state.clone().apply(seat, action)
            except IllegalActionError as e:
                raise ProtocolError(e.code, e.message) from None
            raise ProtocolError("illegal_action", f"{action} is not legal now")
        new = self.state.clone()
        events = new.apply(seat, action, at=t)
        await self._commit(new, Step(t, seat, str(action)), events, book)

    async def _advance_due(self, t: float) -> bool:
        """Process deadlines due by game time ``t``; True if that changed the game."""
        d = self.state.next_deadline()
        if d is None or d > t:
            return False
        new = self.state.clone()
        events = new.advance(t)
        await self._commit(new, Step(t, None, None), events)
        return True

    async def _commit(self, new: State, step: Step, events: list[Event], book: Book | None = None) -> None:
        """Store ``step`` (and ``book``, the room's new idle book, if given), then make ``new`` (the
        state after it) current and tell everyone.

        If storing fails the exception propagates and nothing has changed: state, version, status.
        """
        over = new.is_over and self.status != "over"
        res = new.result if over else None
        result = None if res is None else res.to_dict()
        extras = None if book is None else book.to_json()
        await self._store("append", self.id, self.version, step, "over" if over else None, result, extras)
        before = timed_seats(self.state)
        self.state = new
        self.version += 1
        if book is not None:
            self.book = book
        self._restart_turns(before, step)
        if over:
            self.status = "over"
            self.plans.clear()
            for seat in self.seats.values():
                seat.takeover = None
        self._last_events = events
        if events:
            self.history.append((self.version, events))
        self._broadcast_all()

    async def _store(self, method: str, *args: Any) -> None:
        """One write; a failure starts (or lengthens) the back-off of the scheduler's retries."""
        try:
            await self._write(method, *args)
        except StorageUnavailable as e:
            if self.backoff.fail(time.time()):
                log.warning("room %s: storage unavailable, the room waits at version %d: %s",
                            self.id, self.version, e.message)
            raise
        if self.backoff.succeed():
            log.info("room %s: storage is back", self.id)

    def _lose(self, e: RoomLost) -> None:
        """Storage says this copy of the room is out of date or owned by another server: drop it."""
        log.warning("room %s: dropped from memory: %s", self.id, e.message)
        self.lost = True
        self.scheduler.cancel()
        frame = dumps(room_moved().to_json())
        for c in list(self.clients):
            c.shutdown(1012, frame)  # "service restart": clients reconnect and get the stored room
        self.clients.clear()
        if self._on_lost is not None:
            self._on_lost(self)

    async def _on_tick(self) -> None:
        if self.status == "waiting" and self._start_due():
            try:
                await self._begin()
            except StorageUnavailable:
                return  # retried after the back-off
            self._announce_start()
            return
        if self.status != "playing":
            return
        with suppress(StorageUnavailable):  # logged once by _store; the scheduler retries after the back-off
            await self._tick_playing()

    async def _tick_playing(self) -> None:
        wall = time.time()
        await self._advance_due(self.game_time(wall))
        for i, seat in self.seats.items():
            if (seat.token is not None and seat.takeover is None and seat.gone_since is not None
                    and wall >= seat.gone_since + self.config.grace_s and self.status == "playing"):
                seat.takeover = make_bot(self.game.id, self.config.takeover_bot, self.game)
                log.info("room %s: a bot takes seat %d until its player returns", self.id, i)
                self._broadcast_presence()
        for i in self._turns_over(wall):
            if self.status == "playing":
                await self._replace(i, "timeout")
        self._refresh_plans(wall)
        for seat_i in sorted(self.plans, key=lambda s: (self.plans[s], s)):
            if self.status != "playing":
                break
            if self.plans.get(seat_i, float("inf")) > time.time():
                continue
            await self._bot_move(seat_i)
            self._refresh_plans(time.time())

    async def _bot_move(self, seat: int) -> None:
        bot = self._bot_of(seat)
        del self.plans[seat]
        if bot is None or seat not in self.state.to_act:
            return
        t = self.game_time()
        await self._advance_due(t)
        if seat not in self.state.to_act or self.calls.is_new(self.state):
            return
        legal = self.state.legal_actions(seat)
        if not legal:
            return
        st = self.state
        if isinstance(bot, ISMCTSBot) and self.cpu.available():
            # A search takes a while: it thinks in a worker thread so that the other rooms keep running.
            # This room's actor waits for it, so the state cannot change meanwhile; the move then
            # lands at the game time it is ready (deadlines that fell due while it thought come first).
            action = await asyncio.to_thread(self.cpu.run, bot.act, st.view(seat), legal, self.bot_rng)
            t = self.game_time()
            await self._advance_due(t)
            if action is not None and (seat not in self.state.to_act or self.calls.is_new(self.state)):
                return
        else:  # a search bot over the room's CPU budget makes a cheap move instead
            action = self.cpu.cheap(seat, bot).act(LazyView(lambda: st.view(seat)), legal, self.bot_rng)
        if action is None:  # the bot waits and looks again later
            self.plans[seat] = time.time() + self._reaction(bot)
            return
        try:
            await self._apply(seat, action, t)
        except ProtocolError as e:
            log.warning("room %s: bot at seat %d chose a refused action %s: %s", self.id, seat, action, e.message)
            return
        if seat in self.book.replaced:
            self.book.replaced[seat].moves.append(str(action))  # told to its person when they are back

    def _bot_of(self, seat: int) -> Bot | None:
        return self.bots.get(seat) or self.seats[seat].takeover

    def _reaction(self, bot: Bot) -> float:
        return max(0.0, bot.reaction_time(self.bot_rng)) * self.config.bot_speed

    def _refresh_plans(self, wall: float) -> None:
        if self.status != "playing":
            self.plans.clear()
            return
        to_act = self.state.to_act
        for seat in list(self.plans):
            if seat not in to_act or self._bot_of(seat) is None:
                del self.plans[seat]
        self.calls.replan(self.state, self.plans, self._bot_of, self._wall_of, wall)
        for seat in sorted(to_act):
            bot = self._bot_of(seat)
            if bot is not None and seat not in self.plans:
                self.plans[seat] = wall + self._reaction(bot)

    def _on_talk(self, client: Client, seat: int, msg: ChatMsg | SignalMsg | EmoteMsg) -> None:
        if not _bucket(self.talk_rate, seat, self.config.talk_rate).take(time.monotonic()):
            raise ProtocolError("rate_limited", "too many messages: slow down")
        check_talk(self.state.view(seat), msg)
        out: dict[str, Any] = {"type": msg.type, "seat": seat, "time": round(self.game_time(), 3)}
        if isinstance(msg, ChatMsg):
            text = " ".join(msg.text.split())
            if not text:
                raise ProtocolError("bad_message", "empty chat line")
            if len(text) > self.config.chat_max:
                raise ProtocolError("too_long", f"a chat line may be at most {self.config.chat_max} characters")
            out["text"] = text
        else:
            out["kind"] = msg.kind
            if isinstance(msg, EmoteMsg) and msg.target is not None:
                out["target"] = msg.target
        line = dumps(out)
        self.chat.append(line)
        for c in self.clients:
            c.send(line)

    # ==== idle seats and the host (server.idle) ========================================
    def _idle_bot(self) -> Bot:
        return make_bot(self.game.id, self.idle_spec, self.game)

    def _restart_turns(self, before: frozenset[int], step: Step) -> None:
        """After a step: a seat whose turn-based step begins with it (or that acted and acts again)
        gets a fresh turn timer; seats no longer on a turn-based step have none."""
        now = timed_seats(self.state)
        wall = self._wall_of(step.at) if self.origin is not None else time.time()
        for i in list(self.turn_since):
            if i not in now:
                del self.turn_since[i]
        for i in now:
            if i not in before or step.seat == i or i not in self.turn_since:
                self.turn_since[i] = wall

    def _turn_ends(self) -> dict[int, float]:
        """Human seats on the turn timer (played by their person) -> wall time it runs out."""
        if self.config.turn_s <= 0 or self.status != "playing":
            return {}
        return {i: since + self.config.turn_s for i, since in sorted(self.turn_since.items())
                if self.seats[i].token is not None and self.seats[i].takeover is None
                and i not in self.book.replaced}

    def _turns_over(self, wall: float) -> list[int]:
        return [i for i, end in self._turn_ends().items() if wall >= end]

    def _host_only(self, seat: int, what: str) -> None:
        if seat != self.book.host:
            raise ProtocolError("not_host", f"only the host (the player who created the room) may {what}")

    def _check_target(self, seat: int, target: int, what: str) -> None:
        """A vote or kick names another human seat that its person plays, in a game being played."""
        if self.status == "waiting":
            raise ProtocolError("not_started", "the game has not started yet")
        if self.status == "over":
            raise ProtocolError("game_over", "the game is over")
        if target not in self.seats:
            raise ProtocolError("bad_seat", f"there is no seat {target} in this room")
        if self.seats[target].token is None:
            raise ProtocolError("bad_seat", f"seat {target} is already played by a bot")
        if target == seat:
            raise ProtocolError("vote_self" if what == "vote" else "kick_self",
                                "you cannot hand your own seat to a bot")
        if target in self.book.replaced:
            raise ProtocolError("already_bot", f"a bot is already playing seat {target}")

    async def _replace(self, seat: int, reason: str) -> None:
        """Hand a human seat to the idle bot until its person acts again (stored first)."""
        bot = self._idle_bot()
        book = self.book.copy()
        book.votes.pop(seat, None)
        book.replaced[seat] = Replaced(reason, self.version)
        await self._store("set_extras", self.id, book.to_json())
        self.book = book
        self.seats[seat].takeover = bot
        self.plans.pop(seat, None)
        self.turn_since.pop(seat, None)
        log.info("room %s: a bot plays seat %d (%s) until its person is back", self.id, seat, reason)
        self._refresh_plans(time.time())
        self._broadcast_presence()

    def _returned(self, seat: int, was: Replaced) -> None:
        """The seat's person is back (the book is already stored): tell them what the bot did."""
        self.seats[seat].takeover = None
        self.plans.pop(seat, None)
        report = dumps({"type": "idle_report", "seat": seat, "reason": was.reason, "count": len(was.moves),
                             "moves": was.moves[-50:]})
        for c in self.clients:
            if c.seat == seat:
                c.send(report)
        self._broadcast_presence()

    async def _on_back(self, seat: int) -> None:
        if seat not in self.book.replaced:
            raise ProtocolError("not_replaced", "no bot is playing for you: your seat is yours")
        book = self.book.copy()
        was = book.replaced.pop(seat)
        book.votes.pop(seat, None)
        await self._store("set_extras", self.id, book.to_json())
        self.book = book
        self._returned(seat, was)
        if seat in timed_seats(self.state):
            self.turn_since[seat] = time.time()  # a fresh turn timer
        self._last_events = []
        self._broadcast_all()  # everyone's view carries the new timer

    async def _on_vote(self, seat: int, target: int) -> None:
        self._check_target(seat, target, "vote")
        book = self.book.copy()
        book.votes.setdefault(target, set()).add(seat)
        voters = {i for i, st in self.seats.items() if st.token is not None and i != target and st.clients > 0}
        if voters <= book.votes[target]:
            await self._replace(target, "vote")
            return
        await self._store("set_extras", self.id, book.to_json())
        self.book = book
        self._broadcast_presence()

    async def _on_rematch(self, seat: int) -> None:
        self._host_only(seat, "start a rematch")
        if self.status != "over":
            raise ProtocolError("not_over", "a rematch starts once the game is over")
        if self.book.rematch is not None:
            raise ProtocolError("already_rematched", "the rematch room has already been created")
        if self._rematcher is None:
            raise ProtocolError("no_rematch", "this server cannot create a rematch room")
        new_id, tokens = await self._rematcher(self)
        book = self.book.copy()
        book.rematch = new_id
        await self._store("set_extras", self.id, book.to_json())
        self.book = book
        connected = {c.seat for c in self.clients if c.seat is not None}
        for c in self.clients:
            out: dict[str, Any] = {"type": "rematch", "room": new_id, "url": f"/room/{new_id}"}
            if c.seat is not None and str(c.seat) in tokens:
                out["seat"] = c.seat
                out["link"] = f"/room/{new_id}#token={tokens[str(c.seat)]}"
            if c.seat == self.book.host:  # seats nobody is connected to: the host passes their links on
                out["links"] = {s: f"/room/{new_id}#token={tok}" for s, tok in tokens.items()
                                if int(s) not in connected}
            c.send(dumps(out))

    # ==== start ========================================================================
    def _start_due(self) -> bool:
        """Start when every human seat has joined (at once when there is none)."""
        return self.status == "waiting" and all(seat.joined for seat in self.seats.values()
                                                if seat.token is not None)

    async def _begin(self) -> None:
        """Store the start (its wall-clock origin), then start; if storing fails the room stays waiting."""
        now = time.time()
        origin = now - self.state.now
        await self._store("start", self.id, origin)
        self.status = "playing"
        self.origin = origin
        for seat in self.seats.values():
            if seat.token is not None and seat.clients == 0:
                seat.gone_since = now - self.config.grace_s  # absent at the start: a bot plays at once
        for i in timed_seats(self.state):
            self.turn_since[i] = now
        self._refresh_plans(now)

    def _announce_start(self) -> None:
        self._last_events = []
        self._broadcast_presence()
        self._broadcast_all()

    # ==== scheduling ===================================================================
    def _reschedule(self) -> None:
        """Wake the actor at the next moment something is due: a deadline, a bot, a takeover."""
        if self.status == "over":
            if self._on_idle is not None and not self.clients and self.idle_since is not None:
                self.scheduler.at(self.idle_since + self.config.keep_finished_s, self._idle)
            else:
                self.scheduler.cancel()
            return
        if self.status == "waiting" and self._start_due():
            self.scheduler.at(self.backoff.not_before(time.time()), self._post_tick)
            return
        if self.status != "playing":
            self.scheduler.cancel()
            return
        self._refresh_plans(time.time())  # bots whose seat may act now get a planned move
        wakes: list[float] = list(self.plans.values())
        d = self.state.next_deadline()
        if d is not None:
            wakes.append(self._wall_of(d))
        for seat in self.seats.values():
            if seat.token is not None and seat.takeover is None and seat.gone_since is not None:
                wakes.append(seat.gone_since + self.config.grace_s)
        wakes.extend(self._turn_ends().values())
        if wakes:
            self.scheduler.at(self.backoff.not_before(min(wakes)), self._post_tick)
        else:
            self.scheduler.cancel()

    def _idle(self) -> None:
        if self._on_idle is not None and not self.clients and self.status == "over":
            self._on_idle(self)

    # ==== outgoing frames ==============================================================
    def _hello(self, seat: int | None) -> dict[str, Any]:
        return {"type": "hello", "room": self.id, "game": self.game.id, "players": self.state.players,
                "seat": seat, "status": self.status, "version": self.version, **self.public}

    def presence(self) -> dict[str, Any]:
        seats = {}
        for i, seat in self.seats.items():
            if seat.bot_spec is not None:
                seats[str(i)] = {"kind": "bot", "bot": seat.bot_spec, "connected": True}
            else:
                replaced = self.book.replaced.get(i)
                bot = (None if seat.takeover is None
                       else self.idle_spec if replaced else self.config.takeover_bot)
                seats[str(i)] = {"kind": "human", "connected": seat.clients > 0, "joined": seat.joined,
                                 "bot": bot, "idle": replaced.reason if replaced and seat.takeover else None}
        spectators = sum(1 for c in self.clients if c.seat is None)
        votes = {str(s): sorted(v) for s, v in sorted(self.book.votes.items()) if v}
        return {"type": "presence", "status": self.status, "seats": seats, "spectators": spectators,
                "host": self.book.host, "votes": votes}

    def _broadcast_presence(self) -> None:
        line = dumps(self.presence())
        for c in self.clients:
            c.send(line)

    def _send_history(self, client: Client) -> None:
        """Recent steps' events as this client's seat may see them, marked as history (not to animate)."""
        for version, events in self.history:
            visible = [d for d in (e.for_seat(client.seat) for e in events) if d is not None]
            if visible:
                client.send(dumps({"type": "events", "version": version, "events": visible, "history": True}))

    def _frames(self, seat: int | None, cache: dict[int | None, list[str]]) -> list[str]:
        """The frames for ``seat`` after a step: its events (if it may see any) and its view."""
        if seat not in cache:
            frames: list[str] = []
            visible = [d for d in (e.for_seat(seat) for e in self._last_events) if d is not None]
            if visible:
                frames.append(dumps({"type": "events", "version": self.version, "events": visible}))
            frames.append(dumps(self.view_message(seat)))
            cache[seat] = frames
        return cache[seat]

    def view_message(self, seat: int | None) -> dict[str, Any]:
        st = self.state
        playing = self.status == "playing"
        return {
            "type": "view",
            "version": self.version,
            "view": st.view(seat),
            "legal": [str(a) for a in st.legal_actions(seat)] if (seat is not None and playing) else [],
            "deadline": st.next_deadline(),
            "time": round(self.game_time(), 3),
            "status": self.status,
            # turn timers (game time each runs out), the same for everyone: shown as a bar
            "turns": {str(i): round(end - self.origin, 3) for i, end in self._turn_ends().items()}
            if self.origin is not None else {},
            "turn_s": self.config.turn_s,
        }

    def _broadcast_all(self) -> None:
        cache: dict[int | None, list[str]] = {}
        for c in self.clients:
            for frame in self._frames(c.seat, cache):
                c.send(frame)


def _drain(inbox: asyncio.Queue[_Item]) -> list[_Item]:
    items = []
    while not inbox.empty():
        items.append(inbox.get_nowait())
    return items


def _bucket(buckets: dict[int, TokenBucket], seat: int, rate: float) -> TokenBucket:
    """``seat``'s bucket of ``buckets``, made at ``rate`` the first time."""
    b = buckets.get(seat)
    if b is None:
        b = buckets[seat] = TokenBucket(rate)
    return b
