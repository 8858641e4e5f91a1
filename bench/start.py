#!/usr/bin/env python3
"""Start-up cost of Strata beside weston 10, in one run (docs/performance.md, "Start-up").

    bench/start.py [--runs N] [--rounds R] [--strata PATH] [--also NAME=PATH[@VAR=VALUE]]... [--markdown]

Both compositors start headless at 1280x720 and paint with pixman (weston:
--backend=headless-backend.so --use-pixman, whose headless default is to paint nothing; Strata
--backend headless, control socket on as in ordinary use). They alternate, a fresh process each
time, N times each (default 10), and every figure is the median of those N:

  socket   exec -> the socket file exists (inotify on XDG_RUNTIME_DIR, IN_CREATE).
  info     exec -> the first `wayland-info` answered: started as soon as the socket exists
           (again if it could not connect yet), timed to its successful exit. wayland-info's
           own start (a few ms) is in both figures alike.
  frame    exec -> the first `weston-simple-shm` frame shown: the client starts as soon as the
           socket exists, with WAYLAND_DEBUG=1; timed to the `done` of its first frame
           callback (the one asked for with its first buffer), read from its stderr. Both
           compositors send that `done` after the repaint that put the buffer on the screen,
           so it is the same event in both. A separate fresh start from `info`.
  cpu      the compositor's own CPU time (all its threads, /proc/PID/task/*/schedstat) from exec
           until the socket exists and until that wayland-info answered: what the start costs,
           whatever else the machine runs (the wall-clock figures above wait for the CPU too).
  idle     RSS and PSS (/proc/PID/smaps_rollup) of the compositor's process 300 ms after the
           `info` client ended: started, one client answered, none connected.
  client   the same with one weston-simple-shm shown (500 ms after its first frame).
  8x       R rounds (default 3): eight instances started at once, each answered by a
           wayland-info, then, after 500 ms, the PSS of the eighth (its share of the pages the
           eight share) and the median PSS and RSS of the eight; and exec -> all eight
           sockets. Strata's eight, then weston's (alternating which goes first).

--also adds further Strata builds (or one build with an environment variable, e.g.
--also nocache=.build/release/strata@STRATA_KEYMAP_CACHE=0) to the same alternation, each
reported beside the others: the before/after of a change, measured in one run.

Only the compositor's own process is counted: weston's desktop shell also starts a
weston-desktop-shell client process, which is not in weston's figures.

Needs: weston, wayland-info, weston-simple-shm (Debian: weston, wayland-utils); Strata built
in release (default: .build/release/strata of this checkout). Python 3 standard library only.
"""
import argparse
import ctypes
import os
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

IN_CREATE = 0x100
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
LIBC = ctypes.CDLL("libc.so.6", use_errno=True)


class SocketWatch:
    """An inotify watch on the runtime directory: waits for a named file to be created."""

    def __init__(self, directory):
        self.directory = directory
        self.fd = LIBC.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        if LIBC.inotify_add_watch(self.fd, directory.encode(), IN_CREATE) < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch")
        self.seen = set()

    def wait(self, names, deadline):
        """Returns {name: monotonic ns when seen} once every name in `names` exists."""
        found = {}
        names = set(names)
        while True:
            for name in list(names):
                if name in self.seen:
                    found.setdefault(name, time.monotonic_ns())
            if names <= set(found):
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"sockets never appeared: {sorted(names - set(found))}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            now = time.monotonic_ns()
            data = os.read(self.fd, 65536)
            offset = 0
            while offset < len(data):
                _, _, _, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16:offset + 16 + length].rstrip(b"\0").decode()
                offset += 16 + length
                if name not in self.seen:
                    self.seen.add(name)
                    if name in names:
                        found.setdefault(name, now)

    def close(self):
        os.close(self.fd)


