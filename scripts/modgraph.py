#!/usr/bin/env python3
"""The module graph of src/ from its `use` lines and inline `crate::`/`super::` paths.

    scripts/modgraph.py [--dot] [--edges]

A node is one source file (a module). An edge A -> B means A names an item that B
defines: a path through a `pub use` re-export is followed to the file that defines the
item, so a folder's mod.rs re-exporting its children is no edge of its own. Test
modules (`#[cfg(test)] mod tests { ... }`), comments and `mod x;` declarations are no
edges. Prints the edges between top-level modules (crate::X), then every cycle (a
strongly connected component of more than one file, or of top-level modules), and
exits 1 if there is one.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
ITEM = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:const\s+fn|async\s+fn|fn|struct|enum|trait|type|const|static|union|mod)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
MACRO = re.compile(r"^\s*macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)", re.M)
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", re.M)
USE = re.compile(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
INLINE = re.compile(r"(?<![A-Za-z0-9_:])((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def strip(text):
    """Drops comments, string literals and the test modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def load():
    """Module path (tuple) -> (file, stripped text)."""
    mods = {}

    def walk(path, modpath):
        raw = open(path).read()
        text = strip(raw)
        mods[modpath] = (os.path.relpath(path, os.path.join(ROOT, "..")), text)
        base = os.path.dirname(path)
        own = os.path.basename(path) in ("mod.rs", "lib.rs", "main.rs")
        for m in MOD_DECL.finditer(text):
            name = m.group(1)
            # a `#[path = "..."]` attribute right before the declaration
            pre = text[: m.start()].rstrip().splitlines()[-1:] or [""]
            pm = re.search(r'#\[path\s*=\s*""\]', pre[0])
            rpm = re.search(r'#\[path\s*=\s*"([^"]+)"\]', raw[: raw.find("mod " + name)].rstrip().splitlines()[-1] if ("mod " + name) in raw else "")
            d = base if own else os.path.join(base, os.path.splitext(os.path.basename(path))[0])
            cands = [os.path.join(d, name + ".rs"), os.path.join(d, name, "mod.rs")]
            if rpm:
                cands = [os.path.join(base, rpm.group(1))]
            for c in cands:
                if os.path.exists(c):
                    walk(c, modpath + (name,))
                    break

    walk(os.path.join(ROOT, "lib.rs"), ())
    return mods


def expand(tree):
    """`a::{b, c::{d, e as f}}` -> [[a, b], [a, c, d], [a, c, e]]."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += (ch == "{") - (ch == "}")
            cur += ch
        if cur:
            parts.append(cur)
        return parts

    def rec(s):
        s = re.sub(r"as\w+$", "", s) if "::" not in s.split("as")[-1] else s
        s = re.sub(r"(?<=[a-zA-Z0-9_])as[A-Za-z_][A-Za-z0-9_]*$", "", s) if re.search(r"\bas\b", s) else s
        if "{" in s:
            head, rest = s.split("{", 1)
            rest = rest[: rest.rfind("}")]
            head = [p for p in head.split("::") if p]
            return [head + r for part in split_top(rest) for r in rec(part)]
        return [[p for p in s.split("::") if p]]

    return rec(tree)


def main():
    mods = load()
    uses = {}  # modpath -> list of (is_pub, path list)
    items = {}
    for mp, (_, text) in mods.items():
        # `use a::b as c` -> keep a::b
        lst = []
        for m in USE.finditer(text):
            body = re.sub(r"\s+as\s+\w+", "", m.group(2))
            for p in expand(body):
                lst.append((bool(m.group(1)), p))
        uses[mp] = lst
        items[mp] = set(ITEM.findall(text)) | set(MACRO.findall(text))

    def absolute(mp, path):
        """A use path in module mp -> absolute segments, or None if outside the crate."""
        if not path:
            return None
        if path[0] == "crate":
            return list(path[1:])
        if path[0] == "self":
            return list(mp) + list(path[1:])
        if path[0] == "super":
            up = list(mp)
            rest = list(path)
            while rest and rest[0] == "super":
                up = up[:-1]
                rest = rest[1:]
            return up + rest
        if mp + (path[0],) in mods:  # a child module, 2018-style relative path
            return list(mp) + list(path)
        return None

    def resolve(segs, seen=()):
        """Absolute segments -> the module that defines the named item."""
        mp = ()
        i = 0
        while i < len(segs) and mp + (segs[i],) in mods:
            mp = mp + (segs[i],)
            i += 1
        if i >= len(segs) or segs[i] == "*":
            return mp
        name = segs[i]
        if name in items[mp] or (mp, name) in seen:
            return mp
        for is_pub, p in uses[mp]:
            if p and (p[-1] == name or p[-1] == "*"):
                a = absolute(mp, p if p[-1] == name else p[:-1] + [name])
                if a is not None:
                    return resolve(a, seen + ((mp, name),))
        return mp

    edges = {}
    for mp, (_, text) in mods.items():
        targets = set()
        for is_pub, p in uses[mp]:
            if is_pub:
                continue  # a re-export: whoever names it through here depends on its source
            a = absolute(mp, p)
            if a is not None:
                targets.add(resolve(a))
        body = USE.sub("", text)
        for m in INLINE.finditer(body):
            a = absolute(mp, m.group(1).split("::"))
            if a is not None:
                targets.add(resolve(a))
        targets.discard(mp)
        # a module does not depend on its own ancestors' files only by being inside them
        edges[mp] = {t for t in targets if t != ()}

    name = lambda mp: "::".join(mp) or "crate"
    dot = "--dot" in sys.argv

    top = {}
    for a, ts in edges.items():
        for b in ts:
            if a and b and a[0] != b[0]:
                top.setdefault(a[0], set()).add(b[0])

    def sccs(graph):
        index, low, stack, on, out = {}, {}, [], set(), []
        counter = [0]
        nodes = set(graph) | {b for v in graph.values() for b in v}

        def strong(v):
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in graph.get(v, ()):
                if w not in index:
                    strong(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

        sys.setrecursionlimit(10000)
        for v in sorted(nodes):
            if v not in index:
                strong(v)
        return out

    if dot:
        print("digraph modules {")
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'  "{name(a)}" -> "{name(b)}";')
        print("}")
        return 0
    print("top-level modules (crate::X -> crate::Y):")
    for a in sorted(top):
        print(f"  {a:10} -> {', '.join(sorted(top[a]))}")
    if "--edges" in sys.argv:
        print("files:")
        for a in sorted(edges):
            if edges[a]:
                print(f"  {name(a):28} -> {', '.join(sorted(name(b) for b in edges[a]))}")
    cycles = sccs(top) + sccs(edges)
    if cycles:
        print("cycles:")
        for c in cycles:
            c = [x if isinstance(x, str) else name(x) for x in c]
            print("  " + " <-> ".join(c))
        return 1
    print(f"no cycles ({len(mods)} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
