"""The agent methods and parameters AG2 Classic 0.14 code calls, used the way 0.14 code uses them.

``tools`` / ``remove_tool_for_llm`` / ``set_ui_tools``, the ``iostream=`` of human input, request options
passed to ``generate_oai_reply``, the ``silent_override`` / ``serialize`` / ``description`` arguments of
registration, ``handoffs=`` at construction, and ``container_create_kwargs`` of the Docker executor.
Expected values are what autogen 0.14.1 gives for the same calls; 0.7.3-style code is checked to keep working.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import uuid
import warnings
from pathlib import Path
from typing import Annotated, Any, Iterator, Optional

import pytest

from autogen_classic.agentchat import AssistantAgent, UserProxyAgent
from autogen_classic.agentchat.agent import Agent
from autogen_classic.agentchat.conversable_agent import ConversableAgent
from autogen_classic.agentchat.groupchat import GroupChat, GroupChatManager
from autogen_classic.io import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import Tool, serialize_to_str

ALWAYS_PROMPT = (
    "Replying as {me}. Provide feedback to {peer}. Press enter to skip and use auto-reply, "
    "or type 'exit' to end the conversation: "
)


def _assistant(server: ScriptedOpenAIServer, name: str = "alice") -> ConversableAgent:
    return ConversableAgent(name, llm_config=server.llm_config(), human_input_mode="NEVER")


def _offered(agent: ConversableAgent) -> list[str]:
    return [entry["function"]["name"] for entry in (agent.llm_config or {}).get("tools", [])]


def show_card(rank: Annotated[int, "the rank"]) -> dict[str, Any]:
    """Show a card to the user."""
    return {"card": rank}


def pick_card(rank: Annotated[int, "the rank"]) -> str:
    """Let the user pick a card."""
    return f"picked {rank}"


# ---------------------------------------------------------------- tools, remove_tool_for_llm
def test_tools_lists_what_the_model_is_offered(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    assert alice.tools == []

    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    assert isinstance(add, Tool) and alice.tools == [add] and alice.tools[0] is add
    # A Tool registered again without a new name is the same tool: listed once.
    assert alice.register_for_llm(silent_override=True)(add) is add
    assert alice.tools == [add]
    # A new name makes a new tool.
    add2 = alice.register_for_llm(name="add2")(add)
    assert add2 is not add and [t.name for t in alice.tools] == ["add", "add2"] == _offered(alice)
    # A copy: changing it changes nothing.
    alice.tools.clear()
    assert len(alice.tools) == 2

    # functions= at construction are offered too, and listed.
    bob = ConversableAgent("bob", llm_config=scripted_server.llm_config(), functions=[show_card, pick_card])
    assert [t.name for t in bob.tools] == ["show_card", "pick_card"] == _offered(bob)
    # Every agent class has it; without a model nothing is offered.
    for agent in (AssistantAgent("a", llm_config=False), UserProxyAgent("u", code_execution_config=False)):
        assert agent.tools == []


def test_remove_tool_for_llm_withdraws_it_from_the_model(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("first", "second")
    alice = _assistant(scripted_server)
    shown = alice.register_for_llm()(Tool(func_or_tool=show_card))
    picked = alice.register_for_llm()(Tool(func_or_tool=pick_card))

    alice.generate_reply(messages=[{"role": "user", "content": "deal"}])
    assert [t["function"]["name"] for t in scripted_server.requests[-1]["tools"]] == ["show_card", "pick_card"]

    alice.remove_tool_for_llm(shown)
    assert alice.tools == [picked] and _offered(alice) == ["pick_card"]
    alice.generate_reply(messages=[{"role": "user", "content": "deal"}])
    assert [t["function"]["name"] for t in scripted_server.requests[-1]["tools"]] == ["pick_card"]

    # A tool not in the collection: ValueError (0.14.1's type), also an AssertionError.
    with pytest.raises(ValueError, match="not found in collection") as caught:
        alice.remove_tool_for_llm(shown)
    assert isinstance(caught.value, AssertionError) and "pick_card" in str(caught.value)
    alice.remove_tool_for_llm(picked)
    assert alice.tools == [] and "tools" not in alice.llm_config


def test_remove_tool_for_llm_of_a_function_style_tool(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    legacy = alice.register_for_llm(description="Pick", api_style="function")(pick_card)
    assert [f["name"] for f in alice.llm_config["functions"]] == ["pick_card"]
    alice.remove_tool_for_llm(legacy)
    assert alice.tools == [] and "functions" not in alice.llm_config


# ---------------------------------------------------------------- set_ui_tools / unset_ui_tools
def test_ui_tools_are_offered_and_executed_unserialized(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    alice = _assistant(scripted_server)

    def add(a: int, b: int) -> int:
        return a + b

    regular = alice.register_for_llm(description="Add")(add)
    show, pick = Tool(func_or_tool=show_card), Tool(func_or_tool=pick_card)

    alice.set_ui_tools([show])
    assert alice.tools == [regular, show] and _offered(alice) == ["add", "show_card"]
    # Executed with the result as returned (no text), for a user interface to render.
    assert alice.execute_function({"name": "show_card", "arguments": '{"rank": 4}'}) == (
        True, {"name": "show_card", "role": "function", "content": {"card": 4}}
    )

    # A new set replaces the previous one: withdrawn from the model and from execution.
    alice.set_ui_tools([pick])
    assert alice.tools == [regular, pick] and _offered(alice) == ["add", "pick_card"]
    assert list(alice.function_map) == ["pick_card"]

    # unset_ui_tools withdraws them from the model only.
    alice.unset_ui_tools([pick])
    assert alice.tools == [regular] and _offered(alice) == ["add"] and list(alice.function_map) == ["pick_card"]
    # Setting again after an unset works (autogen 0.14.1 fails here on the tools already withdrawn).
    alice.set_ui_tools([show])
    assert alice.tools == [regular, show] and list(alice.function_map) == ["show_card"]


def test_set_ui_tools_takes_tool_objects(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    with pytest.raises(TypeError, match=r"tools\[0\] is function .*Tool\(func_or_tool=\.\.\.\)"):
        alice.set_ui_tools([show_card])  # type: ignore[list-item]
    assert alice.tools == []


def test_custom_agents_of_073_stay_agents_without_the_tool_methods() -> None:
    class Echo:  # a 0.7.3-style custom agent: only the Agent protocol's members
        name = "echo"
        description = "repeats"

        def send(self, message: Any, recipient: Any, request_reply: Optional[bool] = None) -> None: ...
        async def a_send(self, message: Any, recipient: Any, request_reply: Optional[bool] = None) -> None: ...
        def receive(self, message: Any, sender: Any, request_reply: Optional[bool] = None) -> None: ...
        async def a_receive(self, message: Any, sender: Any, request_reply: Optional[bool] = None) -> None: ...
        def generate_reply(self, messages: Any = None, sender: Any = None, **kwargs: Any) -> Any: ...
        async def a_generate_reply(self, messages: Any = None, sender: Any = None, **kwargs: Any) -> Any: ...

    assert isinstance(Echo(), Agent)


# ---------------------------------------------------------------- iostream= of human input
class AsyncScriptedStream(ScriptedIOStream):
    """An AG2 0.14 async stream: ``input`` is awaited."""

    async def input(self, prompt: str = "", *, password: bool = False) -> str:  # type: ignore[override]
        await asyncio.sleep(0)
        return ScriptedIOStream.input(self, prompt, password=password)


def test_check_termination_and_human_reply_asks_on_the_given_stream(console: ScriptedIOStream) -> None:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="ALWAYS")
    bob = ConversableAgent("bob", llm_config=False)
    hi = [{"role": "user", "content": "hi"}]

    given = ScriptedIOStream(["hello"])
    assert alice.check_termination_and_human_reply(hi, sender=bob, iostream=given) == (
        True, {"role": "user", "content": "hello"}
    )
    assert given.prompts == [ALWAYS_PROMPT.format(me="alice", peer="bob")]

    given = ScriptedIOStream([""])  # no answer: auto-reply, both notices printed on the given stream
    assert alice.check_termination_and_human_reply(hi, sender=bob, iostream=given) == (False, None)
    assert "NO HUMAN INPUT RECEIVED." in given.output and ">>>>>>>> USING AUTO REPLY..." in given.output

    given = ScriptedIOStream(["exit"])
    assert alice.check_termination_and_human_reply(hi, sender=bob, iostream=given) == (True, None)
    assert console.output == "" and console.prompts == []  # the default stream saw nothing
    assert alice._human_input == ["hello", "", "exit"]


def test_a_check_termination_and_human_reply_awaits_an_async_stream(console: ScriptedIOStream) -> None:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="ALWAYS")
    bob = ConversableAgent("bob", llm_config=False)
    given = AsyncScriptedStream(["", "sure"])

    ended = asyncio.run(
        alice.a_check_termination_and_human_reply([{"role": "user", "content": "TERMINATE"}], bob, iostream=given)
    )
    assert ended == (True, None) and "NO HUMAN INPUT RECEIVED." in given.output
    answered = asyncio.run(
        alice.a_check_termination_and_human_reply([{"role": "user", "content": "go"}], bob, iostream=given)
    )
    assert answered == (True, {"role": "user", "content": "sure"})
    assert given.prompts == [ALWAYS_PROMPT.format(me="alice", peer="bob")] * 2 and console.prompts == []


def test_get_human_input_reads_the_given_stream(console: ScriptedIOStream) -> None:
    alice = ConversableAgent("alice", llm_config=False)
    assert alice.get_human_input("name? ", iostream=ScriptedIOStream(["Ada"])) == "Ada"
    assert alice.get_human_input("more? ", iostream=ScriptedIOStream([])) == "exit"  # closed input
    # From sync code an async stream is run to completion.
    assert alice.get_human_input("async? ", iostream=AsyncScriptedStream(["yes"])) == "yes"
    assert asyncio.run(alice.a_get_human_input("a? ", iostream=AsyncScriptedStream(["b"]))) == "b"
    assert asyncio.run(alice.a_get_human_input("c? ", iostream=ScriptedIOStream(["d"]))) == "d"
    assert alice._human_input == ["Ada", "exit", "yes", "b", "d"] and console.prompts == []


def test_a_073_override_of_get_human_input_sees_the_given_stream(console: ScriptedIOStream) -> None:
    class Typist(ConversableAgent):  # 0.7.3 style: no iostream parameter
        def get_human_input(self, prompt: str) -> str:
            return IOStream.get_default().input(prompt).upper()

    typist = Typist("typist", llm_config=False, human_input_mode="ALWAYS")
    bob = ConversableAgent("bob", llm_config=False)
    given = ScriptedIOStream(["fine", "async"])
    assert typist.check_termination_and_human_reply([{"content": "q"}], bob, iostream=given)[1]["content"] == "FINE"
    reply = asyncio.run(typist.a_check_termination_and_human_reply([{"content": "q"}], bob, iostream=given))
    assert reply[1]["content"] == "ASYNC" and console.prompts == []


# ---------------------------------------------------------------- generate_oai_reply(**kwargs)
def test_generate_oai_reply_passes_request_options(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("sync", "async")
    alice = _assistant(scripted_server)
    hi = [{"role": "user", "content": "hi"}]

    assert alice.generate_oai_reply(hi, temperature=0.25, max_tokens=7) == (True, "sync")
    assert scripted_server.requests[-1]["temperature"] == 0.25 and scripted_server.requests[-1]["max_tokens"] == 7
    assert asyncio.run(alice.a_generate_oai_reply(hi, None, None, temperature=0.5)) == (True, "async")
    assert scripted_server.requests[-1]["temperature"] == 0.5
    # Without options the request carries only the configured ones.
    scripted_server.add_reply("plain")
    alice.generate_oai_reply(hi)
    assert "temperature" not in scripted_server.requests[-1]


# ---------------------------------------------------------------- registration arguments
def test_register_for_execution_description_serialize_and_silent_override() -> None:
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False)

    described = bob.register_for_execution(description="Show a card")(show_card)
    assert described.name == "show_card" and described.description == "Show a card"
    assert bob.function_map["show_card"](rank=3) == serialize_to_str({"card": 3})  # text, by default

    raw = bob.register_for_execution(name="raw_card", serialize=False)(described)
    assert raw.description == "Show a card" and bob.function_map["raw_card"](rank=2) == {"card": 2}

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bob.register_for_execution(name="raw_card")(show_card)
        bob.register_for_execution(name="raw_card", silent_override=True)(show_card)
        bob.register_function({"raw_card": pick_card}, silent_override=True)
    assert [str(w.message) for w in caught] == ["Function 'raw_card' is being overridden."]
    assert bob.function_map["raw_card"] is pick_card


def test_silent_override_of_llm_registration(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alice.register_for_llm(description="one")(pick_card)
        alice.register_for_llm(description="two")(pick_card)
        alice.register_for_llm(description="three", silent_override=True)(pick_card)
        alice.update_tool_signature(alice.llm_config["tools"][0], is_remove=False, silent_override=True)
    assert [str(w.message) for w in caught] == ["Function 'pick_card' is being overridden."]
    assert alice.llm_config["tools"][0]["function"]["description"] == "three"


def test_update_function_signature_adds_by_default_and_removes_by_schema(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    schema = {"name": "lookup", "description": "Look up", "parameters": {"type": "object", "properties": {}}}
    alice.update_function_signature(schema)  # is_remove defaults to False, as in 0.14.1
    assert alice.llm_config["functions"] == [schema]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alice.update_function_signature(schema, silent_override=True)
    assert caught == []
    alice.update_function_signature(schema, is_remove=True)  # by the schema itself, as well as by name
    assert "functions" not in alice.llm_config
    with pytest.raises(AssertionError, match="doesn't have function lookup"):
        alice.update_function_signature("lookup", is_remove=True)


def test_function_and_tool_signatures_are_checked_alike(scripted_server: ScriptedOpenAIServer) -> None:
    alice = _assistant(scripted_server)
    tool = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}}}
    function = dict(tool["function"])
    with pytest.raises(ValueError, match="The function signature must be of the type dict. Received function "
                                         "signature type <class 'str'>"):
        alice.update_function_signature("lookup")
    with pytest.raises(ValueError, match="The tool signature must be of the type dict. Received tool signature "
                                         "type <class 'str'>"):
        alice.update_tool_signature("lookup", is_remove=False)
    with pytest.raises(ValueError, match="The function signature must have a 'name' key"):
        alice.update_function_signature({"parameters": {}})
    with pytest.raises(ValueError, match="Invalid name: None"):
        alice.update_tool_signature({"type": "function", "function": {}}, is_remove=False)
    alice.update_function_signature(function)
    alice.update_tool_signature(tool, is_remove=False)
    assert alice.llm_config["functions"] == [function] and tool in alice.llm_config["tools"]
    for update, sig in ((alice.update_function_signature, function), (alice.update_tool_signature, tool)):
        with pytest.warns(UserWarning, match="Function 'lookup' is being overridden."):
            update(sig, is_remove=False)
    alice.update_function_signature("lookup", is_remove=True)
    alice.update_tool_signature("lookup", is_remove=True)
    assert "functions" not in alice.llm_config and "tools" not in alice.llm_config
    with pytest.raises(AssertionError, match=r"doesn't have tool lookup. \(tool_sig names a tool to remove; "
                                             r"llm_config has no 'tools'.\)"):
        alice.update_tool_signature("lookup", is_remove=True)


def test_073_registration_calls_still_work(scripted_server: ScriptedOpenAIServer) -> None:
    alice, bob = _assistant(scripted_server), UserProxyAgent("bob", code_execution_config=False)

    @bob.register_for_execution("lookup")  # 0.7.3: the name as the only (positional) argument
    @alice.register_for_llm(name="lookup", description="Look up")
    def find(key: str) -> str:
        return key * 2

    alice.update_tool_signature("lookup", True)  # positional is_remove
    alice.update_function_signature({"name": "legacy", "parameters": {}}, None)  # 0.7.3's is_remove=None adds
    bob.register_function({"legacy": find.func})
    assert _offered(alice) == [] and [f["name"] for f in alice.llm_config["functions"]] == ["legacy"]
    assert sorted(bob.function_map) == ["legacy", "lookup"] and bob.function_map["lookup"](key="ab") == "abab"


# ---------------------------------------------------------------- handoffs=
def test_handoffs_are_accepted_and_kept() -> None:
    from autogen_classic.agentchat.conversable_agent import Handoffs

    # AG2 0.14: every agent has a Handoffs, empty by default
    assert ConversableAgent("alice", llm_config=False).handoffs == Handoffs()
    conditions = object()  # a Handoffs object of 0.14 code
    assert ConversableAgent("bob", llm_config=False, handoffs=conditions).handoffs is conditions
    manager = GroupChatManager(GroupChat(agents=[], messages=[]), llm_config=False)
    assert manager.handoffs == Handoffs() and manager.tools == []


# ---------------------------------------------------------------- DockerCommandLineCodeExecutor
docker_needed = pytest.mark.skipif(
    importlib.util.find_spec("docker") is None, reason='needs the docker extra: pip install "autogen-classic[docker]"'
)


@docker_needed
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ("environment=X", "must be a dict of docker containers.create options"),
        ({1: "x"}, "must be a dict of docker containers.create options"),
        ({"detach": False}, "cannot set 'detach'"),
        ({"labels": 5}, r"container_create_kwargs\['labels'\] must be a dict"),
    ],
)
def test_docker_container_create_kwargs_are_checked_before_any_engine(
    kwargs: Any, message: str, tmp_path: Path
) -> None:
    from autogen_classic.coding.docker_commandline_code_executor import DockerCommandLineCodeExecutor

    # Checked before the engine is asked: no engine is needed to see these errors.
    with pytest.raises(TypeError, match=message):
        DockerCommandLineCodeExecutor(work_dir=tmp_path, container_create_kwargs=kwargs)


@pytest.fixture
def docker_engine() -> Iterator[Any]:
    """A client of a running engine that has the test image (``.ci/docker_engine.sh`` makes both); else skip."""
    if importlib.util.find_spec("docker") is None:
        pytest.skip('needs the docker extra: pip install "autogen-classic[docker]"')
    import docker  # type: ignore[import-untyped]

    from autogen_classic.coding.containers.engine import TEST_IMAGE

    try:
        client = docker.from_env(timeout=10)
        client.ping()
        client.images.get(TEST_IMAGE)
    except docker.errors.DockerException as err:
        pytest.skip(f"no Docker engine with {TEST_IMAGE} (bash .ci/docker_engine.sh starts one): {err}")
    yield client
    client.close()


def test_docker_container_create_kwargs_reach_the_container(
    docker_engine: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from autogen_classic.coding import CodeBlock
    from autogen_classic.coding.containers.engine import OWNER_PID_LABEL, TEST_IMAGE
    from autogen_classic.coding.docker_commandline_code_executor import DockerCommandLineCodeExecutor

    monkeypatch.chdir(tmp_path)  # work_dir=None (0.14.1's default): the current directory
    name = f"autogen-classic-test-{uuid.uuid4().hex[:8]}"
    with caplog.at_level(logging.WARNING):
        executor = DockerCommandLineCodeExecutor(
            image=TEST_IMAGE,
            container_create_kwargs={"environment": {"GREETING": "hello from kwargs"}, "labels": ["team-a"],
                                     "tty": True, "name": name},
        )
    with executor:
        assert "overriding default tty=True" in caplog.text
        result = executor.execute_code_blocks([CodeBlock(language="sh", code='echo "$GREETING"')])
        assert (result.exit_code, result.output.strip()) == (0, "hello from kwargs")
        assert Path(result.code_file).parent.resolve() == tmp_path.resolve()
        labels = docker_engine.containers.get(name).labels
        assert labels["team-a"] == "" and OWNER_PID_LABEL in labels  # the executor's own labels are kept
