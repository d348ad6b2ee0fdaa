"""AG2 Classic 0.14 style: bad input caught the way 0.14 code catches it (exception types and the names they carry)."""

import json

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, LLMConfig


def attempt(label, fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        print(f"{label}:", json.dumps([type(error).__name__, [c.__name__ for c in type(error).__mro__ if c.__module__ in ("builtins", "pydantic_core._pydantic_core")]]))
    else:
        print(f"{label}:", json.dumps("accepted"))


attempt("UNKNOWN_FIELD", lambda: LLMConfig({"model": "gpt-4o-mini", "api_key": "x", "colour": "blue"}))
attempt("WRONG_TYPE", lambda: LLMConfig({"model": "gpt-4o-mini", "api_key": "x"}, temperature="hot"))
attempt("UNKNOWN_API_TYPE", lambda: LLMConfig({"api_type": "nonsense", "model": "m"}))
attempt("EMPTY_CONFIG", lambda: LLMConfig())
attempt("TOP_LEVEL_UNKNOWN", lambda: LLMConfig({"model": "gpt-4o-mini", "api_key": "x"}, colour="blue"))

a = ConversableAgent("a", llm_config=False)
b = ConversableAgent("b", llm_config=False)
attempt("POLICY_WITHOUT_IS_ELIGIBLE", lambda: GroupChat(agents=[a, b], messages=[], eligibility_policies=[object()]))
attempt("DUPLICATE_NAMES", lambda: GroupChat(agents=[a, ConversableAgent("a", llm_config=False)], messages=[]))

print("ERROR_CLASSES:", json.dumps([
    issubclass(autogen.AgentNameConflictError, Exception),
    issubclass(autogen.NoEligibleSpeakerError, Exception),
    issubclass(autogen.SenderRequiredError, Exception),
    issubclass(autogen.UndefinedNextAgentError, Exception),
    issubclass(autogen.InvalidCarryOverTypeError, Exception),
]))
