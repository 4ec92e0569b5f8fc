"""End-to-end tests of `targeting lsp`, driven by a real LSP client (pytest-lsp / pygls).

Each test starts the server binary (`$TARGETING_BIN`, default `.build/debug/targeting`) as a
subprocess speaking LSP over stdio, on a workspace that is a copy of the shipped `Rules/`
directory in a pytest tmp_path. Positions are computed from the files' text (0-based lines,
UTF-16 columns), never hard-coded.

Run with `Tests/LSP/run.sh`, or `pytest -q Tests/LSP/lsp_e2e.py` in a venv with pytest-lsp.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "Rules"
BIN = Path(os.environ.get("TARGETING_BIN") or REPO / ".build" / "debug" / "targeting").resolve()
TIMEOUT = 10.0  # seconds for any one answer or notification

if not BIN.is_file():
    raise RuntimeError(f"no targeting binary at {BIN} (set TARGETING_BIN)")

pytestmark = pytest.mark.asyncio


# ---- text and positions ------------------------------------------------------------------


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utf16_col(line: str, index: int) -> int:
    """The UTF-16 column of the code point at `index` in `line`."""
    return utf16_len(line[:index])


def locate(text: str, line_contains: str, word: str, nth: int = 0) -> types.Range:
    """The range of the `nth` whole-word `word` on the first line containing `line_contains`."""
    for number, line in enumerate(text.split("\n")):
        if line_contains in line:
            matches = list(re.finditer(rf"(?<![\w.]){re.escape(word)}(?![\w])", line))
            m = matches[nth]
            return types.Range(
                start=types.Position(line=number, character=utf16_col(line, m.start())),
                end=types.Position(line=number, character=utf16_col(line, m.end())),
            )
    raise AssertionError(f"no line containing {line_contains!r}")


def word_ranges(text: str, word: str) -> list[types.Range]:
    """Every whole-word `word` outside comment lines and string literals."""
    found = []
    for number, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("#"):
            continue
        code = re.sub(r'"[^"]*"', lambda m: " " * len(m.group(0)), line)
        for m in re.finditer(rf"(?<![\w.]){re.escape(word)}(?![\w])", code):
            found.append(
                types.Range(
                    start=types.Position(line=number, character=utf16_col(line, m.start())),
                    end=types.Position(line=number, character=utf16_col(line, m.end())),
                )
            )
    return found


def end_of(text: str) -> types.Position:
    lines = text.split("\n")
    return types.Position(line=len(lines) - 1, character=utf16_len(lines[-1]))


def offset_of(text: str, position: types.Position) -> int:
    """The code point index of an LSP position (UTF-16 column) in `text`."""
    lines = text.split("\n")
    assert position.line < len(lines), position
    start = sum(len(line) + 1 for line in lines[: position.line])
    line = lines[position.line]
    units = 0
    for index, char in enumerate(line):
        if units >= position.character:
            return start + index
        units += utf16_len(char)
    return start + len(line)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Applies LSP text edits (non-overlapping, positions in the original text)."""
    spans = sorted(
        ((offset_of(text, e.range.start), offset_of(text, e.range.end), e.new_text) for e in edits),
        key=lambda s: (s[0], s[1]),
    )
    for (_, end_a, _), (start_b, _, _) in zip(spans, spans[1:]):
        assert end_a <= start_b, f"overlapping edits: {edits}"
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def key(location: types.Location) -> tuple:
    r = location.range
    return (location.uri, r.start.line, r.start.character, r.end.line, r.end.character)


def range_key(uri: str, r: types.Range) -> tuple:
    return (uri, r.start.line, r.start.character, r.end.line, r.end.character)


# ---- the workspace and the client -------------------------------------------------------


class Workspace:
    """The copied rule set: paths, URIs and texts."""

    def __init__(self, root: Path):
        self.root = root

    def path(self, name: str) -> Path:
        return self.root / name

    def uri(self, name: str) -> str:
        return self.path(name).as_uri()

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = (tmp_path / "Rules").resolve()
    shutil.copytree(RULES, root)
    # The tests file names profiles and event streams relative to itself (../Examples/...):
    # copy those next to the workspace, so the shipped rule set starts without diagnostics.
    for tests in root.glob("*.tests"):
        for relative in re.findall(r'given (?:profile|events) "([^"]+)"', tests.read_text()):
            source = (RULES / relative).resolve()
            target = (root / relative).resolve()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return Workspace(root)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[str(BIN), "lsp"]))
