"""Classic code execution API: ``autogen.coding``, ``autogen.code_utils`` and ``autogen.types``.

Expected values (decisions, messages, stubs, prompts, outputs) were observed on the
reference (ag2 0.7.3) with the same calls.
"""

# No "from __future__ import annotations": the stubs show the annotations as written.
import importlib.util
import inspect
import os
import subprocess
import sys
import venv
import warnings
from pathlib import Path
from typing import Any, Optional

import pytest

import autogen_classic as autogen
from autogen_classic import code_utils
from autogen_classic.code_utils import (
    DEFAULT_TIMEOUT,
    SENTINEL,
    check_can_use_docker_or_throw,
    content_str,
    create_virtual_env,
    decide_use_docker,
    execute_code,
    get_powershell_command,
    in_docker_container,
    timeout_handler,
)
from autogen_classic.coding import (
    CodeBlock,
    CodeExecutor,
    CodeExecutorFactory,
    CodeExtractor,
    CodeResult,
    LocalCommandLineCodeExecutor,
    MarkdownCodeExtractor,
)
from autogen_classic.coding.base import CommandLineCodeResult, IPythonCodeResult
from autogen_classic.coding.func_with_reqs import (
    Alias,
    FunctionWithRequirements,
    FunctionWithRequirementsStr,
    ImportFromModule,
    to_stub,
    with_requirements,
)
from autogen_classic.coding.local_commandline_code_executor import CommandlineCodeResult, LocalCommandlineCodeExecutor
from autogen_classic.coding.utils import filename_patterns, silence_pip
from autogen_classic.exception_utils import InvalidArgumentError
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer
from autogen_classic.types import UserMessageImageContentPart, UserMessageTextContentPart

