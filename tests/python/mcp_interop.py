#!/usr/bin/env python3
"""Interop: the stock Python MCP SDK (PyPI `mcp` 2.3.0) and a real WebSocket client library
against the `limina` binary. Run by tests/python/run (part of the README's test command).

Checks, per the MCP issue: default mode (server/discover, the 2026-07-28 stateless revision)
and legacy mode (initialize handshake) both connect, over stdio and streamable HTTP; tools/list
lists every registered skill a builder may call (with `--tools all`, or by default after
skills.enable of every category that skills.browse shows, starting from the core tier), each
inputSchema a valid JSON Schema; an entity is created and read back; size = 80 comes back
as isError; the session shuts down cleanly. Then one WebSocket session: initialize, a tool call,
and a state/subscribe snapshot that shows the entity. Then embodiment (issue 27), over HTTP (two
clients with their own tokens and the in-world keeper of demos/meet.lua) and over stdio: embody,
perceive, approach, say; the other agents perceive the line; a player.limited client cannot
embody with a wider profile; a released agent takes no more calls from its client.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time

import tempfile

import httpx2
import jsonschema
import mcp_types
import websockets
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

LIMINA = os.environ.get("LIMINA_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "target", "debug", "limina"))
failures: list[str] = []


def check(cond: bool, what: str) -> None:
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


# The catalog's builder.readWrite profile (the server's default grant): a client is never shown a
# tool its profile cannot call, so the governance skills (policy.govern) are not listed to it.
BUILDER = {"scene.read", "scene.write", "ecs.read", "ecs.modify", "physics.read", "physics.write", "agent.read", "agent.write",
           "ui.write", "audio.play", "trace.read", "trace.write", "test.run"}
META_TOOLS = ["skills.search", "skills.browse", "skills.enable", "skills.disable"]
# App-only tools (tier "app"): listed only to clients that declared MCP Apps, never to this one.
APP_ONLY = {"world.viewModel"}


def registered_skills() -> list[tuple[str, set[str]]]:
    """`limina skills list`: every registered skill with the permissions it needs."""
    out = subprocess.run([LIMINA, "skills", "list"], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        if line.strip():
            name, perms = line.split()[:2]
            rows.append((name, set() if perms == "-" else set(perms.split(","))))
    return rows


async def list_all(client) -> list:
    tools = []
    cursor = None
    for _ in range(20):
        page = await client.list_tools(cursor=cursor, cache_mode="bypass")
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


async def exercise(mode: str, expected: list[str], tools_flag: str) -> None:
    label = f"stdio mode={mode} --tools {tools_flag}"
    started = time.monotonic()
    args = ["mcp", "--stdio", "--tools", tools_flag]
    async with Client(StdioServerParameters(command=LIMINA, args=args), mode=mode, read_timeout_seconds=30) as client:
        connect_s = time.monotonic() - started
        check(connect_s < 5, f"[{label}] connected in {connect_s:.2f}s (no hang)")
        if mode == "legacy":
            check(client.protocol_version in mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS, f"[{label}] handshake version {client.protocol_version}")
        else:
            check(client.protocol_version == "2026-07-28", f"[{label}] negotiated the stateless revision via server/discover ({client.protocol_version})")
        tools = await list_all(client)
        names = [t.name for t in tools]
        if tools_flag == "core":
            check(all(m in names for m in META_TOOLS), f"[{label}] the default list holds the discovery meta-tools")
            check(set(names) < set(expected), f"[{label}] the default list is a part of the catalog ({len(names)} of {len(expected)})")
            browsed = await client.call_tool("skills.browse", {})
            categories = [c["name"] for c in (browsed.structured_content or {}).get("categories", [])]
            if mode == "legacy":
                enabled = await client.call_tool("skills.enable", {"categories": categories})
                check(enabled.is_error is False, f"[{label}] skills.enable {categories}")
            else:
                # The stateless revision sends list_changed only on a subscriptions/listen stream.
                async with client.listen(tools_list_changed=True) as sub:
                    check(sub.honored.tools_list_changed is True, f"[{label}] subscriptions/listen over stdio honors toolsListChanged")
                    enabled = await client.call_tool("skills.enable", {"categories": categories})
                    check(enabled.is_error is False, f"[{label}] skills.enable {categories}")
                    try:
                        event = await asyncio.wait_for(anext(sub), 10)
                        check(type(event).__name__ == "ToolsListChanged", f"[{label}] the listen stream carried {type(event).__name__}")
                    except TimeoutError:
                        check(False, f"[{label}] the listen stream carried tools/list_changed after skills.enable")
            tools = await list_all(client)
            names = [t.name for t in tools]
        check(names == expected, f"[{label}] tools/list lists every registered skill a builder may call ({len(names)})")
        for t in tools:
            try:
                jsonschema.Draft7Validator.check_schema(t.input_schema)
                valid = t.input_schema.get("type") == "object"
            except jsonschema.SchemaError as e:
                print(f"     {t.name}: {e.message}")
                valid = False
            if not valid:
                check(False, f"[{label}] {t.name} inputSchema is a valid JSON Schema")
        check(all(t.annotations is not None for t in tools), f"[{label}] every tool carries annotations")
        query = next(t for t in tools if t.name == "scene.queryEntities")
        check(query.annotations.read_only_hint is True, f"[{label}] scene.queryEntities is readOnly")
        destroy = next(t for t in tools if t.name == "scene.destroyEntity")
        # Only hints that differ from MCP's defaults are sent; destructiveHint defaults to true
        # for a tool that is not read-only, so an omitted one says destructive.
        check(
            destroy.annotations.read_only_hint is not True and destroy.annotations.destructive_hint in (True, None),
            f"[{label}] scene.destroyEntity is destructive",
        )

        created = await client.call_tool("scene.createEntity", {"shape": "sphere", "position": [1, 2, 3]})
        check(created.is_error is False, f"[{label}] scene.createEntity succeeded")
        entity = (created.structured_content or {}).get("entity")
        check(isinstance(entity, str) and entity.startswith("ent_"), f"[{label}] got an entity id ({entity})")
        found = await client.call_tool("scene.queryEntities", {"near": [1, 2, 3], "radius": 0.5})
        rows = (found.structured_content or {}).get("entities", [])
        check(any(r["entity"] == entity for r in rows), f"[{label}] scene.queryEntities reads it back")
        text = json.loads(found.content[0].text)
        check(text == found.structured_content, f"[{label}] text content is the JSON of the structured content")

        bad = await client.call_tool("scene.createEntity", {"size": 80})
        check(bad.is_error is True, f"[{label}] size = 80 is an isError result")
        message = bad.content[0].text if bad.content else ""
        check("size" in message and "maximum of 50" in message, f"[{label}] the error names the field and the bound: {message!r}")

        if os.path.exists("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json") or os.environ.get("LIMINA_REQUIRE_GPU"):
            shot = await client.call_tool("render.capture", {"size": "thumbnail", "labelEntities": True})
            images = [c for c in shot.content if c.type == "image"]
            check(shot.is_error is False and len(images) == 1, f"[{label}] render.capture is one image block")
            structured = shot.structured_content or {}
            check("data" not in structured and structured.get("width") == 320, f"[{label}] its structuredContent has no PNG")
            capture_tool = next(t for t in tools if t.name == "render.capture")
            try:
                jsonschema.validate(structured, capture_tool.output_schema)
                valid = True
            except jsonschema.ValidationError as e:
                print(f"     {e.message}")
                valid = False
            check(valid, f"[{label}] render.capture's structuredContent matches its outputSchema")
    total = time.monotonic() - started
    check(total < 5, f"[{label}] clean shutdown on stdin close ({total:.2f}s total)")


def start_network_server(*args: str) -> tuple[subprocess.Popen, str]:
    """Starts `limina mcp ARGS --port 0`; returns it and its host:port."""
    server = subprocess.Popen([LIMINA, "mcp", *args, "--port", "0"], stderr=subprocess.PIPE, text=True)
    # A --scene script may print before the server announces itself.
    for _ in range(50):
        line = server.stderr.readline()
        match = re.search(r"ws://(\S+)", line)
        if match is not None or not line:
            break
    if match is None:
        server.terminate()
        raise RuntimeError(f"the server did not announce its address: {line!r}")
    return server, match.group(1)


async def http_session(mode: str) -> None:
    """The stock streamable-HTTP client: connect (discover or handshake), list, call, isError for a
    bound, and tools/list_changed after skills.enable (a listen stream in the stateless revision,
    the session's notifications in the handshake one)."""
    label = f"http mode={mode}"
    server, addr = start_network_server("--http")
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if getattr(getattr(message, "root", message), "method", None) == "notifications/tools/list_changed":
            changed.set()

    try:
        async with Client(f"http://{addr}/mcp", mode=mode, read_timeout_seconds=30, message_handler=on_message) as client:
            if mode == "legacy":
                check(client.protocol_version in mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS, f"[{label}] handshake version {client.protocol_version}")
            else:
                check(client.protocol_version == "2026-07-28", f"[{label}] negotiated the stateless revision ({client.protocol_version})")
            listed = await client.list_tools(cache_mode="bypass")
            check(any(t.name == "scene.createEntity" for t in listed.tools), f"[{label}] tools/list shows scene.createEntity")
            made = await client.call_tool("scene.createEntity", {"shape": "sphere"})
            entity = (made.structured_content or {}).get("entity", "")
            check(made.is_error is False and entity.startswith("ent_"), f"[{label}] scene.createEntity made {entity}")
            bad = await client.call_tool("scene.createEntity", {"size": 80})
            check(bad.is_error is True and "size" in (bad.content[0].text if bad.content else ""), f"[{label}] size = 80 is an isError result naming the field")

            async def enable() -> None:
                enabled = await client.call_tool("skills.enable", {"categories": ["audio"]})
                check(enabled.is_error is False, f"[{label}] skills.enable succeeded")

            if mode == "legacy":
                await enable()
                try:
                    await asyncio.wait_for(changed.wait(), 10)
                    check(True, f"[{label}] tools/list_changed arrived after skills.enable")
                except TimeoutError:
                    check(False, f"[{label}] tools/list_changed arrived after skills.enable")
            else:
                async with client.listen(tools_list_changed=True) as sub:
                    check(sub.honored.tools_list_changed is True, f"[{label}] subscriptions/listen honors toolsListChanged")
                    await enable()
                    try:
                        event = await asyncio.wait_for(anext(sub), 10)
                        check(type(event).__name__ == "ToolsListChanged", f"[{label}] the listen stream carried {type(event).__name__}")
                    except TimeoutError:
                        check(False, f"[{label}] the listen stream carried tools/list_changed after skills.enable")
            relisted = await client.list_tools(cache_mode="bypass")
            check(any(t.name.startswith("audio.") for t in relisted.tools), f"[{label}] the enabled category is listed now")
    finally:
        server.terminate()
        server.wait(5)


async def websocket_session() -> None:
    server = subprocess.Popen([LIMINA, "mcp", "--ws", "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        match = re.search(r"ws://(\S+)", line)
        check(match is not None, f"[ws] server announced its address ({line.strip()})")
        if not match:
            return
        async with websockets.connect(f"ws://{match.group(1)}") as ws:
            async def rpc(id_: int, method: str, params: dict) -> dict:
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg.get("id") == id_:
                        return msg

            init = await rpc(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "py-ws", "version": "1"}})
            check(init.get("result", {}).get("protocolVersion") == "2025-11-25", "[ws] initialize")
            made = await rpc(2, "tools/call", {"name": "scene.createEntity", "arguments": {"position": [0, 5, 0]}})
            entity = made["result"]["structuredContent"]["entity"]
            check(entity.startswith("ent_"), f"[ws] tools/call created {entity}")
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "state/subscribe", "params": []}))
            snapshot = None
            for _ in range(20):
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg.get("method") == "state/snapshot":
                    snapshot = msg["params"]["result"]
                    break
            check(snapshot is not None and any(e["entity"] == entity for e in snapshot["entities"]), "[ws] state/subscribe snapshot shows the entity")
        await hostile_websocket(match.group(1))
    finally:
        server.terminate()
        server.wait(5)


