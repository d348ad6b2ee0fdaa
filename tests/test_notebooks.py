"""The notebooks run top to bottom without errors and show what they promise.

Each notebook is executed with nbclient on a python3 kernel of this interpreter, in an empty
working directory and without OAI_CONFIG_LIST / OPENAI_API_KEY, so the quick start uses the
embedded model and nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

pytestmark = pytest.mark.timeout(240)


class _ThisInterpreter(KernelSpecManager):
    """Always the ipykernel of the interpreter running the tests, whatever kernelspecs are installed."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name="Python 3",
            language="python",
        )


def _execute(name: str, workdir: Path, cell_timeout: int = 180) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    manager = KernelManager(kernel_name="python3", kernel_spec_manager=_ThisInterpreter())
    client = NotebookClient(notebook, km=manager, timeout=cell_timeout, resources={"metadata": {"path": str(workdir)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    return notebook


def _outputs(notebook: nbformat.NotebookNode) -> list[dict[str, Any]]:
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def _text(notebook: nbformat.NotebookNode) -> str:
    parts = []
    for output in _outputs(notebook):
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(output.data.get("text/plain", ""))
    return re.sub(r"\x1b\[[0-9;]*m", "", "".join(parts))


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No remote model configuration reaches the kernel; it runs in an empty directory."""
    monkeypatch.delenv("OAI_CONFIG_LIST", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    return tmp_path


def test_every_notebook_is_tested() -> None:
    names = sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb"))
    assert names == [
        "01_quick_start", "02_transition_graphs", "03_manual_selection", "04_custom_selection", "05_save_and_resume",
        "06_customer_service_swarm", "07_group_patterns",
    ]


def test_quick_start(offline: Path) -> None:
    notebook = _execute("01_quick_start", offline)
    text = _text(notebook)
    assert "model: smollm2-135m-instruct" in text
    assert "messages: 2" in text
    assert "end reason: max_round (3) reached." in text
    # After the user the graph allows the poet or the critic (the model chooses); each then has one successor.
    assert re.search(r"speakers: \['user', '(poet', 'critic|critic', 'poet)'\]", text)
    assert "2 selection(s), 1 question(s) to the selector" in text


def test_transition_graphs(offline: Path) -> None:
    notebook = _execute("02_transition_graphs", offline)
    text = _text(notebook)
    assert "150 chats," in text
    assert "transitions outside the graph: 0" in text
    # Round robin is deterministic: the same five-message path in all 25 chats.
    assert re.search(r"^allowed\s+round_robin\s+25\s+5\s+25\s+0\s+0\s+0$", text, re.MULTILINE)
    assert re.search(r"^coder\s+critic\s+yes\s+\d+$", text, re.MULTILINE)
    # The conditional edge: no chat reaches the user before the coder spoke twice; the trace says why.
    assert re.search(r"^conditional\s+25\s+[\d.]+\s+\d+\s+2$", text, re.MULTILINE)
    assert re.search(r"^critic -> user \[after 2 code turns\]\s+\d+\s+[1-9]\d*$", text, re.MULTILINE)
    assert "condition critic -> user [after 2 code turns]: returned True, user allowed" in text
    pictures = [o for o in _outputs(notebook) if "image/png" in o.get("data", {})]
    # Three graphs, transitions, speaking frequency, chat lengths, and mean rounds from the DataFrame.
    assert len(pictures) == 7
    # The studies show a progress bar: a notebook widget per run_group_chats call (progress=True for the
    # six of the main study; the three later calls leave progress=None, which in a notebook shows it too).
    widgets = [o for o in _outputs(notebook) if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) == 9
    # A widget's text form is its first state: a bar over the 25 chats of one call.
    assert re.search(r"chats:\s+0%\|.*\| 0/25", text)
    # The DataFrame's table: mean rounds per graph (rows) and method (columns); round robin takes 5.
    assert re.search(r"^method\s+auto\s+random\s+round_robin$", text, re.MULTILINE)
    assert re.search(r"^allowed\s+[\d.]+\s+[\d.]+\s+5\.0$", text, re.MULTILINE)


def test_manual_selection(offline: Path) -> None:
    text = _text(_execute("03_manual_selection", offline))
    assert "Invalid input. Please enter a number between 1 and 4." in text
    assert "2: after coder    typed ['']         -> critic" in text
    assert "Please select the next speaker from the following list:\n1: coder\n2: critic\n" in text
    assert "speakers: ['user', 'planner', 'critic']" in text
    # Names, a start of a name, an ambiguous start, ?, h and x.
    assert "'c' matches several candidates: coder, critic. Type more of the name, or its number." in text
    assert "The last 3 of 3 messages:\n  [1] user: Critic, is the plan sound?" in text
    assert "end reason: The person at the keyboard ended the chat (x at the speaker selection prompt)." in text
    assert "0: suggested critic   picked planner  by prefix  followed=False commands=[] ended=False" in text
    assert "replay: ['planner', 'critic']" in text
    # The rich view, and the buttons built from the input request's data, answered by clicks.
    assert "Not eligible:\n  planner: spoke last and may not speak twice in a row (allow_repeat_speaker)" in text
    assert "buttons: ['planner', 'coder', 'critic', 'Auto', 'End the chat']" in text
    assert "suggestion: {'name': 'planner', 'rule': 'addressed'" in text
    assert "speakers: ['user', 'planner', 'coder', 'critic', 'user']" in text


def test_custom_selection(offline: Path) -> None:
    text = _text(_execute("04_custom_selection", offline))
    assert "speakers: user > planner > coder > critic > user" in text
    assert re.search(r"^\s+policy:CooldownPolicy\s+user, coder, critic$", text, re.MULTILINE)
    assert "end reason: No eligible agents after applying eligibility policies. Checked 4 candidates: " in text
    assert ("No eligible speaker: the eligibility policies excluded every candidate (user, planner, "
            "coder, critic): TurnBudgetPolicy removed planner, coder, critic; DenyListPolicy removed user.") in text
    assert re.search(r"^0\s+choose_then_random\s+\d+\s+user > planner > coder > critic", text, re.MULTILINE)
    # Termination conditions and stepping.
    assert "fired: AndTerminationCondition - 'critic' answered; Maximum number of messages 5 reached" in text
    assert "step: planner: 'Plan: 1. write the function 2. test it.'" in text
    assert "invoked: critic - complete yet? False" in text
    assert "stopped by: TextMentionTermination - complete: True" in text
    assert "GroupChatComplete: The group chat is complete: Text 'TERMINATE' mentioned. Call groupchat.reset()" in text


def test_save_and_resume(offline: Path) -> None:
    notebook = _execute("05_save_and_resume", offline)
    text = _text(notebook)
    assert "4 messages saved," in text
    assert "last message now: 'Thanks, that answers my question. '" in text
    assert "speakers: planner > coder > critic > user > planner > coder > critic > user" in text
    assert "ValueError: message_string must be a JSON list of message objects; got dict." in text
    # Forking: the record kept up to round 1, then the critic (round robin then reaches the user, who ends it).
    assert "recorded: planner > coder > critic > user\nfork at round 1, critic speaks: planner > critic > user\n" in text
    assert "first message kept: True | end reason: user sent a termination message." in text
    assert "fork at round 1, the coder writes a bug: 'def add(a, b):\\n    return a - b' by coder" in text
    # The sweep: every agent at every round; the user ends the chat at once, the planner starts a new lap.
    sweep = re.findall(r"^at_round=(\d) speaker=(\w+)\s+rounds=(\d+)  ended by user$", text, re.MULTILINE)
    assert len(sweep) == 12
    lengths = {(int(k), name): int(rounds) for k, name, rounds in sweep}
    assert [lengths[(1, n)] for n in ("user", "planner", "coder", "critic")] == [2, 5, 4, 3]
    assert all(lengths[(k + 1, n)] == lengths[(k, n)] + 1 for k in (1, 2) for n in ("user", "planner"))
    assert len([o for o in _outputs(notebook) if "image/png" in o.get("data", {})]) == 1
    # The same sweep as a study of GroupChatFork chats, two at once: the same records.
    assert "a study of the same forks, two at once: same labels: True | same rounds: True" in text


def test_customer_service_swarm(offline: Path) -> None:
    text = _text(_execute("06_customer_service_swarm", offline))
    scripted, embedded = text.split("embedded model: ")
    # Part 1, a purchase: triage hands off to sales, whose execute_order fills in the order.
    assert "triage: calls transfer_triage_to_sales()" in scripted
    assert "sales: calls execute_order(product='ACME Rocket Skates', price=9999)" in scripted
    assert " 2  Tool_Execution -> sales: handoff: triage -> sales, transfer_triage_to_sales\n" in scripted
    assert "handoffs: triage -> sales\nend reason: customer gave no reply.\nlast agent: sales\n" in scripted
    assert "The customer is Wile E. Coyote." in scripted  # the UPDATE_SYSTEM_MESSAGE template, rendered
    # Part 1, a refund, then the manager: two hand-offs in a row reach the human agent, who types the reply.
    assert ("handoffs: triage -> issues_and_repairs | issues_and_repairs -> triage | triage -> human_agent\n"
            "end reason: customer gave no reply.\nlast agent: human_agent\n") in scripted
    back_to_triage = "12  Tool_Execution -> triage: handoff: issues_and_repairs -> triage, "
    assert back_to_triage + "transfer_issues_and_repairs_to_triage\n" in scripted
    assert "human_agent: Hello, this is the manager. Your next anvil is on us." in scripted
    assert ("context variables:\n  customer_name: Wile E. Coyote\n  order: {'product': 'ACME Rocket Skates', "
            "'price': 9999}\n  item_id: item_132612938\n  refund: {'item_id': 'item_132612938', "
            "'reason': 'arrived broken'}\n") in scripted
    assert "Replying as human_agent. Provide feedback to chat_manager." in scripted
    # Part 2 (the model chooses): only the structure. triage must call a transfer, so one hand-off from it.
    assert embedded.startswith("smollm2-135m-instruct\n")
    assert " 0  customer -> triage: swarm: the initial agent triage\n" in embedded
    assert re.search(r"handoff: triage -> (sales|issues_and_repairs|human_agent), transfer_triage_to_\1\n", embedded)
    assert re.search(r"^handoffs: triage -> \w+", embedded, re.MULTILINE)
    assert re.search(r"^end reason: .+\nlast agent: \w+\ncontext variables:\n  customer_name: Wile E. Coyote$",
                     embedded, re.MULTILINE)


# The 20 routing runs on the embedded model take well under a minute on an idle machine; the limits leave room for
# a machine shared with other work.
@pytest.mark.timeout(600)
def test_group_patterns(offline: Path) -> None:
    text = _text(_execute("07_group_patterns", offline, cell_timeout=480))
    scripted, embedded = text.split("embedded model: ")
    # Part 1: every kind of handoff, in the messages ...
    assert (
        "            customer: The app crashes when I open the settings page.\n"
        "              triage: calls transfer_to_tech_1()\n"
        "_Group_Tool_Executor: Transfer to tech\n"
        "                tech: Please update the app to version 2.1; that fixes the crash.\n"
        "            customer: Updated, it works. But I was charged twice in March. My PIN is 1234.\n"
        "                tech: Refunds are decided by billing: passing you on.\n"
        "Justification: Match found -> refund\n"
        "             billing: calls log_in(pin='1234')\n"
        "_Group_Tool_Executor: Wrong PIN (attempt 1).\n"
        "            customer: Sorry, it is 4321.\n"
        "             billing: calls log_in(pin='4321')\n"
        "_Group_Tool_Executor: Logged in as account 42.\n"
        "             billing: [Handing off to refunds]\n"
        "             refunds: I found two charges of $9.99 on March 3 and refunded one.\n"
    ) in scripted
    # ... in what the console printed, as AG2 Classic 0.14 prints it ...
    assert (
        "***** LLM-based OnCondition handoff (triage): tech *****\n"
        "***** AfterWork handoff (tech): Revert to User *****\n"
        "***** ReplyResult transition (billing): Revert to User *****\n"
        "***** OnContextCondition handoff (billing): refunds *****\n"
        "***** AfterWork handoff (refunds): Revert to User *****\n"
    ) in scripted
    # ... and in the selection trace, with what moved each turn.
    moves = [line.strip() for line in scripted.splitlines() if line.startswith("    handoff ")]
    assert moves[:13] == [
        "handoff initial_agent -> triage via the pattern's initial_agent",
        "handoff tool_call triage -> _Group_Tool_Executor via transfer_to_tech_1",
        "handoff llm_condition triage -> tech via transfer_to_tech_1",
        "handoff after_work tech -> Revert to User via after work (always) (customer)",
        "handoff user_return customer -> tech via the user answered",
        "handoff guardrail tech -> billing via no_refund_promises",
        "handoff tool_call billing -> _Group_Tool_Executor via log_in",
        "handoff reply_result billing -> Revert to User via the ReplyResult of log_in (customer)",
        "handoff user_return customer -> billing via the user answered",
        "handoff tool_call billing -> _Group_Tool_Executor via log_in",
        "handoff tool_return _Group_Tool_Executor -> billing via its tool calls ran",
        "handoff context_condition billing -> refunds via ${logged_in} and ${attempts} < 3",
        "handoff after_work refunds -> Revert to User via after work (always) (customer)",
    ]
    assert re.search(r"^11\s+billing\s+-\s+refunds\s+0\s+0$", scripted, re.MULTILINE)
    assert ("13 selection(s), 0 question(s) to the selector\nend reason: customer gave no reply.\n"
            "last agent: refunds\ncontext variables: {'logged_in': True, 'attempts': 2}\n") in scripted
    # run_group_chat: the events of a transfer to sales, the customer's exit, and the results.
    assert (
        "TextEvent\nGroupChatRunChatEvent\nUsingAutoReplyEvent\nToolCallEvent\nGroupChatRunChatEvent\n"
        "ExecuteFunctionEvent\nExecutedFunctionEvent\nOnConditionLLMTransitionEvent\nToolResponseEvent\n"
        "GroupChatRunChatEvent\nUsingAutoReplyEvent\nTextEvent\nAfterWorksTransitionEvent\nGroupChatRunChatEvent\n"
        "InputRequestEvent\nTerminationEvent\nTerminationEvent\nRunCompletionEvent\n"
        "summary: The team plan is $8 per user per month.\nlast speaker: sales\n"
        "context variables: {'logged_in': False, 'attempts': 0}\n"
    ) in scripted

    # Part 2 (the model chooses): only the structure.
    assert embedded.startswith("smollm2-135m-instruct\n")
    assert "    handoff initial_agent -> triage via the pattern's initial_agent\n" in embedded
    assert re.search(r"^    handoff llm_condition triage -> (tech|billing|sales) via transfer_to_\1_[123]$", embedded,
                     re.MULTILINE)
    rows = re.findall(r"^\s*(tech|billing|sales) -> (tech|billing|sales|\(none\))\s+(right|wrong)\s+(\S+)\s+.+$",
                      embedded, re.MULTILINE)
    assert len(rows) == 20
    assert all((expected == reached) == (verdict == "right") for expected, reached, verdict, _ in rows)
    assert [expected for expected, *_ in rows] == ["tech"] * 7 + ["billing"] * 7 + ["sales"] * 6
    assert "runs: 20\n" in embedded
    counted = re.search(r"^routed right: (\d+) of 20 \(rate ([\d.]+)\)$", embedded, re.MULTILINE)
    assert counted is not None
    right, rate = int(counted.group(1)), float(counted.group(2))
    assert right == sum(verdict == "right" for *_, verdict, _ in rows) and 0.0 <= rate <= 1.0
    assert rate == round(right / 20, 2)
    # Each of the 20 traces names the pattern's initial agent and triage's (required) transfer call.
    assert "handoff kinds in the traces: initial_agent 20, tool_call 20\n" in embedded