class Bench:
    def __init__(self, variants, runtime):
        self.variants = variants  # name -> (path, extra environment)
        self.runtime = runtime
        self.watch = SocketWatch(runtime)
        self.counter = 0
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_RUNTIME_DIR": runtime,
                    "HOME": os.environ.get("HOME", "/root")}

    def socket_name(self, kind):
        self.counter += 1
        return f"start-{kind}-{self.counter}"

    def command(self, kind, socket):
        if kind != "weston":
            return [self.variants[kind][0], "--backend", "headless", "--size", "1280x720", "--socket", socket]
        return ["weston", "--backend=headless-backend.so", "--use-pixman", "--width=1280", "--height=720",
                f"--socket={socket}", "--idle-time=0", f"--log={os.devnull}"]

    def start(self, kind, socket):
        started = time.monotonic_ns()
        process = subprocess.Popen(self.command(kind, socket), env=self.compositor_env(kind), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        return process, started

    def compositor_env(self, kind):
        return dict(self.env, **self.variants[kind][1]) if kind != "weston" else self.env

    @staticmethod
    def stop(process):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        # weston's shell client and anything else the compositor started
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def client_env(self, socket):
        return dict(self.env, WAYLAND_DISPLAY=socket)

    def wayland_info(self, socket, deadline):
        """Runs wayland-info until it succeeds; returns monotonic ns at its successful exit."""
        while time.monotonic() < deadline:
            status = subprocess.run(["wayland-info"], env=self.client_env(socket), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            if status == 0:
                return time.monotonic_ns()
        raise TimeoutError(f"wayland-info never answered on {socket}")

    def first_frame(self, socket, deadline):
        """Starts weston-simple-shm; returns (its process, monotonic ns of its first frame's done)."""
        while time.monotonic() < deadline:
            client = subprocess.Popen(["weston-simple-shm"], env=dict(self.client_env(socket), WAYLAND_DEBUG="1"),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      bufsize=0)
            callback = None
            lines = client.stderr
            buffer = b""
            while True:
                chunk = os.read(lines.fileno(), 65536)
                if not chunk:
                    break
                now = time.monotonic_ns()
                buffer += chunk
                *complete, buffer = buffer.split(b"\n")
                for line in complete:
                    if callback is None and b".frame(new id wl_callback@" in line:
                        callback = line.split(b"new id ")[1].split(b")")[0]
                    elif callback is not None and (callback + b".done(") in line:
                        # keep reading its log, so the client never blocks on a full pipe
                        threading.Thread(target=lambda: [None for _ in iter(lambda: lines.read(65536), b"")],
                                         daemon=True).start()
                        return client, now
            client.wait()
        raise TimeoutError(f"weston-simple-shm never showed a frame on {socket}")

    @staticmethod
    def cpu_ms(pid):
        """CPU time of all the process's threads so far, in ms."""
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                    total += int(stat.read().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total / 1e6

    @staticmethod
    def memory(pid):
        """{Rss, Pss, Pss_Anon, Pss_File, ...} in kB from /proc/PID/smaps_rollup."""
        fields = {}
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                parts = line.split()
                if len(parts) == 3 and parts[2] == "kB":
                    fields[parts[0].rstrip(":")] = int(parts[1])
        return fields

    def info_trial(self, kind):
        socket = self.socket_name(kind)
        process, started = self.start(kind, socket)
        try:
            deadline = time.monotonic() + 10
            appeared = self.watch.wait([socket], deadline)[socket]
            cpu_socket = self.cpu_ms(process.pid)
            answered = self.wayland_info(socket, deadline)
            cpu_info = self.cpu_ms(process.pid)
            time.sleep(0.3)
            idle = self.memory(process.pid)
            client, _ = self.first_frame(socket, deadline)
            time.sleep(0.5)
            shown = self.memory(process.pid)
            client.kill()
            client.wait()
        finally:
            self.stop(process)
        return {"socket": (appeared - started) / 1e6, "info": (answered - started) / 1e6,
                "cpu_socket": cpu_socket, "cpu_info": cpu_info,
                "idle_rss": idle["Rss"], "idle_pss": idle["Pss"],
                "client_rss": shown["Rss"], "client_pss": shown["Pss"]}

    def frame_trial(self, kind):
        socket = self.socket_name(kind)
        process, started = self.start(kind, socket)
        try:
            deadline = time.monotonic() + 10
            self.watch.wait([socket], deadline)
            client, shown = self.first_frame(socket, deadline)
            client.kill()
            client.wait()
        finally:
            self.stop(process)
        return {"frame": (shown - started) / 1e6}

    def concurrent_trial(self, kind, count=8):
        sockets = [self.socket_name(kind) for _ in range(count)]
        started = time.monotonic_ns()
        processes = [subprocess.Popen(self.command(kind, socket), env=self.compositor_env(kind), stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
                     for socket in sockets]
        try:
            deadline = time.monotonic() + 30
            appeared = self.watch.wait(sockets, deadline)
            for socket in sockets:
                self.wayland_info(socket, deadline)
            time.sleep(0.5)
            memories = [self.memory(process.pid) for process in processes]
        finally:
            for process in processes:
                self.stop(process)
        return {"all_sockets": (max(appeared.values()) - started) / 1e6,
                "pss_8th": memories[-1]["Pss"], "pss_median": statistics.median(m["Pss"] for m in memories),
                "rss_median": statistics.median(m["Rss"] for m in memories)}


def medians(trials):
    return {key: statistics.median(trial[key] for trial in trials) for key in trials[0]}


ROWS = [
    ("socket", "exec -> socket", "ms"),
    ("info", "exec -> first wayland-info answered", "ms"),
    ("frame", "exec -> first weston-simple-shm frame shown", "ms"),
    ("cpu_socket", "CPU time, exec -> socket", "ms"),
    ("cpu_info", "CPU time, exec -> first wayland-info answered", "ms"),
    ("idle_rss", "RSS idle", "MB"),
    ("idle_pss", "PSS idle", "MB"),
    ("client_rss", "RSS with one client", "MB"),
    ("client_pss", "PSS with one client", "MB"),
    ("all_sockets", "8 at once: exec -> all eight sockets", "ms"),
    ("pss_8th", "8 at once: PSS of the 8th", "MB"),
    ("pss_median", "8 at once: PSS, median of the 8", "MB"),
    ("rss_median", "8 at once: RSS, median of the 8", "MB"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--runs", type=int, default=10, help="fresh starts of each compositor per measure")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of eight concurrent instances")
    parser.add_argument("--strata", default=os.path.join(here, "..", ".build", "release", "strata"))
    parser.add_argument("--also", action="append", default=[], metavar="NAME=PATH[@VAR=VALUE]",
                        help="a further Strata build or environment in the same alternation")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    arguments = parser.parse_args()
    for tool in ("weston", "wayland-info", "weston-simple-shm"):
        if shutil.which(tool) is None:
            sys.exit(f"needs {tool} (apt-get install weston wayland-utils)")
    variants = {"strata": (os.path.abspath(arguments.strata), {})}
    for also in arguments.also:
        name, _, rest = also.partition("=")
        path, _, assignment = rest.partition("@")
        extra = dict([assignment.split("=", 1)]) if assignment else {}
        if not name or name in variants or name == "weston":
            sys.exit(f"--also needs a new name: {also}")
        variants[name] = (os.path.abspath(path), extra)
    for name, (path, _) in variants.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"no Strata at {path} ({name}): swift build -c release --product strata")
    kinds = list(variants) + ["weston"]

    runtime = tempfile.mkdtemp(prefix="strata-start-")
    os.chmod(runtime, 0o700)
    bench = Bench(variants, runtime)
    results = {kind: [] for kind in kinds}
    frames = {kind: [] for kind in kinds}
    concurrent = {kind: [] for kind in kinds}
    try:
        for run in range(arguments.runs):
            order = kinds if run % 2 == 0 else kinds[::-1]
            for kind in order:
                results[kind].append(bench.info_trial(kind))
            for kind in order:
                frames[kind].append(bench.frame_trial(kind))
        for round_ in range(arguments.rounds):
            order = kinds if round_ % 2 == 0 else kinds[::-1]
            for kind in order:
                concurrent[kind].append(bench.concurrent_trial(kind))
                time.sleep(0.5)
    finally:
        bench.watch.close()
        shutil.rmtree(runtime, ignore_errors=True)

    figures = {}
    for kind in kinds:
        figures[kind] = medians(results[kind])
        figures[kind].update(medians(frames[kind]))
        if concurrent[kind]:
            figures[kind].update(medians(concurrent[kind]))
    names = [kind for kind in kinds if kind != "weston"]
    header = ["weston 10"] + [name if name != "strata" else "Strata" for name in names] + \
        [f"{name if name != 'strata' else 'Strata'} / weston" for name in names]
    rows = []
    for key, label, unit in ROWS:
        if key not in figures["weston"]:
            continue
        scale = 1024 if unit == "MB" else 1
        w = figures["weston"][key] / scale
        values = [figures[name][key] / scale for name in names]
        rows.append([label, f"{w:.1f} {unit}"] + [f"{v:.1f} {unit}" for v in values] + [f"{v / w:.2f}" for v in values])
    print(f"# {arguments.runs} fresh starts each (alternating), {arguments.rounds} rounds of 8 at once; medians")
    if arguments.markdown:
        print("| | " + " | ".join(header) + " |\n|" + "---|" * (len(header) + 1))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        width = max(len(row[0]) for row in rows)
        print(f"{'':{width}}  " + "  ".join(f"{h:>14}" for h in header))
        for row in rows:
            print(f"{row[0]:{width}}  " + "  ".join(f"{cell:>14}" for cell in row[1:]))


if __name__ == "__main__":
    main()
