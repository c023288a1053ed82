#!/usr/bin/python3
"""Writes cpp/formats/pt2/host/aten_schemas.inc: for every out-variant
kernel in cpp/kernels/tables/*.inc, the ATen schema of that out variant and of
each functional (or view) overload that lowers to it.

The PT2 front end reads a node's arguments by name against the functional
schema (filling in the defaults that torch.export leaves out), then passes
them in the out variant's order. Schemas come from the installed torch
(`/usr/bin/python3`, torch 1.13); overloads newer than it are listed in
NEWER below, copied from ATen's native_functions.yaml.

Run: /usr/bin/python3 tools/pt2/gen_aten_schemas.py
"""
import pathlib
import re

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "cpp/formats/pt2/host/aten_schemas.inc"

# Overloads that torch 1.13 does not have (native_functions.yaml of torch 2.x).
NEWER = [
    "aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "aten::_native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps, *, Tensor(d!) out, Tensor(e!) save_mean, Tensor(f!) save_invstd) -> (Tensor(d!), Tensor(e!), Tensor(f!))",
    "aten::_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "aten::_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd) -> (Tensor(a!), Tensor(b!), Tensor(c!))",
    "aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps, *, Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))",
    "aten::squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)",
    "aten::squeeze_copy.dims(Tensor self, int[] dim) -> Tensor",
    "aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
    "aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
    "aten::all.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
    "aten::round.decimals(Tensor self, *, int decimals) -> Tensor",
    "aten::round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)",
]

# Training-IR composites with no out variant of their own: the front end
# rewrites them (cpp/formats/pt2/host/pt2_rewrites.cpp) into ops that have
# one, reading their arguments by these schemas.
COMPOSITES = [
    "aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::batch_norm", "aten::dropout",
    "aten::reshape", "aten::flatten.using_ints", "aten::unflatten.int", "aten::contiguous",
    "aten::layer_norm", "aten::adaptive_avg_pool2d", "aten::max_pool2d", "aten::softmax.int",
    "aten::log_softmax.int", "aten::_native_batch_norm_legit_functional", "aten::_assert_tensor_metadata",
    "aten::scaled_dot_product_attention",
]
NEWER += [
    "aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)",
    "aten::unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)",
    "aten::_assert_tensor_metadata(Tensor a, SymInt[]? size=None, SymInt[]? stride=None, ScalarType? dtype=None, *, Device? device=None, Layout? layout=None) -> ()",
    "aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
]

# Out kernels that are not ATen's (ExecuTorch's own ops, prim ops) or that a
# PT2 graph never names.
SKIP_PREFIXES = ("executorch_prim::", "dim_order_ops::", "quantized_decomposed::")


def kernel_names():
    names = []
    for inc in sorted((ROOT / "cpp/kernels/tables").glob("*.inc")):
        names += re.findall(r'TRI_KERNEL\("([^"]+)"', inc.read_text())
    return names


def split(schema):
    """(qualified name with overload, argument text, return text)."""
    m = re.match(r"([\w:]+(?:\.\w+)?)\((.*)\) -> (.*)$", schema)
    return m.group(1), m.group(2), m.group(3)


def args_of(text):
    """The arguments without `*` and with mutability annotations removed, so
    that out and functional arguments compare."""
    return [re.sub(r"\([a-z]!?\)", "", a) for a in args_of_raw(text)]


# Tensor options of factory functions: an out variant has none, its out
# tensor carries them.
TENSOR_OPTIONS = ("dtype", "layout", "device", "pin_memory")


def functional_args(args, plain):
    names = {a.split(" ")[-1].split("=")[0] for a in plain}
    return [a for a in args if a.split(" ")[-1].split("=")[0] not in TENSOR_OPTIONS
            or a.split(" ")[-1].split("=")[0] in names]


def is_out_arg(arg):
    return "!)" in arg


def main():
    schemas = {}
    for s in [str(x) for x in torch._C._jit_get_all_schemas()] + NEWER:
        name, _, _ = split(s)
        schemas[name] = s
    by_base = {}
    for name in schemas:
        base = name.split(".")[0]
        by_base.setdefault(base, []).append(name)

    lines = []
    for kernel in kernel_names():
        if kernel.startswith(SKIP_PREFIXES) or kernel not in schemas:
            continue
        out_schema = schemas[kernel]
        _, out_args, _ = split(out_schema)
        raw = args_of_raw(out_args, keep_star=True)
        star = raw.index("*") if "*" in raw else len(raw)
        # Outs are the keyword-only mutable arguments; a mutable positional
        # one (a running mean) is an input the op updates.
        plain = [a for k, (a, r) in enumerate(zip(args_of(out_args), [x for x in raw if x != "*"]))
                 if not (is_out_arg(r) and k >= star)]
        base = kernel.split(".")[0]
        bases = [base]
        if base.endswith("_copy"):
            bases.append(base[: -len("_copy")])  # view ops lower to their copies
        for b in bases:
            for fname in sorted(by_base.get(b, [])):
                fs = schemas[fname]
                _, fargs, frets = split(fs)
                if fname == kernel or "!" in fs or "out" in fname.split(".")[-1] and fname != b:
                    continue
                if functional_args(args_of(fargs), plain) == plain:
                    lines.append((fs, out_schema))
    for name in COMPOSITES:
        lines.append((schemas[name], ""))
    # Out variants no functional overload lowers to (they mutate an input,
    # like _native_batch_norm_legit.out): rewrites call them by name.
    paired = {o for _, o in lines}
    for kernel in kernel_names():
        if not kernel.startswith(SKIP_PREFIXES) and kernel in schemas and schemas[kernel] not in paired:
            lines.append(("", schemas[kernel]))
    seen = set()
    body = []
    for f, o in lines:
        if (f or o) in seen:
            continue
        seen.add(f or o)
        body.append('{"%s",\n "%s"},' % (f.replace('"', '\\"'), o.replace('"', '\\"')))
    OUT.write_text(
        "// Generated by tools/pt2/gen_aten_schemas.py: do not edit.\n"
        "// {functional or view overload's ATen schema (\"\" for none), the out variant it\n"
        "// lowers to (\"\" for a composite that pt2_rewrites.cpp rewrites)}\n"
        + "\n".join(body) + "\n")
    print(f"{len(body)} functional overloads -> {OUT.relative_to(ROOT)}")


def args_of_raw(text, keep_star=False):
    """Top-level comma split of an argument list (brackets nest)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [a for a in out if keep_star or a != "*"]


if __name__ == "__main__":
    main()
