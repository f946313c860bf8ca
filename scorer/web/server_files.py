"""``flask --app scorer generate-config caddy|gunicorn|systemd|backup-timer``: a small server's files.

Each prints files that work as printed on a Debian server laid out as docs/deploy.md says (the
convention of I Hate Money's ``generate-config``): the app in a virtual environment in
``/opt/cartulina/venv``, its instance folder ``/var/lib/cartulina``, its settings in
``/etc/cartulina/cartulina.env``, a system user ``cartulina``, PostgreSQL on the same machine.
``--write DIR`` writes them into DIR instead (named as on the server, without the folders).

- ``caddy``: the Caddyfile of https://NAME: a certificate (a public authority's for a public
  name, Caddy's own local authority for a local one), http → https, compression, ``/static``
  cached a day, the app (or several, ``--upstream`` repeated) behind it;
- ``gunicorn``: the environment file of the app and its gunicorn (GUNICORN_CMD_ARGS);
- ``systemd``: ``cartulina.service``, gunicorn with ``-c python:scorer.web.gunicorn_settings``
  (migrations run as it starts: MIGRATE_ON_START);
- ``backup-timer``: ``cartulina-backup.service`` and ``.timer``: a ``flask backup`` every night,
  the last 14 days kept.
"""

from __future__ import annotations

import ipaddress
import pathlib

import click
from flask import Flask

VENV = "/opt/cartulina/venv"
INSTANCE = "/var/lib/cartulina"
ENV_FILE = "/etc/cartulina/cartulina.env"
BACKUPS = "/var/backups/cartulina"
KEPT_DAYS = 14
APP = "127.0.0.1:8000"
LOCAL_SUFFIXES = (".lan", ".home.arpa", ".local", ".test", ".localhost", ".internal")
STATIC_SECONDS = 24 * 3600  # the static files' names carry no version: a day, so that an upgrade reaches phones


def is_local_name(name: str) -> bool:
    """A name no public authority certifies: an IP address, localhost, or a local-only domain (Caddy's own CA)."""
    host = name.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    return host == "localhost" or "." not in host or host.endswith(LOCAL_SUFFIXES)


def caddyfile(
    name: str,
    upstreams: tuple[str, ...] = (APP,),
    *,
    https_port: int = 443,
    http_port: int = 80,
    alone: bool = False,
) -> str:
    """The Caddyfile of Cartulina at https://NAME (several upstreams: Caddy balances them).

    ``alone`` (scripts/run --https): no admin endpoint (several may run on one machine), the root is
    not put in the system's trust store, and for a local name the root certificate's page
    (/certificado) is served over plain http too, for phones that do not trust it yet.
    """
    site = name if https_port == 443 else f"{name}:{https_port}"
    lines = [
        "# Cartulina at https://" + site + " (flask --app scorer generate-config caddy)",
        "{",
        f"\thttp_port {http_port}",
        f"\thttps_port {https_port}",
        *(["\tadmin off", "\tskip_install_trust"] if alone else []),
        "}",
        "",
    ]
    if alone and is_local_name(name):
        lines += [
            f"http://{name} {{",
            "\t@root path /certificado /certificado/*",
            "\thandle @root {",
            "\t\treverse_proxy " + " ".join(upstreams),
            "\t}",
            "\thandle {",
            f"\t\tredir https://{site}{{uri}} 308",
            "\t}",
            "}",
            "",
        ]
    lines.append(site + " {")
    if is_local_name(name):
        lines += ["\t# a local name: Caddy's own authority (docs/deploy.md: phones trust its root)", "\ttls internal"]
    lines += [
        "\tencode zstd gzip",
        "\t@static path /static/*",
        "\theader @static {",
        f'\t\tCache-Control "public, max-age={STATIC_SECONDS}"',
        "\t\tdefer  # after the app's own headers: this one wins",
        "\t}",
        "\treverse_proxy " + " ".join(upstreams) + (" {" if len(upstreams) > 1 else ""),
    ]
    if len(upstreams) > 1:
        lines += [
            "\t\tlb_policy least_conn",
            "\t\tlb_try_duration 5s",
            "\t\thealth_uri /static/favicon.svg",
            "\t}",
        ]
    lines += ["}", ""]
    return "\n".join(lines)


