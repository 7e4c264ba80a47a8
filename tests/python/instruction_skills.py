#!/usr/bin/env python3
"""Instruction skills (issue 29) through the stock Python MCP SDK, over stdio and streamable HTTP:
prompts/list and prompts/get, resources/list and resources/read of skill:// URIs; a hot-reloaded
SKILL.md sends notifications/prompts/list_changed (stateful HTTP session); a malformed edit is
refused and the last good body is still served. Run by tests/python/run."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile

from mcp import Client, StdioServerParameters

LIMINA = os.environ.get("LIMINA_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "target", "debug", "limina"))
failures: list[str] = []
LIGHT = "---\nname: light\ndescription: Light a scene so captures read.\ntools: [scene.createEntity]\n---\nKey light first.\n"


def check(cond: bool, what: str) -> None:
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def project() -> str:
    root = tempfile.mkdtemp()
    os.makedirs(os.path.join(root, "scripts", "light", "refs"))
    with open(os.path.join(root, "scripts", "light", "SKILL.md"), "w") as f:
        f.write(LIGHT)
    with open(os.path.join(root, "scripts", "light", "refs", "rig.md"), "w") as f:
        f.write("three-point rig")
    return root


async def exercise(client, label: str) -> None:
    prompts = await client.list_prompts()
    names = [p.name for p in prompts.prompts]
    check(names == ["light"], f"[{label}] prompts/list shows the skill ({names})")
    got = await client.get_prompt("light")
    check(got.messages[0].content.text == "Key light first.\n", f"[{label}] prompts/get returns the body")
    resources = await client.list_resources()
    uris = [str(r.uri) for r in resources.resources]
    check("skill://light" in uris and "skill://light/refs/rig.md" in uris and "ui://limina/world" in uris, f"[{label}] resources/list merges skill:// with the Apps view ({uris})")
    read = await client.read_resource("skill://light/refs/rig.md")
    check(read.contents[0].text == "three-point rig", f"[{label}] resources/read of a resource file")
    try:
        await client.read_resource("skill://light/../light")
        check(False, f"[{label}] a '..' URI is refused")
    except Exception as e:  # the SDK raises the JSON-RPC error
        check("not found" in str(e), f"[{label}] a '..' URI is not found ({e})")


async def stdio() -> None:
    root = project()
    params = StdioServerParameters(command=LIMINA, args=["mcp", "--stdio", "--scripts", os.path.join(root, "scripts")], cwd=root)
    async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
        await exercise(client, "stdio")


async def http() -> None:
    root = project()
    skill = os.path.join(root, "scripts", "light", "SKILL.md")
    server = subprocess.Popen([LIMINA, "mcp", "--http", "--scripts", os.path.join(root, "scripts"), "--port", "0"], stderr=subprocess.PIPE, text=True, cwd=root)
    match = None
    for _ in range(50):
        line = server.stderr.readline()
        match = re.search(r"ws://(\S+)", line)
        if match is not None or not line:
            break
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if getattr(getattr(message, "root", message), "method", None) == "notifications/prompts/list_changed":
            changed.set()

    try:
        async with Client(f"http://{match.group(1)}/mcp", mode="legacy", read_timeout_seconds=30, message_handler=on_message) as client:
            await exercise(client, "http")
            with open(skill, "w") as f:
                f.write(LIGHT.replace("tools:", "colour: red\ntools:"))
            await asyncio.sleep(2)
            got = await client.get_prompt("light")
            check(got.messages[0].content.text == "Key light first.\n", "[http] a malformed edit keeps the last good body")
            with open(skill, "w") as f:
                f.write(LIGHT.replace("Key light first.", "Fill light second."))
            try:
                for _ in range(100):
                    await client.list_prompts()  # a request lets the server deliver pending notifications
                    if changed.is_set():
                        break
                    await asyncio.sleep(0.1)
                check(changed.is_set(), "[http] notifications/prompts/list_changed after a hot reload")
            finally:
                got = await client.get_prompt("light")
                check(got.messages[0].content.text == "Fill light second.\n", "[http] the good edit is served")
    finally:
        server.terminate()
        server.wait(5)


async def main() -> None:
    await stdio()
    await http()


if __name__ == "__main__":
    asyncio.run(main())
    print(f"{'all passed' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)
