"""Manual speaker selection at the keyboard: names, starts of names, ``?``, ``h``, ``x``, the classic answers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.groupchat import GroupChat, GroupChatManager
from autogen_classic.agentchat.groupchat.selection.manual import ENDED_AT_KEYBOARD, ChatEndedAtKeyboard
from autogen_classic.exception_utils import NoEligibleSpeaker
from autogen_classic.testing.io import ScriptedIOStream

PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
INVALID = "Invalid input. Please enter a number between 1 and {n}.\n"


def agent(name: str, description: str = "") -> autogen.ConversableAgent:
    return autogen.ConversableAgent(name, llm_config=False, human_input_mode="NEVER",
                                    default_auto_reply=f"{name} here", description=description or f"The {name}.")


@pytest.fixture
def team() -> list[autogen.ConversableAgent]:
    return [agent("planner", "Plans the work first."), agent("coder", "Writes the code."),
            agent("critic", "Reviews the code."), agent("cook", "Cooks dinner.")]


def group(team: list[Any], **kwargs: Any) -> GroupChat:
    kwargs.setdefault("speaker_selection_method", "manual")
    return GroupChat(agents=team, **kwargs)


def attempts(gc: GroupChat, index: int = -1) -> list[tuple[str, str]]:
    return [(a.answer, a.outcome) for a in gc.selection_log[index].attempts]


# ------------------------------------------------------------------------------------------ the classic answers
def test_the_classic_list_prompt_and_numbers_are_unchanged(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team, messages=[{"role": "user", "name": "planner", "content": "hi"}])
    console.add_inputs("9", "2")
    assert gc.select_speaker(team[0], None) is team[1]
    assert console.output == (
        "Please select the next speaker from the following list:\n1: planner\n2: coder\n3: critic\n4: cook\n"
        + PROMPT + "9\n" + INVALID.format(n=4) + PROMPT + "2\n")
    assert console.prompts == [PROMPT, PROMPT]
    assert attempts(gc) == [("9", "invalid"), ("2", "selected")]


@pytest.mark.parametrize("typed", ["", "q"])
def test_empty_or_q_still_leaves_it_to_automatic_selection(team: list[Any], console: ScriptedIOStream,
                                                            typed: str) -> None:
    gc = group(team)
    console.add_inputs(typed)
    assert gc.select_speaker(team[0], None) is team[1]  # no model: round robin after planner
    assert attempts(gc) == [(typed, "none")]


# ------------------------------------------------------------------------------------------ names
@pytest.mark.parametrize(("typed", "chosen"), [
    ("critic", "critic"), ("CRITIC", "critic"), (" Coder ", "coder"), ("pl", "planner"), ("cr", "critic"),
    ("COO", "cook"),
])
def test_a_name_in_any_case_or_a_unique_start_chooses(team: list[Any], console: ScriptedIOStream, typed: str,
                                                      chosen: str) -> None:
    gc = group(team)
    console.add_inputs(typed)
    assert gc.select_speaker(team[0], None).name == chosen
    assert attempts(gc) == [(typed.strip(), "selected")]
    assert gc.selection_log[0].reason == "chosen at the console"


def test_an_exact_name_wins_over_a_longer_name_it_starts(console: ScriptedIOStream) -> None:
    ann, anna = agent("ann"), agent("anna")
    gc = group([ann, anna, agent("bob")])
    console.add_inputs("ANN")
    assert gc.select_speaker(anna, None) is ann


def test_an_ambiguous_start_lists_the_matches_and_asks_again(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team)
    console.add_inputs("c", "co", "cri")
    assert gc.select_speaker(team[0], None) is team[1]  # two ambiguous starts use both tries: round robin
    assert console.output.endswith(
        PROMPT + "c\n'c' matches several candidates: coder, critic, cook. Type more of the name, or its number.\n"
        + PROMPT + "co\n'co' matches several candidates: coder, cook. Type more of the name, or its number.\n"
        "You have tried 3 times. The next speaker will be selected automatically.\n")
    assert attempts(gc) == [("c", "multiple"), ("co", "multiple")]
    assert console.remaining_inputs == 1


def test_an_ambiguous_start_then_a_name(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team)
    console.add_inputs("c", "cri")
    assert gc.select_speaker(team[0], None) is team[2]
    assert attempts(gc) == [("c", "multiple"), ("cri", "selected")]


def test_a_name_that_is_not_a_candidate_is_invalid(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team, allow_repeat_speaker=False)
    console.add_inputs("planner", "zed", "1")
    # planner spoke last and may not repeat: its name is not a candidate here
    assert gc.select_speaker(team[0], None) is team[1]  # two invalid tries, then round robin after planner
    assert attempts(gc) == [("planner", "invalid"), ("zed", "invalid")]
    assert console.remaining_inputs == 1


# ------------------------------------------------------------------------------------------ ? and h
def test_question_mark_shows_candidates_exclusions_and_the_suggestion(
    team: list[Any], console: ScriptedIOStream
) -> None:
    gc = group(team, allow_repeat_speaker=False,
               messages=[{"role": "user", "name": "planner", "content": "Critic, please review the plan."}])
    console.add_inputs("?", "?", "2")
    assert gc.select_speaker(team[0], None) is team[2]
    help_text = (
        "Candidates after planner:\n"
        "  1: coder - Writes the code.\n"
        "  2: critic - Reviews the code.  <- suggested\n"
        "  3: cook - Cooks dinner.\n"
        "Not eligible:\n"
        "  planner: spoke last and may not speak twice in a row (allow_repeat_speaker)\n"
        "Suggestion: critic, because the last message addresses critic by name.\n"
        "Type a number or a name (any letter case, or the start of one). Enter or q: automatic selection. "
        "?: this help. h: the recent messages. x: end the chat.\n")
    assert console.output.count(help_text) == 2
    assert attempts(gc) == [("2", "selected")]  # ? is not a try, nor recorded as one


def test_question_mark_names_the_transition_and_the_policy_that_excluded(console: ScriptedIOStream) -> None:
    a, b, c, d = agent("a"), agent("b"), agent("c"), agent("d")

    class NotD:
        def is_eligible(self, candidate: Any, ctx: Any) -> bool:
            return candidate.name != "d"

    gc = GroupChat([a, b, c, d], speaker_selection_method="manual", speaker_transitions_type="allowed",
                   allowed_or_disallowed_speaker_transitions={a: [b, c, d], b: [a], c: [a], d: [a]},
                   eligibility_policies=[NotD()])
    console.add_inputs("?", "")
    gc.select_speaker(a, None)
    assert ("Not eligible:\n"
            "  a: the speaker transition graph has no transition from a to it\n"
            "  d: removed by the eligibility policy NotD\n") in console.output
    assert "Suggestion: none (no rule settles it without a model; Enter leaves it to automatic selection).\n" \
        in console.output


def test_the_first_turn_rule_suggests(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team, messages=[{"role": "user", "name": "boss", "content": "Write a script that sorts files."}])
    console.add_inputs("?", "")
    gc.select_speaker(team[3], None)
    assert ("Suggestion: planner, because the chat is at a new task and planner's description says it engages "
            "first.\n") in console.output


def test_h_shows_the_last_messages(team: list[Any], console: ScriptedIOStream) -> None:
    messages = [{"role": "user", "name": "planner", "content": f"message {i}"} for i in range(1, 8)]
    messages.append({"role": "assistant", "name": "coder", "content": "x" * 300})
    gc = group(team, messages=messages)
    console.add_inputs("h", "3")
    assert gc.select_speaker(team[1], None) is team[2]
    assert ("h\nThe last 5 of 8 messages:\n  [4] planner: message 4\n  [5] planner: message 5\n"
            "  [6] planner: message 6\n  [7] planner: message 7\n  [8] coder: " + "x" * 237 + "...\n" + PROMPT
            ) in console.output
    assert attempts(gc) == [("3", "selected")]


def test_help_and_history_do_not_use_tries_but_are_bounded(team: list[Any]) -> None:
    stream = ScriptedIOStream(default_input="?")
    with autogen.IOStream.set_default(stream):
        gc = group(team)
        assert gc.select_speaker(team[0], None) is team[1]  # after 20 free answers, two tries, then round robin
    assert len(stream.prompts) == 22
    assert attempts(gc) == [("?", "invalid"), ("?", "invalid")]


# ------------------------------------------------------------------------------------------ x
def test_x_ends_the_chat_and_keeps_messages_and_trace(team: list[Any], console: ScriptedIOStream,
                                                      tmp_path: Any) -> None:
    transcript = tmp_path / "chat.jsonl"
    gc = group(team, max_round=10, transcript_path=str(transcript))
    manager = GroupChatManager(gc, llm_config=False)
    console.add_inputs("coder", "x")
    result = team[0].initiate_chat(manager, message="Start")
    gc.close_transcript()
    assert [m["name"] for m in gc.messages] == ["planner", "coder"]
    assert manager.end_reason == ENDED_AT_KEYBOARD
    assert ">>>>>>>> GROUP CHAT ENDED: " + ENDED_AT_KEYBOARD in console.output
    assert [(r.chosen, r.reason) for r in gc.selection_log] == [
        ("coder", "chosen at the console"), (None, ENDED_AT_KEYBOARD)]
    assert attempts(gc) == [("x", "none")]
    assert [m["content"] for m in result.chat_history] == ["Start", "coder here"]
    assert autogen.load_transcript(str(transcript)) == gc.messages


def test_x_is_a_no_eligible_speaker_error_for_a_direct_call(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team)
    console.add_inputs("x")
    with pytest.raises(ChatEndedAtKeyboard) as caught:
        gc.select_speaker(team[0], None)
    assert isinstance(caught.value, NoEligibleSpeaker) and str(caught.value) == ENDED_AT_KEYBOARD


def test_x_ends_an_async_chat(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team, max_round=10)
    manager = GroupChatManager(gc, llm_config=False)
    console.add_inputs("cook", "x")
    asyncio.run(team[0].a_initiate_chat(manager, message="Start"))
    assert [m["name"] for m in gc.messages] == ["planner", "cook"] and manager.end_reason == ENDED_AT_KEYBOARD


def test_manual_select_speaker_takes_names_but_x_is_text_there(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team)
    console.add_inputs("Crit", "x", "")
    assert gc.manual_select_speaker() is team[2]
    assert gc.manual_select_speaker() is None  # "x" is invalid here (no chat to end), then empty input
    assert INVALID.format(n=4) in console.output


# ------------------------------------------------------------------------------------------ the trace
def test_the_trace_records_the_suggestion_and_whether_it_was_followed(
    team: list[Any], console: ScriptedIOStream
) -> None:
    gc = group(team, messages=[{"role": "user", "name": "planner", "content": "Critic, please review the plan."}])
    console.add_inputs("?", "CRI")
    gc.select_speaker(team[0], None)
    gc.messages.append({"role": "user", "name": "critic", "content": "Coder, please fix it."})
    console.add_inputs("3")
    gc.select_speaker(team[2], None)
    first, second = (record.manual for record in gc.selection_log)
    assert first is not None and second is not None
    assert (first.view, first.suggested, first.suggestion_rule, first.picked, first.picked_by, first.followed,
            first.commands) == ("classic", "critic", "addressed", "critic", "prefix", True, ["?"])
    assert first.suggestion_reason == "the last message addresses critic by name"
    assert (second.suggested, second.picked, second.picked_by, second.followed) == ("coder", "critic", "number",
                                                                                    False)
    assert gc.selection_log[0].method == "manual"


def test_the_trace_without_a_suggestion_or_a_pick(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team)
    console.add_inputs("2", "")
    gc.select_speaker(team[0], None)
    gc.select_speaker(team[1], None)
    picked, left = (record.manual for record in gc.selection_log)
    assert picked is not None and (picked.suggested, picked.picked, picked.followed) == (None, "coder", None)
    assert left is not None and (left.picked, left.followed, left.ended) == (None, None, False)
    console.add_inputs("x")
    with pytest.raises(ChatEndedAtKeyboard):
        gc.select_speaker(team[1], None)
    assert gc.selection_log[-1].manual.ended is True  # type: ignore[union-attr]


def test_the_selection_table_says_what_the_person_did_and_counts_typed_answers_apart(
    team: list[Any], console: ScriptedIOStream
) -> None:
    from autogen_classic.agentchat.groupchat.selection.trace import format_selection_log

    gc = group(team, messages=[{"role": "user", "name": "planner", "content": "Critic, please review the plan."}])
    console.add_inputs("?", "CRI")
    gc.select_speaker(team[0], None)
    console.add_inputs("9", "")
    gc.select_speaker(team[2], None)
    console.add_inputs("x")
    with pytest.raises(ChatEndedAtKeyboard):
        gc.select_speaker(team[1], None)
    lines = format_selection_log(gc.selection_log).splitlines()
    assert lines[1].split()[-2:] == ["0", "0"]  # the calls column counts questions to a model only
    assert lines[2] == "    manual: picked critic by prefix; suggested critic (addressed), followed"
    assert lines[4] == "    manual: left it to automatic selection; suggested critic (addressed)"
    assert lines[6] == "    manual: ended the chat (x); suggested critic (addressed)"
    assert lines[-1] == "3 selection(s), 0 question(s) to the selector, 4 answer(s) typed"


def test_the_manual_pick_survives_the_json_round_trip(team: list[Any], console: ScriptedIOStream) -> None:
    from autogen_classic.agentchat.groupchat.selection.trace import selection_log_from_json, selection_log_to_json

    gc = group(team, messages=[{"role": "user", "name": "planner", "content": "Critic, please review the plan."}])
    console.add_inputs("h", "critic")
    gc.select_speaker(team[0], None)
    text = selection_log_to_json(gc.selection_log)
    assert selection_log_from_json(text) == gc.selection_log
    # A log written before the field existed still loads.
    old = text.replace(', "manual": ' + text.split(', "manual": ')[1].rsplit("}", 1)[0], "")
    assert selection_log_from_json(old)[0].manual is None


def test_a_study_replays_the_picks(team: list[Any], console: ScriptedIOStream) -> None:
    gc = group(team, max_round=4)
    manager = GroupChatManager(gc, llm_config=False)
    console.add_inputs("critic", "2", "COOK")
    team[0].initiate_chat(manager, message="Start")
    picks = [r.manual.picked for r in gc.selection_log if r.manual is not None]
    assert picks == ["critic", "coder", "cook"] == [m["name"] for m in gc.messages[1:]]


# ------------------------------------------------------------------------------------------ the decision as data
def manual_team() -> tuple[list[Any], GroupChat, GroupChatManager]:
    people = [agent("planner", "Plans the work first."), agent("coder", "Writes the code."),
              agent("critic", "Reviews the code.")]
    gc = GroupChat(agents=people, speaker_selection_method="manual", max_round=3, allow_repeat_speaker=False)
    return people, gc, GroupChatManager(gc, llm_config=False)


EXPECTED_DATA = {
    "kind": "speaker_selection",
    "prompt": PROMPT,
    "view": "classic",
    "last_speaker": "planner",
    "candidates": [{"number": 1, "name": "coder", "description": "Writes the code."},
                   {"number": 2, "name": "critic", "description": "Reviews the code."}],
    "excluded": [{"name": "planner", "by": "repeat_rule",
                  "why": "spoke last and may not speak twice in a row (allow_repeat_speaker)"}],
    "suggestion": {"name": "critic", "rule": "addressed", "reason": "the last message addresses critic by name"},
    "commands": {"": "auto selection", "q": "auto selection", "?": "help", "h": "recent messages",
                 "x": "end the chat"},
}


def test_run_iter_input_request_carries_the_choice_and_is_answered_with_a_name() -> None:
    from autogen_classic.events.run_events import InputRequestEvent

    people, gc, manager = manual_team()
    requests: list[Any] = []
    response = people[0].run(manager, message="Critic, please review the plan.")
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            requests.append(event.content)
            event.content.respond(event.content.speaker_selection["suggestion"]["name"] if len(requests) == 1
                                  else "x")
    assert requests[0].prompt == PROMPT and requests[0].speaker_selection == EXPECTED_DATA
    assert requests[1].speaker_selection["last_speaker"] == "critic"
    assert [m["name"] for m in gc.messages] == ["planner", "critic"]
    assert manager.end_reason == ENDED_AT_KEYBOARD
    assert gc.selection_log[0].manual.followed is True  # type: ignore[union-attr]
    # The field is plain JSON on the wire.
    import json

    assert json.loads(InputRequestEvent(prompt=PROMPT, speaker_selection=EXPECTED_DATA).model_dump_json())[
        "content"]["speaker_selection"] == EXPECTED_DATA


def test_a_run_asks_on_a_worker_thread_and_the_loop_answers() -> None:
    # The prompt waits off the event loop: the consumer on the same loop answers it, other tasks go on.
    people, gc, manager = manual_team()
    ticks: list[int] = []

    async def tick() -> None:
        while True:
            ticks.append(1)
            await asyncio.sleep(0.005)

    async def main() -> list[Any]:
        ticker = asyncio.create_task(tick())
        seen: list[Any] = []
        response = await people[0].a_run(manager, message="Critic, please review the plan.")
        async for event in response.events:
            if event.type == "input_request":
                seen.append(event.content.speaker_selection)
                before = len(ticks)
                await asyncio.sleep(0.05)  # the chat waits for the answer; the loop is not blocked
                assert len(ticks) > before
                await event.content.respond("critic" if len(seen) == 1 else "x")
        ticker.cancel()
        return seen

    seen = asyncio.run(main())
    assert seen[0] == EXPECTED_DATA
    assert [m["name"] for m in gc.messages] == ["planner", "critic"]
    assert manager.end_reason == ENDED_AT_KEYBOARD


def test_a_chat_stream_input_request_message_carries_the_same_data() -> None:
    from autogen_classic.messages.run_events import InputRequestMessage

    people, gc, manager = manual_team()
    seen: list[Any] = []
    for event in people[0].initiate_chat_stream(manager, message="Critic, please review the plan."):
        if isinstance(event, InputRequestMessage):
            seen.append(event.content.speaker_selection)
            event.respond("2" if len(seen) == 1 else "")
    assert seen[0] == EXPECTED_DATA and [m["name"] for m in gc.messages][:2] == ["planner", "critic"]


def test_other_input_requests_carry_no_selection() -> None:
    from autogen_classic.events.run_events import InputRequestEvent

    human = autogen.ConversableAgent("human", llm_config=False, human_input_mode="ALWAYS")
    other = agent("other")
    response = human.run(other, message="hi", max_turns=2)
    requests = []
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            requests.append(event.content.speaker_selection)
            event.content.respond("exit")
    assert requests == [None]


def test_websocket_client_gets_the_choice_as_data_before_the_prompt() -> None:
    import json

    pytest.importorskip("websockets")
    from websockets.sync.client import connect

    from autogen_classic.io import IOWebsockets

    def on_connect(iostream: Any) -> None:
        people, gc, manager = manual_team()
        people[0].initiate_chat(manager, message=iostream.websocket.recv())

    with IOWebsockets.run_server_in_thread(on_connect=on_connect, port=0) as uri, connect(uri) as ws:
        ws.send("Critic, please review the plan.")
        while True:
            text = str(ws.recv(timeout=20))
            if text.startswith('{"type":"input_request"'):
                break
        request = json.loads(text)["content"]
        assert request["speaker_selection"] == EXPECTED_DATA and str(ws.recv(timeout=20)) == PROMPT
        ws.send("critic")
        while True:
            text = str(ws.recv(timeout=20))
            if text.startswith('{"type":"input_request"'):
                break
        assert json.loads(text)["content"]["speaker_selection"]["last_speaker"] == "critic"
        assert str(ws.recv(timeout=20)) == PROMPT
        ws.send("x")


# ------------------------------------------------------------------------------------------ the rich view
RICH_PROMPT = "Next speaker (number or name; Enter or q = auto, ? = help, h = recent messages, x = end the chat): "


def test_the_rich_view_shows_descriptions_exclusions_and_the_suggestion_up_front(
    team: list[Any], console: ScriptedIOStream
) -> None:
    gc = group(team, allow_repeat_speaker=False, manual_selection_view="rich",
               messages=[{"role": "user", "name": "planner", "content": "Critic, please review the plan."}])
    console.add_inputs("zed", "critic")
    assert gc.select_speaker(team[0], None) is team[2]
    assert console.output == (
        "Please select the next speaker from the following list:\n1: coder\n2: critic\n3: cook\n"
        "Who they are:\n"
        "  1: coder - Writes the code.\n"
        "  2: critic - Reviews the code.  <- suggested\n"
        "  3: cook - Cooks dinner.\n"
        "Not eligible:\n"
        "  planner: spoke last and may not speak twice in a row (allow_repeat_speaker)\n"
        "Suggestion: critic, because the last message addresses critic by name.\n"
        + RICH_PROMPT + "zed\n"
        "No candidate matches 'zed'. Type a number between 1 and 3 or a name (? for help).\n"
        + RICH_PROMPT + "critic\n")
    record = gc.selection_log[0]
    assert record.manual is not None and (record.manual.view, record.manual.followed) == ("rich", True)
    assert attempts(gc) == [("zed", "invalid"), ("critic", "selected")]


def test_the_rich_view_keeps_the_classic_list_event(team: list[Any], console: ScriptedIOStream) -> None:
    from autogen_classic.messages.agent_messages import SelectSpeakerMessage

    gc = group(team, manual_selection_view="rich")
    console.add_inputs("1")
    gc.select_speaker(team[0], None)
    assert isinstance(console.events[0], SelectSpeakerMessage)
    assert console.events[0].content.agent_names == ["planner", "coder", "critic", "cook"]  # type: ignore[attr-defined]


def test_the_view_is_checked(team: list[Any]) -> None:
    with pytest.raises(ValueError, match=r"manual_selection_view must be 'classic' .* or 'rich' .*got str 'fancy'"):
        group(team, manual_selection_view="fancy")
    assert group(team).manual_selection_view == "classic"


def test_the_demo_uses_the_rich_view_with_manual() -> None:
    from autogen_classic.cli import build_parser
    from autogen_classic.cli.demo import build_group_chat_demo

    args = build_parser().parse_args(["demo", "--manual"])
    assert args.manual and args.manual_view == "rich"
    assert build_parser().parse_args(["demo", "--manual", "--manual-view", "classic"]).manual_view == "classic"
    demo = build_group_chat_demo({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}, manual=True)
    assert demo.groupchat.manual_selection_view == "rich"
    assert build_group_chat_demo({"model": "m", "base_url": "http://127.0.0.1:9/v1", "api_key": "k"}, manual=True,
                                 manual_view="classic").groupchat.manual_selection_view == "classic"


def test_manual_select_speaker_offers_no_x_in_its_data() -> None:
    import threading

    from autogen_classic.events.run_events import InputRequestEvent
    from autogen_classic.io.thread_io_stream import ThreadIOStream

    people, gc, _ = manual_team()
    stream = ThreadIOStream()
    chosen: list[Any] = []

    def ask() -> None:
        with autogen.IOStream.set_default(stream):
            chosen.append(gc.manual_select_speaker())

    worker = threading.Thread(target=ask)
    worker.start()
    requests = []
    while not requests:
        event = stream.input_stream.get(timeout=10)
        if isinstance(event, InputRequestEvent):
            requests.append(event.content.speaker_selection)
            event.content.respond("cod")
    worker.join(timeout=10)
    assert chosen == [people[1]]
    assert "x" not in requests[0]["commands"] and "?" in requests[0]["commands"]
    assert [c["name"] for c in requests[0]["candidates"]] == ["planner", "coder", "critic"]
