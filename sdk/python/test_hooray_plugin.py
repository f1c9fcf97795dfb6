"""Tests of hooray_plugin.py: a plugin runs in a real process and is driven through its pipes.

Run them with `python3 -m unittest discover -s sdk/python` (make test runs them too).
"""

import json
import os
import select
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import hooray_plugin  # noqa: E402

NOW = "2026-11-24T09:00:00Z"

# A plugin that uses every part of the SDK the tests look at.
PLUGIN = textwrap.dedent(
    """
    import sys
    from hooray_plugin import Plugin, Notice, Reply, CommandError, HostError, after, daily

    plugin = Plugin(name="probe", version="0.1.0")
    print("a stray print goes to standard error")

    @plugin.on_initialize
    def started(info, host):
        sys.stderr.write("config %r\\n" % (info.config,))

    @plugin.command("greet")
    def greet(command, host):
        name = command.value("name", "you")
        if command.flag("loud"):
            name = name.upper()
        return Reply(text="Hello, %s." % name, json={"name": name, "now": command.now.isoformat()})

    @plugin.command("remind")
    def remind(command, host):
        result = host.schedule_reminder("r1", after(60), Notice("Tea", actions=[("done", "Done")]), payload={"n": 1})
        stored = host.storage_get("count", 0)
        host.storage_put("count", stored + 1)
        return "Next at %s; count %d." % (result["next_due"], stored + 1)

    @plugin.command("refused")
    def refused(command, host):
        try:
            host.post_notice({"title": "x"})
        except HostError as error:
            return "host said %d: %s" % (error.code, error.message)
        return "no error"

    @plugin.command("bad")
    def bad(command, host):
        raise CommandError("--minutes 500 is too long; choose 1 to 120", exit_code=64)

    @plugin.command("crash")
    def crash(command, host):
        raise RuntimeError("boom")

    @plugin.reminder("r")
    def due(event, host):
        host.log("info", "due %s %s %s" % (event.reminder, event.payload, event.catch_up))

    @plugin.action("done")
    def done(action, host):
        host.log("info", "done pressed on %s from %s" % (action.notice, action.reminder))

    @plugin.action("later")
    def later(action, host):
        return "That one has passed."

    @plugin.on_shutdown
    def bye(host):
        sys.stderr.write("bye\\n")

    plugin.run()
    """
)