async def hostile_websocket(addr: str) -> None:
    """Each hostile message gets an error (or nothing) and the server keeps serving."""

    async def still_serving(ws, id_: int) -> bool:
        await ws.send(json.dumps({"jsonrpc": "2.0", "id": id_, "method": "ping"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg.get("id") == id_:
                return msg.get("result") == {}

    async with websockets.connect(f"ws://{addr}", max_size=None) as ws:
        cases = [
            ("invalid JSON", "{this is not json", {-32700}),
            # An outer array is a batch to JSON-RPC: refused as a parse error or an invalid request.
            ("deeply nested JSON", "[" * 100000 + "]" * 100000, {-32700, -32600}),
            ("deeply nested object", '{"a":' * 100000 + "1" + "}" * 100000, {-32700, -32600}),
            ("wrong types in params", json.dumps({"jsonrpc": "2.0", "id": 901, "method": "tools/call", "params": {"name": 42}}), {-32602}),
            ("a number out of range", '{"jsonrpc": "2.0", "id": 904, "method": "tools/call", "params": {"name": "x", "arguments": {"v": 1' + "0" * 5000 + '}}}', {-32602, -32700}),
            ("unknown method", json.dumps({"jsonrpc": "2.0", "id": 902, "method": "frobnicate"}), {-32601}),
        ]
        for i, (what, frame, code) in enumerate(cases):
            await ws.send(frame)
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if isinstance(reply, list) and reply:
                # A nested array arrives as a batch; its (single) answer is the error.
                reply = reply[0]
            got = reply.get("error", {}).get("code")
            check(got in code, f"[ws hostile] {what} -> {got}")
            message = reply.get("error", {}).get("message", "")
            check("ErrorObject" not in message and "RawValue" not in message, f"[ws hostile] {what}: a plain message ({message[:80]})")
            check(await still_serving(ws, 100 + i), f"[ws hostile] still serving after {what}")
        huge = json.dumps({"jsonrpc": "2.0", "id": 903, "method": "ping", "params": {"pad": "x" * (10 << 20)}})
        await ws.send(huge)
        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        check("error" in reply, f"[ws hostile] a 10 MB message is refused ({reply.get('error', {}).get('message')})")
        check(await still_serving(ws, 200), "[ws hostile] still serving after a 10 MB message")
        for i in range(3000):
            await ws.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"n": i}}))
        check(await still_serving(ws, 201), "[ws hostile] still serving after a notification flood")
    # Abrupt disconnect in the middle of a call, then a fresh client is served.
    ws = await websockets.connect(f"ws://{addr}")
    await ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "scene.createEntity", "arguments": {}}}))
    ws.transport.abort()
    async with websockets.connect(f"ws://{addr}") as fresh:
        check(await still_serving(fresh, 300), "[ws hostile] a new client is served after an abrupt disconnect")


