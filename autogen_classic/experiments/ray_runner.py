"""The chats of a study as Ray tasks (``run_group_chats(..., backend="ray")``).

With ``concurrency=1`` every chat is one Ray task that calls :func:`.single.run_chat` in a worker
process; with ``concurrency=N`` a task takes N chats and runs them at once on asyncio there
(:mod:`.at_once`), so a worker overlaps its chats' waits on the model as the local runner does. The
factory builds the agents in the worker, so no agent object travels, only the study's settings
(:class:`.single.ChatSpec`, pickled once with cloudpickle). At most a bounded window of tasks is in
flight, so a study of thousands of chats keeps the driver's memory flat; records reach the driver as
tasks finish.

The embedded model: each node runs at most one embedded-model server, shared by its tasks. A chat
whose factory asks for it (``autogen_classic.local.llm_config()``) gets the base URL of its node's
server from that node's host actor, which starts the server when a task of the node first asks; chats
on other endpoints start none. The hosts are created on demand by one registry actor of the Ray job
(:func:`embedded_model_hosts`). A server the driver already uses (its own, or
``AUTOGEN_CLASSIC_LOCAL_BASE_URL``) serves the tasks that can reach it instead.
"""

from __future__ import annotations

import ipaddress
import itertools
import math
import logging
import os
import random
from collections.abc import Callable
from contextlib import suppress
from dataclasses import fields
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from ..local.provided import use_provided_server
from .at_once import run_at_once_in_new_loop
from .records import ChatRecord
from .single import ChatSpec, StudySettingsError, failed_to_build, run_chat

__all__ = ["HOSTS_NAME", "WorkerSetupError", "check_ray", "embedded_model_hosts", "run_on_ray"]

INSTALL_HINT = 'pip install "autogen-classic[ray]"'
HOSTS_NAME = "autogen-classic-embedded-model-hosts"
"""The name of the Ray job's registry of per-node embedded-model hosts (see :func:`embedded_model_hosts`)."""
_MIN_WINDOW = 32  # tasks in flight at least; else twice the cluster's CPUs
_FIELD_HINTS = {
    "sender": "Give the name of a group agent as sender instead: the factory builds that agent in the worker.",
    "llm_config": "Give plain configuration data (model names, URLs, keys), not client objects.",
}

Keep = Callable[[ChatRecord], None]
DriverServer = tuple[str | None, str | None]  # (base URL, the node it serves; None: every node)

_task: Any = None  # the Ray remote function running one chat, made on first use
_hosts: Any = None  # the handle that created the registry of embedded-model hosts: it keeps it alive
_joined: str | None = None  # the address this process joined


class WorkerSetupError(RuntimeError):
    """A Ray worker could not load the study's settings (e.g. the factory's module is missing there)."""


def _import_ray() -> Any:
    try:
        import ray
        import ray.cloudpickle  # noqa: F401  (what Ray pickles tasks with)
    except ImportError as err:
        raise ImportError(f'backend="ray" needs Ray, which is not installed: {INSTALL_HINT}') from err
    return ray


# ----------------------------------------------------------------- before any chat runs
def _round_trip(ray: Any, value: Any) -> None:
    ray.cloudpickle.loads(ray.cloudpickle.dumps(value))


def _unpicklable_field(ray: Any, spec: ChatSpec) -> str | None:
    for spec_field in fields(spec):
        try:
            _round_trip(ray, getattr(spec, spec_field.name))
        except Exception:
            return spec_field.name
    return None


def check_ray(spec: ChatSpec, address: str | None) -> None:
    """Check, before any chat runs, that the study can run on Ray.

    Raises:
        ValueError: ``address`` is not None or a non-empty str.
        ImportError: Ray is not installed (the message names the ``ray`` extra).
        TypeError: a setting of the study (e.g. ``make_groupchat``) cannot be pickled for the workers;
            the message names it.
    """
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise ValueError(
            'address must be the Ray cluster to join, a str such as "auto" or "ray://head:10001", or None '
            f"to start a local Ray instance; got {address!r}."
        )
    ray = _import_ray()
    try:
        _round_trip(ray, spec)
    except Exception as err:
        name = _unpicklable_field(ray, spec) or "the study's settings"
        hint = _FIELD_HINTS.get(name, "Create locks, open files, sockets and clients inside make_groupchat "
                                      "instead of capturing them from outside.")
        raise TypeError(
            f"{name} cannot be sent to the Ray workers ({type(err).__name__}: {err}). Every chat runs in a Ray "
            f"worker process, which gets the study's settings pickled with cloudpickle: functions and lambdas "
            f'are fine, objects such as locks and sockets are not. {hint} Or run with backend="local".'
        ) from err


