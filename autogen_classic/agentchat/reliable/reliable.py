"""``ReliableTool``: a function (or tool) that a runner agent calls and a validator agent checks, retried until a
result passes or the attempts run out.

The classic module path ``autogen.tools.experimental.reliable.reliable``; its records live in ``.models``, the
texts in ``.prompts``, the runner's function in ``.wrapper`` (all importable from here too).

How a run goes: a small group chat of two internal agents. The runner (``<name>_Runner``) has one tool,
``execute_<function>``, taking the function's parameters plus a ``hypothesis``. A call that raises goes back to
the runner with the error; a result goes to the validator (``<name>_Validator``), whose model answers a
``ValidationResult`` (structured output). A failed validation hands the turn back to the runner, a passed one
ends the chat. The chat has ``1 + 3 * max_tool_invocations`` rounds at most. The run's record (every attempt)
is kept in the chat's context variables; the run succeeds when its last attempt ran and passed validation.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import inspect
import logging
import warnings
from typing import Any, Callable, Optional, Union

from ...import_utils import is_coroutine_callable
from ...llm_config import LLMConfig
from ...tools.tool import Tool
from .. import initiate_group_chat
from ..agent import Agent
from ..chat import ChatResult
from ..conversable_agent import ConversableAgent
from ..group import AgentTarget, TerminateTarget
from ..group.context_variables import ContextVariables
from ..group.patterns import DefaultPattern
from .llm_configs import _configure_llm_for_structured_output, _validate_llm_config
from .models import (  # noqa: F401 - the records are importable here, as in the classic module
    ExecutionAttempt,
    ReliableToolContext,
    ReliableToolError,
    SuccessfulExecutionParameters,
    ToolExecutionDetails,
    ValidationResult,
    _get_reliable_tool_context,
    _set_reliable_tool_context,
    logger,
)
from .prompts import (  # noqa: F401 - the prompts are importable here, as in the classic module
    HYPOTHESIS_DESCRIPTION,
    _get_last_non_empty_message_content,
    get_runner_prompt,
    get_validator_prompt,
    ground_truth_messages,
    kickoff_message,
    missing_call_reminder,
    result_to_validate_message,
)
from .wrapper import reliable_function_wrapper

__all__ = ("ReliableTool", "ReliableToolError", "SuccessfulExecutionParameters", "ToolExecutionDetails")


class ReliableTool(Tool):
    """A tool whose result is checked by a model, and retried until it passes.

    Used as a tool (registered on agents) it takes one argument, ``task`` (and ``validation_prompt_addition``
    when ``enable_dynamic_validation``), runs the internal chat and returns the validated result; it can also
    be run directly with :meth:`run` / :meth:`a_run` (raise :class:`ReliableToolError` on failure) or
    :meth:`run_and_get_details` / :meth:`a_run_and_get_details` (never raise; return the run's details).

    Args:
        name: the tool's name (also the prefix of its internal agents' names).
        func_or_tool: the function, or a ``Tool``, to call reliably. Its return value is the result; a
            ``(data, text)`` tuple returns ``data`` and shows ``text`` to the validator.
        runner_llm_config: the model config of the runner, which chooses the arguments (needs tool calling).
        validator_llm_config: the model config of the validator, which judges each result (needs structured
            output: its ``response_format`` is set, its tools removed).
        description: the tool's description (default: the function's docstring, or ``"Executes the '<name>'
            function."``).
        system_message_addition_for_tool_calling: added to the runner's system message ("Base Instructions").
        system_message_addition_for_result_validation: the validation rules, added to the validator's system
            message.
        max_tool_invocations: the attempts allowed (the chat's rounds are ``1 + 3 * max_tool_invocations``).
        enable_dynamic_validation: give the tool's function a ``validation_prompt_addition`` argument, added to
            the validator's rules for that call.
        messages: messages both agents see first (earlier conversation), unless a run gives its own.
        ground_truth: facts both agents see, one message each, unless a run gives its own.

    Raises:
        ValueError: a model config is None or False.
        TypeError: ``func_or_tool`` is neither a callable nor a ``Tool`` with a callable ``func``.
    """

    INTERNAL_TOOL_NAME_PREFIX = "execute_"

    def __init__(
        self,
        name: str,
        func_or_tool: Union[Callable[..., Any], Tool],
        runner_llm_config: Union[LLMConfig, dict[str, Any]],
        validator_llm_config: Union[LLMConfig, dict[str, Any]],
        description: Optional[str] = None,
        system_message_addition_for_tool_calling: str = "",
        system_message_addition_for_result_validation: str = "",
        max_tool_invocations: int = 3,
        enable_dynamic_validation: bool = False,
        messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> None:
        self._original_func, original_name, original_description = self._extract_func_details(func_or_tool)
        self._is_original_func_async = is_coroutine_callable(self._original_func)

        self._runner_llm_config = _validate_llm_config(runner_llm_config)
        if self._runner_llm_config is False:
            raise ValueError("Runner LLM config failed validation.")
        self._validator_llm_config = _validate_llm_config(validator_llm_config)
        if self._validator_llm_config is False:
            raise ValueError("Validator LLM config failed validation.")

        self._runner_system_message_addition = system_message_addition_for_tool_calling
        self._validator_system_message_addition = system_message_addition_for_result_validation
        self.max_tool_invocations = max_tool_invocations
        # Unique per instance: two reliable tools may share one set of context variables.
        self._context_variables_key = f"{name}_ReliableToolContext_{id(self)}"
        self._original_func_name = original_name
        self.enable_dynamic_validation = enable_dynamic_validation
        self._init_messages = copy.deepcopy(messages) if messages is not None else None
        self._init_ground_truth = copy.deepcopy(ground_truth) if ground_truth else None
        self._tool_description = description if description is not None else original_description

        super().__init__(
            name=name,
            description=self._tool_description,
            func_or_tool=self._define_public_entry_point(self._is_original_func_async, enable_dynamic_validation),
        )

        self._validator_name = f"{self.name}_Validator"
        self._runner_name = f"{self.name}_Runner"
        self._validator = self._setup_validator_agent()
        self._runner = self._setup_runner_agent()
        self._reliable_func_wrapper = reliable_function_wrapper(
            self._original_func, self._validator, self._runner, self._context_variables_key
        )
        self._setup_runner_tool()
        self._register_internal_hooks()

    # ------------------------------------------------------------------ building
    def _define_public_entry_point(self, is_async: bool, enable_dynamic: bool) -> Callable[..., Any]:
        """The function behind the tool: ``task`` (and ``validation_prompt_addition``), sync or async as the
        wrapped function is."""
        if is_async:
            if enable_dynamic:

                async def async_entry_point_with_validation(
                    task: str, validation_prompt_addition: Optional[str] = None
                ) -> Any:
                    return await self.a_run(task=task, validation_prompt_addition=validation_prompt_addition)

                return async_entry_point_with_validation

            async def async_entry_point_without_validation(task: str) -> Any:
                return await self.a_run(task=task, validation_prompt_addition=None)

            return async_entry_point_without_validation
        if enable_dynamic:

            def sync_entry_point_with_validation(task: str, validation_prompt_addition: Optional[str] = None) -> Any:
                return self.run(task=task, validation_prompt_addition=validation_prompt_addition)

            return sync_entry_point_with_validation

        def sync_entry_point_without_validation(task: str) -> Any:
            return self.run(task=task, validation_prompt_addition=None)

        return sync_entry_point_without_validation

    def _extract_func_details(
        self, func_or_tool: Union[Callable[..., Any], Tool]
    ) -> tuple[Callable[..., Any], str, str]:
        """(the function, its name, its description) of a callable or a ``Tool``."""
        if isinstance(func_or_tool, Tool):
            func = getattr(func_or_tool, "func", None)
            if not callable(func):
                raise TypeError(
                    f"Tool '{func_or_tool.name}' provided but its 'func' attribute is not callable or missing."
                )
            name, description = func_or_tool.name, func_or_tool.description
            # A placeholder description says nothing to the models: the function's docstring is better.
            if not description or description in (f"Tool '{name}'.", "No description provided."):
                description = self._docstring_or_default(func, name)
            return func, name, description
        if callable(func_or_tool):
            name = getattr(func_or_tool, "__name__", "callable_function")
            return func_or_tool, name, self._docstring_or_default(func_or_tool, name)
        raise TypeError(
            "Input 'func_or_tool' must be a callable or an autogen.Tool instance with a callable 'func' attribute."
        )

    @staticmethod
    def _docstring_or_default(func: Callable[..., Any], name: str) -> str:
        doc = inspect.getdoc(func)
        return doc.strip() if doc else f"Executes the '{name}' function."

    def _setup_validator_agent(self) -> ConversableAgent:
        """The validator: asked for a ``ValidationResult``; its system message is set at each run."""
        if self._validator_llm_config is False:
            raise ValueError("Validator LLM config is False, cannot proceed.")
        config = _configure_llm_for_structured_output(copy.deepcopy(self._validator_llm_config), ValidationResult)
        return ConversableAgent(name=self._validator_name, system_message="[Validator Prompt Updated Per Run]",
                                         llm_config=config, human_input_mode="NEVER")

    def _setup_runner_agent(self) -> ConversableAgent:
        """The runner: calls the function; its system message is set at each run."""
        return ConversableAgent(name=self._runner_name, system_message="[Runner Prompt Updated Per Run]",
                                         llm_config=copy.deepcopy(self._runner_llm_config), human_input_mode="NEVER")

    @property
    def _internal_tool_name(self) -> str:
        return f"{self.INTERNAL_TOOL_NAME_PREFIX}{self._original_func_name}"

    def _setup_runner_tool(self) -> None:
        """Give the runner the wrapped function as ``execute_<function>`` (offered to its model and executed)."""
        internal_tool = Tool(name=self._internal_tool_name, description=self._tool_description,
                             func_or_tool=self._reliable_func_wrapper)
        internal_tool.register_tool(self._runner)
        logger.info("Successfully registered internal tool '%s' with runner '%s'", self._internal_tool_name,
                    self._runner.name)

    def _offer_fresh_runner_tool(self) -> None:
        """Give the runner a new ``execute_<function>`` for the run about to start.

        A group chat takes the runner's tool over with the chat's context variables bound to its
        ``context_variables`` parameter, and leaves it so. A later run with the tool left from an earlier one
        would record its attempts in that earlier run's context: each run gets a tool of its own instead.
        """
        for tool in self._runner.tools:
            self._runner.remove_tool_for_llm(tool)
        internal_tool = Tool(name=self._internal_tool_name, description=self._tool_description,
                             func_or_tool=self._reliable_func_wrapper)
        self._runner.register_for_llm(silent_override=True)(internal_tool)
        self._runner.register_for_execution(silent_override=True)(internal_tool)

    def _register_internal_hooks(self) -> None:
        self._validator.register_hook(hookable_method="process_message_before_send",
                                      hook=self._validator_structured_output_hook)
        self._validator.register_hook(hookable_method="process_all_messages_before_reply",
                                      hook=self._validator_construct_context_hook)
        self._runner.register_hook(hookable_method="process_message_before_send", hook=self._ensure_function_call_hook)

    # ------------------------------------------------------------------ the internal agents' hooks
    def _validator_structured_output_hook(
        self, sender: Agent, message: Union[dict[str, Any], str], recipient: Agent, silent: bool
    ) -> Union[dict[str, Any], str]:
        """Read the validator's verdict, record it on the latest attempt and choose who speaks next."""
        if not isinstance(message, str):
            logger.error("Validator Hook: Expected a JSON string message from LLM, but got %s. Content: %s",
                         type(message), str(message)[:200])
            raise TypeError(f"Validator hook expected str from LLM, got {type(message)}")
        verdict = ValidationResult.model_validate_json(message)
        passed = verdict.validation_result
        logger.log(logging.INFO if passed else logging.WARNING,
                   "Validator Hook: Parsed Validation - %s. Justification: %s",
                   "PASSED" if passed else "FAILED", verdict.justification)
        self._try_update_context_validation(sender, verdict)
        self._set_validator_handoff(self._validator, passed)
        return verdict.format()

    def _set_validator_handoff(self, validator_agent: ConversableAgent, validation_passed: bool) -> None:
        """After the verdict: the end of the chat when it passed, the runner again when it did not."""
        if validation_passed:
            logger.info("Validation passed, setting handoff to TerminateTarget.")
            validator_agent.handoffs.set_after_work(target=TerminateTarget())
        else:
            logger.info("Validation failed, setting handoff to runner: %s", self._runner_name)
            validator_agent.handoffs.set_after_work(target=AgentTarget(self._runner))

    def _try_update_context_validation(self, sender: Agent, validation_result: ValidationResult) -> None:
        """Record ``validation_result`` on the latest attempt of the run's context (held by ``sender``)."""
        context_variables = getattr(sender, "context_variables")
        tool_context = _get_reliable_tool_context(context_variables, self._context_variables_key)
        latest = tool_context.latest_attempt
        if not latest:
            raise RuntimeError(
                f"Validator hook: No execution attempt found in context '{self._context_variables_key}' to update "
                "validation for."
            )
        latest.validation = validation_result
        _set_reliable_tool_context(context_variables, self._context_variables_key, tool_context)
        logger.info("Validator hook: Updated validation status in context: %s",
                    "Passed" if validation_result.validation_result else "Failed")

    def _validator_construct_context_hook(self, messages: list[dict[str, Any]], **kwargs: Any) -> list[dict[str, Any]]:
        """The validator sees only the run's initial messages, its ground truth and the result to judge (the last
        non-empty message), not the runner's attempts."""
        tool_context = _get_reliable_tool_context(self._validator.context_variables, self._context_variables_key)
        initial = copy.deepcopy(tool_context.initial_messages) if tool_context.initial_messages else []
        return [
            *initial,
            *ground_truth_messages(tool_context.initial_ground_truth),
            result_to_validate_message(_get_last_non_empty_message_content(messages)),
        ]

    def _ensure_function_call_hook(
        self, sender: Agent, message: Union[dict[str, Any], str], recipient: Agent, silent: bool
    ) -> Union[dict[str, Any], str]:
        """A runner answer without a call of its function gets a reminder, and the runner speaks again."""
        if sender.name != self._runner_name:
            return message
        expected = self._internal_tool_name
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        called = isinstance(calls, list) and any(
            isinstance(call, dict) and call.get("type") == "function" and isinstance(call.get("function"), dict)
            and call["function"].get("name") == expected
            for call in calls
        )
        if called:
            return message
        if not hasattr(self._runner, "handoffs"):
            raise AttributeError(f"Runner agent '{self._runner.name}' missing 'handoffs' attribute for reminder.")
        self._runner.handoffs.set_after_work(target=AgentTarget(self._runner))
        logger.warning("Runner '%s' did not generate required tool call for '%s'. Appending reminder.",
                       self._runner_name, expected)
        content = message if isinstance(message, str) else ""
        if isinstance(message, dict):
            content = message.get("content") or ""
        return {
            "role": "assistant",
            "content": (content or "") + missing_call_reminder(expected),
            "tool_calls": [] if isinstance(message, dict) else None,
        }

    # ------------------------------------------------------------------ one run
    def _execute_internal_group_chat(
        self, task: str, initial_context_vars: ContextVariables, dynamic_validation_str: Optional[str] = None
    ) -> tuple[ChatResult, ContextVariables, Agent]:
        """Run the runner/validator chat for ``task``; (its result, its final context variables, its last agent)."""
        self._runner.update_system_message(
            get_runner_prompt(task, self._runner_system_message_addition, self._internal_tool_name))
        self._validator.update_system_message(
            get_validator_prompt(task, self._validator_system_message_addition, dynamic_validation_str))
        # The hooks read the run's context from the agents.
        self._validator.context_variables = initial_context_vars
        self._runner.context_variables = initial_context_vars
        self._offer_fresh_runner_tool()

        tool_context = _get_reliable_tool_context(initial_context_vars, self._context_variables_key)
        history = copy.deepcopy(tool_context.initial_messages) if tool_context.initial_messages else []
        history += ground_truth_messages(tool_context.initial_ground_truth)
        pattern = DefaultPattern(agents=[self._runner, self._validator], initial_agent=self._runner,
                                       context_variables=initial_context_vars)
        max_rounds = 1 + self.max_tool_invocations * 3  # a call, its execution and its validation per attempt
        logger.info("--- Starting ReliableTool '%s' Internal Chat (Max Invocations: %s) ---", self.name,
                    self.max_tool_invocations)
        last_reply, final_context_vars, last_agent = initiate_group_chat(
            pattern=pattern, messages=[*history, kickoff_message(task)], max_rounds=max_rounds)
        logger.info("--- ReliableTool '%s' Internal Chat Finished (Last Agent: %s) ---", self.name,
                    getattr(last_agent, "name", "N/A"))
        if not isinstance(final_context_vars, ContextVariables):
            raise TypeError(f"Internal chat returned invalid context_variables type: {type(final_context_vars)}")
        return last_reply, final_context_vars, last_agent

    def _prepare_tool_context(
        self,
        task: str,
        current_context_variables: ContextVariables,
        validation_prompt_addition: Optional[str] = None,
        messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> ReliableToolContext:
        """A fresh context for the run (the run's messages and ground truth, else the tool's), stored in the
        context variables."""
        tool_context = ReliableToolContext(
            task=task,
            reliable_tool_name=self.name,
            dynamic_validation_input=validation_prompt_addition,
            initial_messages=copy.deepcopy(messages) if messages is not None else self._init_messages,
            initial_ground_truth=copy.deepcopy(ground_truth) if ground_truth is not None else self._init_ground_truth,
        )
        _set_reliable_tool_context(current_context_variables, self._context_variables_key, tool_context)
        return tool_context

    def _run_chat(
        self,
        task: str,
        context_variables: ContextVariables,
        validation_prompt_addition: Optional[str],
        missing_validation: str,
    ) -> ReliableToolContext:
        """Run the chat and return the run's final context; a result left without a verdict (the chat ran out of
        rounds first) counts as failing validation, with ``missing_validation`` as the reason."""
        _, context_variables, _ = self._execute_internal_group_chat(
            task=task, initial_context_vars=context_variables, dynamic_validation_str=validation_prompt_addition)
        final_context = _get_reliable_tool_context(context_variables, self._context_variables_key)
        latest = final_context.latest_attempt
        if latest is not None and latest.did_execute_successfully and latest.validation is None:
            logger.warning("[%s]: Validation result missing after successful execution. Assuming validation failed.",
                           self.name)
            latest.validation = ValidationResult(validation_result=False, justification=missing_validation)
            _set_reliable_tool_context(context_variables, self._context_variables_key, final_context)
        return final_context

    def _process_run(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> Any:
        current = context_variables if context_variables is not None else ContextVariables()
        if not isinstance(current, ContextVariables):
            raise TypeError(f"Expected context_variables as ContextVariables or None, got {type(context_variables)}")
        self._prepare_tool_context(task, current, validation_prompt_addition, messages, ground_truth)
        final_context = self._run_chat(
            task, current, validation_prompt_addition,
            "Validation result was not recorded after successful execution. Usually due to group chat reaching "
            "maximum runs")
        if final_context.latest_attempt is None:
            raise ReliableToolError("Critical internal error: No execution attempt recorded after chat cycle.",
                                    final_context=final_context)
        if final_context.is_complete_and_successful:
            logger.info("ReliableTool '%s' succeeded.", self.name)
            return final_context.get_final_result_data()
        reason = final_context.get_failure_summary()
        logger.warning("ReliableTool '%s' failed. Reason: %s", self.name, reason)
        raise ReliableToolError(f"ReliableTool '{self.name}' failed. Last failure: {reason}",
                                final_context=final_context)

    def run(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> Any:
        """Run the task and return the validated result (what the function returned).

        Args:
            task: what the runner should achieve with the function.
            context_variables: the context variables to run in (default: new ones).
            validation_prompt_addition: extra validation rules for this run.
            messages: this run's initial messages (instead of the tool's).
            ground_truth: this run's ground truth (instead of the tool's).

        Raises:
            ReliableToolError: no attempt both ran and passed validation (``final_context`` has the attempts).
            TypeError: the wrapped function is async (use :meth:`a_run`).
        """
        if self._is_original_func_async:
            raise TypeError(f"Sync 'run()' called for async tool '{self.name}'. Use 'a_run()'.")
        return self._process_run(task, context_variables, validation_prompt_addition, messages, ground_truth)

    async def a_run(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> Any:
        """:meth:`run` without blocking the event loop (the chat runs in the loop's default executor).

        Warns (``UserWarning``) when the wrapped function is sync.
        """
        return await self._off_the_loop(
            f"Running sync function '{self._original_func_name}' wrapped by ReliableTool '{self.name}' "
            "asynchronously using 'a_run()'. The underlying execution of _process_run will be synchronous "
            "within an executor.",
            functools.partial(self._process_run, task, context_variables, validation_prompt_addition, messages,
                              ground_truth))

    async def _off_the_loop(self, sync_warning: str, process: Callable[[], Any]) -> Any:
        """Run ``process`` (a run of the internal chat, which is sync) in the event loop's default executor, after
        warning with ``sync_warning`` (``UserWarning``, pointing at the caller) when the wrapped function is sync."""
        if not self._is_original_func_async:
            warnings.warn(sync_warning, UserWarning, stacklevel=3)
        return await asyncio.get_running_loop().run_in_executor(None, process)

    # ------------------------------------------------------------------ runs that report instead of raising
    def _process_run_with_details(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> ToolExecutionDetails:
        def failure(reason: str, context: Optional[ReliableToolContext] = None, error: Optional[str] = None
                    ) -> ToolExecutionDetails:
            if context is None:
                context = ReliableToolContext(task=task, reliable_tool_name=self.name)
            if error is not None:
                context.attempts.append(ExecutionAttempt(error=error))
            return ToolExecutionDetails(task=task, is_overall_successful=False, failure_reason=reason,
                                        final_tool_context=context)

        current = context_variables if context_variables is not None else ContextVariables()
        if not isinstance(current, ContextVariables):
            reason = f"Invalid ContextVariables type: {type(context_variables)}"
            return failure(reason, error=f"Initialization error: {reason}")
        try:
            prepared = self._prepare_tool_context(task, current, validation_prompt_addition, messages, ground_truth)
        except (ValueError, TypeError) as error:
            reason = f"Error during ReliableToolContext setup: {error}"
            logger.error("[%s] %s", self.name, reason, exc_info=True)
            return failure(reason, error=f"Context setup error: {error}")

        try:
            final_context = self._run_chat(task, current, validation_prompt_addition,
                                           "Validation result was not recorded after successful execution.")
        except ReliableToolError as error:
            reason = f"ReliableTool execution failed: {error}"
            logger.warning("[%s] %s", self.name, reason)
            context = error.final_context or prepared
            return failure(reason, context, None if context.attempts else str(error))
        except Exception as error:  # noqa: BLE001 - reported in the details, never raised
            if isinstance(error, (KeyError, ValueError, TypeError)):
                reason = f"Critical error involving context after chat: {error}"
            else:
                reason = f"Unexpected error during reliable execution: {error}"
            logger.error("[%s] %s", self.name, reason, exc_info=True)
            try:
                return failure(reason, _get_reliable_tool_context(current, self._context_variables_key))
            except Exception:  # noqa: BLE001 - the context cannot be read either: keep the prepared one
                unrecorded = not prepared.attempts or prepared.attempts[-1].error is None
                return failure(reason, prepared, reason if unrecorded else None)

        latest = final_context.latest_attempt
        if final_context.is_complete_and_successful and latest is not None:
            return ToolExecutionDetails(
                task=task, is_overall_successful=True, final_tool_context=final_context,
                successful_parameters=SuccessfulExecutionParameters(attempt_args=latest.attempt_args,
                                                                    attempt_kwargs=latest.attempt_kwargs))
        # With no attempt at all, the summary says so ("No execution attempts were made.").
        return failure(final_context.get_failure_summary(), final_context)

    def run_and_get_details(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> ToolExecutionDetails:
        """Run the task and report how it went, without raising for a failed run.

        Takes the arguments of :meth:`run`. Returns a :class:`ToolExecutionDetails`: success, the failure reason,
        the arguments of the validated call, and the run's full context.

        Raises:
            TypeError: the wrapped function is async (use :meth:`a_run_and_get_details`).
        """
        if self._is_original_func_async:
            raise TypeError(
                f"Synchronous 'run_and_get_details()' called for an async tool '{self.name}'. "
                "Use 'a_run_and_get_details()' instead."
            )
        return self._process_run_with_details(task, context_variables, validation_prompt_addition, messages,
                                              ground_truth)

    async def a_run_and_get_details(
        self, task: str, context_variables: Optional[ContextVariables] = None,
        validation_prompt_addition: Optional[str] = None, messages: Optional[list[dict[str, Any]]] = None,
        ground_truth: Optional[list[str]] = None,
    ) -> ToolExecutionDetails:
        """:meth:`run_and_get_details` without blocking the event loop; even an unexpected error is reported in the
        details. Warns (``UserWarning``) when the wrapped function is sync."""
        try:
            details: ToolExecutionDetails = await self._off_the_loop(
                f"Running sync function '{self._original_func_name}' (wrapped by ReliableTool '{self.name}') "
                "asynchronously using 'a_run_and_get_details()'. The underlying execution will be synchronous "
                "within an executor.",
                functools.partial(self._process_run_with_details, task, context_variables, validation_prompt_addition,
                                  messages, ground_truth))
            return details
        except Exception as error:  # noqa: BLE001 - this method reports, it does not raise
            logger.critical("[%s] a_run_and_get_details encountered an unhandled exception from executor: %s",
                            self.name, error, exc_info=True)
            text = f"{type(error).__name__}: {error}"
            context = ReliableToolContext(task=task, reliable_tool_name=self.name)
            context.attempts.append(ExecutionAttempt(error=f"Unhandled executor/process error: {text}"))
            return ToolExecutionDetails(task=task, is_overall_successful=False,
                                        failure_reason=f"Critical unhandled exception during async execution: {text}",
                                        final_tool_context=context)