def heard_lines(look: dict) -> list[dict]:
    return [i for i in look.get("happened", []) if i.get("kind") == "heard"]


async def tool(client, name: str, arguments: dict):
    return await client.call_tool(name, arguments)


async def embodiment_http(mode: str) -> None:
    """Two outside clients (own tokens, social.actor) and the in-world keeper of demos/meet.lua
    talk; a player.limited token cannot embody as builder; a released agent takes no more calls."""
    label = f"embody http mode={mode}"
    with tempfile.NamedTemporaryFile("w", suffix=".tokens", delete=False) as f:
        f.write("alice-token social.actor\nbob-token social.actor\npat-token player.limited\n")
        tokens = f.name
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    server, addr = start_network_server("--http", "--tokens", tokens, "--scene", os.path.join(root, "demos", "meet.lua"))

    def connect(token: str) -> Client:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300))
        return Client(streamable_http_client(f"http://{addr}/mcp", http_client=http), mode=mode, read_timeout_seconds=30)

    try:
        async with connect("alice-token") as alice, connect("bob-token") as bob, connect("pat-token") as pat:
            a = await tool(alice, "agent.embody", {"body": {"position": [-3, 0.5, 2]}})
            b = await tool(bob, "agent.embody", {"body": {"position": [3, 0.5, 2]}})
            check(not a.is_error and not b.is_error, f"[{label}] two clients embodied ({a.structured_content}, {b.structured_content})")
            if a.is_error or b.is_error:
                return
            a_id, b_id = a.structured_content["agentId"], b.structured_content["agentId"]
            check(a.structured_content["profile"] == "social.actor", f"[{label}] the agent has its client's profile")
            look = (await tool(alice, "agent.perceive", {})).structured_content
            seen = {n.get("agent") for n in look["nearby"]}
            check({b_id, "agt_keeper"} <= seen, f"[{label}] alice perceives bob and the keeper ({sorted(x for x in seen if x)})")
            keeper = next((n for n in look["nearby"] if n.get("agent") == "agt_keeper"), None)
            check(keeper is not None and keeper["distance"] > 0, f"[{label}] with a distance to the keeper")
            bob_cursor = (await tool(bob, "agent.perceive", {})).structured_content["cursor"]
            moved = await tool(alice, "social.approach", {"target": "agt_keeper", "talkDistance": 2})
            check(not moved.is_error, f"[{label}] alice walks toward the keeper")
            said = await tool(alice, "social.say", {"text": "Hello, keeper! This is alice."})
            check(not said.is_error and said.structured_content["speaker"] == a_id, f"[{label}] alice speaks as {a_id}")
            # Bob hears alice, then the keeper's answer (its next decision, within a second).
            heard: list[dict] = []
            cursor = bob_cursor
            for _ in range(50):
                look = (await tool(bob, "agent.perceive", {"cursor": cursor})).structured_content
                cursor = look["cursor"]
                heard += heard_lines(look)
                if any(h["speaker"] == "agt_keeper" and a_id in h["text"] for h in heard):
                    break
                await asyncio.sleep(0.1)
            from_alice = [h for h in heard if h["speaker"] == a_id]
            check(bool(from_alice) and from_alice[0]["text"] == "Hello, keeper! This is alice.", f"[{label}] bob heard alice's line")
            answer = [h for h in heard if h["speaker"] == "agt_keeper" and a_id in h["text"]]
            check(bool(answer), f"[{label}] bob heard the keeper answer alice ({answer[0]['text'] if answer else heard})")
            if from_alice and answer:
                print(f"     say->heard: bob heard alice at tick {from_alice[0]['tick']} (the tick it was said); the keeper answered at tick {answer[0]['tick']}")
            # The player.limited client cannot embody as a builder.
            wide = await tool(pat, "agent.embody", {"profile": "builder.readWrite"})
            text = wide.content[0].text if wide.content else ""
            check(wide.is_error is True and "forbidden" in text, f"[{label}] a player.limited client cannot embody as builder ({text[:90]})")
            # Released, the agent takes no more calls from alice.
            released = await tool(alice, "agent.release", {})
            check(not released.is_error, f"[{label}] alice released {a_id}")
            again = await tool(alice, "social.say", {"text": "still me?"})
            check(again.is_error is True, f"[{label}] a released agent takes no more calls from its client")
            listed = (await tool(bob, "agent.list", {})).structured_content["agents"]
            row = next((r for r in listed if r["id"] == a_id), None)
            check(row is not None and row["llm"]["provider"] == "client", f"[{label}] the released agent stays in the world, idle")
    finally:
        server.terminate()
        server.wait(5)
        os.unlink(tokens)


