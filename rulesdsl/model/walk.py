"""The one traversal of the rulebook model.

Driven by `dataclasses.fields`, so a field added to a node is walked without
anyone listing it (in the manner of Jinja's `iter_child_nodes`):

- `iter_fields(node)`: (name, value) of each field that is part of the node's
  meaning: not its span, nor the source text kept for messages;
- `iter_children(node)`: the nodes held in those fields, in tuples too;
- `walk(node)`: the node and every node below it, parents first.

`meaning_fields(type)` names those fields for a node type; `replace_node`
rebuilds a tree with one node swapped, by keyword.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator

from rulesdsl.model import ir

_NODE_TYPES = frozenset(ir.NODES)


def is_node(value: object) -> bool:
    return type(value) in _NODE_TYPES


_MEANING: dict[type, tuple[str, ...]] = {}


def meaning_fields(node_type: type) -> tuple[str, ...]:
    """The fields of a node type that take part in its equality: its meaning."""
    found = _MEANING.get(node_type)
    if found is None:
        found = _MEANING[node_type] = tuple(f.name for f in dataclasses.fields(node_type) if f.compare)
    return found


def iter_fields(node: Any) -> Iterator[tuple[str, Any]]:
    for name in meaning_fields(type(node)):
        yield name, getattr(node, name)


def _nodes_in(value: Any) -> Iterator[Any]:
    if is_node(value):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def iter_children(node: Any) -> Iterator[Any]:
    for _, value in iter_fields(node):
        yield from _nodes_in(value)


def walk(node: Any) -> Iterator[Any]:
    """The node and every node below it, depth first, parents before children.
    Iterative, so a deeply nested expression cannot exhaust the stack."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(iter_children(current))))


def replace_node(root: Any, target: Any, make: Callable[[Any], Any]) -> Any:
    """`root` with the node `target` (found by identity, wherever it occurs) replaced by `make(target)`,
    rebuilt by keyword.  Only the nodes above an occurrence are rebuilt: which they are is read from an
    index of each node's parents, made once per root (a mutation run replaces node after node in one tree)."""
    if root is target:
        return make(root)
    parents = _parents(root)
    above: set[int] = set()
    stack = [target]
    while stack:
        for parent in parents.get(id(stack.pop()), ()):
            if id(parent) not in above:
                above.add(id(parent))
                stack.append(parent)
    if id(root) not in above:
        return root
    replacement = make(target)

    def rebuild(value: Any) -> Any:
        if value is target:
            return replacement
        if is_node(value):
            if id(value) not in above:
                return value
            changes = {}
            for name, field_value in iter_fields(value):
                new = rebuild(field_value)
                if new is not field_value:
                    changes[name] = new
            return dataclasses.replace(value, **changes) if changes else value
        if isinstance(value, tuple):
            items = tuple(rebuild(v) for v in value)
            return value if all(a is b for a, b in zip(items, value)) else items
        return value

    return rebuild(root)


_PARENTS: list[tuple[Any, dict[int, list[Any]]]] = []     # the last few roots indexed, each held alive


def _parents(root: Any) -> dict[int, list[Any]]:
    """id(node) -> the nodes that hold it, for every node under `root`.  Kept for the last few roots (each
    entry holds its root, so the ids in it stay those of live nodes)."""
    for held, known in _PARENTS:
        if held is root:
            return known
    index: dict[int, list[Any]] = {}
    for node in walk(root):
        for child in iter_children(node):
            index.setdefault(id(child), []).append(node)
    _PARENTS.insert(0, (root, index))
    del _PARENTS[4:]
    return index


def chain(expr: ir.Expr, op: ir.BinaryOp) -> list[ir.Expr]:
    """The operands a chain of one operator joins, left to right (`a or b or c`: a, b, c), without recursion:
    how codegen builds an All/Any_ and the card lists the units an `or` names."""
    out: list[ir.Expr] = []
    work = [expr]
    while work:
        node = work.pop()
        if isinstance(node, ir.Binary) and node.op is op:
            work += [node.right, node.left]
        else:
            out.append(node)
    return out
