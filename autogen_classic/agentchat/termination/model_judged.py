"""``ModelJudgedTermination``: a model reads the chat and says whether its task is complete."""

from __future__ import annotations

import asyncio
import inspect
import re
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ...oai.client import OpenAIWrapper
from .base import StopMessage, TerminationCondition, TerminationContext
from .reading import message_source, render_transcript, shorten
from .text import check_sources

__all__ = ["DEFAULT_JUDGE_PROMPT", "ModelJudgedTermination", "parse_verdict"]

DEFAULT_JUDGE_PROMPT = (
    "Below is a conversation between agents working on a task.\n\n"
    "{history}\n\n"
    "Is the task given at the start of the conversation now complete? Answer with only one word: yes or no."
)

_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_YES = frozenset({"yes", "true"})
_NO = frozenset({"no", "not", "false"})


def parse_verdict(answer: Any) -> Optional[bool]:
    """True for a yes, False for a no, None for an unclear answer.

    Reasoning in ``<think>...</think>`` and markdown are ignored; the first word decides when it is a yes or
    a no ("Yes.", "**No**, ..."), otherwise the answer must hold only yes-words or only no-words
    ("Answer: yes").
    """
    if not isinstance(answer, str):
        return None
    cleaned = _THINKING.sub(" ", answer).strip().lower()
    if cleaned in ("y", "n"):
        return cleaned == "y"
    words = re.findall(r"[a-z]+", cleaned)
    if not words:
        return None
    if words[0] in _YES or words[0] in _NO:
        return words[0] in _YES
    verdicts = {word in _YES for word in words if word in _YES or word in _NO}
    return verdicts.pop() if len(verdicts) == 1 else None


def _agent_names(agents: Any) -> Any:
    """Agents given as objects become their names (anything else is left for ``check_sources`` to judge)."""
    if isinstance(agents, (list, tuple, set, frozenset)):
        return [getattr(a, "name", a) if not isinstance(a, str) else a for a in agents]
    return agents


class ModelJudgedTermination(TerminationCondition):
    """Fires when a model, shown the chat, answers that the task is complete.

    The model client (``OpenAIWrapper(**llm_config)``) is built at first use and reused; its usage belongs
    to the chat (``usage_clients``). The model sees ``context.messages`` (else the messages this condition
    has checked so far) as a plain-text transcript. A yes ends the chat; a no or an unclear answer does not.
    A failing model call raises (the chat stops with the error rather than run on unjudged).

    Args:
        llm_config: the model configuration, as an agent's (``{"config_list": [...], ...}``).
        prompt: the question; ``{history}`` in it is replaced by the transcript (one user message); a prompt
            without ``{history}`` is sent as the system message, followed by the transcript.
        agents: only ask after one of these agents (names, or the agents) spoke; None: after every message.
        max_history: show the model only the last this-many messages; None: all.
    """

    def __init__(self, llm_config: dict[str, Any], prompt: str = DEFAULT_JUDGE_PROMPT,
                 agents: Optional[Sequence[str]] = None, max_history: Optional[int] = None) -> None:
        super().__init__()
        if not isinstance(llm_config, Mapping) or not llm_config:
            raise TypeError(f"ModelJudgedTermination needs a model: llm_config must be a non-empty dict such as "
                            f"{{'config_list': [{{'model': ..., 'api_key': ...}}]}}; got {shorten(llm_config)}.")
        if not isinstance(prompt, str) or not prompt.strip():
            raise TypeError(f"ModelJudgedTermination: prompt must be a non-empty str (the question for the model, "
                            f"with {{history}} where the chat goes); got {shorten(prompt)}.")
        if max_history is not None and (isinstance(max_history, bool) or not isinstance(max_history, int)
                                        or max_history < 1):
            raise ValueError(f"ModelJudgedTermination: max_history must be an int >= 1 (the last messages shown) or "
                             f"None (all); got {shorten(max_history)}.")
        self.llm_config = dict(llm_config)
        self.prompt = prompt
        self.agents = check_sources(_agent_names(agents), "ModelJudgedTermination(agents=...)")
        self.max_history = max_history
        self.last_answer: Optional[str] = None
        """The model's last answer (None before the first question)."""
        self._seen: list[dict[str, Any]] = []
        self._client: Optional[OpenAIWrapper] = None
        self._client_lock = threading.Lock()

    # ----------------------------------------------------------------- the client
    @property
    def client(self) -> OpenAIWrapper:
        """The model client, built from ``llm_config`` at first use."""
        with self._client_lock:
            if self._client is None:
                self._client = OpenAIWrapper(**self.llm_config)
            return self._client

    @property
    def usage_clients(self) -> list[Any]:
        return [self.client]

    def _describe_args(self) -> str:
        return "" if self.agents is None else f"agents={list(self.agents)!r}"

    def _reset_state(self) -> None:
        self._seen = []
        self.last_answer = None

    # ----------------------------------------------------------------- deciding
    def _trigger(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
                 ) -> tuple[bool, Optional[str]]:
        """Whether to ask the model now, and the speaker that made it ask."""
        self._seen.extend(messages)
        speakers = [message_source(m, context, i == len(messages) - 1) for i, m in enumerate(messages)]
        if self.agents is None:
            return bool(messages), (speakers[-1] if speakers else None)
        chosen = [s for s in speakers if s in self.agents]
        return bool(chosen), (chosen[-1] if chosen else None)

    def _request(self, context: Optional[TerminationContext]) -> list[dict[str, Any]]:
        history = list(context.messages) if context is not None and context.messages else self._seen
        if self.max_history is not None:
            history = history[-self.max_history:]
        transcript = render_transcript(history)
        if "{history}" in self.prompt:
            return [{"role": "user", "content": self.prompt.replace("{history}", transcript)}]
        return [{"role": "system", "content": self.prompt}, {"role": "user", "content": transcript}]

    def _decide(self, response: Any, speaker: Optional[str]) -> Optional[StopMessage]:
        answers = OpenAIWrapper.extract_text_or_completion_object(response)
        answer = answers[0] if answers and isinstance(answers[0], str) else None
        self.last_answer = answer
        if parse_verdict(answer) is not True:
            return None
        return StopMessage(content="The model judged the task complete", source=type(self).__name__,
                           details={"answer": (answer or "").strip()[:200], "speaker": speaker})

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        ask, speaker = self._trigger(messages, context)
        if not ask:
            return None
        return self._decide(self.client.create(messages=self._request(context)), speaker)

    async def _a_evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
                          ) -> Optional[StopMessage]:
        ask, speaker = self._trigger(messages, context)
        if not ask:
            return None
        client, request = self.client, self._request(context)
        a_create = getattr(client, "a_create", None)
        if a_create is not None and inspect.iscoroutinefunction(a_create):
            response = await a_create(messages=request)
        else:  # a client without an async create: its sync create in a worker thread
            response = await asyncio.to_thread(client.create, messages=request)
        return self._decide(response, speaker)
