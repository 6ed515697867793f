"""sd_notify against a fake systemd listener, the watchdog on a fake clock, and the
unit file checked by systemd's own offline verifier."""

import logging
import os
import re
import shutil
import socket
import subprocess
import uuid
from pathlib import Path

import pytest

from toprace_pi import service
from toprace_pi.service import Watchdog, notify, ready, status, stopping
from toprace_pi.web.connections import bounds

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "toprace-pi.service"
INSTALLED_BINARY = "/opt/toprace-pi/venv/bin/toprace-pi"


class FakeSystemd:
    """The receiving end of $NOTIFY_SOCKET: a datagram socket, read without waiting."""

    def __init__(self, address, environ_value):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.setblocking(False)
        self.environ = {"NOTIFY_SOCKET": environ_value}

    def received(self):
        messages = []
        while True:
            try:
                messages.append(self.sock.recv(4096).decode())
            except BlockingIOError:
                return messages


@pytest.fixture
def systemd(tmp_path):
    path = str(tmp_path / "notify")
    listener = FakeSystemd(path, path)
    yield listener
    listener.sock.close()


@pytest.fixture
def abstract_systemd():
    name = f"toprace-test-{uuid.uuid4().hex}"
    listener = FakeSystemd("\0" + name, "@" + name)
    yield listener
    listener.sock.close()


# --- notify --------------------------------------------------------------------


def test_ready_status_watchdog_and_stopping_reach_systemd(systemd):
    env = systemd.environ
    assert ready(environ=env)
    assert status("Turn 3: Anna plays a card", environ=env)
    assert notify("WATCHDOG=1", environ=env)
    assert stopping(environ=env)
    assert systemd.received() == ["READY=1", "STATUS=Turn 3: Anna plays a card", "WATCHDOG=1", "STOPPING=1"]


def test_ready_can_carry_a_status(systemd):
    ready("waiting for the discard reader", environ=systemd.environ)
    assert systemd.received() == ["READY=1\nSTATUS=waiting for the discard reader"]


def test_a_status_stays_on_one_line(systemd):
    status("Red finishes\nfirst\n\nSTOPPING=1", environ=systemd.environ)
    assert systemd.received() == ["STATUS=Red finishes first STOPPING=1"]


def test_an_abstract_socket_is_reached(abstract_systemd):
    assert ready(environ=abstract_systemd.environ)
    assert abstract_systemd.received() == ["READY=1"]


