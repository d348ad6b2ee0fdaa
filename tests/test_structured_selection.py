"""Structured "auto" speaker selection: one JSON-constrained call, the addressed-by-name rule and the fallbacks.

Against the scripted OpenAI-compatible server (request bodies asserted) and the embedded SmolLM2 model.
"""

from __future__ import annotations

import asyncio
import socket
import warnings
from typing import Any

import openai
import pytest

from autogen_classic import ConversableAgent, GroupChatManager, local
from autogen_classic.agentchat.contrib.capabilities import (
    transform_messages,
    transforms,
)
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.agentchat.groupchat.selection.structured import MESSAGE_CHARS
from autogen_classic.local import EmbeddedServer
from autogen_classic.oai.errors import AllEndpointsFailedError
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

DESCRIPTIONS = {
    "writer": "Writes the drafts.",
    "critic": "Reviews drafts and points out flaws.",
    "tester": "Runs the code and reports failures.",
    "editor": "Polishes the wording.",
}
DRAFT = {"role": "user", "name": "writer", "content": "Here is the first draft of the sieve."}
REVIEW = "Critic, please review."


def agent(name: str, reply: str | None = None) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", description=DESCRIPTIONS[name],
                            default_auto_reply=reply or f"{name} has nothing to add.")


@pytest.fixture
def trio() -> list[ConversableAgent]:
    return [agent("writer"), agent("critic"), agent("tester")]


def config(server: ScriptedOpenAIServer, *kinds: Any) -> dict[str, Any]:
    """A selector config with one entry per kind (None: the entry declares nothing)."""
    entries = [server.config_entry(max_retries=0, **({} if k is None else {"structured_output": k})) for k in kinds]
    return {"config_list": entries, "cache_seed": None}


def group(agents: list[ConversableAgent], server: ScriptedOpenAIServer, *kinds: Any,
          messages: list[dict[str, Any]] | None = None, **kwargs: Any) -> GroupChat:
    history = [dict(DRAFT)] if messages is None else messages
    return GroupChat(agents=agents, messages=history,
                     select_speaker_auto_llm_config=config(server, *(kinds or ("json_schema",))), **kwargs)


def schema(*names: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"speaker": {"type": "string", "enum": list(names)}},
            "required": ["speaker"], "additionalProperties": False}


def prompt(server: ScriptedOpenAIServer, index: int = 0) -> str:
    messages = server.requests[index]["messages"]
    assert len(messages) == 1 and messages[0]["role"] == "user"
    return messages[0]["content"]


def attempts(gc: GroupChat, index: int = -1) -> list[tuple[str, str, dict[str, int], str]]:
    return [(a.prompt_role, a.answer, a.mentions, a.outcome) for a in gc.selection_log[index].attempts]


def formats(server: ScriptedOpenAIServer) -> list[Any]:
    return [body.get("response_format", "<absent>") for body in server.requests]


# ----------------------------------------------------------------- the request
def test_json_schema_entry_selects_with_one_constrained_call(trio: list, scripted_server: ScriptedOpenAIServer,
                                                             console: ScriptedIOStream) -> None:
    gc = group(trio, scripted_server, "json_schema")
    scripted_server.add_reply('{"speaker": "critic"}')
    assert gc.select_speaker(trio[0], None) is trio[1]
    assert scripted_server.request_count == 1
    body = scripted_server.requests[0]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "next_speaker", "schema": schema("writer", "critic", "tester"), "strict": True},
    }
    assert "structured_output" not in body and "max_retries" not in body
    question = "Who should speak after writer? Answer with one of: writer, critic, tester."
    assert prompt(scripted_server).endswith(question)
    record = gc.selection_log[0]
    assert record.chosen == "critic"
    assert attempts(gc) == [("structured", '{"speaker": "critic"}', {"critic": 1}, "selected")]
    assert record.reason == "auto: the model chose critic (structured answer, one call)"
    # the scripted server counts words: the whole prompt is one short user message
    assert record.usage["prompt_tokens"] == len(prompt(scripted_server).split()) > 0
    assert record.usage["completion_tokens"] == 2
    assert console.output == ""  # not verbose
    assert gc.messages == [DRAFT]