# ----------------------------------------------------------------- Ray itself
def _current_address(ray: Any) -> str | None:
    try:
        return str(ray.get_runtime_context().gcs_address)
    except Exception:  # e.g. a Ray client connection, which has no GCS address of its own
        return None


def _connect(ray: Any, address: str | None) -> None:
    """Use the Ray instance of this process; else join ``address``, or start a local one (None)."""
    global _joined
    if ray.is_initialized():
        current = _current_address(ray)
        if address is not None and address != "auto" and address not in (current, _joined):
            raise ValueError(
                f"address={address!r}: this process is already connected to Ray"
                f"{f' at {current}' if current else ''}. Leave address out to run there, or call "
                f"ray.shutdown() first to join {address!r}."
            )
        return
    if address is None:
        # Like Ray's own start on first use, the instance stays up for later studies until exit.
        ray.init(include_dashboard=False, logging_level=logging.WARNING)
        _joined = None
    else:
        ray.init(address=address, logging_level=logging.WARNING)
        _joined = address


def _window(ray: Any, concurrency: int) -> int:
    """Tasks in flight: twice the cluster's CPUs, and at least ``_MIN_WINDOW`` chats' worth."""
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
    except Exception:
        cpus = 0
    return max(math.ceil(_MIN_WINDOW / concurrency), 2 * cpus)


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _driver_server(ray: Any) -> DriverServer:
    """The embedded-model server the driver uses already, if any, and the node that can reach it."""
    from ..local import BASE_URL_ENV, current_server

    url = os.environ.get(BASE_URL_ENV, "").strip() or None
    if url is None:
        server = current_server()
        url = server.base_url if server is not None else None
    if url is None or not url.startswith(("http://", "https://")):
        return None, None
    if not _is_loopback(url):
        return url, None
    if ray.util.client.ray.is_connected():
        return None, None  # the driver is not on any node of the cluster
    return url, ray.get_runtime_context().get_node_id()


# ----------------------------------------------------------------- the embedded model, one server per node
def _start_embedded_server() -> str:
    from ..local import start_server

    return start_server().base_url


class _EmbeddedModelHost:
    """A node's embedded-model host: the actor process owning that node's one server."""

    def __init__(self, start: Callable[[], str] | None) -> None:
        self._start = start if start is not None else _start_embedded_server

    def base_url(self) -> str:
        """The base URL of the node's server, started on the first call (and again if it died)."""
        return self._start()


class _EmbeddedModelHosts:
    """The job's registry of node hosts: creates a node's host when a task of that node first asks.

    Ray ends an actor with its owner (and a named one when its last handle goes), so the hosts are
    owned here, by an actor of the driver, not by the worker that happened to ask first.
    """

    def __init__(self, start: Callable[[], str] | None) -> None:
        self._start = start
        self._hosts: dict[str, Any] = {}

    def host(self, node_id: str) -> Any:
        """The host actor of node ``node_id``, created (pinned to the node) on the first call."""
        if node_id not in self._hosts:
            ray = _import_ray()
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            self._hosts[node_id] = ray.remote(_EmbeddedModelHost).options(
                num_cpus=0,  # it waits for requests; the server's own threads are outside Ray's accounting
                max_restarts=3,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node_id, soft=False),
            ).remote(self._start)
        return self._hosts[node_id]

    def nodes(self) -> list[str]:
        """The nodes whose host was asked for so far."""
        return sorted(self._hosts)


def embedded_model_hosts(start: Callable[[], str] | None = None) -> Any:
    """The Ray job's registry of per-node embedded-model hosts (an actor), created on first use.

    Ray must be initialized. Every task asks it for the host of its own node
    (``registry.host.remote(node_id)``), whose ``base_url.remote()`` gives that node's one server.
    The registry, its hosts and their servers live as long as the Ray job (the handle that created the
    registry is kept by this module), or until the registry actor is killed.

    Args:
        start: used only when the registry is created here: run by a node's host to return the base URL
            of the server it owns, starting it when it is not running (default: the embedded model
            server of ``autogen_classic.local``).
    """
    global _hosts
    ray = _import_ray()
    try:
        return ray.get_actor(HOSTS_NAME)
    except ValueError:
        pass
    # Ray ends a named actor when the handle that created it goes, whatever other handles exist:
    # this module keeps that handle.
    _hosts = ray.remote(_EmbeddedModelHosts).options(name=HOSTS_NAME, get_if_exists=True, num_cpus=0).remote(start)
    return _hosts


