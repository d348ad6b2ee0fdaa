"""Classic example scripts (tests/classic_examples/) run end to end in a subprocess.

Each script is written the way a classic AutoGen user writes it, with ``import autogen_classic as autogen``
as its only change. It reads its model endpoint the classic way, from an ``OAI_CONFIG_LIST`` file in its
working directory that points at the scripted OpenAI-compatible server running in this test process. The
scripts print ``KEY: <json>`` result lines; the tests assert those values and the request bodies the
server received. The expected values are what classic AutoGen prints for the same scripts.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

EXAMPLES = Path(__file__).resolve().parent / "classic_examples"
PYTHON = sys.executable
_RESULT_LINE = re.compile(r"^([A-Z][A-Z0-9_]+): (.*)$")
# Variables that would make a script reach a real provider or read another config list.
_SCRUBBED_ENV = ("OAI_CONFIG_LIST", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "AZURE_OPENAI_API_KEY")


def write_config_list(directory: Path, entries: List[Dict[str, Any]]) -> Path:
    """Write the ``OAI_CONFIG_LIST`` file a classic script finds in its working directory."""
    path = directory / "OAI_CONFIG_LIST"
    path.write_text(json.dumps(entries, indent=2))
    return path


def run_example(
    name: str, cwd: Path, timeout: float = 180, python: str = PYTHON, pythonpath: Optional[str] = None
) -> Dict[str, Any]:
    """Run ``classic_examples/<name>`` in ``cwd``; return its ``KEY: value`` results.

    ``python`` and ``pythonpath`` run it with another interpreter (the classic package, for recording).
    """
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
    env["PYTHONUNBUFFERED"] = "1"
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.run(
        [python, str(EXAMPLES / name)], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, f"{name} exited with {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    results: Dict[str, Any] = {"_stdout": proc.stdout, "_stderr": proc.stderr}
    for line in proc.stdout.splitlines():
        match = _RESULT_LINE.match(line)
        if match:
            key, raw = match.groups()
            try:
                results[key] = json.loads(raw)
            except ValueError:
                results[key] = raw
    return results


def text(message: Dict[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else json.dumps(content)


def system_prompt(body: Dict[str, Any]) -> str:
    messages = body["messages"]
    return text(messages[0]) if messages and messages[0].get("role") == "system" else ""


Responder = Callable[[Dict[str, Any]], Any]


def by_system_prompt(scripts: Dict[str, List[Any]], fallback: Optional[Responder] = None) -> Responder:
    """A responder answering each request from the queue of the agent whose system prompt starts with the key."""

    def respond(body: Dict[str, Any]) -> Any:
        if fallback is not None:
            answer = fallback(body)
            if answer is not None:
                return answer
        system = system_prompt(body)
        for prefix, queue in scripts.items():
            if system.startswith(prefix):
                assert queue, f"no reply left for the agent prompted {prefix!r}"
                return queue.pop(0)
        return None  # nothing scripted: the server answers HTTP 500 and the script fails loudly

    return respond


@pytest.fixture
def workdir(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> Path:
    write_config_list(tmp_path, [{"model": "gpt-4o-mini", "base_url": scripted_server.base_url, "api_key": API_KEY}])
    return tmp_path


# ----------------------------------------------------------------------------------------------------------------
# (a) group chat with "auto" speaker selection started by a user proxy
# ----------------------------------------------------------------------------------------------------------------
SELECT_PROMPT = (
    "Read the above conversation. Then select the next role from ['Admin', 'Planner', 'Engineer', 'Critic'] "
    "to play. Only return the role."
)


def test_group_chat_auto_selection(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    selections = ["Planner", "Either the Planner or the Engineer should go next.", "Engineer", "Critic"]

    def select(body: Dict[str, Any]) -> Optional[str]:
        last = text(body["messages"][-1])
        if last == SELECT_PROMPT or last.startswith("You provided more than one name"):
            return selections.pop(0)
        return None

    scripted_server.set_responder(
        by_system_prompt(
            {
                "You are the Planner.": ["1. Build\n2. Test\n3. Deploy"],
                "You are the Engineer.": ["Build with CI, test with pytest, deploy with a script."],
                "You are the Critic.": ["The checklist is complete. TERMINATE"],
            },
            fallback=select,
        )
    )
    out = run_example("group_chat.py", workdir)

    assert out["SPEAKERS"] == ["Admin", "Planner", "Engineer", "Critic"]
    assert out["CONTENTS"] == [
        "Write a launch checklist for a small web app.",
        "1. Build\n2. Test\n3. Deploy",
        "Build with CI, test with pytest, deploy with a script.",
        "The checklist is complete. TERMINATE",
    ]
    assert out["SUMMARY"] == "The checklist is complete. "
    assert out["HISTORY_LEN"] == 4
    assert out["LAST_SPEAKER"] == "Critic"
    assert out["PLANNER_SEES"] == out["CONTENTS"]
    assert selections == []

    bodies = scripted_server.requests
    assert {b["model"] for b in bodies} == {"gpt-4o-mini"}
    assert all(b.get("temperature") == 0 for b in bodies)
    # 4 selection requests (one retried after a reply naming two roles) and 3 agent replies
    select_bodies = [b for b in bodies if system_prompt(b).startswith("You are in a role play game.")]
    assert len(select_bodies) == 4 and len(bodies) == 7
    roles = system_prompt(select_bodies[0])
    assert "Planner: Breaks a task into numbered steps." in roles
    assert "Critic: Reviews the work of the others." in roles
    assert text(select_bodies[0]["messages"][-1]) == SELECT_PROMPT
    retry = select_bodies[2]["messages"]
    assert text(retry[-2]) == "Either the Planner or the Engineer should go next."
    assert text(retry[-1]).startswith("You provided more than one name in your text")
    # the selector sees the conversation with each message tagged by its speaker's name
    convo = select_bodies[-1]["messages"][1:-1]
    assert [m.get("name") for m in convo] == ["Admin", "Planner", "Engineer"]
    # each agent is called with its own system prompt followed by the whole conversation so far
    critic_body = next(b for b in bodies if system_prompt(b).startswith("You are the Critic."))
    assert [text(m) for m in critic_body["messages"][1:]] == out["CONTENTS"][:3]


# ----------------------------------------------------------------------------------------------------------------
# (b) nested chats: a critic runs a sequence of reviewer chats whenever the writer speaks
# ----------------------------------------------------------------------------------------------------------------
STYLE_SUMMARY_PROMPT = "Return the review as a JSON object only: {'Reviewer': '', 'Review': ''}."


def test_nested_chats(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    def summary(body: Dict[str, Any]) -> Optional[str]:
        if text(body["messages"][-1]) == STYLE_SUMMARY_PROMPT:
            return '{"Reviewer": "Style", "Review": "Clear, but add an example."}'
        return None

    scripted_server.set_responder(
        by_system_prompt(
            {
                "You are the Writer.": ["Unit tests catch bugs early.", "Unit tests catch bugs early, e.g. off-by-one."],
                "You are the Style Reviewer.": ["Clear tone. Add an example."],
                "You are the Fact Reviewer.": ["The claim is fine."],
                "You are the Meta Reviewer.": ["Add a concrete example."],
            },
            fallback=summary,
        )
    )
    out = run_example("nested_chats.py", workdir)

    draft, revised = "Unit tests catch bugs early.", "Unit tests catch bugs early, e.g. off-by-one."
    style_summary = '{"Reviewer": "Style", "Review": "Clear, but add an example."}'
    review = f"Review the following writing.\n\n{draft}"
    assert out["SUMMARY"] == revised
    assert out["MAIN_CHAT"] == [
        ["assistant", "Critic", "Write a short blog post about the benefits of unit tests."],
        ["user", "Writer", draft],
        ["assistant", "Critic", "Add a concrete example."],  # the critic's reply is the last nested chat's summary
        ["user", "Writer", revised],
    ]
    assert out["TO_STYLE"] == [review, "Clear tone. Add an example."]
    # each later nested chat carries the earlier summaries over as "Context"
    assert out["TO_FACT"] == [f"{review}\nContext: \n{style_summary}", "The claim is fine."]
    assert out["TO_META"] == [
        "Aggregate the feedback from all reviewers and give final suggestions on the writing."
        f"\nContext: \n{style_summary}\nThe claim is fine.",
        "Add a concrete example.",
    ]
    assert out["_stdout"].count("Reflecting...") == 2

    bodies = scripted_server.requests
    assert len(bodies) == 6
    # the reflection summary asks the reviewer's model with the nested chat and the prompt as a final system message
    summary_body = bodies[2]
    assert summary_body["messages"] == [
        {"content": review, "role": "user", "name": "Critic"},
        {"content": "Clear tone. Add an example.", "role": "assistant", "name": "Style_Reviewer"},
        {"role": "system", "content": STYLE_SUMMARY_PROMPT},
    ]
    # the writer's second turn sees the merged feedback as the critic's message
    assert [(m["role"], text(m)) for m in bodies[-1]["messages"][1:]] == [
        ("user", "Write a short blog post about the benefits of unit tests."),
        ("assistant", draft),
        ("user", "Add a concrete example."),
    ]


# ----------------------------------------------------------------------------------------------------------------
# (c) tools with injected parameters (Depends, ChatContext) executed by the user proxy
# ----------------------------------------------------------------------------------------------------------------
def test_tools_with_injected_parameters(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"id": "call_a", "name": "copies_available", "arguments": {"title": "Dune"}}]),
        ScriptedReply(
            tool_calls=[
                {"id": "call_b", "name": "borrow_book", "arguments": {"title": "Dune", "days": "14"}},
                {"id": "call_c", "name": "borrow_book", "arguments": {"title": "Emma", "days": 14}},
            ]
        ),
        "Dune is borrowed; Emma is not available. TERMINATE",
    )
    out = run_example("tools_injection.py", workdir)

    assert out["SUMMARY"] == "Dune is borrowed; Emma is not available. "
    assert out["EXECUTABLE"] == ["borrow_book", "copies_available"]
    # the arguments were validated against the annotations ("14" became 14) and the injected values filled in
    assert out["TOOL_RESPONSES"] == [
        ["call_a", "City Library has 2 copies of Dune"],
        ["call_b", "Member 42 borrowed Dune for 336 hours (2 calls in this turn)"],
        ["call_c", "Error: Emma is not available"],
    ]
    assert out["BOOKS_LEFT"] == {"Dune": 1, "Emma": 0}
    assert out["ROLES"] == ["assistant", "assistant", "tool", "assistant", "tool", "user"]
    assert "Input arguments: {'title': 'Emma', 'days': 14}" in out["_stdout"]

    expected_tools = [
        {
            "type": "function",
            "function": {
                "description": "Count the available copies of a book.",
                "name": "copies_available",
                "parameters": {
                    "type": "object",
                    "properties": {"title": {"type": "string", "description": "The book title"}},
                    "required": ["title"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "description": "Borrow a book for the member.",
                "name": "borrow_book",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "title": {"type": "string", "description": "The book title"},
                        "days": {"type": "integer", "description": "Loan length in days"},
                    },
                    "required": ["title", "days"],
                },
            },
        },
    ]
    assert out["TOOL_SCHEMAS"] == expected_tools
    bodies = scripted_server.requests
    assert len(bodies) == 3
    for body in bodies:  # injected parameters never reach the model
        assert body["tools"] == expected_tools
        assert not any(k in json.dumps(body["tools"]) for k in ("library", "member_id", "chat_context"))
    assert bodies[2]["messages"][-3:] == [
        {
            "tool_calls": [
                {"id": "call_b", "function": {"arguments": '{"title": "Dune", "days": "14"}', "name": "borrow_book"},
                 "type": "function"},
                {"id": "call_c", "function": {"arguments": '{"title": "Emma", "days": 14}', "name": "borrow_book"},
                 "type": "function"},
            ],
            "content": None,
            "role": "assistant",
        },
        {"tool_call_id": "call_b", "role": "tool",
         "content": "Member 42 borrowed Dune for 336 hours (2 calls in this turn)"},
        {"tool_call_id": "call_c", "role": "tool", "content": "Error: Emma is not available"},
    ]


# ----------------------------------------------------------------------------------------------------------------
# (d) provider config lists: several api_types in one OAI_CONFIG_LIST, filters, cache_seed=False
# ----------------------------------------------------------------------------------------------------------------
def test_provider_config_lists(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    url = scripted_server.base_url
    write_config_list(
        tmp_path,
        [
            {"model": "gpt-4o-mini", "api_type": "openai", "base_url": url, "api_key": API_KEY,
             "max_retries": 0, "tags": ["cloud"]},
            {"model": "llama-3.3-70b-versatile", "api_type": "groq", "api_key": "gsk-not-used", "tags": ["cloud"]},
            {"model": "mistral-large-latest", "api_type": "mistral", "api_key": "not-used", "tags": ["cloud"]},
            {"model": "llama3.1:8b", "base_url": url, "api_key": "ollama", "tags": ["local"]},
            {"model": "qwen2.5:7b", "api_type": "ollama", "client_host": "http://127.0.0.1:1", "tags": ["local"]},
        ],
    )
    scripted_server.add_replies(
        "2 is prime.",
        "3 is prime.",
        "5 is prime.",
        ScriptedReply(status=429, error_message="Rate limit reached for gpt-4o-mini"),
        "2 is the only even prime.",
    )
    out = run_example("provider_configs.py", tmp_path)

    assert out["ALL"] == [
        ["gpt-4o-mini", "openai"],
        ["llama-3.3-70b-versatile", "groq"],
        ["mistral-large-latest", "mistral"],
        ["llama3.1:8b", None],
        ["qwen2.5:7b", "ollama"],
    ]
    assert out["BY_API_TYPE"] == {
        "openai": ["gpt-4o-mini"],
        "groq": ["llama-3.3-70b-versatile"],
        "mistral": ["mistral-large-latest"],
        "ollama": ["qwen2.5:7b"],
    }
    assert out["CLOUD"] == ["gpt-4o-mini", "llama-3.3-70b-versatile", "mistral-large-latest"]
    assert out["OPENAI_COMPATIBLE"] == ["gpt-4o-mini", "llama3.1:8b"]
    assert out["LOCAL"] == [["llama3.1:8b", True]]
    assert out["REPLY_OPENAI"] == "2 is prime."
    assert out["REPLY_LOCAL"] == "3 is prime."
    # cache_seed=False turns the cache off (classic AutoGen would open a disk cache under .cache/False and answer
    # the repeat from it; see docs/migrating.md): the repeat is asked again and nothing is written to disk
    assert out["REPLY_AGAIN"] == "5 is prime."
    assert out["CACHE_DIRS"] == []
    assert not (tmp_path / ".cache").exists()
    assert out["COST_AGAIN"] == {
        "usage_excluding_cached_inference": {
            "llama3.1:8b": {"completion_tokens": 3, "cost": 0, "prompt_tokens": 9, "total_tokens": 12},
            "total_cost": 0,
        },
        "usage_including_cached_inference": {
            "llama3.1:8b": {"completion_tokens": 3, "cost": 0, "prompt_tokens": 9, "total_tokens": 12},
            "total_cost": 0,
        },
    }
    assert out["REPLY_FAILOVER"] == "2 is the only even prime."

    bodies = scripted_server.requests
    # one request per provider, one for the repeat (no cache), then the rate-limited entry and its fallback
    assert [(b["model"], text(b["messages"][-1])) for b in bodies] == [
        ("gpt-4o-mini", "Name one prime number."),
        ("llama3.1:8b", "Name one prime number."),
        ("llama3.1:8b", "Name one prime number."),
        ("gpt-4o-mini", "Name one even prime number."),
        ("llama3.1:8b", "Name one even prime number."),
    ]
    for body in bodies:  # config-only keys never reach the provider
        assert set(body) == {"model", "stream", "messages", "temperature"}
        assert body["temperature"] == 0.2 and body["stream"] is False
    assert [h["authorization"] for h in scripted_server.request_headers] == [
        f"Bearer {API_KEY}", "Bearer ollama", "Bearer ollama", f"Bearer {API_KEY}", "Bearer ollama"
    ]


# ----------------------------------------------------------------------------------------------------------------
# (e) TransformMessages with MessageHistoryLimiter and MessageTokenLimiter added to an agent
# ----------------------------------------------------------------------------------------------------------------
def test_transforms(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    scripted_server.add_replies("Hello Ada.", "Noted the report.", "I cannot see your name any more.")
    out = run_example("transforms.py", workdir)

    long_report = "Here is the quarterly report: " + " ".join(f"item{i} sold well" for i in range(200))
    assert out["ANSWER"] == "I cannot see your name any more."
    # the transforms only shape what is sent: the stored history keeps every message whole
    assert out["STORED_COUNT"] == 6
    assert out["STORED_LONG_INTACT"] is True
    assert out["KEEP_FIRST"] == ["message 0", "message 5"]

    bodies = scripted_server.requests
    assert len(bodies) == 3
    system = {"content": "You are the Archivist. Answer briefly.", "role": "system"}
    assert bodies[0]["messages"] == [system, {"content": "Hello, my name is Ada.", "role": "user", "name": "user"}]

    def check_truncated(message: Dict[str, Any]) -> None:
        content = message["content"]
        assert message["role"] == "user"
        assert long_report.startswith(content) and len(content) < len(long_report) // 5
        assert 20 <= len(content.split()) <= 45, content  # about 50 tokens survive

    second = bodies[1]["messages"]
    assert second[:3] == [
        system,
        {"content": "Hello, my name is Ada.", "role": "user", "name": "user"},
        {"content": "Hello Ada.", "role": "assistant", "name": "assistant"},
    ]
    assert len(second) == 4
    check_truncated(second[3])

    # the system message survives the history limit; of the 5 earlier messages only the last 3 are sent
    third = bodies[2]["messages"]
    assert third[0] == system and len(third) == 4
    # (classic AutoGen sends the oldest kept message second: ["Noted...", report, "What..."]; compare as a set)
    kept = sorted(third[1:], key=lambda m: m["content"])  # "Here is the...", "Noted...", "What..."
    check_truncated(kept[0])
    assert kept[1] == {"content": "Noted the report.", "role": "assistant", "name": "assistant"}
    assert kept[2] == {"content": "What is my name?", "role": "user", "name": "user"}
    assert third[-1] == kept[2]
    assert "Ada" not in json.dumps(third)

    stdout = out["_stdout"]
    assert stdout.count("Removed 2 messages. Number of messages reduced from 5 to 3.") == 1
    assert len(re.findall(r"^Truncated \d+ tokens\. Number of tokens reduced from \d+ to \d+$", stdout, re.M)) == 2


# ----------------------------------------------------------------------------------------------------------------
# (f) sequential chats (initiate_chats) with carryover and reflection_with_llm summaries
# ----------------------------------------------------------------------------------------------------------------
DEFAULT_SUMMARY_PROMPT = "Summarize the takeaway from the conversation. Do not add any introductory phrases."


def test_sequential_chats(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    def summaries(body: Dict[str, Any]) -> Optional[str]:
        last = text(body["messages"][-1])
        if last == DEFAULT_SUMMARY_PROMPT:
            return "1200 grows to 1323.0 after two years at 5%."
        if last == "Give the title of the post only.":
            return "Compound Growth for Students"
        return None

    scripted_server.set_responder(
        by_system_prompt(
            {
                "You are the Financial assistant.": [
                    "Run this:\n```python\nprint(round(1200 * 1.05 ** 2, 2))\n```",
                    "The balance becomes 1323.0.",
                ],
                "You are the Researcher.": ["A student saver earns interest on interest."],
                "You are the Writer.": ["Compound Growth for Students: 1200 becomes 1323.0. TERMINATE"],
            },
            fallback=summaries,
        )
    )
    out = run_example("sequential_chats.py", workdir)

    growth = "1200 grows to 1323.0 after two years at 5%."
    assert out["SUMMARY_0"] == growth
    assert out["SUMMARY_1"] == "A student saver earns interest on interest."
    assert out["SUMMARY_2"] == "Compound Growth for Students"
    assert [out["TURNS_0"], out["TURNS_1"], out["TURNS_2"]] == [4, 2, 2]
    assert out["CODE_RESULT"] == "exitcode: 0 (execution succeeded)\nCode output: \n1323.0\n"
    # explicit carryover first, then the summaries of the earlier chats, after a "Context" header
    assert out["FIRST_TO_RESEARCHER"] == (
        f"Explain what the growth means for a saver.\nContext: \nAssume the saver is a student.\n{growth}"
    )
    assert out["FIRST_TO_WRITER"] == (
        "Write a short blog post using the figures.\nContext: \nKeep it under 50 words.\nMention compound interest."
        f"\n{growth}\nA student saver earns interest on interest."
    )
    assert out["_stdout"].count("Starting a new chat....") == 3
    assert ">>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)..." in out["_stdout"]

    bodies = scripted_server.requests
    assert len(bodies) == 6
    # reflection_with_llm: the chat without any system prompt, then the summary prompt as a system message
    assert bodies[2]["messages"] == [
        {"content": "What is 1200 grown by 5% for two years? Compute it.", "role": "user", "name": "User"},
        {"content": "Run this:\n```python\nprint(round(1200 * 1.05 ** 2, 2))\n```", "role": "assistant",
         "name": "Financial_assistant"},
        {"content": out["CODE_RESULT"], "role": "user", "name": "User"},
        {"content": "The balance becomes 1323.0.", "role": "assistant", "name": "Financial_assistant"},
        {"role": "system", "content": DEFAULT_SUMMARY_PROMPT},
    ]
    assert bodies[3]["messages"][1] == {"content": out["FIRST_TO_RESEARCHER"], "role": "user", "name": "User"}
    assert bodies[5]["messages"] == [
        {"content": out["FIRST_TO_WRITER"], "role": "user", "name": "User"},
        {"content": "Compound Growth for Students: 1200 becomes 1323.0. TERMINATE", "role": "assistant",
         "name": "Writer"},
        {"role": "system", "content": "Give the title of the post only."},
    ]
    assert (workdir / "tasks").is_dir()


# ----------------------------------------------------------------------------------------------------------------
# ConversableAgent.run as ag2 0.7.3 had it: run(message, ...) returns a ChatResult; an ignored result still chats
# ----------------------------------------------------------------------------------------------------------------
def test_agent_run_as_ag2_073_used_it(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    scripted_server.add_replies("4. TERMINATE", "6. TERMINATE")
    out = run_example("agent_run.py", workdir)

    # The values ag2 0.7.3 printed for the same script and replies.
    assert out["TYPE_HAS_CHAT_HISTORY"] is True
    assert out["SUMMARY"] == "4. "
    assert out["HISTORY"] == [["user", "What is 2 + 2?"], ["assistant", "4. TERMINATE"]]
    assert out["COST_KEYS"] == ["usage_excluding_cached_inference", "usage_including_cached_inference"]
    assert out["TOTAL_COST_POSITIVE"] is True
    assert out["SECOND_CHAT_SEEN"] == ["And 3 + 3?", "6. TERMINATE"]
    # Both chats were printed on the console as they ran, the second although its result was ignored.
    assert out["_stdout"].count("USING AUTO REPLY") == 2
    assert "user (to assistant):\n\nAnd 3 + 3?" in out["_stdout"]
    assert scripted_server.request_count == 2