async def client(lsp_client: LanguageClient, workspace: Workspace):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.root.as_uri(), name="Rules")],
    )
    result = await asyncio.wait_for(lsp_client.initialize_session(params), TIMEOUT)
    lsp_client.initialize_result = result  # type: ignore[attr-defined]
    lsp_client.workspace = workspace  # type: ignore[attr-defined]
    yield
    server = lsp_client._server
    if server is not None and server.returncode is None:
        await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="targeting", version=version, text=text)
        )
    )


async def until(predicate, what: str, timeout: float = TIMEOUT):
    """Waits until `predicate()` is truthy (notifications arrive asynchronously)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def request(awaitable):
    return await asyncio.wait_for(awaitable, TIMEOUT)


def locations(result) -> list[types.Location]:
    if result is None:
        return []
    items = result if isinstance(result, list) else [result]
    out = []
    for item in items:
        if isinstance(item, types.LocationLink):
            out.append(types.Location(uri=item.target_uri, range=item.target_selection_range))
        else:
            out.append(item)
    return out


# ---- 1. diagnostics -------------------------------------------------------------------


async def test_diagnostics_appear_and_clear_on_edit(client: LanguageClient, workspace: Workspace):
    placements, segments = workspace.uri("placements.rules"), workspace.uri("segments.rules")
    placements_text, segments_text = workspace.text("placements.rules"), workspace.text("segments.rules")

    open_document(client, placements, placements_text)
    await until(lambda: placements in client.diagnostics, "diagnostics for the opened placements.rules")
    assert list(client.diagnostics[placements]) == []
    open_document(client, segments, segments_text)
    await until(lambda: segments in client.diagnostics, "diagnostics for the opened segments.rules")
    assert {uri: list(d) for uri, d in client.diagnostics.items() if d} == {}, "the shipped rules have no diagnostics"

    # Rename the declaration `segment pros` to `prosx` with an incremental change.
    name = locate(segments_text, "segment pros =", "pros")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=segments, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=name.end, end=name.end), text="x")],
        )
    )
    found = await until(lambda: list(client.diagnostics.get(placements, [])), "an error in placements.rules")
    assert len(found) == 1, found
    diagnostic = found[0]
    assert diagnostic.code == "unknown-segment"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.range == locate(placements_text, "audience pro_adults =", "pros")
    assert "did you mean" in diagnostic.message
    assert "`prosx`" in diagnostic.message
    # segments.rules itself is still valid (at most a warning that `prosx` is unused).
    assert all(d.severity != types.DiagnosticSeverity.Error for d in client.diagnostics.get(segments, []))

    # Change it back (a whole-document change): every diagnostic is cleared.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=segments, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=segments_text)],
        )
    )
    await until(lambda: placements in client.diagnostics and not client.diagnostics[placements], "placements.rules cleared")
    assert list(client.diagnostics[placements]) == []
    await until(lambda: not client.diagnostics[segments], "segments.rules cleared")
    assert {uri: list(d) for uri, d in client.diagnostics.items() if d} == {}


async def test_diagnostic_columns_are_utf16(client: LanguageClient, workspace: Workspace):
    """A reference after a string with a non-BMP character: its range counts UTF-16 units."""
    uri = workspace.uri("segments.rules")
    line = 'segment emoji = profile.country != "🎉é" and pross'
    text = workspace.text("segments.rules").rstrip("\n") + "\n" + line + "\n"
    open_document(client, uri, text)
    found = await until(
        lambda: [d for d in client.diagnostics.get(uri, []) if d.code == "unknown-segment"], "unknown-segment in segments.rules"
    )
    assert len(found) == 1, found
    number = text.split("\n").index(line)
    start = line.index("pross")
    assert utf16_col(line, start) == start + 1  # the test means something: 🎉 is two UTF-16 units
    assert found[0].range == types.Range(
        start=types.Position(line=number, character=utf16_col(line, start)),
        end=types.Position(line=number, character=utf16_col(line, start + len("pross"))),
    )
    assert "did you mean `pros`" in found[0].message


# ---- 2. hover ---------------------------------------------------------------------------


async def test_hover_segment_reference_shows_its_expression(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("placements.rules")
    text = workspace.text("placements.rules")
    open_document(client, uri, text)
    ref = locate(text, "audience pro_adults =", "pros")
    inside = types.Position(line=ref.start.line, character=ref.start.character + 2)
    hover = await request(
        client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=inside))
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    declaration = next(l for l in workspace.text("segments.rules").split("\n") if l.startswith("segment pros ="))
    assert declaration == 'segment pros = experience == "pro"'
    assert declaration in hover.contents.value
    assert hover.range == ref


async def test_hover_attribute_shows_its_type(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("segments.rules")
    text = workspace.text("segments.rules")
    open_document(client, uri, text)
    cases = {"experience": ("segment pros =", "string"), "weekly_hours": ("segment dedicated =", "number"), "reminders": ("segment wants_reminders =", "bool")}
    for attribute, (line, type_name) in cases.items():
        # The type as declared in onboarding.rules.
        assert re.search(rf"^attribute {attribute}: {type_name}\b", workspace.text("onboarding.rules"), re.M)
        where = locate(text, line, attribute)
        hover = await request(
            client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=where.start))
        )
        assert hover is not None, attribute
        assert f"`{attribute}`: {type_name}" in hover.contents.value
        assert hover.range == where
    # The allowed values of `experience` are listed too.
    hover = await request(
        client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=locate(text, "segment pros =", "experience").start)
        )
    )
    for value in one_of_values(workspace)["experience"]:
        assert f'"{value}"' in hover.contents.value


async def test_hover_on_a_pattern_shows_a_value_it_accepts(client: LanguageClient, workspace: Workspace):
    """`matches /…/`: hover on the pattern (after a non-BMP character) shows its shortest value."""
    uri = workspace.uri("segments.rules")
    line = 'segment promo = profile.country != "🎉" and promo_code matches /BF-\\d{4}/ ignoring case'
    text = workspace.text("segments.rules").rstrip("\n") + "\n" + line + "\n"
    open_document(client, uri, text)
    number = text.split("\n").index(line)
    start = line.index("/BF")
    pattern = types.Range(
        start=types.Position(line=number, character=utf16_col(line, start)),
        end=types.Position(line=number, character=utf16_col(line, start + len("/BF-\\d{4}/"))),
    )
    inside = types.Position(line=number, character=pattern.start.character + 3)
    hover = await request(
        client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=inside))
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert "ignoring case" in hover.contents.value
    assert 'e.g. `"bf-0000"`' in hover.contents.value, hover.contents.value
    assert hover.range == pattern


# ---- 3. definition ----------------------------------------------------------------------


async def test_definition_of_segment_reference(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("placements.rules")
    text = workspace.text("placements.rules")
    open_document(client, uri, text)
    ref = locate(text, "audience pro_adults =", "pros")
    result = await request(
        client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=ref.end)
        )
    )
    target = locate(workspace.text("segments.rules"), "segment pros =", "pros")
    assert [key(l) for l in locations(result)] == [range_key(workspace.uri("segments.rules"), target)]


# ---- 4. references ----------------------------------------------------------------------


def expected_pros_references(workspace: Workspace) -> set[tuple]:
    expected = set()
    for name in ("segments.rules", "placements.rules", "onboarding.rules", "onboarding.tests"):
        for r in word_ranges(workspace.text(name), "pros"):
            expected.add(range_key(workspace.uri(name), r))
    return expected


async def test_references_of_segment(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("placements.rules")
    text = workspace.text("placements.rules")
    open_document(client, uri, text)
    ref = locate(text, "audience pro_adults =", "pros")
    declaration = range_key(workspace.uri("segments.rules"), locate(workspace.text("segments.rules"), "segment pros =", "pros"))
    expected = expected_pros_references(workspace)
    # The declaration, the audience that uses it, and the tests' `expect pros` lines.
    assert declaration in expected
    assert range_key(uri, ref) in expected
    assert any(k[0] == workspace.uri("onboarding.tests") for k in expected)

    def params(include: bool):
        return types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=ref.start, context=types.ReferenceContext(include_declaration=include)
        )

    with_declaration = await request(client.text_document_references_async(params(True)))
    keys = [key(l) for l in with_declaration]
    assert len(keys) == len(set(keys)), "no duplicates"
    assert set(keys) == expected
    without = await request(client.text_document_references_async(params(False)))
    assert {key(l) for l in without} == expected - {declaration}


# ---- 5. completion of `one of` values ---------------------------------------------------


def one_of_values(workspace: Workspace) -> dict[str, list[str]]:
    """Attributes declared `string one of [...]` in the workspace's rules, with their values."""
    found = {}
    for path in sorted(workspace.root.glob("*.rules")):
        for m in re.finditer(r"^attribute\s+(\w+)\s*:\s*string\s+one\s+of\s*\[([^\]]*)\]", path.read_text(), re.M):
            found[m.group(1)] = re.findall(r'"([^"]*)"', m.group(2))
    return found


