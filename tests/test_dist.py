"""The distribution as the image builds it: the wheel from docker/'s build context, installed in a fresh venv.

The build context is what `docker build -f docker/Dockerfile .` sends (Dockerfile.dockerignore
applied), the build stage's COPY lines pick from it what the wheel is built from, and the final
stage's installs (the hash-pinned lock, then the wheel without resolving) are repeated in a new
`python -m venv`. No Docker engine is needed; pip reaches the package index (or its cache).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "docker" / "Dockerfile"
IGNORE = ROOT / "docker" / "Dockerfile.dockerignore"
INSTALL_TIMEOUT = 600  # a cold pip cache downloads every pinned dependency once


def ignore_patterns() -> list[str]:
    lines = (line.strip() for line in IGNORE.read_text().splitlines())
    return [line.strip("/") for line in lines if line and not line.startswith("#")]


def _pattern(glob: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go filepath.Match plus `**`) as a regex over /-separated paths."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


def ignored(rel: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern matching the path (or a folder above it) decides; `!` re-includes."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for raw in patterns:
        keep = raw.startswith("!")
        regex = _pattern(raw.lstrip("!"))
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            verdict = not keep
    return verdict


def build_context(dest: Path) -> Path:
    """Copy the files `docker build` would send (the repository minus Dockerfile.dockerignore) to `dest`."""
    patterns = ignore_patterns()
    reincluded = [p[1:] for p in patterns if p.startswith("!")]
    for folder, dirs, files in os.walk(ROOT):
        rel_dir = Path(folder).relative_to(ROOT).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        # Skip a whole ignored folder (.venv, .git) unless a `!` pattern reaches inside it.
        dirs[:] = [
            d
            for d in dirs
            if not ignored(rel_dir + d, patterns) or any(r.startswith(rel_dir + d + "/") for r in reincluded)
        ]
        for name in files:
            rel = rel_dir + name
            if not ignored(rel, patterns):
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, dest / rel)
    return dest


def build_stage_sources(context: Path, dest: Path) -> Path:
    """Run the build stage's COPY lines (WORKDIR-relative) from `context` into `dest`, as BuildKit would."""
    stage = re.split(r"^FROM\s", DOCKERFILE.read_text(), flags=re.MULTILINE)[1]  # [0] is the header comment
    copies = re.findall(r"^COPY\s+(?!--)(.+)$", stage, re.MULTILINE)
    assert copies, "the build stage copies nothing"
    for line in copies:
        *sources, target = line.split()
        into = dest / target
        for source in sources:
            origin = context / source
            if origin.is_dir():  # a folder's contents go into the target (`COPY . .`, `COPY gateway ./gateway`)
                shutil.copytree(origin, into, dirs_exist_ok=True)
            else:  # several sources, or a target ending in / or ".": a folder to put the file in
                folder = len(sources) > 1 or target.endswith("/") or target == "."
                into.mkdir(parents=True, exist_ok=True) if folder else into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, into / origin.name if folder else into)
    return dest


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without this worktree on PYTHONPATH: what runs must come from the venv."""
    env = {
        k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"} and not k.startswith("AGENTMAIL_")
    }
    return {**env, **extra}


def run(argv: list[str | Path], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    assert result.returncode == 0, (
        f"{' '.join(map(str, argv))} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    )
    return result


def test_dockerignore_matching_follows_docker() -> None:
    patterns = ["**/.env", "!.env.example", "docker", "!docker/requirements.lock", "*.egg-info"]
    assert ignored(".env", patterns) and ignored("gateway/.env", patterns)
    assert not ignored(".env.example", patterns)
    assert ignored("docker/compose.yaml", patterns) and not ignored("docker/requirements.lock", patterns)
    assert ignored("agentmail_gateway.egg-info/PKG-INFO", patterns)
    assert not ignored("gateway/cli.py", patterns) and not ignored("mcp_server/server.py", patterns)


def test_the_build_context_holds_the_distribution_and_no_secrets(tmp_path: Path) -> None:
    context = build_context(tmp_path / "context")
    top = {p.name for p in context.iterdir()}
    assert {"pyproject.toml", "README.md", "LICENSE", "gateway", "mcp_server"} <= top
    assert not top & {".venv", ".git", "tests", ".env"}
    assert [p.relative_to(context / "docker").as_posix() for p in (context / "docker").rglob("*")] == [
        "requirements.lock"
    ]


@pytest.mark.stdio  # spawns pip, a venv and the installed scripts
@pytest.mark.timeout(INSTALL_TIMEOUT + 120)
def test_the_images_wheel_runs_both_mcp_commands_from_a_fresh_venv(tmp_path: Path) -> None:
    context = build_context(tmp_path / "context")
    src = build_stage_sources(context, tmp_path / "src")
    wheels = tmp_path / "wheels"
    # The build stage's `pip wheel --no-deps .` (with pip's cache: its build backend is fetched once).
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", wheels, src], cwd=tmp_path, timeout=300)
    (wheel,) = wheels.glob("agentmail_gateway-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "mcp_server/__main__.py" in names and "gateway/cli.py" in names, "the wheel lacks a package"
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "agentmail-mcp = mcp_server.__main__:main" in entry_points

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=tmp_path)
    pip = [venv / "bin" / "python", "-m", "pip", "--disable-pip-version-check", "-q"]
    # The final stage: the pinned, hashed dependencies, then the wheel alone, then pip's own check.
    lock = context / "docker" / "requirements.lock"
    run([*pip, "install", "--require-hashes", "-r", lock], cwd=tmp_path, timeout=INSTALL_TIMEOUT)
    run([*pip, "install", "--no-deps", wheel], cwd=tmp_path)
    run([*pip, "check"], cwd=tmp_path)

    where = run(
        # mcp_server.server and gateway.app too: --help answers before the MCP SDK or the server load.
        [
            venv / "bin" / "python",
            "-c",
            "import gateway.app, mcp_server.server, gateway, mcp_server; print(gateway.__file__, mcp_server.__file__)",
        ],
        cwd=tmp_path,
    )
    assert all(Path(p).is_relative_to(venv) for p in where.stdout.split()), where.stdout
    mcp_help = run([venv / "bin" / "agentmail-mcp", "--help"], cwd=tmp_path, timeout=30)
    assert "usage: agentmail-mcp" in mcp_help.stdout and "AGENTMAIL_TOKEN" in mcp_help.stdout
    gateway_help = run([venv / "bin" / "agentmail-gateway", "mcp", "--help"], cwd=tmp_path, timeout=30)
    assert "usage: agentmail-gateway mcp" in gateway_help.stdout and "AGENTMAIL_TOKEN" in gateway_help.stdout
    version = run([venv / "bin" / "agentmail-mcp", "--version"], cwd=tmp_path, timeout=30)
    assert version.stdout.strip() == f"agentmail-mcp {wheel.name.split('-')[1]}"
