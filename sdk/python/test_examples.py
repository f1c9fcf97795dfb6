"""The example plugins under examples/plugins, driven through their pipes by a small fake host.

The fake host answers the plugin's calls as hoorayd would: it keeps storage and reminders in
memory and records notices and celebrations.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

from test_hooray_plugin import PluginProcess

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "plugins")


class FakeHost:
    """Answers a plugin's host calls until the answer to the host's own request `identifier` arrives."""

    def __init__(self, plugin):
        self.plugin = plugin
        self.storage = {}
        self.reminders = {}
        self.notices = []
        self.celebrations = []
        self.logs = []

    def until_answer(self, identifier):
        while True:
            message = self.plugin.read()
            if "method" not in message:
                assert message["id"] == identifier, message
                return message
            result = self.serve(message["method"], message["params"])
            if "id" in message:
                self.plugin.send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def settle(self):
        """Sends a request that needs no handler and serves the calls that come before its answer."""
        identifier = self.plugin.request("actionInvoked", {"notice": 0, "action": "default", "now": "2026-11-24T09:00:00Z"})
        self.until_answer(identifier)

    def serve(self, method, params):
        if method == "scheduleReminder":
            self.reminders[params["id"]] = params
            return {"id": params["id"], "next_due": params["schedule"].get("at")}
        if method == "cancelReminder":
            self.reminders.pop(params["id"], None)
            return {}
        if method == "postNotice":
            self.notices.append(params["notice"])
            return {"id": len(self.notices)}
        if method == "celebrate":
            self.celebrations.append(params)
            return {"shown": True, "line": params["title"]}
        if method == "storageGet":
            return {"value": self.storage.get(params["key"])}
        if method == "storagePut":
            self.storage[params["key"]] = params["value"]
            return {}
        if method == "storageDelete":
            self.storage.pop(params["key"], None)
            return {}
        if method == "log":
            self.logs.append(params["message"])
            return {}
        raise AssertionError("unexpected host call %s %r" % (method, params))


class ExampleProcess(PluginProcess):
    def __init__(self, folder, program, runner):
        self.folder = tempfile.TemporaryDirectory()
        self.process = subprocess.Popen(
            runner + [os.path.join(EXAMPLES, folder, program)],
            cwd=os.path.join(EXAMPLES, folder),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TZ="UTC"),
        )
        self.buffer = b""
        self.next_id = 100


def command(plugin, host, name, values=None, now="2026-11-24T09:00:00Z", json_output=False):
    identifier = plugin.request(
        "command",
        {
            "command": name,
            "values": values or {},
            "flags": [],
            "json": json_output,
            "environment": {"time_zone": "Europe/Paris", "color": False},
            "now": now,
        },
    )
    return host.until_answer(identifier)["result"]


class PomodoroTests(unittest.TestCase):
    def setUp(self):
        self.plugin = ExampleProcess("pomodoro", "pomodoro.py", [])
        self.addCleanup(self.plugin.close)
        self.host = FakeHost(self.plugin)
        _, answer = self.plugin.initialize()
        self.assertEqual(answer["result"]["api_version"], 1)

    def due(self, reminder, at):
        """The reminder comes due; as a one-off, the host forgets it."""
        self.host.reminders.pop(reminder, None)
        self.plugin.send(
            {
                "jsonrpc": "2.0",
                "method": "reminderDue",
                "params": {"reminder": reminder, "due_at": at, "payload": None, "catch_up": False, "now": at},
            }
        )
        self.host.settle()

    def test_start_schedules_the_end_with_break_and_skip_and_says_when(self):
        reply = command(self.plugin, self.host, "start", {"task": ["Write the report"]})
        self.assertEqual(reply["exit_code"], 0)
        self.assertEqual(reply["text"], "Focus until 10:25. I'll tap you on the shoulder.")
        (reminder,) = self.host.reminders.values()
        self.assertEqual(reminder["schedule"], {"at": "2026-11-24T09:25:00Z"})
        self.assertEqual(reminder["notice"]["title"], "Focus session done 🍅")
        self.assertIn("Write the report", reminder["notice"]["body"])
        self.assertEqual(reminder["notice"]["actions"], [{"id": "break", "label": "Break"}, {"id": "skip", "label": "Skip"}])
        status = command(self.plugin, self.host, "status", now="2026-11-24T09:10:00Z")
        self.assertEqual(status["text"], "Focusing on “Write the report” until 10:25.\nDone today: 0.")
        again = command(self.plugin, self.host, "start", now="2026-11-24T09:10:00Z")
        self.assertEqual(again["exit_code"], 1)
        self.assertIn("pomodoro stop", again["text"])
        stopped = command(self.plugin, self.host, "stop", now="2026-11-24T09:11:00Z")
        self.assertEqual(stopped["text"], "Stopped. Start again whenever you like.")
        self.assertEqual(self.host.reminders, {})

    def test_minutes_out_of_range_is_a_usage_error(self):
        for minutes in ("0", "121", "soon"):
            reply = command(self.plugin, self.host, "start", {"minutes": [minutes]})
            self.assertEqual(reply["exit_code"], 64)
            self.assertIn("1 to 120", reply["text"])
        self.assertEqual(self.host.reminders, {})
        reply = command(self.plugin, self.host, "start", {"minutes": ["50"]})
        self.assertEqual(reply["text"], "Focus until 10:50. I'll tap you on the shoulder.")

    def test_break_schedules_five_minutes_and_skip_does_nothing(self):
        command(self.plugin, self.host, "start")
        (session,) = self.host.reminders
        self.due(session, "2026-11-24T09:25:00Z")
        identifier = self.plugin.request(
            "actionInvoked",
            {"notice": 3, "action": "break", "reminder": session, "due_at": "2026-11-24T09:25:00Z", "payload": None, "now": "2026-11-24T09:26:00Z"},
        )
        self.assertEqual(self.host.until_answer(identifier)["result"], {})
        (pause,) = self.host.reminders.values()
        self.assertEqual(pause["schedule"], {"at": "2026-11-24T09:31:00Z"})
        self.assertEqual(pause["notice"]["title"], "Break's over — ready for another?")
        identifier = self.plugin.request(
            "actionInvoked",
            {"notice": 3, "action": "skip", "reminder": session, "due_at": None, "payload": None, "now": "2026-11-24T09:26:00Z"},
        )
        self.assertEqual(self.host.until_answer(identifier)["result"], {})
        self.assertEqual(len(self.host.reminders), 1)

    def test_every_fourth_session_of_a_day_is_celebrated(self):
        for number in range(4):
            start = "2026-11-24T%02d:00:00Z" % (9 + number)
            command(self.plugin, self.host, "start", now=start)
            (session,) = self.host.reminders
            self.due(session, "2026-11-24T%02d:25:00Z" % (9 + number))
            self.assertEqual(len(self.host.celebrations), 1 if number == 3 else 0)
        self.assertEqual(self.host.celebrations[0]["title"], "Four focus sessions today")
        self.assertEqual(self.host.celebrations[0]["size"], "big")
        status = command(self.plugin, self.host, "status", now="2026-11-24T14:00:00Z", json_output=True)
        self.assertEqual(status["json"], {"session": None, "break_until": None, "done_today": 4})


@unittest.skipUnless(shutil.which("dash"), "dash is not installed")
class StretchTests(unittest.TestCase):
    def setUp(self):
        self.plugin = ExampleProcess("stretch", "stretch.sh", ["dash"])
        self.addCleanup(self.plugin.close)
        self.host = FakeHost(self.plugin)

    def test_initialize_schedules_15_00_now_posts_done_answers_and_shutdown_exits(self):
        identifier, answer = self.plugin.initialize()
        self.assertEqual(answer, {"jsonrpc": "2.0", "id": identifier, "result": {"api_version": 1, "name": "stretch", "version": "1.0.0"}})
        self.host.settle()
        self.assertEqual(self.host.reminders["daily"]["schedule"], {"daily": "15:00"})
        reply = command(self.plugin, self.host, "now")
        self.assertEqual(reply["exit_code"], 0)
        self.assertEqual(self.host.notices[0]["title"], "Time to stretch")
        self.assertEqual(self.host.notices[0]["actions"], [{"id": "done", "label": "Done"}])
        identifier = self.plugin.request(
            "actionInvoked",
            {"notice": 1, "action": "done", "reminder": "daily", "due_at": None, "payload": None, "now": "2026-11-24T15:00:00Z"},
        )
        self.assertEqual(self.host.until_answer(identifier)["result"], {})
        identifier = self.plugin.request("shutdown", {})
        self.assertEqual(self.host.until_answer(identifier)["result"], {})
        self.assertEqual(self.plugin.process.wait(10), 0)


if __name__ == "__main__":
    unittest.main()
