#!/usr/bin/python3
"""Tries, one command each, what an attacker's plugin would: the secrets in other processes'
environments, the session bus and the keyring on it, Hooray's database and configuration, another
plugin's files, the control socket, the network, a `setsid` child that outlives it. Every command
answers one JSON object saying what it got; the test that installs it reads them.

The addresses come from its `[plugins.NAME]` section, as if the attacker knew them all: `token`,
`bus` (a D-Bus address), `control_socket`, `database`, `other_data` (another plugin's file),
`config_file`, `home`, `tcp_port` and `abstract_socket` (a server the test runs)."""
import json
import os
import resource
import socket
import subprocess
import sys
import time
import uuid

config = {}
data_directory = ""
escapes = 0


def receive():
    """The next message from the host, or None once it closed standard input."""
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return json.loads(sys.stdin.buffer.read(length))


def send(message):
    """Writes one framed message to standard output."""
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def failure(error):
    return "%s: %s" % (type(error).__name__, error)


def read_file(path):
    """What reading a file gave: its size, or why not."""
    try:
        with open(path, "rb") as handle:
            return {"path": path, "got": "%d bytes" % len(handle.read())}
    except Exception as error:
        return {"path": path, "got": None, "error": failure(error)}


def list_folder(path):
    """What listing a folder gave: its entries, or why not."""
    try:
        entries = sorted(os.listdir(path))
        return {"path": path, "got": "%d entries: %s" % (len(entries), entries[:8]), "entries": entries}
    except Exception as error:
        return {"path": path, "got": None, "error": failure(error)}


def environment():
    """Its own environment, and every other environment it can read under /proc."""
    watched = ["OPENAI_API_KEY", "DBUS_SESSION_BUS_ADDRESS", "sk-probe-secret"]
    seen, scanned, processes = [], 0, []
    for entry in sorted(os.listdir("/proc")):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as handle:
                processes.append("%s %s" % (entry, handle.read().replace(b"\0", b" ").decode(errors="replace")))
            with open("/proc/%s/environ" % entry, "rb") as handle:
                text = handle.read().decode(errors="replace")
            scanned += 1
            seen += ["/proc/%s/environ has %s" % (entry, word) for word in watched if word in text]
        except Exception:
            pass
    parent = read_file("/proc/%d/environ" % os.getppid())
    first = read_file("/proc/1/environ")
    own = sorted(os.environ)
    leaked = [name for name, value in os.environ.items() if any(word in name + value for word in watched)]
    return {"own": own, "own_leaks": leaked, "parent": parent, "pid1": first, "scanned": scanned, "seen": seen,
            "processes": processes}


def files():
    """Reads and writes outside its own folders."""
    tried = [read_file(config.get(key, "")) for key in ["database", "other_data", "config_file"]]
    tried.append(read_file(config.get("database", "") + "-wal"))
    for path in [config.get("home", ""), os.path.dirname(config.get("other_data", "")), "/run/user",
                 os.path.dirname(config.get("database", ""))]:
        tried.append(list_folder(path))
    wrote = []
    for path in [os.path.join(os.getcwd(), "probe-was-here"), os.path.join(config.get("home", ""), "probe-was-here"),
                 os.path.join(os.path.dirname(config.get("other_data", "")), "probe-was-here"),
                 os.path.join(data_directory, "mine")]:
        try:
            with open(path, "w") as handle:
                handle.write("probe")
            wrote.append(path)
        except Exception:
            pass
    own = read_file(os.path.join(os.getcwd(), "plugin.toml"))
    return {"tried": tried, "wrote": wrote, "own_manifest": own["got"] is not None}


def unix_path(address):
    for part in address.split(":", 1)[-1].split(","):
        if part.startswith("path="):
            return part[len("path="):]
    return ""


def talk(family, address, request, wait=2):
    """Connects, sends `request`, and returns what came back, or why nothing did."""
    try:
        with socket.socket(family, socket.SOCK_STREAM) as connection:
            connection.settimeout(wait)
            connection.connect(address)
            connection.sendall(request)
            answer = b""
            while b"\n" not in answer:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
            return {"connected": True, "answer": answer.decode(errors="replace")[:500]}
    except Exception as error:
        return {"connected": False, "error": failure(error)}


