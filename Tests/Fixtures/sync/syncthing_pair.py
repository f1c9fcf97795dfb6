"""Two real Syncthing instances that keep two folders in step over 127.0.0.1 only.

Usage: syncthing_pair.py WORK FOLDER_A FOLDER_B

Each instance has its home under WORK, listens on a free loopback port, and knows the other by
address: global and local discovery, relays, NAT traversal, usage reports and upgrades are off, so
nothing leaves this computer. The folder is watched (fsWatcher, 1 s delay). Prints "ready" once
both instances are connected, then reads commands on standard input, one a line:
  pause    the link goes down (each instance pauses the other device), then prints "paused"
  resume   the link comes back, then prints "resumed" once they are connected again
  quit     both stop
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def say(line):
    print(line, flush=True)


class Instance:
    def __init__(self, work, name, folder):
        self.home = os.path.join(work, name)
        self.folder = folder
        self.gui = free_port()
        self.listen = free_port()
        self.key = "hooray-test-" + name
        subprocess.run(["syncthing", "generate", "--home=" + self.home, "--no-default-folder",
                        "--skip-port-probing"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.id = subprocess.run(["syncthing", "--home=" + self.home, "--device-id"], check=True,
                                 capture_output=True, text=True).stdout.strip()
        self.process = None

    def configure(self, other):
        path = os.path.join(self.home, "config.xml")
        tree = ET.parse(path)
        root = tree.getroot()
        gui = root.find("gui")
        gui.find("address").text = "127.0.0.1:%d" % self.gui
        apikey = gui.find("apikey")
        if apikey is None:
            apikey = ET.SubElement(gui, "apikey")
        apikey.text = self.key
        options = root.find("options")
        for tag, value in [("listenAddress", "tcp://127.0.0.1:%d" % self.listen),
                           ("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
                           ("relaysEnabled", "false"), ("natEnabled", "false"), ("urAccepted", "-1"),
                           ("autoUpgradeIntervalH", "0"), ("crashReportingEnabled", "false"),
                           ("startBrowser", "false")]:
            for old in options.findall(tag):
                options.remove(old)
            ET.SubElement(options, tag).text = value
        for old in root.findall("device"):
            root.remove(old)
        for device_id, address, name in [(self.id, "dynamic", "self"),
                                         (other.id, "tcp://127.0.0.1:%d" % other.listen, "other")]:
            device = ET.SubElement(root, "device", id=device_id, name=name, compression="metadata",
                                   introducer="false", skipIntroductionRemovals="false", introducedBy="")
            ET.SubElement(device, "address").text = address
            ET.SubElement(device, "paused").text = "false"
            ET.SubElement(device, "autoAcceptFolders").text = "false"
        folder = ET.SubElement(root, "folder", id="hooray", label="hooray", path=self.folder, type="sendreceive",
                               rescanIntervalS="3600", fsWatcherEnabled="true", fsWatcherDelayS="1",
                               ignorePerms="false", autoNormalize="true")
        ET.SubElement(folder, "device", id=self.id, introducedBy="")
        ET.SubElement(folder, "device", id=other.id, introducedBy="")
        tree.write(path)

    def start(self):
        env = dict(os.environ, STNOUPGRADE="1", STNODEFAULTFOLDER="1")
        self.process = subprocess.Popen(["syncthing", "serve", "--home=" + self.home, "--no-browser",
                                         "--no-restart", "--logflags=0"], env=env,
                                        stdout=open(os.path.join(self.home, "log.txt"), "w"),
                                        stderr=subprocess.STDOUT)

    def rest(self, method, path, body=None):
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.gui, path), method=method,
                                         headers={"X-API-Key": self.key})
        if body is not None:
            request.data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=5) as answer:
            text = answer.read()
            return json.loads(text) if text else None

    def connected(self, other):
        try:
            return self.rest("GET", "/rest/system/connections")["connections"].get(other.id, {}).get("connected")
        except Exception:
            return False


def wait(what, check, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if check():
            return
        time.sleep(0.2)
    raise SystemExit("timed out waiting for " + what)


def main():
    work, folder_a, folder_b = sys.argv[1:4]
    a = Instance(work, "a", folder_a)
    b = Instance(work, "b", folder_b)
    a.configure(b)
    b.configure(a)
    a.start()
    b.start()
    try:
        wait("the two instances to connect", lambda: a.connected(b) and b.connected(a))
        say("ready")
        for line in sys.stdin:
            command = line.strip()
            if command == "pause":
                a.rest("POST", "/rest/system/pause?device=" + b.id)
                b.rest("POST", "/rest/system/pause?device=" + a.id)
                wait("the link to go down", lambda: not a.connected(b) and not b.connected(a))
                say("paused")
            elif command == "resume":
                a.rest("POST", "/rest/system/resume?device=" + b.id)
                b.rest("POST", "/rest/system/resume?device=" + a.id)
                wait("the link to come back", lambda: a.connected(b) and b.connected(a))
                say("resumed")
            elif command == "quit":
                break
    finally:
        for instance in (a, b):
            if instance.process:
                instance.process.terminate()
        for instance in (a, b):
            if instance.process:
                try:
                    instance.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    instance.process.kill()


main()
