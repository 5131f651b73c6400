"""The fork-server host: imports ``preload`` once, then serves runs over a framed JSON pipe.

In "namespaces" mode it forks its zygote before the first run and asks it for every run
(``grader.runner.zygote``): the host reads every run's output, so a run forked from the host
could read other runs' output in its memory. In "rlimits" mode it forks the runs itself.

Started by :class:`grader.runner.client.ForkServer` as a fresh ``python -I`` process with a
minimal environment. Messages (client -> host): ``hello`` (first), ``run``, ``cancel``,
``shutdown``; (host -> client): ``ready`` or ``fatal``, then per run id ``result`` or
``error``, or ``cancelled`` for a run cancelled before it started.
Single-threaded: one selector loop multiplexes every active run's pipes, the SIGCHLD wakeup
fd and the client pipe; output to the client is buffered so neither side can deadlock.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import gc
import os
import selectors
import shutil
import signal
import sys
import time
import traceback
from typing import Any

from grader.runner import child, fairwall, passfd, report, sandbox, spawn, zygote_link
from grader.runner.channel import ChannelReader
from grader.runner.housing import Housing, Layout, host_layout, preload
from grader.runner.housing import choose_isolation as choose_isolation  # re-exported
from grader.runner.model import RunnerError, RunRequest
from grader.runner.protocol import FrameDecoder, encode, write_all
from grader.runner.runstate import Run

#: After the run's top process exited, how long to wait for its pipes to reach EOF.
DRAIN_GRACE = 1.0


class Host:
    def __init__(
        self, in_fd: int, out_fd: int, mode: str, hide: list[str], layout: Layout | None = None
    ) -> None:
        self.in_fd, self.out_fd, self.mode, self.hide = in_fd, out_fd, mode, hide
        self.plan, self.drop = layout or host_layout(mode)
        self.housing = Housing.create(mode)
        child.prepare(spawn.NS_WORKDIR if mode == "namespaces" else None)
        self.sel = selectors.DefaultSelector()
        self.decoder = FrameDecoder()
        self.outbuf = bytearray()
        self.runs: dict[int, Run] = {}  # by top pid
        #: "namespaces": the zygote that forks every run (``announce_and_serve`` starts it).
        self.zygote: zygote_link.ZygoteLink | None = None
        self.by_fd: dict[int, Run] = {}
        #: Runs to start: id, request, and the pipes the client made for it (``passfd``).
        self.pending: collections.deque[tuple[int, RunRequest, passfd.Pipes]] = collections.deque()
        self.closing = False
        self.wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        os.set_blocking(in_fd, False)
        os.set_blocking(out_fd, False)
        self.sel.register(in_fd, selectors.EVENT_READ)
        self.sel.register(self.wake_r, selectors.EVENT_READ)

    def send(self, message: dict[str, Any]) -> None:
        self.outbuf += encode(message)

    def serve(self) -> None:
        while True:
            self._flush()  # may end the output (the client is gone): so test after it
            if self.closing and not self.runs and not self.outbuf:
                return
            now = time.monotonic()
            waits = [r.deadline - now for r in self.runs.values() if r.kill_reason is None]
            waits += [r.ended + DRAIN_GRACE - now for r in self.runs.values() if r.ended]
            timeout = max(0.0, min(waits)) if waits else None
            for key, _ in self.sel.select(timeout):
                self._on_ready(key.fd)
            self._reap()
            self._check_runs()

    def _on_ready(self, fd: int) -> None:
        if fd == self.in_fd:
            self._read_client()
        elif fd == self.wake_r:
            while True:
                try:
                    if not os.read(fd, 4096):
                        break
                except BlockingIOError:
                    break
        elif fd == self.out_fd:
            self._flush()
        elif self.zygote is not None and fd == self.zygote.fileno():
            self.zygote.read()
        elif fd in self.by_fd:
            self._read_run(self.by_fd[fd], fd)

    def _read_client(self) -> None:
        try:
            data = os.read(self.in_fd, 1 << 16)
        except BlockingIOError:
            return
        if not data:  # the client is gone: kill everything and leave
            self.sel.unregister(self.in_fd)
            self.closing = True
            self.outbuf.clear()
            for run in self.runs.values():
                self._kill(run, "shutdown")
            return
        # Hygiene: the student's process is a fork of this one, started from inside this call.
        # No local here or below may still hold a request when it forks (see child.main).
        messages = self.decoder.feed(data)
        del data
        while messages:
            message = messages.pop(0)
            if message.get("op") == "run":
                self._queue(int(message["id"]), message.pop("request"), message.get("pass_fd"))
            elif message.get("op") == "cancel":  # the client needs this run no more
                self._cancel(message.get("id"))
            elif message.get("op") == "shutdown":
                self.closing = True
        while self.pending:
            self._start_next()

    def _cancel(self, rid: object) -> None:
        """Kill run ``rid``; if it has not started yet (its frame came in the same read), it
        never starts, and the client hears ``cancelled`` instead of its result."""
        for run in self.runs.values():
            if run.rid == rid:
                self._kill(run, "cancelled")
        for entry in [entry for entry in self.pending if entry[0] == rid]:
            self.pending.remove(entry)
            passfd.close_pipes(entry[2])
            _close_passed(entry[1].pass_fd)
            self.send({"op": "cancelled", "id": rid})

    def _queue(self, rid: int, payload: dict[str, Any], pass_fd: object) -> None:
        """The run's descriptors came before its frame (``passfd``): its pipes, and the
        passed one if ``pass_fd``."""
        pipes, fd = None, None
        try:
            pipes, fd = passfd.receive(self.fd_channel, rid, passed=pass_fd is True)
            request = dataclasses.replace(RunRequest.from_json(payload), pass_fd=fd)
            self.pending.append((rid, request, pipes))
        except Exception as exc:
            if pipes is not None:
                passfd.close_pipes(pipes)
            _close_passed(fd)
            self.send({"op": "error", "id": rid, "message": f"bad run request: {exc!r}"})
        finally:
            payload.clear()

    #: The host's end of the client's descriptor channel (``passfd``); -1: none.
    fd_channel = -1

    def _forget(self) -> None:
        """In a freshly forked run: drop other runs' requests from our copy of the host."""
        self.runs.clear()
        self.by_fd.clear()
        self.pending.clear()
        self.outbuf = bytearray()
        self.decoder = FrameDecoder()

    def _start_next(self) -> None:
        rid, pipes = self.pending[0][0], self.pending[0][2]  # no local holds the request
        box = [self.pending.popleft()[1]]
        try:
            group = self.housing.run_group(rid)
            if self.zygote is not None:
                proc = self.zygote.start(rid, box[0], pipes)
            else:
                proc = spawn.launch(
                    box,
                    pipes,
                    housing=(group, self.housing.scratch),
                    drop=self.drop,
                    forget=self._forget,
                )
        except Exception as exc:
            self.send({"op": "error", "id": rid, "message": f"could not start run: {exc!r}"})
            return
        finally:
            _close_passed(box[0].pass_fd if box else None)
        request = box[0]  # only the host gets here; the child emptied its own copy of the box
        fds = {proc.out_r: "out", proc.err_r: "err", proc.chan_r: "chan", proc.stat_r: "stat"}
        channel = ChannelReader(request.limits.record_bytes)
        run = Run(rid, request, proc, time.monotonic(), fds, channel, group=group)
        self.runs[proc.top] = run
        for fd in fds:
            os.set_blocking(fd, False)
            self.by_fd[fd] = run
            self.sel.register(fd, selectors.EVENT_READ)

    def _read_run(self, run: Run, fd: int) -> bool:
        """Read one chunk; False when nothing more is available right now (or EOF)."""
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        kind = run.open_fds[fd]
        if not data:
            self._close_fd(run, fd)
            return False
        if kind == "chan":
            run.channel.feed(data)
        elif kind == "stat":
            run.status_lines += data[: (1 << 20) - len(run.status_lines)]
        else:
            buf = run.out if kind == "out" else run.err
            room = max(0, run.request.limits.output_bytes - len(buf))
            buf += data[:room]
            if len(data) > room:
                if kind == "out":
                    run.out_truncated = True
                else:
                    run.err_truncated = True
                self._kill(run, "output")
        return True

    def _close_fd(self, run: Run, fd: int) -> None:
        self.sel.unregister(fd)
        os.close(fd)
        del run.open_fds[fd]
        del self.by_fd[fd]

    def _kill(self, run: Run, reason: str) -> None:
        first = run.kill_reason is None
        if first:
            run.kill_reason = reason
        if self.zygote is not None:  # it kills the run's PID 1, and with it the whole run
            if first and run.top_status is None:  # once: a flood calls this per chunk read
                self.zygote.kill(run.rid)
            return
        top = run.proc.top if run.top_status is None else 0  # reaped: its pid may be reused
        for target in (top, -(run.student_pid or 0)):
            if target:
                with contextlib.suppress(OSError):
                    os.kill(target, signal.SIGKILL)

    def _on_ended(self, rid: int, status: int, usage: tuple[float, int]) -> None:
        """The zygote reaped run ``rid``'s student."""
        for run in self.runs.values():
            if run.rid == rid and run.top_status is None:
                run.top_status, run.usage, run.ended = status, usage, time.monotonic()
                return

    def _reap(self) -> None:
        for pid, status, usage in spawn.reaped():
            if self.zygote is not None and pid == self.zygote.pid:
                zygote_link.gone()
            run = self.runs.get(pid)
            if run is not None and run.top_status is None:
                run.top_status, run.usage, run.ended = status, usage, time.monotonic()

    def _check_runs(self) -> None:
        now = time.monotonic()
        for run in list(self.runs.values()):
            self._parse_status(run)
            if run.kill_reason is None and run.ended is None and now >= run.deadline:
                self._wall_due(run, now)
            if run.ended is None:
                continue
            if self.mode == "rlimits" and not run.swept:
                self._end_processes(run)
            if run.open_fds and now < run.ended + DRAIN_GRACE:
                continue
            for fd in list(run.open_fds):
                for _ in range(64):  # bounded: a leftover writer cannot keep us here
                    if not self._read_run(run, fd):
                        break
                if fd in run.open_fds:
                    self._close_fd(run, fd)
            del self.runs[run.proc.top]
            if run.proc.lifeline is not None:
                os.close(run.proc.lifeline)
            if run.proc.workdir:
                shutil.rmtree(run.proc.workdir, ignore_errors=True)
            self._send_result(run)

    def _wall_due(self, run: Run, now: float) -> None:
        """Past the wall deadline: kill, unless waiting for a CPU made it late (``fairwall``)."""
        waited = fairwall.cpu_wait(run.proc.top)
        if waited is not None:
            run.waited = max(run.waited or 0.0, waited)
        elapsed = now - run.started
        later = fairwall.next_deadline(
            run.request.limits, elapsed=elapsed, waited=run.waited or 0.0
        )
        if later is None:
            self._kill(run, "wall")
        else:
            run.deadline = run.started + later

    def _end_processes(self, run: Run) -> None:
        """rlimits: the run is over, so is every process it started (``Housing.end_run``)."""
        run.swept = True
        self.housing.end_run(run.group, active=set(self.runs) - {run.proc.top})

    def announce_and_serve(self) -> None:
        if self.mode == "namespaces":  # before the first run: it never holds a run's data
            self.zygote = zygote_link.ZygoteLink(self.hide, self.plan, self._on_ended)
            self.sel.register(self.zygote.fileno(), selectors.EVENT_READ)
        self.send(
            {
                "op": "ready",
                "isolation": self.mode,
                "pid": os.getpid(),
                "as_nobody": self.drop,
                "shared_devices": self.plan is not None and self.plan.bound_devices,
                "cleanup": self.housing.cleanup,
            }
        )
        try:
            self.serve()
        finally:
            if self.zygote is not None:
                self.zygote.close()  # and reap it: else it would be a zombie of our reaper
            self.housing.release()

    def _send_result(self, run: Run) -> None:
        """The run's result; a fault while building it stays inside that run. The channel is
        the only structured input a run controls, so the second try goes without it."""
        try:
            self.send(report.finish(run, self.mode))
            return
        except Exception:
            dropped = run.channel.dropped + len(run.channel.records) + 1
            run.channel = ChannelReader(0)
            run.channel.dropped = dropped
        try:
            self.send(report.finish(run, self.mode))
        except Exception as exc:
            self.send({"op": "error", "id": run.rid, "message": f"could not report: {exc!r}"})

    def _parse_status(self, run: Run) -> None:
        if run.student_pid is None and b"\n" in run.status_lines:
            started = report.read_status(run.status_lines).get("started")
            if started is not None and started not in (os.getpid(), os.getpgid(0)):
                run.student_pid = started

    def _flush(self) -> None:
        if self.outbuf:
            try:
                n = os.write(self.out_fd, self.outbuf)
                del self.outbuf[:n]
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self.outbuf.clear()
                self.closing = True
        registered = self.out_fd in self.sel.get_map()
        if self.outbuf and not registered:
            self.sel.register(self.out_fd, selectors.EVENT_WRITE)
        elif not self.outbuf and registered:
            self.sel.unregister(self.out_fd)