def bus():
    """Connects to the session bus at the address it was given, and at the usual one."""
    hello = b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n"
    given = talk(socket.AF_UNIX, unix_path(config.get("bus", "")), hello)
    usual = talk(socket.AF_UNIX, "/run/user/%d/bus" % os.getuid(), hello)
    return {"given": given, "usual": usual}


def keyring():
    """Asks the keyring on the session bus for Hooray's secrets with secret-tool."""
    found = []
    for words in [["search", "--all", "kind", "ai-key"], ["lookup", "kind", "identity"]]:
        try:
            done = subprocess.run(
                ["secret-tool"] + words, capture_output=True, timeout=3,
                env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=config.get("bus", "")))
            output = (done.stdout + done.stderr).decode(errors="replace")
            found.append({"words": words, "status": done.returncode, "output": output[:300]})
        except Exception as error:
            found.append({"words": words, "status": None, "output": failure(error)})
    return {"tries": found}


def control():
    """Logs a win through hoorayd's control socket."""
    request = {
        "api_version": 1, "method": "command", "plugin": "wins", "request_id": str(uuid.uuid4()),
        "invocation": {
            "command": "log", "values": {"text": ["Probe was here " + config.get("token", "")]}, "flags": [],
            "json": False,
            "environment": {"time_zone": "UTC", "color": False, "data_directory": "", "host_version": ""}}}
    return talk(socket.AF_UNIX, config.get("control_socket", ""), json.dumps(request).encode() + b"\n", wait=4)


def network():
    """An HTTP request to the test's server on loopback, and its abstract Unix socket."""
    tcp = talk(socket.AF_INET, ("127.0.0.1", int(config.get("tcp_port", 9))), b"GET /probe HTTP/1.0\r\n\r\n")
    abstract = talk(socket.AF_UNIX, "\0" + config.get("abstract_socket", ""), b"hello\n")
    return {"tcp": tcp, "abstract": abstract}


ESCAPEE = """
import sys, time
with open(sys.argv[2], "w") as marker:
    marker.write("alive")
while True:
    time.sleep(0.2)
"""


def escape():
    """Starts a child in a session of its own that writes a marker, then sleeps on."""
    global escapes
    escapes += 1
    name = "hooray-escapee-%s-%d-%d" % (config.get("token", ""), os.getpid(), escapes)
    marker = os.path.join(data_directory, name)
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for descriptor in (0, 1, 2):
                os.dup2(null, descriptor)
            os.execv("/usr/bin/python3", ["python3", "-c", ESCAPEE, name, marker])
        os._exit(0)
    os.waitpid(child, 0)
    deadline = time.monotonic() + 3
    while not os.path.exists(marker) and time.monotonic() < deadline:
        time.sleep(0.02)
    return {"name": name, "started": os.path.exists(marker)}


def limits():
    """Its resource limits, privileges and namespaces, and its open file descriptors."""
    names = ["AS", "DATA", "NPROC", "NOFILE", "CPU", "CORE", "FSIZE"]
    found = {name: resource.getrlimit(getattr(resource, "RLIMIT_" + name)) for name in names}
    status = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("NoNewPrivs", "Seccomp", "CapEff", "Uid"):
                status[key] = value.strip()
    descriptors = []
    for descriptor in range(1024):
        try:
            os.fstat(descriptor)
            descriptors.append(descriptor)
        except OSError:
            pass
    namespaces = {kind: os.readlink("/proc/self/ns/" + kind) for kind in ["pid", "net", "user", "mnt"]}
    return {"limits": found, "status": status, "descriptors": descriptors, "namespaces": namespaces}


COMMANDS = {"environment": environment, "files": files, "bus": bus, "keyring": keyring, "control": control,
            "network": network, "escape": escape, "limits": limits}

while True:
    message = receive()
    if message is None:
        break
    if "id" not in message or "method" not in message:
        continue
    method, params = message["method"], message.get("params", {})
    if method == "initialize":
        config = params.get("config", {})
        data_directory = params.get("data_directory", "")
        result = {"api_version": 1}
    elif method == "command":
        try:
            result = {"text": json.dumps(COMMANDS[params["command"]]()), "exit_code": 0}
        except Exception as error:
            result = {"text": "the probe failed: " + failure(error), "exit_code": 1}
    elif method == "shutdown":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "not here"}})
        continue
    send({"jsonrpc": "2.0", "id": message["id"], "result": result})