async def test_completion_of_one_of_values(client: LanguageClient, workspace: Workspace):
    attribute, values = next(iter(one_of_values(workspace).items()))
    assert attribute == "experience" and values == ["beginner", "amateur", "pro"]
    uri = workspace.uri("segments.rules")
    text = workspace.text("segments.rules").rstrip("\n") + "\n" + f'segment tmp = {attribute} == "'
    open_document(client, uri, text)
    result = await request(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=end_of(text),
                context=types.CompletionContext(trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character='"'),
            )
        )
    )
    items = result.items if isinstance(result, types.CompletionList) else (result or [])
    labels = [item.label for item in items]
    for value in values:
        assert value in labels, f"completion labels {labels} lack {value!r}"


# ---- 6. formatting ----------------------------------------------------------------------


FORMATTING = types.FormattingOptions(tab_size=2, insert_spaces=True)


async def test_formatting_matches_fmt(client: LanguageClient, workspace: Workspace, tmp_path: Path):
    messy = '# messy spacing\nsegment   x=experience=="pro"\naudience  y =x   and not   (x)\n'
    scratch = tmp_path / "fmt" / "messy.rules"
    scratch.parent.mkdir()
    scratch.write_text(messy, encoding="utf-8")
    fmt = subprocess.run([str(BIN), "fmt", str(scratch)], capture_output=True, text=True, timeout=TIMEOUT)
    assert fmt.returncode == 0, fmt.stderr
    expected = fmt.stdout
    assert expected != messy and "segment x = experience" in expected

    uri = workspace.uri("messy.rules")
    open_document(client, uri, messy)
    edits = await request(
        client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=uri), options=FORMATTING)
        )
    )
    assert edits is not None
    assert apply_edits(messy, list(edits)) == expected