def _close_passed(fd: int | None) -> None:
    """The run's process tree has the passed descriptor now (or never will): the host drops
    its copy, so the caller's end sees EOF once the run is over."""
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def main() -> None:
    """Entry point of the host process (see ``client._BOOTSTRAP``)."""
    in_fd, out_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    decoder = FrameDecoder()
    hello: dict[str, Any] = {}
    while not hello:
        chunk = os.read(in_fd, 1 << 16)
        if not chunk:
            return
        messages = decoder.feed(chunk)
        hello = messages[0] if messages else {}
    try:
        sys.path[:] = [p for p in hello.get("sys_path", sys.path) if isinstance(p, str)]
        mode = choose_isolation(str(hello.get("isolation", "auto")))
        for name in hello.get("preload", ()):
            preload(str(name))
        hide = [os.path.abspath(p) for p in hello.get("hide", ())]
        sandbox.prctl(sandbox.PR_SET_CHILD_SUBREAPER, 1)
        host = Host(in_fd, out_fd, mode, hide)
        host.fd_channel = int(hello.get("fd_channel", -1))
        if host.fd_channel >= 0:
            os.set_inheritable(host.fd_channel, False)  # never into a run's exec'd PID 1
    except BaseException as exc:
        text = str(exc) if isinstance(exc, RunnerError) else traceback.format_exc()
        write_all(out_fd, encode({"op": "fatal", "message": text}))
        return
    gc.collect()
    gc.freeze()  # forked children then do not touch (copy) every old object's page
    host.announce_and_serve()
