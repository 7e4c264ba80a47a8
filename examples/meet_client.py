#!/usr/bin/env python3
"""Meet the keeper from outside: a stock Python MCP client (PyPI `mcp`) becomes an agent in a
limina world, finds the in-world character through its agent's perception, walks up, talks to
it and prints what it hears.

    echo "meet-token social.actor" > meet.tokens
    echo "build-token builder.readWrite +world.time" >> meet.tokens
    limina mcp --http --scene demos/meet.lua --tokens meet.tokens
    python3 examples/meet_client.py --token meet-token [--builder-token build-token] [URL]

With --builder-token, a second client — a builder the operator let stop the shared clock — then
pauses the world, drops a crate beside the keeper, steps 120 ticks, reads the world digest and
resumes.

URL defaults to http://127.0.0.1:7777/mcp. Speaking needs social.act, so the client's token maps
to social.actor: an embodied agent never holds more than its client's credential. (The scene
script itself runs as the builder.) Exits 0 once the keeper has answered, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

KEEPER = "agt_keeper"


async def call(client: Client, tool: str, arguments: dict) -> dict:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        text = result.content[0].text if result.content else "(no text)"
        raise RuntimeError(f"{tool} failed: {text}")
    return result.structured_content or {}


async def listen(client: Client, cursor: int, seconds: float, until_speaker: str | None = None) -> tuple[int, list[dict]]:
    """Polls agent.perceive from `cursor` for up to `seconds`; prints every line heard."""
    heard: list[dict] = []
    for _ in range(int(seconds / 0.2)):
        look = await call(client, "agent.perceive", {"cursor": cursor})
        cursor = look.get("cursor", cursor)
        if look.get("dropped"):
            print(f"  ({look['dropped']} items were dropped before this look)")
        for item in look.get("happened", []):
            if item["kind"] == "heard":
                print(f"  heard {item['speaker']} ({item['distance']:.1f} m, tick {item['tick']}): {item['text']}")
                heard.append(item)
            else:
                print(f"  event: {item['type']} (tick {item['tick']})")
        if until_speaker and any(h["speaker"] == until_speaker for h in heard):
            break
        await asyncio.sleep(0.2)
    return cursor, heard


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", nargs="?", default="http://127.0.0.1:7777/mcp")
    parser.add_argument("--token", help="bearer token (servers started with --tokens)")
    parser.add_argument("--builder-token", help="a builder's token granted world.time: pause, change, step, look")
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300))
    transport = streamable_http_client(args.url, http_client=http)
    async with Client(transport, read_timeout_seconds=30) as client:
        # The agent and social tools are not in the core tier a client starts with: list them,
        # so the SDK checks their answers against their output schemas.
        await call(client, "skills.enable", {"categories": ["agent", "social"]})
        await client.list_tools(cache_mode="bypass")
        me = await call(client, "agent.embody", {"body": {"shape": "capsule", "position": [-6, 1, 4]}})
        print(f"embodied {me['agentId']} (profile {me['profile']}, body {me.get('entity')}); lines carry {me['earshot']} m")
        try:
            look = await call(client, "agent.perceive", {})
            agents = [n for n in look["nearby"] if "agent" in n]
            for n in agents:
                print(f"  I see {n['agent']} {n['distance']:.1f} m away")
            keeper = next((n for n in agents if n["agent"] == KEEPER), agents[0] if agents else None)
            if keeper is None:
                print("nobody is within sight; is the server running demos/meet.lua?")
                return 1
            cursor = look["cursor"]
            await call(client, "social.approach", {"target": keeper["agent"], "talkDistance": 2})
            await call(client, "social.say", {"text": f"Hello, {keeper['agent']}! Who are you?"})
            cursor, heard = await listen(client, cursor, 10, until_speaker=keeper["agent"])
            await call(client, "social.say", {"text": "Goodbye, and thank you."})
            cursor, more = await listen(client, cursor, 10, until_speaker=keeper["agent"])
            answered = any(h["speaker"] == keeper["agent"] for h in heard + more)
            print("the keeper answered" if answered else "the keeper did not answer")
            if args.builder_token:
                await build(args.url, args.builder_token)
            return 0 if answered else 1
        finally:
            # Released (or on disconnect), the agent stays in the world, idle.
            await call(client, "agent.release", {})


async def build(url: str, token: str) -> None:
    """A builder freezes the world, changes it, steps it 120 ticks and looks, then lets it run."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300))
    async with Client(streamable_http_client(url, http_client=http), read_timeout_seconds=30) as client:
        await call(client, "skills.enable", {"categories": ["system"]})
        await client.list_tools(cache_mode="bypass")
        paused = await call(client, "world.pause", {})
        print(f"builder: paused at tick {paused['tick']}")
        crate = await call(client, "scene.createEntity", {"shape": "box", "dynamic": True, "position": [1, 4, 0], "color": "#c08040"})
        stepped = await call(client, "world.step", {"ticks": 120})
        print(f"builder: dropped {crate['entity']}, stepped {stepped['ticks']} ticks to {stepped['tick']}")
        digest = await call(client, "world.digest", {"maxBytes": 2048})
        print(f"builder: the world now holds {digest['world']}")
        await call(client, "world.resume", {})


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