def environment(name: str, *, bind: str = APP, workers: int = 3, redis: str | None = None) -> str:
    """/etc/cartulina/cartulina.env: the app's settings (FLASK_*) and gunicorn's (GUNICORN_CMD_ARGS)."""
    limit = redis or "memory://"
    return f"""# {ENV_FILE}: read by cartulina.service (flask --app scorer generate-config gunicorn)
# The app (FLASK_<SETTING>, see scorer/web/__init__.py); the database: PostgreSQL on this machine,
# user and database "cartulina", through its local socket (docs/deploy.md).
FLASK_INSTANCE_PATH={INSTANCE}
FLASK_SQLALCHEMY_DATABASE_URI=postgresql:///cartulina
# one proxy (Caddy or nginx) in front: links, share links and QR codes say https://{name}
FLASK_CARTULINA_PROXIES=1
# the creation limit's counts: memory:// per process; redis://127.0.0.1:6379 shared by several app servers
FLASK_RATELIMIT_STORAGE_URI={limit}
# gunicorn, on top of scorer.web.gunicorn_settings: where it listens, how many workers, its logs to the journal
GUNICORN_CMD_ARGS=--bind {bind} --workers {workers} --worker-class gthread --threads 4 --timeout 60 --access-logfile -
"""


def service(name: str) -> str:
    """cartulina.service: gunicorn serving the app; migrations on start, logs in the journal."""
    return f"""# /etc/systemd/system/cartulina.service (flask --app scorer generate-config systemd)
[Unit]
Description=Cartulina at https://{name}
After=network-online.target postgresql.service redis-server.service
Wants=network-online.target

[Service]
Type=notify
NotifyAccess=main
User=cartulina
Group=cartulina
EnvironmentFile={ENV_FILE}
WorkingDirectory={INSTANCE}
StateDirectory=cartulina
ExecStart={VENV}/bin/gunicorn -c python:scorer.web.gunicorn_settings scorer:create_app()
ExecReload=/bin/kill -s HUP $MAINPID
KillMode=mixed
TimeoutStartSec=120
TimeoutStopSec=30
Restart=on-failure
RestartSec=5
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=full
ProtectHome=yes

[Install]
WantedBy=multi-user.target
"""


def backup_service() -> str:
    return f"""# /etc/systemd/system/cartulina-backup.service (flask --app scorer generate-config backup-timer)
[Unit]
Description=Cartulina's nightly backup (the last {KEPT_DAYS} days kept in {BACKUPS})
After=postgresql.service

[Service]
Type=oneshot
User=cartulina
Group=cartulina
EnvironmentFile={ENV_FILE}
Environment=FLASK_MIGRATE_ON_START=false
WorkingDirectory={INSTANCE}
StateDirectory=cartulina
ExecStartPre=+/usr/bin/install -d -m 0750 -o cartulina -g cartulina {BACKUPS}
ExecStart=/bin/sh -c 'exec {VENV}/bin/flask --app scorer backup {BACKUPS}/cartulina-$(date +%%F).backup.gz'
ExecStartPost=/usr/bin/find {BACKUPS} -name 'cartulina-*.backup.gz' -mtime +{KEPT_DAYS - 1} -delete
NoNewPrivileges=yes
PrivateTmp=yes
"""


def backup_timer() -> str:
    return """# /etc/systemd/system/cartulina-backup.timer (flask --app scorer generate-config backup-timer)
[Unit]
Description=Cartulina's nightly backup

[Timer]
OnCalendar=*-*-* 05:30:00
RandomizedDelaySec=15min
Persistent=true

[Install]
WantedBy=timers.target
"""


def files(kind: str, name: str, upstreams: tuple[str, ...], redis: str | None) -> dict[str, str]:
    """The files of ``kind``, by their name on the server."""
    if kind == "caddy":
        return {"Caddyfile": caddyfile(name, upstreams or (APP,))}
    if kind == "gunicorn":
        return {"cartulina.env": environment(name, redis=redis)}
    if kind == "systemd":
        return {"cartulina.service": service(name)}
    return {"cartulina-backup.service": backup_service(), "cartulina-backup.timer": backup_timer()}


@click.command("generate-config")
@click.argument("kind", type=click.Choice(["caddy", "gunicorn", "systemd", "backup-timer"]))
@click.option("--name", default="cartulina.example.org", show_default=True, help="The address the phones use.")
@click.option("--upstream", "upstreams", multiple=True, help="An app server host:port (repeat: Caddy balances).")
@click.option("--redis", default=None, help="redis://HOST:PORT shared by several app servers (the creation limit).")
@click.option("--write", "folder", type=click.Path(file_okay=False, path_type=pathlib.Path), help="Write into DIR.")
def generate_config(
    kind: str, name: str, upstreams: tuple[str, ...], redis: str | None, folder: pathlib.Path | None
) -> None:
    """Print (or write) the server files of KIND for Cartulina at https://NAME (docs/deploy.md)."""
    made = files(kind, name, upstreams, redis)
    if folder is None:
        click.echo("\n".join(made.values()), nl=False)
        return
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, text in made.items():
        (folder / file_name).write_text(text, encoding="utf-8")
        click.echo(folder / file_name)


def register_commands(app: Flask) -> None:
    app.cli.add_command(generate_config)