async def embodiment_stdio() -> None:
    """Over stdio: `--profile` is the credential; embody, say, perceive, release."""
    label = "embody stdio"
    params = StdioServerParameters(command=LIMINA, args=["mcp", "--stdio", "--profile", "social.actor"])
    async with Client(params, read_timeout_seconds=30) as client:
        made = await tool(client, "agent.embody", {"body": {}})
        check(not made.is_error, f"[{label}] embodied {made.structured_content}")
        agent = made.structured_content["agentId"]
        said = await tool(client, "social.say", {"text": "hello"})
        check(not said.is_error and said.structured_content["speaker"] == agent, f"[{label}] says as {agent}")
        look = await tool(client, "agent.perceive", {})
        check(not look.is_error and look.structured_content["agentId"] == agent, f"[{label}] perceives as {agent}")
        await tool(client, "agent.release", {})
        after = await tool(client, "agent.perceive", {})
        check(after.is_error is True, f"[{label}] released: no more calls as {agent}")
    params = StdioServerParameters(command=LIMINA, args=["mcp", "--stdio", "--profile", "player.limited"])
    async with Client(params, read_timeout_seconds=30) as client:
        wide = await tool(client, "agent.embody", {"profile": "builder.readWrite"})
        check(wide.is_error is True, f"[{label}] --profile player.limited cannot embody as builder")


async def main() -> None:
    registered = registered_skills()
    check(len(registered) >= 20, f"limina skills list shows {len(registered)} skills")
    expected = [name for name, perms in registered if perms <= BUILDER and name not in APP_ONLY]
    check(len(expected) < len(registered), f"a builder may call {len(expected)} of them (not policy.*)")
    await exercise("auto", expected, "core")
    await exercise("legacy", expected, "all")
    await http_session("auto")
    await http_session("legacy")
    await websocket_session()
    await embodiment_http("auto")
    await embodiment_http("legacy")
    await embodiment_stdio()


if __name__ == "__main__":
    asyncio.run(main())
    print(f"{'all passed' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)
