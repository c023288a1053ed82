"""ExecuTorch's memory plan for an Emitter's method, and the second pass that pins it.

pte_writer's own planner gives each tensor its own first-to-last-use span (a tensor's
``allocation=`` is honored, but only that tensor's own span is kept clear): it would put other
tensors over a mutable buffer, and over a base that a later instruction reads through its view.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable, Dict, List, Mapping, Optional, Tuple

from .emitter import Emitter, ExportError

if TYPE_CHECKING:
    from pte_writer import ProgramBuilder

PLAN_ALIGNMENT = 16


@dataclasses.dataclass
class MemoryPlan:
    offsets: Dict[int, Tuple[int, int]]   # every planned value -> (memory_id 1, offset)
    total: int                            # bytes of memory_id 1, aligned
    life: Dict[int, Tuple[int, int]]      # each base's instruction span (-1 / n: the whole method)
    dims: Dict[str, int]                  # the symbolic dims' values the sizes are taken at


def _align(n: int) -> int:
    return (n + PLAN_ALIGNMENT - 1) // PLAN_ALIGNMENT * PLAN_ALIGNMENT


def planned_bases(e: Emitter) -> List[int]:
    """The planned tensors that are not views: each has bytes of its own."""
    return sorted({e.root.get(i, i) for i, info in e.info.items() if info.storage == "planned"})


def plan_memory(e: Emitter, dims: Optional[Mapping[str, int]] = None) -> MemoryPlan:
    """Offsets (memory_id 1) for every planned tensor, with the sizes at ``dims`` (default: the
    emitter's bounds, the plan a file holds; at a run's real sizes, the plan a runtime could
    make for that run).

    As ExecuTorch's planner: lifetimes are the instruction spans of each tensor (inputs from
    the start, outputs to the end); a view shares its base's bytes and lifetime (_ViewSpec); a
    mutable buffer lives for the whole method (it is a placeholder, and its mutation is a graph
    output), so nothing else ever shares its bytes and what the ops write into it is still there
    at the next run. Greedy first fit, 16-byte aligned, in order of birth (largest first among
    equals)."""
    dims = dict(e.bounds if dims is None else dims)
    m = e.m
    n = len(e.refs)
    first: Dict[int, int] = {}
    last: Dict[int, int] = {}
    for k, refs in enumerate(e.refs):
        for r in refs:
            first.setdefault(r, k)
            last[r] = k
    inputs, outputs = set(m.inputs), set(m.outputs)
    planned = [i for i, info in e.info.items() if info.storage == "planned"]
    life: Dict[int, Tuple[int, int]] = {}
    for i in planned:
        if i in e.mutable_buffers:
            span = (-1, n)
        elif i not in first:
            raise ExportError(f"planned tensor {i} is never used")
        else:
            span = (-1 if i in inputs else first[i], n if i in outputs else last[i])
        g = e.root.get(i, i)
        gs, ge = life.get(g, span)
        life[g] = (min(gs, span[0]), max(ge, span[1]))
    nbytes = {g: e.info[g].nbytes(dims) for g in life}
    groups = sorted(life, key=lambda g: (life[g][0], -nbytes[g], g))
    placed: List[Tuple[int, int, int, int]] = []
    offset: Dict[int, int] = {}
    for g in groups:
        size = nbytes[g]
        s, u = life[g]
        off = 0
        for o, sz in sorted((o, sz) for (o, sz, ps, pe) in placed if ps <= u and s <= pe):
            if o + sz <= off:
                continue
            if off + size <= o:
                break
            off = _align(o + sz)
        offset[g] = off
        placed.append((off, size, s, u))
    # No two bases alive at the same step may share bytes (a mutable buffer is alive at every
    # step, so nothing else ever touches its bytes).
    for a in range(len(placed)):
        for b in range(a + 1, len(placed)):
            oa, sa, fa, la = placed[a]
            ob, sb, fb, lb = placed[b]
            if fa <= lb and fb <= la and oa < ob + sb and ob < oa + sa and sa and sb:
                raise ExportError(f"plan_memory: bases {groups[a]} and {groups[b]} overlap while both are live")
    total = _align(max((o + sz for (o, sz, _, _) in placed), default=0))
    return MemoryPlan({i: (1, offset[e.root.get(i, i)]) for i in planned}, total, life, dims)


def naive_total(e: Emitter, dims: Optional[Mapping[str, int]] = None) -> int:
    """Every base its own bytes (ExecuTorch's naive planner: no reuse)."""
    dims = dict(e.bounds if dims is None else dims)
    return sum(_align(e.info[g].nbytes(dims)) for g in planned_bases(e))


def build_planned(build: Callable[[Optional[Dict[int, Tuple[int, int]]]], Tuple["ProgramBuilder", Emitter]]
                  ) -> Tuple["ProgramBuilder", Emitter, MemoryPlan]:
    """Two passes of ``build(plan)``: the first gives the instructions the plan is made from
    (at the emitter's bounds), the second writes the same program with every planned tensor
    pinned at its planned offset."""
    _, first = build(None)
    plan = plan_memory(first)
    pb, e = build(plan.offsets)
    if len(e.m.values) != len(first.m.values) or e.refs != first.refs:
        raise ExportError("the two passes built different programs")
    return pb, e, plan
