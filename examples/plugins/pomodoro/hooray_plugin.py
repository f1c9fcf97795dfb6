"""Write a Hooray plugin in Python: the plugin protocol in one file, standard library only.

Hooray's daemon, hoorayd, starts a plugin's program and speaks JSON-RPC 2.0 with it over
standard input and output, framed as in the Language Server Protocol (docs/protocol.md, "The
plugin protocol"). This module speaks it for you:

    #!/usr/bin/env python3
    from hooray_plugin import Plugin, Notice, after

    plugin = Plugin()

    @plugin.command("hello")
    def hello(command, host):
        host.post_notice(Notice("Hello", "Nice to meet you."))
        return "Said hello."

    plugin.run()

Handlers get an event (a Command, Due or Action) and the Host, whose methods call hoorayd and
wait for its answer. Standard output belongs to the protocol: this module takes it, and `print`
goes to standard error, which hoorayd writes to its log. Copy this file beside your program; it
needs Python 3.9 or later. The tutorial is docs/plugins.md.
"""

import datetime
import json
import re
import sys
import traceback
from collections import deque

__all__ = [
    "API_VERSION",
    "Action",
    "Command",
    "CommandError",
    "ConfigurationEntry",
    "Due",
    "Host",
    "HostError",
    "Initialize",
    "Notice",
    "Plugin",
    "ProtocolError",
    "Reply",
    "after",
    "at",
    "daily",
    "local_time",
    "parse_instant",
    "weekly",
]

#: The plugin API version this module speaks.
API_VERSION = 1

#: The largest body a frame may carry, in bytes (1 MiB).
MAX_BODY = 1048576

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


# Errors -------------------------------------------------------------------------------------------


class HostError(Exception):
    """hoorayd answered a call with an error, such as -32001 (a permission plugin.toml lacks)."""

    def __init__(self, code, message, data=None):
        super().__init__("%s (%s)" % (message, code))
        self.code = code
        self.message = message
        self.data = data