def frame(message):
    body = json.dumps(message).encode("utf-8") if not isinstance(message, bytes) else message
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class PluginProcess:
    """The plugin above, running, with helpers to talk to it through its pipes."""

    def __init__(self, source=PLUGIN):
        self.folder = tempfile.TemporaryDirectory()
        path = os.path.join(self.folder.name, "probe.py")
        with open(path, "w") as file:
            file.write(source)
        environment = dict(os.environ, PYTHONPATH=HERE, PYTHONDONTWRITEBYTECODE="1")
        self.process = subprocess.Popen(
            [sys.executable, path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
        )
        self.buffer = b""
        self.next_id = 100

    def send(self, message):
        self.send_raw(frame(message))

    def send_raw(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def _fill(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError("the plugin did not answer in time; it wrote: %r" % self.buffer)
        ready, _, _ = select.select([self.process.stdout], [], [], remaining)
        if not ready:
            raise AssertionError("the plugin did not answer in time; it wrote: %r" % self.buffer)
        chunk = os.read(self.process.stdout.fileno(), 65536)
        if not chunk:
            raise AssertionError("the plugin closed its output; it wrote: %r" % self.buffer)
        self.buffer += chunk

    def read(self, timeout=10):
        """The next frame the plugin wrote, parsed; checks the framing byte for byte."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        header, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = header.split(b"\r\n")
        assert len(lines) == 1 and lines[0].startswith(b"Content-Length: "), "bad header %r" % header
        length = int(lines[0][len(b"Content-Length: ") :])
        self.buffer = rest
        while len(self.buffer) < length:
            self._fill(deadline)
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        message = json.loads(body.decode("utf-8"))
        assert message.get("jsonrpc") == "2.0", message
        return message

    def initialize(self):
        identifier = self.request(
            "initialize",
            {
                "api_version": {"min": 1, "max": 1},
                "host_version": "0.3.0",
                "plugin": "probe",
                "config": {"minutes": 25},
                "data_directory": self.folder.name,
                "time_zone": "Europe/Paris",
                "now": NOW,
            },
        )
        return identifier, self.read()

    def command(self, name, values=None, flags=None, json_output=False):
        return self.request(
            "command",
            {
                "command": name,
                "values": values or {},
                "flags": flags or [],
                "json": json_output,
                "environment": {"time_zone": "Europe/Paris", "color": False},
                "now": NOW,
            },
        )

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self.folder.cleanup()

    def finish(self, timeout=10):
        """Closes standard input and returns (exit status, standard error)."""
        self.process.stdin.close()
        status = self.process.wait(timeout)
        return status, self.process.stderr.read().decode("utf-8", "replace")


class ThroughPipesTests(unittest.TestCase):
    def setUp(self):
        self.plugin = PluginProcess()
        self.addCleanup(self.plugin.close)

    def test_initialize_settles_version_1_and_names_the_plugin(self):
        identifier, answer = self.plugin.initialize()
        self.assertEqual(answer["id"], identifier)
        self.assertEqual(answer["result"], {"api_version": 1, "name": "probe", "version": "0.1.0"})
        status, errors = self.plugin.finish()
        self.assertEqual(status, 0)
        self.assertIn("a stray print goes to standard error", errors)
        self.assertIn("config {'minutes': 25}", errors)

    def test_initialize_refuses_a_host_that_speaks_other_versions(self):
        identifier = self.plugin.request("initialize", {"api_version": {"min": 2, "max": 3}, "now": NOW})
        answer = self.plugin.read()
        self.assertEqual(answer["id"], identifier)
        self.assertEqual(answer["error"]["code"], -32602)
        self.assertIn("speaks plugin API 1", answer["error"]["message"])
        self.assertIn("2 to 3", answer["error"]["message"])

    def test_a_command_round_trip_with_values_flags_and_json(self):
        self.plugin.initialize()
        identifier = self.plugin.command("greet", values={"name": ["Ada"]}, flags=["loud"], json_output=True)
        answer = self.plugin.read()
        self.assertEqual(answer["id"], identifier)
        self.assertEqual(answer["result"]["text"], "Hello, ADA.")
        self.assertEqual(answer["result"]["json"], {"name": "ADA", "now": "2026-11-24T09:00:00+00:00"})
        self.assertEqual(answer["result"]["exit_code"], 0)
        self.assertEqual(answer["result"]["warnings"], [])

    def test_host_calls_are_answered_mid_command_and_host_requests_meanwhile_wait(self):
        self.plugin.initialize()
        command_id = self.plugin.command("remind")
        schedule = self.plugin.read()
        self.assertEqual(schedule["method"], "scheduleReminder")
        self.assertEqual(schedule["params"]["id"], "r1")
        self.assertEqual(schedule["params"]["schedule"], {"in": 60})
        self.assertEqual(
            schedule["params"]["notice"], {"title": "Tea", "actions": [{"id": "done", "label": "Done"}]}
        )
        self.assertEqual(schedule["params"]["payload"], {"n": 1})
        # The host asks something of its own before it answers: it waits for the command to end.
        action_id = self.plugin.request(
            "actionInvoked",
            {"notice": 7, "action": "later", "reminder": None, "due_at": None, "payload": None, "now": NOW},
        )
        self.plugin.send({"jsonrpc": "2.0", "id": schedule["id"], "result": {"id": "r1", "next_due": "2026-11-24T09:01:00Z"}})
        get = self.plugin.read()
        self.assertEqual(get["method"], "storageGet")
        self.assertEqual(get["params"], {"key": "count"})
        self.plugin.send({"jsonrpc": "2.0", "id": get["id"], "result": {"value": 2}})
        put = self.plugin.read()
        self.assertEqual(put["method"], "storagePut")
        self.assertEqual(put["params"], {"key": "count", "value": 3})
        self.plugin.send({"jsonrpc": "2.0", "id": put["id"], "result": {}})
        answer = self.plugin.read()
        self.assertEqual(answer["id"], command_id)
        self.assertEqual(answer["result"]["text"], "Next at 2026-11-24T09:01:00Z; count 3.")
        queued = self.plugin.read()
        self.assertEqual(queued, {"jsonrpc": "2.0", "id": action_id, "result": {"message": "That one has passed."}})

    def test_host_errors_raise_host_error(self):
        self.plugin.initialize()
        command_id = self.plugin.command("refused")
        post = self.plugin.read()
        self.assertEqual(post["method"], "postNotice")
        self.plugin.send(
            {"jsonrpc": "2.0", "id": post["id"], "error": {"code": -32001, "message": "notify is not allowed"}}
        )
        answer = self.plugin.read()
        self.assertEqual(answer["id"], command_id)
        self.assertEqual(answer["result"]["text"], "host said -32001: notify is not allowed")

    def test_command_errors_and_crashes_fail_the_command_kindly(self):
        self.plugin.initialize()
        bad = self.plugin.command("bad")
        self.assertEqual(
            self.plugin.read(),
            {
                "jsonrpc": "2.0",
                "id": bad,
                "result": {"text": "--minutes 500 is too long; choose 1 to 120", "warnings": [], "exit_code": 64},
            },
        )
        crash = self.plugin.command("crash")
        answer = self.plugin.read()
        self.assertEqual(answer["id"], crash)
        self.assertEqual(answer["result"]["exit_code"], 1)
        self.assertIn("ran into a problem", answer["result"]["text"])
        unknown = self.plugin.command("fly")
        answer = self.plugin.read()
        self.assertEqual(answer["id"], unknown)
        self.assertEqual(answer["error"]["code"], -32602)
        status, errors = self.plugin.finish()
        self.assertEqual(status, 0)
        self.assertIn("Traceback", errors)
        self.assertIn("RuntimeError: boom", errors)

    def test_a_due_reminder_and_an_action_reach_their_handlers(self):
        self.plugin.initialize()
        self.plugin.send(
            {
                "jsonrpc": "2.0",
                "method": "reminderDue",
                "params": {"reminder": "r1", "due_at": NOW, "payload": {"n": 1}, "catch_up": True, "now": NOW},
            }
        )
        log = self.plugin.read()
        self.assertEqual(log["method"], "log")
        self.assertNotIn("id", log)
        self.assertEqual(log["params"], {"level": "info", "message": "due r1 {'n': 1} True"})
        action_id = self.plugin.request(
            "actionInvoked",
            {"notice": 12, "action": "done", "reminder": "r1", "due_at": NOW, "payload": None, "now": NOW},
        )
        log = self.plugin.read()
        self.assertEqual(log["params"]["message"], "done pressed on 12 from r1")
        self.assertEqual(self.plugin.read(), {"jsonrpc": "2.0", "id": action_id, "result": {}})
        other = self.plugin.request("actionInvoked", {"notice": 12, "action": "nope", "now": NOW})
        self.assertEqual(
            self.plugin.read(),
            {"jsonrpc": "2.0", "id": other, "result": {"message": "This button does nothing now."}},
        )

    def test_shutdown_answers_then_the_plugin_exits_when_input_closes(self):
        self.plugin.initialize()
        identifier = self.plugin.request("shutdown", {})
        self.assertEqual(self.plugin.read(), {"jsonrpc": "2.0", "id": identifier, "result": {}})
        status, errors = self.plugin.finish()
        self.assertEqual(status, 0)
        self.assertIn("bye", errors)

    def test_unknown_methods_and_bad_params_are_refused_and_the_plugin_goes_on(self):
        self.plugin.initialize()
        unknown = self.plugin.request("teleport", {})
        answer = self.plugin.read()
        self.assertEqual((answer["id"], answer["error"]["code"]), (unknown, -32601))
        wrong = self.plugin.request("command", {"command": 5})
        answer = self.plugin.read()
        self.assertEqual((answer["id"], answer["error"]["code"]), (wrong, -32602))
        self.assertIn("command", answer["error"]["message"])
        self.plugin.send({"jsonrpc": "2.0", "id": 9, "method": "actionInvoked", "params": []})
        answer = self.plugin.read()
        self.assertEqual((answer["id"], answer["error"]["code"]), (9, -32602))
        identifier = self.plugin.command("greet")
        self.assertEqual(self.plugin.read()["result"]["text"], "Hello, you.")
        self.assertTrue(identifier)

    def test_bad_frames_are_answered_with_errors_and_the_plugin_goes_on(self):
        self.plugin.initialize()
        self.plugin.send_raw(frame(b"{not json"))
        answer = self.plugin.read()
        self.assertEqual(answer["id"], None)
        self.assertEqual(answer["error"]["code"], -32700)
        self.plugin.send_raw(b"X-Nonsense: 1\r\n\r\n")
        answer = self.plugin.read()
        self.assertEqual(answer["error"]["code"], -32600)
        self.plugin.send_raw(frame(b"[1, 2]"))
        answer = self.plugin.read()
        self.assertEqual(answer["error"]["code"], -32600)
        big = b" " * (hooray_plugin.MAX_BODY + 1)
        self.plugin.send_raw(b"Content-Length: %d\r\n\r\n" % len(big) + big)
        answer = self.plugin.read()
        self.assertEqual(answer["error"]["code"], -32600)
        self.assertIn("at most", answer["error"]["message"])
        identifier = self.plugin.command("greet", values={"name": ["Grace"]})
        answer = self.plugin.read()
        self.assertEqual((answer["id"], answer["result"]["text"]), (identifier, "Hello, Grace."))

    def test_output_holds_frames_only_although_the_plugin_prints(self):
        self.plugin.initialize()
        self.plugin.command("greet")
        self.plugin.read()
        self.plugin.process.stdin.close()
        self.assertEqual(self.plugin.process.wait(10), 0)
        rest = self.plugin.process.stdout.read()
        self.assertEqual(self.plugin.buffer + rest, b"")


class HelperTests(unittest.TestCase):
    def test_schedules(self):
        import datetime

        moment = datetime.datetime(2026, 11, 24, 10, 25, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))
        self.assertEqual(hooray_plugin.at(moment), {"at": "2026-11-24T09:25:00Z"})
        self.assertEqual(hooray_plugin.after(300), {"in": 300})
        self.assertEqual(hooray_plugin.after(datetime.timedelta(minutes=5)), {"in": 300})
        self.assertEqual(hooray_plugin.daily("08:30"), {"daily": "08:30"})
        self.assertEqual(
            hooray_plugin.weekly(["Mon", "wed"], "08:30", zone="Europe/Paris"),
            {"weekly": ["mon", "wed"], "time": "08:30", "zone": "Europe/Paris"},
        )
        for wrong in ("8:30", "24:00", "noon"):
            with self.assertRaises(ValueError):
                hooray_plugin.daily(wrong)
        with self.assertRaises(ValueError):
            hooray_plugin.weekly(["someday"], "08:30")

    def test_notices_and_instants(self):
        notice = hooray_plugin.Notice("Done", "Well done.", actions=[("break", "Break")], urgency="low", payload={"a": 1})
        self.assertEqual(
            notice.to_dict(),
            {
                "title": "Done",
                "body": "Well done.",
                "urgency": "low",
                "actions": [{"id": "break", "label": "Break"}],
                "payload": {"a": 1},
            },
        )
        self.assertEqual(hooray_plugin.Notice("Hi").to_dict(), {"title": "Hi"})
        instant = hooray_plugin.parse_instant("2026-11-24T09:30:00.1234567Z")
        self.assertEqual((instant.hour, instant.minute, instant.utcoffset().total_seconds()), (9, 30, 0))
        local = hooray_plugin.local_time(instant, "Europe/Paris")
        self.assertEqual(local.strftime("%H:%M"), "10:30")


class ButtonQuestionTests(unittest.TestCase):
    def test_a_buttons_question_is_written_and_its_answer_read(self):
        notice = hooray_plugin.Notice(
            "Read",
            actions=[("log", "I read", "What did you read?"), {"id": "more", "label": "More", "prompt": "How much?"}, ("skip", "Skip")],
        )
        self.assertEqual(
            notice.to_dict()["actions"],
            [
                {"id": "log", "label": "I read", "prompt": "What did you read?"},
                {"id": "more", "label": "More", "prompt": "How much?"},
                {"id": "skip", "label": "Skip"},
            ],
        )
        answered = hooray_plugin.Action({"notice": 1, "action": "log", "answer": "Chapter 3", "now": NOW})
        self.assertEqual(answered.answer, "Chapter 3")
        self.assertIsNone(hooray_plugin.Action({"notice": 1, "action": "log", "now": NOW}).answer)


class ConfigurationEntryTests(unittest.TestCase):
    def test_a_reply_asks_hooray_to_add_a_table_to_the_users_file_as_the_protocol_writes_it(self):
        entry = hooray_plugin.ConfigurationEntry("reminder", [("title", "Stretch"), ("at", "15:00"), ("days", ["mon"])])
        reply = hooray_plugin.Reply(text="Added Stretch.", configuration_entry=entry).to_dict()
        self.assertEqual(
            reply["configuration_entry"],
            {
                "table": "reminder",
                "keys": [
                    {"name": "title", "value": "Stretch"},
                    {"name": "at", "value": "15:00"},
                    {"name": "days", "value": ["mon"]},
                ],
            },
        )
        self.assertNotIn("configuration_entry", hooray_plugin.Reply(text="x").to_dict())
        from_dict = hooray_plugin.ConfigurationEntry("reminder", {"title": "A", "at": "08:00"}).to_dict()
        self.assertEqual([key["name"] for key in from_dict["keys"]], ["title", "at"])

    def test_a_key_without_a_value_or_a_table_without_a_name_is_refused_where_it_is_written(self):
        with self.assertRaisesRegex(TypeError, "no value"):
            hooray_plugin.ConfigurationEntry("reminder", [("title", None)])
        with self.assertRaisesRegex(TypeError, "table"):
            hooray_plugin.ConfigurationEntry("", [("title", "A")])
        with self.assertRaisesRegex(TypeError, "ConfigurationEntry"):
            hooray_plugin.Reply(configuration_entry={"table": "reminder"})


if __name__ == "__main__":
    unittest.main()
