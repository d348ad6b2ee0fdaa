"""Classic tool use with injected parameters: the model never sees the library, member id or chat context."""

import json
from typing import Annotated

from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic.tools import BaseContext, ChatContext, Depends
from autogen_classic.tools.dependency_injection import on

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None}


class Library(BaseContext, BaseModel):
    name: str
    books: dict[str, int]


city_library = Library(name="City Library", books={"Dune": 2, "Emma": 0})

librarian = autogen.AssistantAgent(
    name="librarian",
    system_message="You are the librarian assistant. Use the tools. Reply TERMINATE when done.",
    llm_config=llm_config,
)
user_proxy = autogen.UserProxyAgent(
    name="user_proxy",
    human_input_mode="NEVER",
    code_execution_config=False,
    is_termination_msg=lambda msg: "TERMINATE" in (msg.get("content") or ""),
    max_consecutive_auto_reply=5,
)


@user_proxy.register_for_execution()
@librarian.register_for_llm(description="Count the available copies of a book.")
def copies_available(
    title: Annotated[str, "The book title"],
    library: Annotated[Library, Depends(city_library)],
) -> str:
    return f"{library.name} has {library.books.get(title, 0)} copies of {title}"


def borrow_book(
    title: Annotated[str, "The book title"],
    days: Annotated[int, "Loan length in days"],
    member_id: Annotated[int, Depends(on(42))],
    chat_context: ChatContext,
) -> str:
    calls = chat_context.last_message["tool_calls"]
    if city_library.books.get(title, 0) == 0:
        raise ValueError(f"{title} is not available")
    city_library.books[title] -= 1
    return f"Member {member_id} borrowed {title} for {days * 24} hours ({len(calls)} calls in this turn)"


autogen.register_function(
    borrow_book,
    caller=librarian,
    executor=user_proxy,
    description="Borrow a book for the member.",
)

result = user_proxy.initiate_chat(librarian, message="Is Dune available? Borrow Dune and Emma for 14 days.")

print("SUMMARY:", json.dumps(result.summary))
print("TOOL_SCHEMAS:", json.dumps(librarian.llm_config["tools"], sort_keys=True))
print("EXECUTABLE:", json.dumps(sorted(user_proxy.function_map)))
responses = [r for m in result.chat_history for r in m.get("tool_responses", [])]
print("TOOL_RESPONSES:", json.dumps([[r["tool_call_id"], r["content"]] for r in responses]))
print("BOOKS_LEFT:", json.dumps(city_library.books))
print("ROLES:", json.dumps([m["role"] for m in result.chat_history]))