def test_json_object_entry_sends_the_schema_in_llama_cpp_form(trio: list,
                                                              scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(trio, scripted_server, "json_object")
    scripted_server.add_reply('{"speaker": "tester"}')
    assert gc.select_speaker(trio[0], None) is trio[2]
    assert formats(scripted_server) == [{"type": "json_object", "schema": schema("writer", "critic", "tester")}]
    assert "structured_output" not in scripted_server.requests[0]


def test_structured_needs_every_entry_to_declare_it(trio: list, scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(trio, scripted_server, "json_schema", None)  # one entry declares, one does not: classic
    scripted_server.add_reply("critic")
    assert gc.select_speaker(trio[0], None) is trio[1]
    assert formats(scripted_server) == ["<absent>"]
    assert scripted_server.requests[0]["messages"][0] == {"role": "system", "content": gc.select_speaker_msg(trio)}
    assert attempts(gc) == [("system", "critic", {"critic": 1}, "selected")]


def test_select_speaker_structured_output_overrides_the_declarations(trio: list,
                                                                     scripted_server: ScriptedOpenAIServer) -> None:
    forced = group(trio, scripted_server, None, select_speaker_structured_output=True)
    scripted_server.add_reply('{"speaker": "tester"}')
    assert forced.select_speaker(trio[0], None) is trio[2]
    assert formats(scripted_server)[0]["type"] == "json_schema"
    scripted_server.reset()
    off = group(trio, scripted_server, "json_schema", select_speaker_structured_output=False)
    scripted_server.add_reply("tester")
    off.messages.append({"role": "user", "name": "writer", "content": REVIEW})  # no addressed rule either
    assert off.select_speaker(trio[0], None) is trio[2]
    assert formats(scripted_server) == ["<absent>"]
    assert attempts(off) == [("system", "tester", {"tester": 1}, "selected")]


# ----------------------------------------------------------------- the prompt
def test_prompt_holds_the_recent_clipped_history_the_team_and_the_question(
    trio: list, scripted_server: ScriptedOpenAIServer
) -> None:
    long_text = "START of a long message. " + "filler words  here\n" * 60 + "so the end is kept."
    history = [
        {"role": "user", "name": "writer", "content": "The oldest message about apples."},
        {"role": "user", "name": "critic", "content": "Second message about bananas."},
        {"role": "user", "name": "tester", "content": "Third message: cherries."},
        {"role": "user", "name": "writer", "content": long_text},
        {"role": "user", "name": "critic", "content": "Looks fine to me."},
        {"role": "user", "name": "writer", "content": "I think the tester should run it now."},
    ]
    gc = group(trio, scripted_server, messages=history)
    scripted_server.add_reply('{"speaker": "tester"}')
    assert gc.select_speaker(trio[0], None) is trio[2]
    text = prompt(scripted_server)
    assert "apples" not in text and "bananas" not in text and "START" not in text
    conversation, team, question = text.split("\n\n")
    lines = conversation.splitlines()
    assert lines[0] == "Conversation:" and len(lines) == 5
    assert lines[1] == "tester: Third message: cherries."
    # clipped from the front (the hand-off is at the end), whitespace collapsed
    assert lines[2].startswith("writer: ...") and lines[2].endswith("filler words here so the end is kept.")
    assert "  " not in lines[2]
    assert len(lines[2]) == len("writer: ") + MESSAGE_CHARS
    assert lines[3:] == ["critic: Looks fine to me.", "writer: I think the tester should run it now."]
    # the candidate the last message mentions comes first, in the prompt and in the schema
    assert team == ("Team:\n- tester: Runs the code and reports failures.\n- writer: Writes the drafts.\n"
                    "- critic: Reviews drafts and points out flaws.")
    assert question == "Who should speak after writer? Answer with one of: tester, writer, critic."
    assert scripted_server.requests[0]["response_format"]["json_schema"]["schema"] == schema("tester", "writer",
                                                                                            "critic")


def test_mentions_reorder_only_on_whole_words(trio: list, scripted_server: ScriptedOpenAIServer) -> None:
    message = {"role": "user", "name": "writer", "content": "Thanks for the criticism; the Tester's run passed."}
    gc = group(trio, scripted_server, messages=[message])
    scripted_server.add_reply('{"speaker": "critic"}')
    gc.select_speaker(trio[0], None)
    assert prompt(scripted_server).endswith("Answer with one of: tester, writer, critic.")


def test_transforms_apply_to_what_the_structured_prompt_reads(trio: list,
                                                              scripted_server: ScriptedOpenAIServer) -> None:
    limiter = transform_messages.TransformMessages(transforms=[transforms.MessageHistoryLimiter(max_messages=2)],
                                                   verbose=False)
    history = [{"role": "user", "name": name, "content": f"note {i} from {name}"}
               for i, name in enumerate(["writer", "critic", "tester", "writer"])]
    gc = group(trio, scripted_server, messages=history, select_speaker_transform_messages=limiter)
    scripted_server.add_reply('{"speaker": "critic"}')
    gc.select_speaker(trio[0], None)
    recent = "Conversation:\ntester: note 2 from tester\nwriter: note 3 from writer\n\n"
    assert prompt(scripted_server).startswith(recent)
    assert len(gc.messages) == 4  # the group's history is untouched


def test_only_eligible_candidates_are_offered(trio: list, scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(trio, scripted_server, allow_repeat_speaker=False)
    scripted_server.add_reply('{"speaker": "tester"}')
    assert gc.select_speaker(trio[0], None) is trio[2]
    assert scripted_server.requests[0]["response_format"]["json_schema"]["schema"] == schema("critic", "tester")
    assert "- writer:" not in prompt(scripted_server)

    scripted_server.reset()
    editor = agent("editor")
    agents = [*trio, editor]
    graph = {trio[0]: [trio[1], editor], trio[1]: [trio[0]], trio[2]: [trio[0]], editor: [trio[0]]}
    gc = group(agents, scripted_server, allowed_or_disallowed_speaker_transitions=graph,
               speaker_transitions_type="allowed")
    scripted_server.add_reply('{"speaker": "editor"}')
    assert gc.select_speaker(trio[0], None) is editor
    assert scripted_server.requests[0]["response_format"]["json_schema"]["schema"] == schema("critic", "editor")
    assert prompt(scripted_server).endswith("Answer with one of: critic, editor.")


# ----------------------------------------------------------------- fallbacks
@pytest.mark.parametrize("answer", ["I am not sure who.", '{"speaker": "nobody"}'])
def test_an_answer_naming_no_candidate_falls_back_to_the_classic_path(
    trio: list, scripted_server: ScriptedOpenAIServer, answer: str
) -> None:
    gc = group(trio, scripted_server)
    scripted_server.add_replies(answer, "nobody", "tester")
    assert gc.select_speaker(trio[0], None) is trio[2]
    assert scripted_server.request_count == 3
    assert formats(scripted_server)[1:] == ["<absent>", "<absent>"]
    classic = scripted_server.requests[1]["messages"]
    assert classic[0] == {"role": "system", "content": gc.select_speaker_msg(trio)}
    assert classic[-1]["name"] == "checking_agent"
    assert attempts(gc) == [("structured", answer, {}, "invalid"), ("system", "nobody", {}, "none"),
                            ("system", "tester", {"tester": 1}, "selected")]
    assert gc.selection_log[0].reason == "auto: the model named tester (attempt 2 of 3)"
    assert gc.selection_log[0].usage["prompt_tokens"] == sum(
        len(" ".join(m["content"] for m in body["messages"]).split()) for body in scripted_server.requests)


def test_the_classic_fallback_on_a_json_object_entry_sends_no_response_format(
    trio: list, scripted_server: ScriptedOpenAIServer
) -> None:
    gc = group(trio, scripted_server, "json_object")
    scripted_server.add_replies("I am not sure who.", "tester")
    assert gc.select_speaker(trio[0], None) is trio[2]
    assert formats(scripted_server)[1:] == ["<absent>"]


def test_a_refused_request_format_turns_structured_selection_off(trio: list,
                                                                 scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(trio, scripted_server)
    scripted_server.add_replies(ScriptedReply(status=400, error_message="response_format is not supported"), "critic")
    with pytest.warns(UserWarning) as caught:
        assert gc.select_speaker(trio[0], None) is trio[1]
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "refused the structured request" in message and "response_format is not supported" in message
    assert "'structured_output': False" in message
    assert formats(scripted_server)[1:] == ["<absent>"]
    assert attempts(gc) == [("system", "critic", {"critic": 1}, "selected")]

    gc.messages.append({"role": "user", "name": "critic", "content": "Writer, fix line 3."})
    scripted_server.add_reply("writer")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once: the next selection is silent
        assert gc.select_speaker(trio[1], None) is trio[0]
    # structured off: no response_format, and the addressed rule (on with structured selection) is off too
    assert formats(scripted_server)[2:] == ["<absent>"] and scripted_server.request_count == 3


def test_server_and_connection_failures_are_not_refusals(trio: list, scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(trio, scripted_server)
    scripted_server.add_reply(ScriptedReply(status=500))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AllEndpointsFailedError, match="HTTP 500") as raised:
            gc.select_speaker(trio[0], None)
    assert isinstance(raised.value.attempts[0].error, openai.InternalServerError)
    assert scripted_server.request_count == 1  # no classic attempt after a server error
    record = gc.selection_log[0]
    assert record.chosen is None and record.reason.startswith("AllEndpointsFailedError: ")
    scripted_server.add_reply('{"speaker": "tester"}')  # structured selection is still on
    assert gc.select_speaker(trio[0], None) is trio[2]
    assert formats(scripted_server)[1]["type"] == "json_schema"

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    entry = {"model": "m", "base_url": f"http://127.0.0.1:{port}/v1", "api_key": "k", "max_retries": 0,
             "structured_output": "json_schema"}
    gc = GroupChat(agents=trio, messages=[dict(DRAFT)],
                   select_speaker_auto_llm_config={"config_list": [entry], "cache_seed": None})
    with pytest.raises(AllEndpointsFailedError) as raised:
        gc.select_speaker(trio[0], None)
    assert isinstance(raised.value.attempts[0].error, openai.APIConnectionError)
    assert gc._selector_chat is not None and gc._selector_chat.structured_rejected is None


# ----------------------------------------------------------------- the addressed rule
@pytest.mark.parametrize(
    ("content", "kinds", "addressed", "requests"),
    [
        (REVIEW, ("json_schema",), None, 0),
        ("Thanks. @critic can you check the bounds?", ("json_schema",), None, 0),
        ("Can you check the bounds, critic?", ("json_schema",), None, 0),
        ("The critic's notes are addressed.", ("json_schema",), None, 1),
        ("Critic, please review. Tester, please run it.", ("json_schema",), None, 1),
        (REVIEW, ("json_schema",), False, 1),
        (REVIEW, (None,), True, 0),
        (REVIEW, (None,), None, 1),  # classic config: the rule is off by default
    ],
)
def test_a_message_addressing_one_candidate_needs_no_model_call(
    trio: list, scripted_server: ScriptedOpenAIServer, content: str, kinds: tuple, addressed: bool | None,
    requests: int,
) -> None:
    message = {"role": "user", "name": "writer", "content": content}
    gc = group(trio, scripted_server, *kinds, messages=[message], select_speaker_auto_addressed=addressed)
    scripted_server.set_responder(lambda body: '{"speaker": "tester"}' if "response_format" in body else "tester")
    chosen = gc.select_speaker(trio[0], None)
    assert scripted_server.request_count == requests
    record = gc.selection_log[0]
    if requests == 0:
        assert chosen is trio[1]
        assert record.reason == "auto: the last message addresses critic by name (no model call)"
        assert (record.attempts, record.usage) == ([], {})
    else:
        assert chosen is trio[2] and "addresses" not in record.reason


def test_a_speaker_naming_itself_addresses_no_one(trio: list, scripted_server: ScriptedOpenAIServer) -> None:
    message = {"role": "user", "name": "critic", "content": "Critic: the draft looks good."}
    gc = group(trio, scripted_server, messages=[message])
    scripted_server.add_reply('{"speaker": "tester"}')
    assert gc.select_speaker(trio[1], None) is trio[2]
    assert scripted_server.request_count == 1


# ----------------------------------------------------------------- verbose, async, a whole chat
def test_verbose_prints_the_structured_and_addressed_lines(trio: list, scripted_server: ScriptedOpenAIServer,
                                                           console: ScriptedIOStream) -> None:
    gc = group(trio, scripted_server, select_speaker_auto_verbose=True)
    scripted_server.add_reply('{"speaker": "critic"}')
    gc.select_speaker(trio[0], None)
    assert console.output == ">>>>>>>> Structured speaker selection chose: critic\n"
    gc.messages.append({"role": "user", "name": "critic", "content": "Tester, please run it."})
    gc.select_speaker(trio[1], None)
    assert console.output.endswith(">>>>>>>> The last message addresses tester; no model call needed.\n")
    gc.messages.append({"role": "user", "name": "tester", "content": "All tests pass."})
    scripted_server.add_replies("hmm", "writer")
    gc.select_speaker(trio[2], None)
    tail = console.output.split("no model call needed.\n", 1)[1]
    assert tail.startswith(">>>>>>>> Structured speaker selection named no candidate; asking again in free text.\n"
                           "checking_agent (to speaker_selection_agent):\n")
    assert tail.endswith(">>>>>>>> Select speaker attempt 1 of 3 successfully selected: writer\n")


def test_sync_and_async_selection_agree(scripted_server: ScriptedOpenAIServer) -> None:
    def run(use_async: bool) -> tuple[list[str], list[dict[str, Any]], list[dict[str, Any]]]:
        scripted_server.reset()
        agents = [agent("writer"), agent("critic"), agent("tester")]
        gc = group(agents, scripted_server)
        scripted_server.add_replies('{"speaker": "critic"}', "no idea", "tester")
        turns = [(agents[0], None), (agents[1], "Critic here. Writer, fix it."), (agents[0], "Fixed it.")]
        chosen = []
        for last, text in turns:
            if text:
                gc.messages.append({"role": "user", "name": last.name, "content": text})
            pick = asyncio.run(gc.a_select_speaker(last, None)) if use_async else gc.select_speaker(last, None)
            chosen.append(pick.name)
        return chosen, [r.to_dict() for r in gc.selection_log], list(scripted_server.requests)

    sync, a_sync = run(False), run(True)
    assert sync[0] == ["critic", "writer", "tester"]
    assert sync == a_sync
    assert [len(r["attempts"]) for r in sync[1]] == [1, 0, 2]


@pytest.mark.parametrize("use_async", [False, True])
def test_a_whole_chat_makes_one_call_per_selection(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream,
                                                   use_async: bool) -> None:
    writer, critic, tester = agent("writer"), agent("critic", "The loop bound is off by one."), agent("tester")
    gc = GroupChat(agents=[writer, critic, tester], messages=[], max_round=4)
    manager = GroupChatManager(gc, llm_config=config(scripted_server, "json_schema", "json_schema"))
    scripted_server.add_replies('{"speaker": "critic"}', '{"speaker": "writer"}', '{"speaker": "tester"}')
    if use_async:
        asyncio.run(writer.a_initiate_chat(manager, message="Here is the draft."))
    else:
        writer.initiate_chat(manager, message="Here is the draft.")
    assert [m["name"] for m in gc.messages] == ["writer", "critic", "writer", "tester"]
    assert scripted_server.request_count == 3 and all(f["type"] == "json_schema" for f in formats(scripted_server))
    assert [attempts(gc, i) for i in range(3)] == [
        [("structured", f'{{"speaker": "{name}"}}', {name: 1}, "selected")] for name in ("critic", "writer", "tester")
    ]
    assert "Next speaker: critic\n" in console.output and "Next speaker: tester\n" in console.output
    assert "The loop bound is off by one." in prompt(scripted_server, 1)


# ----------------------------------------------------------------- settings
def test_settings_are_validated(trio: list) -> None:
    with pytest.raises(TypeError, match="select_speaker_structured_output must be None .* got str"):
        GroupChat(agents=trio, select_speaker_structured_output="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="select_speaker_auto_addressed must be None .* got int"):
        GroupChat(agents=trio, select_speaker_auto_addressed=1)  # type: ignore[arg-type]
    entry = {"model": "m", "api_key": "k", "structured_output": "yes"}
    with pytest.raises(ValueError, match=r"config_list\[0\]\.structured_output: .*'json_schema'"):
        GroupChatManager(GroupChat(agents=trio), llm_config={"config_list": [entry]})


# ----------------------------------------------------------------- the embedded model
def embedded_config(server: EmbeddedServer) -> dict[str, Any]:
    cfg = local.llm_config()
    cfg["config_list"] = [{**cfg["config_list"][0], "base_url": server.base_url}]
    return cfg


def test_embedded_model_selects_with_one_small_call(trio: list, embedded_server: EmbeddedServer) -> None:
    history = [DRAFT, {"role": "user", "name": "critic", "content": "The loop bound is off by one in line 3."}]
    gc = GroupChat(agents=trio, messages=[dict(m) for m in history], allow_repeat_speaker=False,
                   select_speaker_auto_llm_config=embedded_config(embedded_server))
    chosen = gc.select_speaker(trio[1], None)
    record = gc.selection_log[0]
    assert record.candidates() == ["writer", "tester"] and chosen.name in record.candidates()
    assert [(a.prompt_role, a.outcome) for a in record.attempts] == [("structured", "selected")]
    assert 0 < record.usage["prompt_tokens"] < 400


def test_embedded_model_drives_a_short_group_chat(embedded_server: EmbeddedServer, console: ScriptedIOStream) -> None:
    agents = [agent("writer", "I wrote a draft of the prime sieve."),
              agent("critic", "The loop bound looks off by one."),
              agent("tester", "All tests pass on my side.")]
    gc = GroupChat(agents=agents, messages=[], max_round=4, allow_repeat_speaker=False)
    manager = GroupChatManager(gc, llm_config=embedded_config(embedded_server))
    agents[0].initiate_chat(manager, message="Let us write a prime sieve.")
    assert len(gc.messages) == 4 and len(gc.selection_log) == 3
    for record in gc.selection_log:
        assert record.chosen in record.candidates() and record.chosen != record.last_speaker
        assert len(record.attempts) <= 1
        assert all((a.prompt_role, a.outcome) == ("structured", "selected") for a in record.attempts)
    assert [m["name"] for m in gc.messages[1:]] == [r.chosen for r in gc.selection_log]