def test_nothing_happens_outside_systemd(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not ready()
    assert not notify("WATCHDOG=1", environ={})
    assert not status("x", environ={"NOTIFY_SOCKET": ""})


def test_an_unreachable_socket_is_logged_not_raised(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        assert not ready(environ={"NOTIFY_SOCKET": str(tmp_path / "gone")})
        assert not ready(environ={"NOTIFY_SOCKET": "relative/path"})
    assert "could not notify systemd" in caplog.text
    assert "neither a path nor an abstract socket" in caplog.text


def test_the_process_environment_is_used_by_default(systemd, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.environ["NOTIFY_SOCKET"])
    assert ready()
    assert systemd.received() == ["READY=1"]


# --- watchdog ------------------------------------------------------------------


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def watchdog_env(systemd, usec="15000000", pid=None):
    env = {**systemd.environ, "WATCHDOG_USEC": usec}
    if pid is not None:
        env["WATCHDOG_PID"] = pid
    return env


def test_the_watchdog_pings_at_half_its_interval(systemd):
    clock = FakeClock()
    watchdog = Watchdog(environ=watchdog_env(systemd), clock=clock)
    assert watchdog.enabled and watchdog.interval == 7.5
    clock.now += 7.4
    assert watchdog.due_in() == pytest.approx(0.1)
    assert not watchdog.ping_if_due()
    assert systemd.received() == []
    clock.now += 0.1
    assert watchdog.due_in() == 0.0
    assert watchdog.ping_if_due()
    assert systemd.received() == ["WATCHDOG=1"]
    assert not watchdog.ping_if_due()  # counted again from this ping
    assert watchdog.due_in() == 7.5


def test_a_late_round_pings_once_and_counts_from_then(systemd):
    clock = FakeClock()
    watchdog = Watchdog(environ=watchdog_env(systemd), clock=clock)
    clock.now += 20.0
    assert watchdog.ping_if_due()
    assert not watchdog.ping_if_due()
    assert systemd.received() == ["WATCHDOG=1"]
    assert watchdog.due_in() == 7.5


def test_the_watchdog_is_off_without_watchdog_usec(systemd):
    clock = FakeClock()
    watchdog = Watchdog(environ=systemd.environ, clock=clock)
    clock.now += 3600
    assert not watchdog.enabled
    assert watchdog.due_in() is None
    assert not watchdog.ping_if_due()
    assert systemd.received() == []
    assert repr(watchdog) == "<Watchdog off>"


def test_the_watchdog_belongs_to_the_process_named_in_watchdog_pid(systemd):
    assert Watchdog(environ=watchdog_env(systemd, pid=str(os.getpid()))).interval == 7.5
    assert not Watchdog(environ=watchdog_env(systemd, pid=str(os.getpid() + 1))).enabled


@pytest.mark.parametrize("usec", ["", "0", "-5", "15s", "1.5"])
def test_a_malformed_watchdog_usec_turns_the_watchdog_off(systemd, usec, caplog):
    with caplog.at_level(logging.WARNING):
        assert not Watchdog(environ=watchdog_env(systemd, usec=usec)).enabled
    assert "WATCHDOG_USEC" in caplog.text


def test_the_watchdog_repr_tells_the_interval(systemd):
    assert repr(Watchdog(environ=watchdog_env(systemd, usec="10000000"))) == "<Watchdog every 5 s>"


def test_the_module_needs_nothing_outside_the_standard_library_and_the_package():
    source = Path(service.__file__).read_text()
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    top = {name.split(".")[0] for name in imports}
    assert top <= {"__future__", "logging", "os", "socket", "time", "collections", "typing", "toprace_pi"}
    assert {name for name in imports if name.startswith("toprace_pi")} == {"toprace_pi.text"}


# --- the unit file -----------------------------------------------------------------


def unit_settings():
    settings = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_asks_for_what_the_controller_relies_on():
    settings = unit_settings()
    for key, value in {
        "Type": "notify",
        "NotifyAccess": "main",
        "WatchdogSec": "15",
        "Restart": "on-failure",
        "RestartSec": "2",
        "User": "toprace",
        "StateDirectory": "toprace-pi",
        "ExecStart": f"{INSTALLED_BINARY} play --config /etc/toprace-pi/config.toml",
    }.items():
        assert settings[key] == [value], key
    assert set(settings["SupplementaryGroups"][0].split()) >= {"gpio", "spi", "i2c", "dialout"}
    assert "StartLimitIntervalSec" in settings and "StartLimitBurst" in settings
    assert "PrivateDevices" not in settings  # it would hide /dev/spidev*, /dev/gpiochip* and /dev/ttyACM*
    assert settings["UMask"] == ["0077"]  # the journal holds the players' secrets
    assert settings["CapabilityBoundingSet"] == [""] and settings["RestrictAddressFamilies"] == ["AF_UNIX"]


def test_the_unit_sets_the_open_files_limit_the_web_pages_connections_stay_well_below():
    limit = int(unit_settings()["LimitNOFILE"][0])
    assert 4 * bounds(limit).connections <= limit  # a crowd of connections leaves the table three quarters


def test_the_unit_lets_the_service_open_every_serial_device_the_wiring_guide_names():
    """A reader on a USB-serial adapter (/dev/ttyUSB0), the hub on a Pico (/dev/ttyACM0), the Pi's own UARTs: each
    kind of device hardware/ names is one the closed device policy allows, and dialout may open it."""
    named: set[str] = set()
    for guide in (UNIT.parent.parent / "hardware").glob("*.md"):
        named |= set(re.findall(r"/dev/(tty[A-Z]+)\d", guide.read_text("utf-8")))
    assert {"ttyUSB", "ttyACM", "ttyAMA", "ttyS"} <= named
    settings = unit_settings()
    assert settings["DevicePolicy"] == ["closed"] and "dialout" in settings["SupplementaryGroups"][0].split()
    assert sorted(f"char-{kind} rw" for kind in named if f"char-{kind} rw" not in settings["DeviceAllow"]) == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_units_exposure_under_systemd_analyze_security_is_low():
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(UNIT)],
                          capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert score is not None, done.stdout[-500:] + done.stderr
    assert float(score.group(1)) <= 1.0  # 5.7 before the hardening of issue 11, 0.8 after


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed on this machine (no systemd), so the unit cannot be verified here",
)
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    # verify fails ("Command ... is not executable") when ExecStart's program is missing, and the installed
    # binary exists only on a set-up Pi. So the unit is checked as a copy that differs in that one path.
    stand_in = shutil.which("true")
    assert stand_in is not None
    text = UNIT.read_text()
    assert text.count(INSTALLED_BINARY) == 1
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(INSTALLED_BINARY, stand_in))
    assert [line for line in copy.read_text().splitlines() if line not in text.splitlines()] == [
        f"ExecStart={stand_in} play --config /etc/toprace-pi/config.toml"
    ]
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    # Unknown keys and bad values are only warnings on stderr with exit status 0, so both are checked.
    assert (done.returncode, done.stderr) == (0, "")


WEB_DROP_IN = UNIT.parent / "toprace-pi-web.conf"


def unit_with_web(tmp_path):
    """The unit and its web drop-in, copied where systemd-analyze looks for both (ExecStart as in the test above)."""
    stand_in = shutil.which("true")
    assert stand_in is not None
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace(INSTALLED_BINARY, stand_in))
    (tmp_path / "toprace-pi.service.d").mkdir()
    shutil.copy(WEB_DROP_IN, tmp_path / "toprace-pi.service.d" / "web.conf")
    return copy


def test_the_web_drop_in_opens_the_local_network_and_the_web_port_alone():
    settings: dict[str, list[str]] = {}
    for line in WEB_DROP_IN.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    assert settings["PrivateNetwork"] == ["no"]
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert settings["IPAddressDeny"] == ["any"] and "192.168.0.0/16" in settings["IPAddressAllow"][0]
    assert settings["SocketBindAllow"] == ["tcp:8080"] and settings["SocketBindDeny"] == ["any"]
    assert "8080" in (Path(__file__).parent.parent / "systemd" / "README.md").read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_accepts_the_unit_with_the_web_drop_in_and_rates_it_ok(tmp_path):
    copy = unit_with_web(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SYSTEMD_UNIT_PATH": f"{tmp_path}:"})
    assert (done.returncode, done.stderr) == (0, "")
    done = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(copy)],
                          capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for \S+: ([0-9.]+)", done.stdout)
    assert score is not None, done.stdout[-500:] + done.stderr
    assert "Service has access to the host's network" in done.stdout  # the drop-in was read
    assert float(score.group(1)) <= 2.0  # 1.6 with the web page on, 0.8 without
