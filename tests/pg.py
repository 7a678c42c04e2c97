"""A throwaway PostgreSQL server for tests: initdb + pg_ctl on a temp dir and a free loopback port.

CI (CI=true) must have PostgreSQL (``make system-deps`` installs it): there a missing server fails
the tests. Elsewhere they are skipped with the reason.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _bindir() -> str | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "pg_ctl")):
            return d
    pg_ctl = shutil.which("pg_ctl")
    return os.path.dirname(pg_ctl) if pg_ctl else None


def missing(what: str) -> None:
    """Fail in CI, skip elsewhere."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{what} is required in CI (run `make system-deps`)")
    pytest.skip(f"{what} is not installed (run `make system-deps`)")


# admin URL -> (command prefix, pg_ctl, data dir, log file, server options, working dir)
_CONTROL: dict[str, tuple[list[str], str, str, str, str, str]] = {}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a server; yield an admin URL ``postgresql://postgres@127.0.0.1:PORT/postgres``."""
    bindir = _bindir()
    if bindir is None:
        missing("PostgreSQL (initdb/pg_ctl)")
        raise AssertionError("unreachable")
    root = os.geteuid() == 0
    base = tempfile.mkdtemp(prefix="cosmodeck-pg-")
    data = os.path.join(base, "data")
    port = _free_port()
    prefix: list[str] = []
    if root:  # PostgreSQL refuses to run as root: run it as the postgres user
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            missing("the postgres system user")
            raise AssertionError("unreachable") from None
        os.chown(base, pw.pw_uid, pw.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=base)

    options = f"-p {port} -k {base} -h 127.0.0.1 -c fsync=off -c full_page_writes=off"
    try:
        run(f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        run(f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(base, "log"), "-w", "-t", "60", "-o", options, "start")
    except subprocess.CalledProcessError as e:
        shutil.rmtree(base, ignore_errors=True)
        raise RuntimeError(f"could not start PostgreSQL: {e.stderr.decode(errors='replace')}") from e
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    _CONTROL[url] = (prefix, f"{bindir}/pg_ctl", data, os.path.join(base, "log"), options, base)
    try:
        yield url
    finally:
        _CONTROL.pop(url, None)
        subprocess.run([*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=base, check=False)
        time.sleep(0.1)
        shutil.rmtree(base, ignore_errors=True)


def fresh_database(admin_url: str) -> str:
    """Create an empty database on the server; return its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + "/" + name


@contextmanager
def postgres_down(any_url: str) -> Iterator[None]:
    """Stop the test PostgreSQL server that ``any_url`` points to (every session ends); start it again after."""
    admin = any_url.rsplit("/", 1)[0] + "/postgres"
    prefix, pg_ctl, data, log, options, cwd = _CONTROL[admin]

    def run(*args: str) -> None:
        subprocess.run([*prefix, pg_ctl, "-D", data, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd=cwd)

    run("-m", "fast", "-w", "stop")
    try:
        yield
    finally:
        run("-l", log, "-w", "-t", "60", "-o", options, "start")