async def test_formatting_a_syntax_error_is_an_error_response(client: LanguageClient, workspace: Workspace, tmp_path: Path):
    broken = "segment x = = \n"
    scratch = tmp_path / "broken.rules"
    scratch.write_text(broken, encoding="utf-8")
    fmt = subprocess.run([str(BIN), "fmt", str(scratch)], capture_output=True, text=True, timeout=TIMEOUT)
    assert fmt.returncode == 2, "fmt refuses the file too"

    uri = workspace.uri("broken.rules")
    open_document(client, uri, broken)
    await until(lambda: client.diagnostics.get(uri), "the syntax error's diagnostic")
    with pytest.raises(JsonRpcException) as error:
        result = await request(
            client.text_document_formatting_async(
                types.DocumentFormattingParams(text_document=types.TextDocumentIdentifier(uri=uri), options=FORMATTING)
            )
        )
        print(f"formatting answered {result!r} instead of an error")
    assert error.value.message


# ---- 7. rename --------------------------------------------------------------------------


async def test_rename_segment(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("placements.rules")
    text = workspace.text("placements.rules")
    open_document(client, uri, text)
    ref = locate(text, "audience pro_adults =", "pros")
    prepared = await request(
        client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=ref.start)
        )
    )
    assert prepared is not None and prepared.range == ref and prepared.placeholder == "pros"

    edit = await request(
        client.text_document_rename_async(
            types.RenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=ref.start, new_name="professionals")
        )
    )
    assert edit is not None
    changes: dict[str, list[types.TextEdit]] = {}
    if edit.changes:
        changes.update(edit.changes)
    for document_change in edit.document_changes or []:
        assert isinstance(document_change, types.TextDocumentEdit)
        changes.setdefault(document_change.text_document.uri, []).extend(document_change.edits)
    assert workspace.uri("segments.rules") in changes
    assert uri in changes
    # Applying the edit renames every occurrence, and only those.
    by_file: dict[str, list[types.Range]] = {}
    for k in expected_pros_references(workspace):
        by_file.setdefault(k[0], []).append(types.Range(start=types.Position(line=k[1], character=k[2]), end=types.Position(line=k[3], character=k[4])))
    assert set(changes) == set(by_file)
    for name in ("segments.rules", "placements.rules", "onboarding.tests"):
        file_uri, original = workspace.uri(name), workspace.text(name)
        expected = apply_edits(original, [types.TextEdit(range=r, new_text="professionals") for r in by_file[file_uri]])
        assert apply_edits(original, list(changes[file_uri])) == expected
    assert "segment professionals = experience" in apply_edits(workspace.text("segments.rules"), list(changes[workspace.uri("segments.rules")]))