def _node_base_url(hosts: Any, driver_url: str | None, driver_node: str | None) -> str:
    ray = _import_ray()
    node = ray.get_runtime_context().get_node_id()
    if driver_url is not None and driver_node in (None, node):
        return driver_url
    try:
        host = ray.get(hosts.host.remote(node))
        return str(ray.get(host.base_url.remote()))
    except ray.exceptions.RayTaskError as err:
        raise _cause(err) from None  # e.g. LocalModelUnavailableError, not Ray's wrapper


# ----------------------------------------------------------------- chats, in a worker
def _load_spec(payload: bytes) -> ChatSpec:
    ray = _import_ray()
    try:
        spec: ChatSpec = ray.cloudpickle.loads(payload)
    except Exception as err:
        raise WorkerSetupError(
            f"a Ray worker could not load the study's settings ({type(err).__name__}: {err}). The modules "
            "defining make_groupchat and the other settings must be importable on every node, e.g. with "
            "ray.init(runtime_env={'py_modules': [...]}) or by installing them there."
        ) from err
    return spec


def _run_in_worker(payload: bytes, runs: list[int], concurrency: int, hosts: Any,
                   driver_server: DriverServer) -> list[ChatRecord]:
    """The Ray task of chats ``runs``: load the study's settings, then build and run the chats here.

    One chat runs on the sync path, as one after another; a batch runs ``concurrency`` at once on
    asyncio, as the local runner does.
    """
    spec = _load_spec(payload)
    records: list[ChatRecord] = []
    with use_provided_server(partial(_node_base_url, hosts, *driver_server)):
        if concurrency > 1:
            run_at_once_in_new_loop(spec, runs, concurrency, records.append)
            return records
        for run in runs:
            saved = random.getstate() if spec.seed is not None else None
            if spec.seed is not None:
                random.seed(spec.seed + run)  # as one after another: anything else drawing from `random` repeats
            try:
                records.append(run_chat(spec, run))
            finally:
                if saved is not None:
                    random.setstate(saved)
    return records


def _cause(err: Any) -> BaseException:
    cause = getattr(err, "cause", None)
    return cause if isinstance(cause, BaseException) else err


def _outcome(ray: Any, spec: ChatSpec, runs: list[int], ref: Any) -> list[ChatRecord]:
    try:
        records: list[ChatRecord] = ray.get(ref)
        return records
    except ray.exceptions.RayTaskError as err:
        cause = _cause(err)
        if spec.on_error == "raise" or isinstance(cause, (WorkerSetupError, StudySettingsError)):
            raise cause from err  # the chat's own exception type; Ray's text holds the remote traceback
        return [failed_to_build(spec, run, cause) for run in runs]
    except ray.exceptions.RayError as err:  # the worker died, the node was lost, ...
        if spec.on_error == "raise":
            raise
        return [failed_to_build(spec, run, err) for run in runs]


def run_on_ray(spec: ChatSpec, runs: list[int], *, address: str | None, keep: Keep, concurrency: int = 1) -> None:
    """Run chats ``runs`` of the study ``spec`` as Ray tasks; call ``keep(record)`` as each finishes.

    Uses the Ray instance this process is connected to; else joins ``address``, or starts a local
    instance (no dashboard, quiet logs) that stays up for later studies. With ``concurrency=1`` each
    task runs one chat on the sync path; with more, each task takes ``concurrency`` chats and runs them
    at once on asyncio in its worker. A bounded window of tasks is in flight at once. With
    ``spec.on_error == "raise"`` the first chat that raises stops the study: its exception (of the
    chat's own type) reaches the caller and the other tasks are cancelled.
    """
    global _task
    if not runs:
        return
    ray = _import_ray()
    _connect(ray, address)
    if _task is None:
        _task = ray.remote(_run_in_worker)
    payload = ray.put(ray.cloudpickle.dumps(spec))  # sent to the object store once, not once per chat
    driver = _driver_server(ray)
    hosts = embedded_model_hosts()  # one idle actor; a node's host and server start only when a chat asks
    window = _window(ray, concurrency)
    batches = (runs[start:start + concurrency] for start in range(0, len(runs), concurrency))
    pending: dict[Any, list[int]] = {}
    try:
        while True:
            for batch in itertools.islice(batches, window - len(pending)):
                pending[_task.remote(payload, batch, concurrency, hosts, driver)] = batch
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                for record in _outcome(ray, spec, pending.pop(ref), ref):
                    keep(record)
    finally:
        for ref in pending:  # an error, or Ctrl-C: stop the chats still queued or running
            with suppress(Exception):  # never hide the error that got us here
                ray.cancel(ref)
