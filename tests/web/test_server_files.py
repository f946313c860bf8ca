"""``flask generate-config``: the server files docs/deploy.md uses, checked by the tools that read them.

Caddy's own ``caddy validate`` reads the Caddyfile, ``systemd-analyze verify`` the units (with the
virtual environment's path pointed at this one, as the unit names a binary that must exist),
gunicorn's own parser the arguments of the environment file.
"""

from __future__ import annotations

import pathlib
import shlex
import shutil
import subprocess
import sys

import pytest
from flask import Flask

from scorer.web.server_files import VENV, caddyfile, is_local_name

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
HERE_VENV = str(pathlib.Path(sys.executable).parent.parent)


def generate(app: Flask, *args: str) -> str:
    result = app.test_cli_runner().invoke(args=["generate-config", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    ("name", "local"),
    [
        ("cartulina.lan", True),
        ("mesa.home.arpa", True),
        ("portatil.local", True),
        ("cartulina.test", True),
        ("localhost", True),
        ("192.168.1.20", True),
        ("[fe80::1]", True),
        ("portatil", True),
        ("cartulina.example.org", False),
        ("pena.es", False),
    ],
)
def test_local_names_get_caddys_own_authority_public_ones_a_public_one(name: str, local: bool) -> None:
    assert is_local_name(name) is local
    assert ("tls internal" in caddyfile(name)) is local


@pytest.mark.skipif(not pathlib.Path(CADDY).exists(), reason="caddy is not installed (apt-get install caddy)")
@pytest.mark.parametrize(
    "args",
    [
        ["--name", "cartulina.lan"],
        ["--name", "cartulina.example.org"],
        ["--name", "192.168.1.20"],
        ["--name", "cartulina.example.org", "--upstream", "10.0.0.2:8000", "--upstream", "10.0.0.3:8000"],
    ],
)
def test_the_caddyfile_is_valid_for_caddy(app: Flask, tmp_path: pathlib.Path, args: list[str]) -> None:
    text = generate(app, "caddy", *args)
    assert "encode zstd gzip" in text
    assert 'Cache-Control "public, max-age=86400"' in text
    path = tmp_path / "Caddyfile"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [CADDY, "validate", "--adapter", "caddyfile", "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    if "--upstream" in args:
        assert "reverse_proxy 10.0.0.2:8000 10.0.0.3:8000 {" in text
        assert "lb_policy" in text


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(app: Flask, tmp_path: pathlib.Path) -> None:
    units = tmp_path / "units"
    written = generate(app, "systemd", "--name", "cartulina.lan", "--write", str(units))
    written += generate(app, "backup-timer", "--write", str(units))
    names = sorted(pathlib.Path(line).name for line in written.split())
    assert names == ["cartulina-backup.service", "cartulina-backup.timer", "cartulina.service"]
    for unit in units.glob("*.service"):  # the unit names a binary that must exist: this venv's
        unit.write_text(unit.read_text(encoding="utf-8").replace(VENV, HERE_VENV), encoding="utf-8")
    done = subprocess.run(
        [str(SYSTEMD_ANALYZE), "verify", "--man=no", *sorted(str(p) for p in units.iterdir())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "cartulina" not in done.stderr, done.stderr  # no warning about our units either


def test_the_service_runs_gunicorn_with_the_apps_settings_and_migrates_on_start(app: Flask) -> None:
    unit = generate(app, "systemd", "--name", "cartulina.lan")
    assert f"ExecStart={VENV}/bin/gunicorn -c python:scorer.web.gunicorn_settings scorer:create_app()" in unit
    assert "EnvironmentFile=/etc/cartulina/cartulina.env" in unit
    assert "Restart=on-failure" in unit
    assert "MIGRATE_ON_START" not in unit  # the default: migrations run as the app starts


def test_the_backup_runs_nightly_and_keeps_fourteen_days(app: Flask) -> None:
    text = generate(app, "backup-timer")
    assert "flask --app scorer backup /var/backups/cartulina/cartulina-$(date +%%F).backup.gz" in text
    assert "-mtime +13 -delete" in text
    assert "OnCalendar=*-*-* 05:30:00" in text
    assert "Persistent=true" in text


def test_the_environment_file_holds_the_apps_settings_and_gunicorns_arguments(app: Flask) -> None:
    text = generate(app, "gunicorn", "--name", "cartulina.example.org", "--redis", "redis://127.0.0.1:6379")
    values = dict(line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert values["FLASK_CARTULINA_PROXIES"] == "1"
    assert values["FLASK_RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379"
    assert values["FLASK_SQLALCHEMY_DATABASE_URI"] == "postgresql:///cartulina"
    from gunicorn.config import Config

    config = Config()
    parsed = config.parser().parse_args(shlex.split(values["GUNICORN_CMD_ARGS"]))
    assert parsed.bind == ["127.0.0.1:8000"]
    assert parsed.workers == 3
    assert "--forwarded-allow-ips" not in values["GUNICORN_CMD_ARGS"]  # the app's ProxyFix reads the headers


def test_without_redis_the_limit_counts_in_memory(app: Flask) -> None:
    text = generate(app, "gunicorn")
    assert "FLASK_RATELIMIT_STORAGE_URI=memory://" in text


def test_an_unknown_kind_is_refused_by_name(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["generate-config", "apache"])
    assert result.exit_code != 0
    assert "caddy" in result.output