DOCKER_NOT_RUNNING = (
    "Code execution is set to be run in docker (default behaviour) but docker is not running.\n"
    "The options available are:\n"
    "- Make sure docker is running (advised approach for code execution)\n"
    '- Set "use_docker": False in code_execution_config\n'
    '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables'
)


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set whether this process is inside a container and whether a Docker engine answers."""
    monkeypatch.delenv("AUTOGEN_USE_DOCKER", raising=False)

    def set_world(inside_container: bool, engine: bool = False, env: Optional[str] = None) -> None:
        # Replaced on code_utils, as classic tests do; the decision code must see it.
        monkeypatch.setattr(code_utils, "in_docker_container", lambda: inside_container)
        monkeypatch.setattr(code_utils, "is_docker_running", lambda: engine)
        if env is None:
            monkeypatch.delenv("AUTOGEN_USE_DOCKER", raising=False)
        else:
            monkeypatch.setenv("AUTOGEN_USE_DOCKER", env)

    return set_world


# --------------------------------------------------------------------------- the Docker decision

# What AUTOGEN_USE_DOCKER gives when use_docker is left unset (None: variable unset).
ENV_DECISION: dict[Optional[str], Any] = {
    None: True,
    "True": True,
    "TRUE": True,
    "t": True,
    "1": True,
    "yes": True,
    "False": False,
    "f": False,
    "0": False,
    "no": False,
    "None": None,
    "garbage": "invalid",
}
USE_DOCKER_VALUES: list[Any] = [SENTINEL, None, True, False, "python:3-slim", ["python:3", "python:3-slim"]]


@pytest.mark.parametrize("inside", [True, False], ids=["in-container", "on-host"])
@pytest.mark.parametrize("env", list(ENV_DECISION), ids=lambda e: f"env={e}")
@pytest.mark.parametrize("use_docker", USE_DOCKER_VALUES, ids=lambda v: "unset" if v is SENTINEL else repr(v))
def test_execute_code_docker_decision_without_engine(
    world: Any, tmp_path: Path, inside: bool, env: Optional[str], use_docker: Any
) -> None:
    world(inside_container=inside, engine=False, env=env)
    kwargs = {} if use_docker is SENTINEL else {"use_docker": use_docker}
    decided = ENV_DECISION[env] if use_docker is SENTINEL else use_docker
    if decided == "invalid":
        with pytest.raises(ValueError) as err:
            execute_code("print(1)", work_dir=str(tmp_path), **kwargs)
        assert str(err.value) == (
            "Invalid value for AUTOGEN_USE_DOCKER: garbage. "
            'Please set AUTOGEN_USE_DOCKER to "1/True/yes", "0/False/no", or "None".'
        )
    elif decided and not inside:
        with pytest.raises(RuntimeError) as err:
            execute_code("print(1)", work_dir=str(tmp_path), **kwargs)
        assert str(err.value) == DOCKER_NOT_RUNNING
    else:
        # Inside a container, code asked to run in Docker runs right here.
        assert execute_code("print(1)", work_dir=str(tmp_path), **kwargs) == (0, "1\n", None)


def test_decide_and_check_functions(world: Any) -> None:
    world(inside_container=False, env="no")
    assert decide_use_docker(None) is False
    assert decide_use_docker("img") == "img" and decide_use_docker(True) is True
    world(inside_container=False, env="None")
    assert decide_use_docker(None) is None
    for quiet in (None, False, 0, ""):
        assert check_can_use_docker_or_throw(quiet) is None
    with pytest.raises(RuntimeError) as err:
        check_can_use_docker_or_throw(True)
    assert str(err.value) == DOCKER_NOT_RUNNING
    world(inside_container=True)
    assert check_can_use_docker_or_throw(["python:3"]) is None
    world(inside_container=False, engine=True)
    assert check_can_use_docker_or_throw(True) is None  # an engine answers: Docker is usable


def test_engine_present_on_host_runs_in_docker_or_explains(
    world: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The probe says an engine answers, but the SDK's address has none: a clear error naming it.
    world(inside_container=False, engine=True)
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/autogen-classic-test.sock")
    if importlib.util.find_spec("docker") is None:
        with pytest.raises(ImportError, match=r'pip install "autogen-classic\[docker\]"'):
            autogen.UserProxyAgent("u", code_execution_config={"work_dir": str(tmp_path)})
    else:
        proxy = autogen.UserProxyAgent("u", code_execution_config={"work_dir": str(tmp_path)})
        assert proxy.use_docker is True
        with pytest.raises(RuntimeError) as err:  # also a docker.errors.DockerException
            execute_code("print(1)", work_dir=str(tmp_path), use_docker=True)
        text = str(err.value)
        assert "DOCKER_HOST=unix:///nonexistent/autogen-classic-test.sock" in text
        assert "Start Docker" in text and '"use_docker": False' in text
    # Inside a container the classic package runs the code here even when an engine answers.
    world(inside_container=True, engine=True)
    assert execute_code("print(2)", work_dir=str(tmp_path), use_docker=True) == (0, "2\n", None)


def test_in_docker_container_reads_dockerenv(monkeypatch: pytest.MonkeyPatch) -> None:
    real_exists = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: True if p == "/.dockerenv" else real_exists(p))
    assert in_docker_container() is True
    monkeypatch.setattr(os.path, "exists", lambda p: False if p == "/.dockerenv" else real_exists(p))
    assert in_docker_container() is False


@pytest.mark.parametrize("env", [None, "1", "yes"])
def test_agent_default_config_in_container_runs_locally(world: Any, tmp_path: Path, env: Optional[str]) -> None:
    world(inside_container=True, env=env)
    proxy = autogen.UserProxyAgent("u", human_input_mode="NEVER", code_execution_config={"work_dir": str(tmp_path)})
    assert proxy.use_docker is True
    assert proxy.execute_code_blocks([("python", "print(6 * 7)")]) == (0, "\n42\n")


def test_agent_default_config_on_host_without_engine(world: Any, tmp_path: Path) -> None:
    world(inside_container=False)
    with pytest.raises(RuntimeError) as err:
        autogen.UserProxyAgent("u", code_execution_config={"work_dir": str(tmp_path)})
    assert str(err.value) == DOCKER_NOT_RUNNING
    world(inside_container=False, env="0")
    assert autogen.UserProxyAgent("u", code_execution_config={"work_dir": str(tmp_path)}).use_docker is False


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"use_docker": 0}, (0, "\n1\n")),
        ({"use_docker": 1.5}, (0, "\n1\n")),  # truthy, but inside a container: runs here
        ({"use_docker": False, "timeout": 0}, (0, "\n1\n")),  # 0 means the default timeout
        ({"use_docker": False, "timeout": -1}, (1, "\nTimeout")),
    ],
)
def test_classic_config_values_are_accepted(world: Any, tmp_path: Path, config: dict[str, Any], expected: Any) -> None:
    world(inside_container=True)
    proxy = autogen.UserProxyAgent(
        "u", human_input_mode="NEVER", code_execution_config={"work_dir": str(tmp_path), **config}
    )
    assert proxy.execute_code_blocks([("python", "print(1)")]) == expected


def test_chat_with_classic_default_config_in_container(
    world: Any, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    world(inside_container=True)
    scripted_server.add_replies("```python\nprint('local', 6*7)\n```", "TERMINATE")
    alice = autogen.AssistantAgent("alice", llm_config=scripted_server.llm_config())
    bob = autogen.UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config={"work_dir": str(tmp_path)})
    result = bob.initiate_chat(alice, message="go", silent=True)
    assert [m["content"] for m in result.chat_history] == [
        "go",
        "```python\nprint('local', 6*7)\n```",
        "exitcode: 0 (execution succeeded)\nCode output: \nlocal 42\n",
        "TERMINATE",
    ]


# --------------------------------------------------------------------------- execute_code


def test_execute_code_without_code_or_filename() -> None:
    with pytest.raises(InvalidArgumentError) as err:
        execute_code(None, None)
    assert isinstance(err.value, AssertionError) and isinstance(err.value, ValueError)
    assert str(err.value).startswith("Either code=None or filename=None must be provided")


def test_execute_code_timeout_zero_means_default(tmp_path: Path) -> None:
    assert DEFAULT_TIMEOUT == 600
    assert execute_code("print('ok')", timeout=0, work_dir=str(tmp_path), use_docker=False) == (0, "ok\n", None)


def test_timeout_handler_and_powershell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(TimeoutError, match="Timed out!"):
        timeout_handler(14, None)
    monkeypatch.setenv("PATH", str(tmp_path))  # neither powershell nor pwsh
    with pytest.raises(FileNotFoundError, match="Please install PowerShell"):
        get_powershell_command()


# --------------------------------------------------------------------------- virtual environments


def _make_venv(where: str) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", where], check=True)


def test_relative_virtual_env_and_work_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _make_venv(".venv-exec")
    context = venv.EnvBuilder().ensure_directories(".venv-exec")
    executor = LocalCommandLineCodeExecutor(virtual_env_context=context, work_dir="coding")
    assert executor.work_dir == Path("coding")
    blocks = [
        CodeBlock(code="import sys\nprint(sys.prefix)", language="python"),
        CodeBlock(code="command -v python", language="sh"),
    ]
    env_dir = os.path.realpath(tmp_path / ".venv-exec")
    expected = f"{env_dir}\n{env_dir}/bin/python\n"
    result = executor.execute_code_blocks(blocks)
    assert (result.exit_code, result.output) == (0, expected)
    assert Path(result.code_file).parent == tmp_path.resolve() / "coding"  # type: ignore[arg-type]
    assert not os.path.isabs(context.env_exe)  # the caller's context is left as it was
    # The environment was pinned at construction; the relative work_dir follows the current directory.
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = executor.execute_code_blocks(blocks)
    assert (result.exit_code, result.output) == (0, expected)
    assert Path(result.code_file).parent == tmp_path.resolve() / "elsewhere" / "coding"  # type: ignore[arg-type]


def test_create_virtual_env(tmp_path: Path) -> None:
    context = create_virtual_env(str(tmp_path / "env"), with_pip=False)
    assert Path(context.env_exe).exists() and Path(context.bin_path).is_dir()
    executor = LocalCommandLineCodeExecutor(virtual_env_context=context, work_dir=tmp_path / "wd")
    result = executor.execute_code_blocks([CodeBlock(code="import sys\nprint(sys.prefix)", language="python")])
    assert os.path.realpath(result.output.strip()) == os.path.realpath(tmp_path / "env")


# --------------------------------------------------------------------------- functions for executed code


def add_two_numbers(a: int, b: int) -> int:
    """Add two numbers together."""
    return a + b


@with_requirements(
    python_packages=[],
    global_imports=["math", ImportFromModule("os", ["path", Alias("sep", "SEP")]), Alias("json", "js")],
)
def circle(r: float = 1.0) -> float:
    """Area.

    Args:
        r: radius
    """
    return math.pi * r * r + len(js.dumps({})) * 0  # type: ignore[name-defined]  # noqa: F821


MUL = FunctionWithRequirementsStr("def mul(a, b):\n    '''multiply'''\n    return a*b\n", global_imports=["sys"])

CIRCLE_STUB = (
    'def circle(r: float = 1.0) -> float:\n    """Area.\n\n        Args:\n            r: radius\n    """\n    ...'
)


def test_stubs_and_prompt(tmp_path: Path) -> None:
    assert to_stub(add_two_numbers) == (
        'def add_two_numbers(a: int, b: int) -> int:\n    """Add two numbers together."""\n    ...'
    )
    assert to_stub(circle) == CIRCLE_STUB
    assert to_stub(MUL) == 'def mul(a, b):\n    """multiply"""\n    ...'
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path, functions=[add_two_numbers, circle, MUL])
    assert executor.format_functions_for_prompt() == (
        "You have access to the following user defined functions. They can be accessed from the module called "
        "`functions` by their function names.\n\n"
        "For example, if there was a function called `foo` you could import it by writing `from functions import foo`"
        "\n\n" + to_stub(add_two_numbers) + "\n\n" + CIRCLE_STUB + "\n\n" + to_stub(MUL)
    )
    assert executor.format_functions_for_prompt("$module_name: $functions").startswith("functions: def add_two_numbers")


def test_functions_are_importable_by_executed_code(tmp_path: Path) -> None:
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path, functions=[add_two_numbers, circle, MUL])
    assert not (tmp_path / "functions.py").exists()  # written before the first code block
    code = "from functions import add_two_numbers, circle, mul\nprint(add_two_numbers(1, 2), circle(1), mul(3, 4))"
    result = executor.execute_code_blocks([CodeBlock(code=code, language="python")])
    assert (result.exit_code, result.output) == (0, "3 3.141592653589793 12\n")
    module = (tmp_path / "functions.py").read_text()
    assert module.startswith("import math\nfrom os import path, sep as SEP\nimport json as js\nimport sys\n\n")
    assert "def circle(r: float = 1.0) -> float:" in module and "@with_requirements" not in module
    assert "def mul(a, b):\n    '''multiply'''\n    return a*b\n" in module


def test_functions_module_name_and_agent_chat(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    @with_requirements(global_imports=["math"])
    def hyp(a: float, b: float) -> float:
        """Length of the hypotenuse."""
        return math.sqrt(a * a + b * b)  # type: ignore[name-defined]  # noqa: F821

    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path, functions=[hyp], functions_module="tools")
    scripted_server.add_replies("```python\nfrom tools import hyp\nprint(hyp(3, 4))\n```", "TERMINATE")
    alice = autogen.AssistantAgent(
        "alice",
        llm_config=scripted_server.llm_config(),
        system_message="sys\n" + executor.format_functions_for_prompt(),
    )
    bob = autogen.UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config={"executor": executor})
    result = bob.initiate_chat(alice, message="go", silent=True)
    assert [m["content"] for m in result.chat_history] == [
        "go",
        "```python\nfrom tools import hyp\nprint(hyp(3, 4))\n```",
        "exitcode: 0 (execution succeeded)\nCode output: 5.0\n",
        "TERMINATE",
    ]
    assert scripted_server.requests[0]["messages"][0]["content"].endswith(
        "from tools import foo`\n\n"
        'def hyp(a: float, b: float) -> float:\n    """Length of the hypotenuse."""\n    ...'
    )


def test_packages_are_installed_only_when_declared(tmp_path: Path) -> None:
    _make_venv(str(tmp_path / "nopip"))  # an interpreter without pip: any install attempt fails
    context = venv.EnvBuilder().ensure_directories(str(tmp_path / "nopip"))
    plain = LocalCommandLineCodeExecutor(
        virtual_env_context=context, work_dir=tmp_path / "a", functions=[add_two_numbers]
    )
    code = CodeBlock(code="from functions import add_two_numbers\nprint(add_two_numbers(2, 2))", language="python")
    assert plain.execute_code_blocks([code]).output == "4\n"
    # Packages of a string function are not installed either (as in the classic executor).
    text = FunctionWithRequirementsStr("def one():\n    return 1\n", python_packages=["not-a-real-package-xyz"])
    with_text = LocalCommandLineCodeExecutor(virtual_env_context=context, work_dir=tmp_path / "b", functions=[text])
    one = CodeBlock(code="from functions import one\nprint(one())", language="python")
    assert with_text.execute_code_blocks([one]).output == "1\n"
    needs = FunctionWithRequirements.from_callable(add_two_numbers, python_packages=["not-a-real-package-xyz"])
    executor = LocalCommandLineCodeExecutor(virtual_env_context=context, work_dir=tmp_path / "c", functions=[needs])
    with pytest.raises(ValueError, match=r"^Pip install failed\. .*No module named pip"):
        executor.execute_code_blocks([code])


def test_functions_that_do_not_load(tmp_path: Path) -> None:
    broken = FunctionWithRequirementsStr("def h():\n    return zzz_mod.x\n", global_imports=["zzz_mod"])
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path, functions=[broken])
    with pytest.raises(ValueError) as err:
        executor.execute_code_blocks([CodeBlock(code="print(1)", language="python")])
    assert str(err.value).startswith("Functions failed to load: Traceback")
    assert str(err.value).endswith("ModuleNotFoundError: No module named 'zzz_mod'\n")


def test_function_with_requirements_objects() -> None:
    assert circle.__name__ == "circle" and circle.__doc__.startswith("Area.")  # type: ignore[union-attr]
    assert circle.global_imports[0] == "math" and circle.python_packages == []
    wrapped = FunctionWithRequirements.from_callable(add_two_numbers, ["x"])
    assert wrapped(2, 3) == 5 and wrapped.python_packages == ["x"] and wrapped.global_imports == []
    text = FunctionWithRequirements.from_str("def g(): pass")
    assert isinstance(text, FunctionWithRequirementsStr) and text._func_name == "g"
    with pytest.raises(NotImplementedError, match="String based function with requirement objects are not directly"):
        MUL(1, 2)
    with pytest.raises(ValueError, match="^The string must contain exactly one function$"):
        FunctionWithRequirementsStr("x = 1")
    with pytest.raises(ValueError, match=r"^Could not compile function: invalid syntax \(func_module.py, line 1\)$"):
        FunctionWithRequirementsStr("def f(:\n pass")


def test_renamed_classes_warn(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning) as record:
        executor = LocalCommandlineCodeExecutor(work_dir=tmp_path)
        result = CommandlineCodeResult(exit_code=0, output="x")
    assert [str(w.message) for w in record] == [
        "LocalCommandlineCodeExecutor has been renamed to LocalCommandLineCodeExecutor, "
        "the alias will be removed in the future",
        "CommandlineCodeResult has been renamed to CommandLineCodeResult, the alias will be removed in the future",
    ]
    assert type(executor) is LocalCommandLineCodeExecutor and type(result) is CommandLineCodeResult
    assert isinstance(LocalCommandLineCodeExecutor(work_dir=tmp_path), LocalCommandlineCodeExecutor)
    assert issubclass(LocalCommandLineCodeExecutor, LocalCommandlineCodeExecutor)


# --------------------------------------------------------------------------- factory, extractor, types, signatures


def test_factory(tmp_path: Path) -> None:
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path)
    assert CodeExecutorFactory.create({"executor": executor}) is executor
    built = CodeExecutorFactory.create(
        {"executor": "commandline-local", "commandline-local": {"work_dir": str(tmp_path), "timeout": 7}}
    )
    assert isinstance(built, LocalCommandLineCodeExecutor) and built.timeout == 7
    with pytest.raises(ValueError, match="^Unknown code executor docker.*optional Docker support"):
        CodeExecutorFactory.create({"executor": "docker"})
    with pytest.raises(ValueError, match="^Unknown code executor nope"):
        CodeExecutorFactory.create({"executor": "nope"})


def test_extractor_and_content_types() -> None:
    text: UserMessageTextContentPart = {"type": "text", "text": "```python\nprint(1)\n```"}
    image: UserMessageImageContentPart = {"type": "image_url", "image_url": {"url": "http://x/y.png"}}
    assert content_str([text, image]) == "```python\nprint(1)\n```\n<image>"  # newline-joined, as autogen 0.14
    assert MarkdownCodeExtractor().extract_code_blocks([text, image]) == [CodeBlock(code="print(1)", language="python")]
    assert CodeExtractor in MarkdownCodeExtractor.__mro__ and CodeExecutor in LocalCommandLineCodeExecutor.__mro__
    with pytest.raises(AssertionError, match="Missing 'type' key"):
        content_str([{"text": "no type"}])  # type: ignore[list-item]
    assert IPythonCodeResult(exit_code=0, output="").output_files == []
    assert CommandLineCodeResult(exit_code=1, output="o").code_file is None
    assert issubclass(CommandLineCodeResult, CodeResult)


def test_utils() -> None:
    assert filename_patterns[3].match("# filename: a.py").group(2).strip() == "a.py"  # type: ignore[union-attr]
    assert filename_patterns[0].match("<!-- page.html -->").group(2) == "page.html"  # type: ignore[union-attr]
    assert silence_pip("pip install numpy\nls", "sh") == "pip install -qqq numpy\nls"
    assert silence_pip("!pip install numpy", "python") == "!pip install -qqq numpy"


def _params(func: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.default) for p in inspect.signature(func).parameters.values()]


def test_classic_signatures() -> None:
    assert _params(LocalCommandLineCodeExecutor) == [
        ("timeout", 60),
        ("virtual_env_context", None),
        ("work_dir", Path()),
        ("functions", []),
        ("functions_module", "functions"),
        ("execution_policies", None),
    ]
    assert _params(execute_code) == [
        ("code", None),
        ("timeout", None),
        ("filename", None),
        ("work_dir", None),
        ("use_docker", SENTINEL),
        ("lang", "python"),
    ]
    assert _params(with_requirements) == [("python_packages", []), ("global_imports", [])]
    assert _params(FunctionWithRequirementsStr) == [
        ("func", inspect.Parameter.empty),
        ("python_packages", []),
        ("global_imports", []),
    ]
    assert [name for name, _ in _params(FunctionWithRequirements)] == ["func", "python_packages", "global_imports"]
    assert _params(LocalCommandLineCodeExecutor.format_functions_for_prompt)[1] == (
        "prompt_template", LocalCommandLineCodeExecutor.FUNCTION_PROMPT_TEMPLATE
    )


def test_classic_import_paths() -> None:
    import autogen_classic.coding.factory as factory
    import autogen_classic.coding.markdown_code_extractor as mce

    assert factory.CodeExecutorFactory is CodeExecutorFactory and mce.MarkdownCodeExtractor is MarkdownCodeExtractor
    for name in ("get_powershell_command", "timeout_handler", "UserMessageTextContentPart", "WORKING_DIR", "WIN32"):
        assert hasattr(code_utils, name), name
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # importing the aliases does not warn; only using them does
        from autogen_classic.coding.local_commandline_code_executor import (  # noqa: F401
            CommandlineCodeResult as OldResult,
            LocalCommandlineCodeExecutor as OldExecutor,
        )