class CommandError(Exception):
    """Raise in a command handler to fail the command: `message` is what the user reads.

    exit_code 64 says the user typed something the command cannot take; 1 is any other failure.
    """

    def __init__(self, message, exit_code=1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class ProtocolError(Exception):
    """A message that breaks JSON-RPC or its parameters; answered with `code` and `message`."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class _Closed(Exception):
    """Standard input ended: hoorayd closed it."""


# Time and schedules -------------------------------------------------------------------------------


def parse_instant(text):
    """An ISO 8601 instant such as "2026-11-24T09:30:00Z" as an aware datetime in UTC, or None."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError("%r is not an instant" % (text,))
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    # Python 3.9 reads at most six digits of a fraction of a second.
    value = re.sub(r"(\.\d{6})\d+", r"\1", value)
    moment = datetime.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def _format_instant(moment):
    if moment.tzinfo is None:
        moment = moment.astimezone()  # a naive datetime is this computer's local time
    moment = moment.astimezone(datetime.timezone.utc).replace(microsecond=0)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def local_time(moment, zone=None):
    """`moment` in the IANA time zone `zone` (such as the command's environment["time_zone"]).

    Falls back to this computer's local time when the zone is unknown or not given.
    """
    if zone:
        try:
            from zoneinfo import ZoneInfo

            return moment.astimezone(ZoneInfo(zone))
        except Exception:  # an unknown zone, or no time zone data
            pass
    return moment.astimezone()


def _check_time(time):
    if not isinstance(time, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", time):
        raise ValueError('%r is not a time of day; write it as "HH:MM", such as "08:30"' % (time,))
    return time


def at(moment):
    """A schedule: once, at `moment` (an aware datetime; a naive one is this computer's local time)."""
    return {"at": _format_instant(moment)}


def after(seconds):
    """A schedule: once, `seconds` (a number or a timedelta) after the host's now."""
    if isinstance(seconds, datetime.timedelta):
        seconds = seconds.total_seconds()
    if seconds < 0:
        raise ValueError("after() takes a length of time that is not negative")
    return {"in": int(seconds) if float(seconds).is_integer() else seconds}


def daily(time, zone=None):
    """A schedule: every day at `time` ("HH:MM"), in the IANA `zone` or the user's own."""
    schedule = {"daily": _check_time(time)}
    if zone:
        schedule["zone"] = zone
    return schedule


def weekly(days, time, zone=None):
    """A schedule: on `days` (such as ["mon", "wed"]) at `time` ("HH:MM"), in `zone` or the user's own."""
    if isinstance(days, str):
        days = [days]
    names = [str(day).lower()[:3] for day in days]
    for day in names:
        if day not in WEEKDAYS:
            raise ValueError("%r is not a day; the days are %s" % (day, ", ".join(WEEKDAYS)))
    if not names:
        raise ValueError("weekly() needs at least one day")
    schedule = {"weekly": names, "time": _check_time(time)}
    if zone:
        schedule["zone"] = zone
    return schedule


# Values -------------------------------------------------------------------------------------------


class Notice:
    """A notice: a desktop notification with a title, a body and buttons.

    `actions` is a list of (id, label) pairs, (id, label, prompt) triples or {"id", "label"} dicts
    with an optional "prompt" (1 to 200 characters, without control characters): a question
    `hooray act` asks on a terminal, whose answer comes back as Action.answer. A button's id comes back to @plugin.action(id). `urgency` is "low", "normal" or "critical"; `timeout` is seconds or "never".
    Host methods take a Notice or a plain dict of the same members.
    """

    def __init__(self, title, body="", actions=None, urgency=None, payload=None, timeout=None):
        self.title = title
        self.body = body
        self.actions = list(actions or [])
        self.urgency = urgency
        self.payload = payload
        self.timeout = timeout

    def to_dict(self):
        """The notice as the protocol writes it."""
        notice = {"title": self.title}
        if self.body:
            notice["body"] = self.body
        if self.urgency:
            notice["urgency"] = self.urgency
        if self.actions:
            buttons = []
            for action in self.actions:
                if isinstance(action, dict):
                    button = {"id": action["id"], "label": action["label"]}
                    prompt = action.get("prompt")
                elif len(action) == 3:
                    identifier, label, prompt = action
                    button = {"id": identifier, "label": label}
                else:
                    identifier, label = action
                    button, prompt = {"id": identifier, "label": label}, None
                if prompt is not None:
                    button["prompt"] = prompt
                buttons.append(button)
            notice["actions"] = buttons
        if self.timeout is not None:
            notice["timeout"] = self.timeout
        if self.payload is not None:
            notice["payload"] = self.payload
        return notice

    def __repr__(self):
        return "Notice(%r)" % (self.title,)


def _notice(notice):
    if isinstance(notice, Notice):
        return notice.to_dict()
    if isinstance(notice, dict):
        return notice
    if isinstance(notice, str):
        return {"title": notice}
    raise TypeError("a notice is a Notice, a dict or a title, not %r" % (notice,))


class ConfigurationEntry:
    """A table for `hooray` to add to the user's own configuration file, as a reply asks for it.

    `table` "reminder" adds a `[[plugins.NAME.reminder]]` to the plugin's own section; `keys` are
    (name, value) pairs in the order written (or a dict), each value a string, number, boolean or a
    list of them. `hooray` checks the entry as it checks the file, writes it keeping the file's
    comments and reloads hoorayd; refused, it prints why and exits 78.
    """

    def __init__(self, table, keys):
        if not isinstance(table, str) or not table:
            raise TypeError("a configuration entry's table is a name, such as \"reminder\"")
        pairs = list(keys.items()) if isinstance(keys, dict) else list(keys)
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and pair[0]):
                raise TypeError("each key of a configuration entry is a (name, value) pair, not %r" % (pair,))
            if pair[1] is None:
                raise TypeError("the key %r of a configuration entry has no value (None)" % (pair[0],))
        self.table = table
        self.keys = pairs

    def to_dict(self):
        """The entry as the protocol writes it."""
        return {"table": self.table, "keys": [{"name": name, "value": value} for name, value in self.keys]}


class Reply:
    """What a command answers: `text` to print, `json` for --json, `warnings` for standard error.

    exit_code 0 is success; anything else fails the command and `text` says why.
    `configuration_entry` (a ConfigurationEntry) asks `hooray` to add a table to the user's file.
    """

    def __init__(self, text="", json=None, warnings=None, exit_code=0, configuration_entry=None):
        if configuration_entry is not None and not isinstance(configuration_entry, ConfigurationEntry):
            raise TypeError("configuration_entry is a ConfigurationEntry, not %r" % (configuration_entry,))
        self.text = text
        self.json = json
        self.warnings = list(warnings or [])
        self.exit_code = exit_code
        self.configuration_entry = configuration_entry

    def to_dict(self):
        """The reply as the protocol writes it."""
        result = {"text": self.text, "warnings": self.warnings, "exit_code": self.exit_code}
        if self.json is not None:
            result["json"] = self.json
        if self.configuration_entry is not None:
            result["configuration_entry"] = self.configuration_entry.to_dict()
        return result


class Initialize:
    """What the host says when it starts the plugin (@plugin.on_initialize handlers get it)."""

    def __init__(self, params):
        self.params = params
        self.host_version = params.get("host_version")
        self.plugin = params.get("plugin")
        self.config = params.get("config") or {}
        self.data_directory = params.get("data_directory")
        self.time_zone = params.get("time_zone")
        self.now = parse_instant(params.get("now")) or datetime.datetime.now(datetime.timezone.utc)


class Command:
    """A command the user typed, such as `hooray pomodoro start "Write" --minutes 30`.

    `values` maps each argument's and option's name to the strings given; `flags` holds the
    flags given; `json` says whether the user asked for --json; `environment` has `time_zone`,
    `color`, `data_directory` and `host_version`; `now` is the host's time (aware, UTC).
    """

    def __init__(self, params):
        self.params = params
        self.name = params["command"]
        self.values = params.get("values") or {}
        self.flags = list(params.get("flags") or [])
        self.json = bool(params.get("json", False))
        self.environment = params.get("environment") or {}
        self.now = parse_instant(params.get("now")) or datetime.datetime.now(datetime.timezone.utc)

    def value(self, name, default=None):
        """The first value given for the argument or option `name`, or `default`."""
        given = self.values.get(name) or []
        return given[0] if given else default

    def values_of(self, name):
        """Every value given for `name`, in order (for a repeating argument or option)."""
        return list(self.values.get(name) or [])

    def flag(self, name):
        """Whether the flag `name` (without dashes) was given."""
        return name in self.flags

    @property
    def time_zone(self):
        """The user's IANA time zone, such as "Europe/Paris", or None."""
        return self.environment.get("time_zone")

    def local(self, moment=None):
        """`moment` (by default `now`) in the user's time zone."""
        return local_time(moment or self.now, self.time_zone)


class Due:
    """A reminder came due: `reminder` (its id), `due_at`, `payload`, `catch_up` and `now`.

    `catch_up` is true when it was due while the computer was off. Its notice is shown already.
    """

    def __init__(self, params):
        self.params = params
        self.reminder = params["reminder"]
        self.due_at = parse_instant(params.get("due_at"))
        self.payload = params.get("payload")
        self.catch_up = bool(params.get("catch_up", False))
        self.now = parse_instant(params.get("now")) or datetime.datetime.now(datetime.timezone.utc)


class Action:
    """A button was pressed: `action` (its id; "default" for a click on the notification), `notice`
    (the notice's id), `reminder` and `due_at` (the reminder it came from, or None), `payload`, `now`,
    and `answer`: the user's answer to the button's question, or None (no question, Enter, no
    terminal, or a click on the notification); one line of at most 1000 characters without control
    characters (the host refuses any other), possibly empty or blank.
    """

    def __init__(self, params):
        self.params = params
        self.notice = params.get("notice")
        self.action = params["action"]
        self.reminder = params.get("reminder")
        self.due_at = parse_instant(params.get("due_at"))
        self.payload = params.get("payload")
        self.answer = params.get("answer")
        self.now = parse_instant(params.get("now")) or datetime.datetime.now(datetime.timezone.utc)


# Framing ------------------------------------------------------------------------------------------


class _Connection:
    """Content-Length frames over two binary streams."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer
        self.next_id = 1

    def read(self):
        """The next message as parsed JSON; raises _Closed at the end and ProtocolError for a bad frame."""
        length = None
        problem = None
        saw_header = False
        while True:
            line = self.reader.readline(65536)
            if not line:
                raise _Closed()
            if line in (b"\r\n", b"\n"):
                if saw_header:
                    break
                continue  # blank lines between frames
            saw_header = True
            name, separator, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if not separator:
                problem = problem or "a header line without a colon: %r" % (line[:60],)
            elif name == "content-length":
                try:
                    length = int(value.strip())
                except ValueError:
                    problem = problem or "Content-Length %r is not a number" % (value.strip()[:40],)
            elif name != "content-type":
                problem = problem or "unknown header %r" % (name[:40],)
        if length is None or length < 0:
            raise ProtocolError(INVALID_REQUEST, problem or "a frame without Content-Length")
        if length > MAX_BODY:
            self._skip(length)
            raise ProtocolError(INVALID_REQUEST, "a body of %d bytes; at most %d" % (length, MAX_BODY))
        body = self.reader.read(length)
        if len(body) < length:
            raise _Closed()
        if problem:
            raise ProtocolError(INVALID_REQUEST, problem)
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise ProtocolError(PARSE_ERROR, "the body is not JSON: %s" % (error,))

    def _skip(self, length):
        while length > 0:
            chunk = self.reader.read(min(length, 65536))
            if not chunk:
                raise _Closed()
            length -= len(chunk)

    def write(self, message):
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.writer.flush()

    def answer(self, identifier, result):
        self.write({"jsonrpc": "2.0", "id": identifier, "result": result})

    def fail(self, identifier, code, message):
        self.write({"jsonrpc": "2.0", "id": identifier, "error": {"code": code, "message": message}})


# The host -----------------------------------------------------------------------------------------


class Host:
    """hoorayd, as the plugin calls it: each method sends a request and waits for its answer.

    Errors from the host raise HostError. Requests the host sends meanwhile wait, in order, and
    are handled once the current handler returns.
    """

    def __init__(self, plugin):
        self._plugin = plugin

    def call(self, method, params=None):
        """Calls any host method by name and returns its result."""
        return self._plugin._call(method, params or {})

    def schedule_reminder(self, id, schedule, notice, payload=None, catch_up_within=None):
        """Schedules (or replaces) the reminder `id`; returns {"id", "next_due"}.

        `schedule` comes from at(), after(), daily() or weekly(); `notice` is shown when it is due.
        """
        params = {"id": id, "schedule": schedule, "notice": _notice(notice)}
        if payload is not None:
            params["payload"] = payload
        if catch_up_within is not None:
            params["catch_up_within"] = catch_up_within
        return self.call("scheduleReminder", params)

    def cancel_reminder(self, id):
        """Cancels the reminder `id`."""
        self.call("cancelReminder", {"id": id})

    def list_reminders(self):
        """The plugin's reminders: a list of {id, schedule, notice, payload, next_due}."""
        return self.call("listReminders", {}).get("reminders", [])

    def post_notice(self, notice):
        """Shows a notice now; returns its id."""
        return self.call("postNotice", {"notice": _notice(notice)}).get("id")

    def update_notice(self, id, notice):
        """Replaces the notice `id` in place."""
        self.call("updateNotice", {"id": id, "notice": _notice(notice)})

    def celebrate(self, title, detail=None, size="small"):
        """Celebrates in the user's chosen style; returns {"shown", "line"}. `size` is "small" or "big"."""
        params = {"title": title, "size": size}
        if detail is not None:
            params["detail"] = detail
        return self.call("celebrate", params)

    def storage_get(self, key, default=None):
        """The value stored under `key`, or `default`."""
        value = self.call("storageGet", {"key": key}).get("value")
        return default if value is None else value

    def storage_put(self, key, value):
        """Stores `value` (any JSON) under `key`."""
        self.call("storagePut", {"key": key, "value": value})

    def storage_delete(self, key):
        """Forgets `key`."""
        self.call("storageDelete", {"key": key})

    def storage_query(self, prefix=""):
        """Every stored {key, value} whose key starts with `prefix`, sorted by key."""
        return self.call("storageQuery", {"prefix": prefix}).get("items", [])

    def ask_ai(self, text):
        """Warm praise for `text` from the AI (needs the `ai` permission); raises HostError -32003 when it is not set up."""
        return self.call("askAI", {"text": text}).get("text")

    def log(self, level, message):
        """Writes a line to hoorayd's log; `level` is debug, info, notice, warning or error."""
        self._plugin._notify("log", {"level": level, "message": str(message)})


# The plugin ---------------------------------------------------------------------------------------


def _decorator(register, argument):
    """Lets a decorator be used bare (@plugin.reminder) or with a key (@plugin.reminder("break-"))."""
    if callable(argument):
        register(None, argument)
        return argument

    def decorate(function):
        register(argument, function)
        return function

    return decorate


class Plugin:
    """A plugin: register handlers with its decorators, then call run().

    `name` and `version` are optional; they are sent back with `initialize`. After initialize,
    `config`, `data_directory`, `time_zone` and `host_version` hold what the host said.
    """

    def __init__(self, name=None, version=None, reader=None, writer=None):
        self.name = name
        self.version = version
        self.config = {}
        self.data_directory = None
        self.time_zone = None
        self.host_version = None
        self.host = Host(self)
        self._commands = {}
        self._reminders = {}
        self._actions = {}
        self._on_initialize = []
        self._on_config_changed = []
        self._on_reminder_skipped = []
        self._on_shutdown = []
        self._queue = deque()
        self._shutting_down = False
        if reader is None or writer is None:
            reader, writer = _take_standard_streams()
        self._connection = _Connection(reader, writer)

    # Registration

    def command(self, name):
        """Handles `hooray PLUGIN NAME`: handler(command, host) returns a str or a Reply."""

        def decorate(function):
            self._commands[name] = function
            return function

        return decorate

    def reminder(self, key=None):
        """Handles reminders that come due: handler(due, host).

        With a key, only reminders whose id is the key or starts with it; the longest key wins.
        """
        return _decorator(lambda key, function: self._reminders.__setitem__(key or "", function), key)

    def action(self, key=None):
        """Handles a button: handler(action, host) may return a sentence saying why it does nothing now.

        With an id, only that button's presses; without, every button no other handler takes.
        """
        return _decorator(lambda key, function: self._actions.__setitem__(key, function), key)

    def on_initialize(self, function):
        """Runs handler(initialize, host) once the host started the plugin, before it answers."""
        self._on_initialize.append(function)
        return function

    def on_config_changed(self, function):
        """Runs handler(config, host) when the user's [plugins.NAME] section changed."""
        self._on_config_changed.append(function)
        return function

    def on_reminder_skipped(self, function):
        """Runs handler(params, host) when a one-off reminder came due too long ago to be shown
        (params: reminder, due_at, payload, now)."""
        self._on_reminder_skipped.append(function)
        return function

    def on_shutdown(self, function):
        """Runs handler(host) when the host stops the plugin."""
        self._on_shutdown.append(function)
        return function

    # The loop

    def run(self):
        """Answers the host until it closes standard input; then exits the program with status 0."""
        while True:
            try:
                message = self._queue.popleft() if self._queue else self._connection.read()
            except _Closed:
                break
            except ProtocolError as error:
                _log_line("hooray_plugin: %s" % error.message)
                self._safe(lambda: self._connection.fail(None, error.code, error.message))
                continue
            self._handle(message)
        sys.exit(0)

    def _safe(self, write):
        try:
            write()
        except (BrokenPipeError, OSError):
            sys.exit(0)

    def _handle(self, message):
        if not isinstance(message, dict):
            self._safe(lambda: self._connection.fail(None, INVALID_REQUEST, "a message is a JSON object"))
            return
        if "method" not in message:
            return  # an answer to a call that was given up on
        identifier = message.get("id")
        method = message.get("method")
        params = message.get("params", {})
        is_request = "id" in message
        try:
            if not isinstance(method, str):
                raise ProtocolError(INVALID_REQUEST, "method is not a string")
            if not isinstance(params, dict):
                raise ProtocolError(INVALID_PARAMS, "params is not an object")
            result = self._dispatch(method, params, is_request)
        except ProtocolError as error:
            if is_request:
                self._safe(lambda: self._connection.fail(identifier, error.code, error.message))
            else:
                _log_line("hooray_plugin: %s: %s" % (method, error.message))
            return
        except _Closed:
            return
        except Exception:
            _log_line("hooray_plugin: %s failed:\n%s" % (method, traceback.format_exc().rstrip()))
            if is_request:
                self._safe(
                    lambda: self._connection.fail(
                        identifier, INTERNAL_ERROR, "the plugin ran into a problem; its log has the details"
                    )
                )
            return
        if is_request:
            self._safe(lambda: self._connection.answer(identifier, result))

    def _dispatch(self, method, params, is_request):
        if method == "initialize":
            return self._initialize(params)
        if method == "command":
            return self._command(params)
        if method == "reminderDue":
            return self._reminder_due(params)
        if method == "actionInvoked":
            return self._action_invoked(params)
        if method == "configChanged":
            config = _member(params, "config", dict)
            self.config = config
            for handler in self._on_config_changed:
                handler(config, self.host)
            return {}
        if method == "reminderSkipped":
            for handler in self._on_reminder_skipped:
                handler(params, self.host)
            return {}
        if method == "shutdown":
            self._shutting_down = True
            for handler in self._on_shutdown:
                try:
                    handler(self.host)
                except Exception:
                    _log_line("hooray_plugin: on_shutdown failed:\n%s" % traceback.format_exc().rstrip())
            return {}
        if not is_request:
            return {}  # a notification of a newer host: ignored, as the protocol asks
        raise ProtocolError(METHOD_NOT_FOUND, "no method %s" % (method,))

    def _initialize(self, params):
        versions = _member(params, "api_version", dict)
        low, high = versions.get("min"), versions.get("max")
        if not isinstance(low, int) or not isinstance(high, int):
            raise ProtocolError(INVALID_PARAMS, "api_version needs integer min and max")
        if not low <= API_VERSION <= high:
            raise ProtocolError(
                INVALID_PARAMS,
                "this plugin speaks plugin API %d; the host speaks %d to %d" % (API_VERSION, low, high),
            )
        info = Initialize(params)
        self.config = info.config
        self.data_directory = info.data_directory
        self.time_zone = info.time_zone
        self.host_version = info.host_version
        for handler in self._on_initialize:
            handler(info, self.host)
        result = {"api_version": API_VERSION}
        if self.name:
            result["name"] = self.name
        if self.version:
            result["version"] = self.version
        return result

    def _command(self, params):
        name = _member(params, "command", str)
        for member, kind in (("values", dict), ("flags", list), ("environment", dict)):
            if member in params and not isinstance(params[member], kind):
                raise ProtocolError(INVALID_PARAMS, "%s is not %s" % (member, _kind_name(kind)))
        handler = self._commands.get(name)
        if handler is None:
            raise ProtocolError(INVALID_PARAMS, "command %r is not one this plugin has" % (name,))
        try:
            command = Command(params)
        except ValueError as error:
            raise ProtocolError(INVALID_PARAMS, "now: %s" % (error,))
        try:
            reply = handler(command, self.host)
        except CommandError as error:
            return Reply(text=error.message, exit_code=error.exit_code or 1).to_dict()
        except _Closed:
            raise
        except HostError as error:
            _log_line("hooray_plugin: command %s failed:\n%s" % (name, traceback.format_exc().rstrip()))
            return Reply(text="Sorry, that didn't work: hoorayd said %s" % (error.message,), exit_code=1).to_dict()
        except Exception:
            _log_line("hooray_plugin: command %s failed:\n%s" % (name, traceback.format_exc().rstrip()))
            return Reply(
                text="Sorry, that didn't work: the %s command ran into a problem. The details are in "
                "hoorayd's log (journalctl --user -u hooray)." % (name,),
                exit_code=1,
            ).to_dict()
        if reply is None:
            reply = Reply()
        elif isinstance(reply, str):
            reply = Reply(text=reply)
        elif isinstance(reply, dict):
            reply = Reply(**reply)
        return reply.to_dict()

    def _reminder_due(self, params):
        reminder = _member(params, "reminder", str)
        try:
            due = Due(params)
        except ValueError as error:
            raise ProtocolError(INVALID_PARAMS, "due_at or now: %s" % (error,))
        handler = _longest_prefix(self._reminders, reminder)
        if handler is not None:
            handler(due, self.host)
        return {}

    def _action_invoked(self, params):
        action_id = _member(params, "action", str)
        try:
            action = Action(params)
        except ValueError as error:
            raise ProtocolError(INVALID_PARAMS, "due_at or now: %s" % (error,))
        handler = self._actions.get(action_id) or self._actions.get(None)
        if handler is None:
            if action_id == "default":
                return {}
            return {"message": "This button does nothing now."}
        message = handler(action, self.host)
        return {"message": message} if isinstance(message, str) and message else {}

    # Calling the host

    def _call(self, method, params):
        identifier = "p%d" % self._connection.next_id
        self._connection.next_id += 1
        try:
            self._connection.write({"jsonrpc": "2.0", "id": identifier, "method": method, "params": params})
        except (BrokenPipeError, OSError):
            raise _Closed()
        while True:
            try:
                message = self._connection.read()
            except ProtocolError as error:
                _log_line("hooray_plugin: %s" % error.message)
                self._safe(lambda: self._connection.fail(None, error.code, error.message))
                continue
            if isinstance(message, dict) and "method" not in message and message.get("id") == identifier:
                if "error" in message:
                    error = message.get("error") or {}
                    raise HostError(error.get("code"), error.get("message", "the host failed"), error.get("data"))
                result = message.get("result")
                return result if result is not None else {}
            if isinstance(message, dict) and "method" not in message:
                continue  # an answer to an earlier call that was given up on
            self._queue.append(message)

    def _notify(self, method, params):
        try:
            self._connection.write({"jsonrpc": "2.0", "method": method, "params": params})
        except (BrokenPipeError, OSError):
            raise _Closed()


# Helpers ------------------------------------------------------------------------------------------


def _member(params, name, kind):
    if name not in params:
        raise ProtocolError(INVALID_PARAMS, "%s is missing" % (name,))
    value = params[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(INVALID_PARAMS, "%s is not %s" % (name, _kind_name(kind)))
    return value


def _kind_name(kind):
    return {str: "a string", dict: "an object", list: "an array", int: "an integer"}.get(kind, kind.__name__)


def _longest_prefix(handlers, identifier):
    best = None
    for key in handlers:
        if identifier.startswith(key) and (best is None or len(key) > len(best)):
            best = key
    return handlers[best] if best is not None else None


def _log_line(text):
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


_STREAMS = None


def _take_standard_streams():
    """Takes standard input and output for the protocol; `print` and `input` can no longer reach them."""
    global _STREAMS
    if _STREAMS is None:
        reader, writer = sys.stdin.buffer, sys.stdout.buffer
        sys.stdout.flush()
        sys.stdout = sys.stderr
        try:
            sys.stdin = open("/dev/null")
        except OSError:
            pass
        _STREAMS = (reader, writer)
    return _STREAMS