async def test_rename_to_keyword_is_an_error(client: LanguageClient, workspace: Workspace):
    uri = workspace.uri("segments.rules")
    text = workspace.text("segments.rules")
    open_document(client, uri, text)
    with pytest.raises(JsonRpcException) as error:
        await request(
            client.text_document_rename_async(
                types.RenameParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), position=locate(text, "segment pros =", "pros").start, new_name="and"
                )
            )
        )
    assert "and" in error.value.message


# ---- 8. semantic tokens -----------------------------------------------------------------


async def test_semantic_tokens_full(client: LanguageClient, workspace: Workspace):
    provider = client.initialize_result.capabilities.semantic_tokens_provider  # type: ignore[attr-defined]
    assert provider is not None
    legend = provider.legend
    assert "keyword" in legend.token_types

    uri = workspace.uri("segments.rules")
    text = workspace.text("segments.rules")
    open_document(client, uri, text)
    tokens = await request(
        client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    )
    assert tokens is not None
    data = list(tokens.data)
    assert data, "semantic tokens: empty data"
    assert len(data) % 5 == 0

    # Decode the relative encoding into (line, start, length, type).
    decoded, line, start = [], 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, type_index, _modifiers = data[i : i + 5]
        line += delta_line
        start = delta_start if delta_line else start + delta_start
        assert 0 <= type_index < len(legend.token_types)
        decoded.append((line, start, length, legend.token_types[type_index]))
    keyword = locate(text, "segment pros =", "segment")
    first = next(t for t in decoded if t[0] == keyword.start.line)
    assert first == (keyword.start.line, keyword.start.character, len("segment"), "keyword")


# ---- 9. symbols -------------------------------------------------------------------------


def symbol_names(result) -> list[str]:
    return [s.name for s in (result or [])]


def top_level(result) -> list:
    """Document symbols at the top: DocumentSymbols as given, SymbolInformation without a container."""
    return [s for s in (result or []) if isinstance(s, types.DocumentSymbol) or not getattr(s, "container_name", None)]


async def test_document_symbols(client: LanguageClient, workspace: Workspace):
    for name, pattern in (("segments.rules", r"^segment\s+(\w+)"), ("placements.rules", r"^(?:audience|placement)\s+(\w+)")):
        uri = workspace.uri(name)
        text = workspace.text(name)
        open_document(client, uri, text)
        expected = re.findall(pattern, text, re.M)
        assert expected
        result = await request(
            client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        )
        assert symbol_names(result), f"no document symbols for {name}"
        names = symbol_names(top_level(result))
        assert sorted(names) == sorted(expected)
        for symbol in top_level(result):
            where = symbol.selection_range if isinstance(symbol, types.DocumentSymbol) else symbol.location.range
            line = text.split("\n")[where.start.line]
            assert symbol.name in line


