"""The mutants of one module: every small change a slip of the keyboard could make to its source
(an operator swapped, a constant off by one, a condition negated, a keyword argument, filter
argument, decorator or call statement dropped, ``transaction.atomic()`` made a no-op, an entry
dropped from a module-level table), each the whole mutated text, found from its syntax tree.

Strings are not mutated (they are messages; the tests check the ones that matter) and neither
are docstrings, annotations, f-strings or ``assert`` statements (they are there for mypy).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitXor: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.Pow: ast.Mult,
}
NAME_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
QUERY_METHODS = {"filter", "exclude"}


@dataclass(frozen=True)
class Mutant:
    path: str
    line: int
    before: str
    after: str
    source: str

    def describe(self) -> str:
        def short(text: str) -> str:
            text = " ".join(text.split())
            return text if len(text) <= 70 else text[:67] + "..."

        return f"{self.path}:{self.line}: {short(self.before)}  ->  {short(self.after)}"


class _Source:
    """The module's text, with spans addressed as the ``ast`` gives them (UTF-8 byte columns)."""

    def __init__(self, text: str) -> None:
        self.data = text.encode()
        self.line_starts = [0]
        for i, byte in enumerate(self.data):
            if byte == ord("\n"):
                self.line_starts.append(i + 1)

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode()

    def replace(self, start: int, end: int, new: str) -> str:
        return (self.data[:start] + new.encode() + self.data[end:]).decode()


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Ids of nodes never mutated: docstrings, annotations, f-strings, asserts, ``__all__``."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                skip(body[0])
        if isinstance(node, ast.arg):
            skip(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skip(node.returns)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        elif (
            isinstance(node, ast.JoinedStr | ast.Assert | ast.ImportFrom | ast.Import)
            or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            or (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            )
        ):
            skip(node)  # messages, attribute docstrings, what mypy reads, the export list
    return skipped


def _module_level_tables(tree: ast.Module) -> Iterator[ast.AST]:
    for statement in tree.body:
        value = getattr(statement, "value", None)
        if isinstance(statement, ast.Assign | ast.AnnAssign) and value is not None:
            if isinstance(value, ast.Call) and value.args:  # Final wraps nothing at runtime
                value = value.args[0]
            if isinstance(value, ast.Tuple | ast.List | ast.Set | ast.Dict):
                yield value


def mutants(path: str, text: str) -> Iterator[Mutant]:
    """Every mutant of the module at ``path`` whose source is ``text``."""
    tree = ast.parse(text)
    source = _Source(text)
    skipped = _skipped_nodes(tree)
    seen: set[str] = set()

    def make(node: ast.AST, new: str, *, span: tuple[int, int] | None = None) -> Mutant | None:
        start, end = span or source.span(node)
        mutated = source.replace(start, end, new)
        if mutated == text or mutated in seen:
            return None
        try:
            ast.parse(mutated)
        except SyntaxError:
            return None
        seen.add(mutated)
        return Mutant(path, node.lineno, source.text(start, end), new, mutated)  # type: ignore[attr-defined]

    def expr(node: ast.AST, new: ast.AST) -> Mutant | None:
        return make(node, f"({ast.unparse(new)})")

    def copy(node: ast.AST) -> ast.AST:
        return ast.parse(ast.unparse(node), mode="eval").body

    candidates: list[Mutant | None] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    new = copy(node)
                    assert isinstance(new, ast.Compare)
                    new.ops[i] = COMPARE_SWAPS[type(op)]()
                    candidates.append(expr(node, new))
        elif isinstance(node, ast.BoolOp):
            new = copy(node)
            assert isinstance(new, ast.BoolOp)
            new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            candidates.append(expr(node, new))
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            new = copy(node)
            assert isinstance(new, ast.BinOp)
            new.op = BINOP_SWAPS[type(node.op)]()
            candidates.append(expr(node, new))
        elif isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAPS:
            new_aug = ast.AugAssign(node.target, BINOP_SWAPS[type(node.op)](), node.value)
            candidates.append(make(node, ast.unparse(new_aug)))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            candidates.append(make(node, f"({source.text(*source.span(node.operand))})"))
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                candidates.append(make(node, str(not value)))
            elif isinstance(value, int):
                candidates.append(make(node, f"({value + 1})"))
                candidates.append(make(node, f"({value - 1})"))
        elif isinstance(node, ast.Name) and node.id in NAME_SWAPS:
            candidates.append(make(node, NAME_SWAPS[node.id]))
        elif isinstance(node, ast.Call):
            for i in range(len(node.keywords)):
                if node.keywords[i].arg is None:
                    continue
                new_call = copy(node)
                assert isinstance(new_call, ast.Call)
                del new_call.keywords[i]
                candidates.append(expr(node, new_call))
            name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name in QUERY_METHODS:
                for i in range(len(node.args)):
                    new_call = copy(node)
                    assert isinstance(new_call, ast.Call)
                    del new_call.args[i]
                    candidates.append(expr(node, new_call))
        elif isinstance(node, ast.If | ast.While | ast.IfExp):
            test = source.text(*source.span(node.test))
            candidates.append(make(node.test, f"(not ({test}))"))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            candidates.append(make(node, "pass"))
        elif isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("atomic"):
                    nullcontext = "__import__('contextlib').nullcontext()"
                    candidates.append(make(call, nullcontext))
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                start = source.offset(decorator.lineno, 0)
                end = source.offset(decorator.end_lineno or decorator.lineno, 0)
                end = source.data.index(b"\n", end) + 1
                candidates.append(make(decorator, "", span=(start, end)))
    for table in _module_level_tables(tree):
        if id(table) in skipped:
            continue
        if isinstance(table, ast.Dict):
            for key, value in zip(table.keys, table.values, strict=True):
                if key is not None:
                    start, _ = source.span(key)
                    _, end = source.span(value)
                    end = _past_comma(source, end)
                    candidates.append(make(key, "", span=(start, end)))
        else:
            assert isinstance(table, ast.Tuple | ast.List | ast.Set)
            if len(table.elts) > 1:
                for element in table.elts:
                    start, end = source.span(element)
                    candidates.append(make(element, "", span=(start, _past_comma(source, end))))
    found = sorted((m for m in candidates if m is not None), key=lambda m: m.line)
    yield from found


def _past_comma(source: _Source, end: int) -> int:
    """Just past the comma after a table entry, if there is one."""
    rest = source.data[end:]
    stripped = rest.lstrip(b" \t")
    if stripped.startswith(b","):
        return end + (len(rest) - len(stripped)) + 1
    return end