async def test_workspace_symbols(client: LanguageClient, workspace: Workspace):
    result = await request(client.workspace_symbol_async(types.WorkspaceSymbolParams(query="pros")))
    names = symbol_names(result)
    assert "pros" in names, f"workspace symbols for 'pros': {names}"
    pros = next(s for s in result if s.name == "pros")
    assert pros.location.uri == workspace.uri("segments.rules")

    result = await request(client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")))
    names = set(symbol_names(result))
    declared = set()
    for path in workspace.root.glob("*.rules"):
        declared |= set(re.findall(r"^(?:segment|audience|placement)\s+(\w+)", path.read_text(), re.M))
    assert declared <= names, f"missing workspace symbols: {sorted(declared - names)}"


# ---- 10. experiments ---------------------------------------------------------


EXPERIMENTS = """experiment spring_offer by profile.customer_user_id {
  50% control
  50% discount
}

placement upgrade_screen {
  pro_adults -> spring_offer {
    control  -> flow "flow_upgrade_a"
    discount -> flow "flow_upgrade_discount"
  }
  everyone -> flow "flow_upgrade_default"
}

placement checkout {
  pro_adults -> spring_offer {
    control  -> paywall "pw_standard"
    discount -> paywall "pw_discount"
  }
  everyone -> paywall "pw_standard"
}
"""


async def open_experiments(client: LanguageClient, workspace: Workspace) -> str:
    """Opens a new rules file of the rule set with an experiment of its own that two placements use."""
    uri = workspace.uri("spring.rules")
    open_document(client, uri, EXPERIMENTS)
    await until(lambda: uri in client.diagnostics, "diagnostics for the opened spring.rules")
    assert list(client.diagnostics[uri]) == [], "the experiment and its rows check"
    return uri


async def test_hover_experiment_shows_variants_key_and_rows(client: LanguageClient, workspace: Workspace):
    uri = await open_experiments(client, workspace)
    use = locate(EXPERIMENTS, "pro_adults -> spring_offer", "spring_offer")
    hover = await request(
        client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=use.start))
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent) and hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    declaration = EXPERIMENTS.split("\n\n")[0]
    assert declaration in value, value
    assert "key `profile.customer_user_id`" in value
    assert "- placement `upgrade_screen`, row `pro_adults`" in value
    assert "- placement `checkout`, row `pro_adults`" in value
    assert hover.range == use


async def test_rename_experiment_renames_declaration_and_rows(client: LanguageClient, workspace: Workspace):
    uri = await open_experiments(client, workspace)
    declaration = locate(EXPERIMENTS, "experiment spring_offer", "spring_offer")
    prepared = await request(
        client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=declaration.start)
        )
    )
    assert prepared is not None and prepared.range == declaration and prepared.placeholder == "spring_offer"
    edit = await request(
        client.text_document_rename_async(
            types.RenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=declaration.start, new_name="spring_sale")
        )
    )
    assert edit is not None
    changes: dict[str, list[types.TextEdit]] = dict(edit.changes or {})
    for document_change in edit.document_changes or []:
        assert isinstance(document_change, types.TextDocumentEdit)
        changes.setdefault(document_change.text_document.uri, []).extend(document_change.edits)
    assert set(changes) == {uri}, "only the experiment's file uses it"
    uses = word_ranges(EXPERIMENTS, "spring_offer")
    assert len(uses) == 3  # the declaration and two rows
    expected = apply_edits(EXPERIMENTS, [types.TextEdit(range=r, new_text="spring_sale") for r in uses])
    assert apply_edits(EXPERIMENTS, list(changes[uri])) == expected
    assert "spring_offer" not in expected
    # A name the rule set already has is refused.
    with pytest.raises(JsonRpcException) as error:
        await request(
            client.text_document_rename_async(
                types.RenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=declaration.start, new_name="checkout")
            )
        )
    assert "`checkout` already exists" in error.value.message


# ---- 11. lifecycle ----------------------------------------------------------------------


async def test_initialize_capabilities(client: LanguageClient):
    result = client.initialize_result  # type: ignore[attr-defined]
    assert result.server_info is not None and result.server_info.name == "targeting"
    capabilities = result.capabilities
    assert capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
    assert capabilities.hover_provider and capabilities.definition_provider and capabilities.references_provider
    assert capabilities.rename_provider


async def test_shutdown_then_exit_status_zero(client: LanguageClient):
    assert await request(client.shutdown_async(None)) is None
    client.exit(None)
    server = client._server
    assert server is not None
    assert await asyncio.wait_for(server.wait(), TIMEOUT) == 0
